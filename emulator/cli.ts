/**
 * `endpoint-studio emulator`: runs the emulator in the foreground until SIGINT/SIGTERM.
 * Resolves with the exit code (0 after a clean stop, 2 for bad flags, 1 when it cannot start).
 */
import { DEFAULT_DEV_API_KEY, startEmulator, type EmulatorOptions } from './index';

const USAGE = `Usage: endpoint-studio emulator [options]

Runs a local emulator of the serverless REST API v2 and of the job API.

Options:
  --port N            REST port (default 8787; 0 picks a free port)
  --jobs-port N       job API port (default 8788; 0 picks a free port)
  --host HOST         address to listen on (default 127.0.0.1)
  --api-key KEY       API key to accept (default: the development key, printed at start)
  --read-only-key KEY an extra valid key that cannot write (403 on writes)
  --state FILE        keep endpoints, templates, volumes and billing across restarts
  --time-scale N      run simulated time N times faster (default 1)
  --rate-limit M,H,D  requests per minute, hour and day (default 600,20000,200000)
  --seed N            deterministic identifiers
  --no-admin          disable the loopback-only /__emulator/faults admin path
  -h, --help          show this help
`;

type Parsed = { ok: true; options: EmulatorOptions; help: boolean } | { ok: false; message: string };

function parseArgs(argv: readonly string[]): Parsed {
  const options: EmulatorOptions = {};
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string | undefined => inline ?? argv[++i];
    const int = (name: string): number | string => {
      const v = value();
      return v !== undefined && /^\d+$/.test(v) && Number(v) <= 65535 ? Number(v) : `${name} needs a port number from 0 to 65535`;
    };
    switch (flag) {
      case '-h':
      case '--help':
        help = true;
        break;
      case '--port':
      case '--jobs-port': {
        const port = int(flag);
        if (typeof port === 'string') return { ok: false, message: port };
        if (flag === '--port') options.port = port;
        else options.jobsPort = port;
        break;
      }
      case '--host':
      case '--api-key':
      case '--read-only-key':
      case '--state': {
        const v = value();
        if (!v) return { ok: false, message: `${flag} needs a value` };
        if (flag === '--host') options.host = v;
        else if (flag === '--api-key') options.apiKey = v;
        else if (flag === '--read-only-key') options.readOnlyKey = v;
        else options.statePath = v;
        break;
      }
      case '--time-scale': {
        const v = Number(value());
        if (!(v > 0) || !Number.isFinite(v)) return { ok: false, message: '--time-scale needs a positive number' };
        options.timeScale = v;
        break;
      }
      case '--seed': {
        const v = value();
        if (!v || !/^\d+$/.test(v)) return { ok: false, message: '--seed needs a whole number' };
        options.seed = Number(v);
        break;
      }
      case '--rate-limit': {
        const parts = (value() ?? '').split(',').map(Number);
        if (parts.length !== 3 || parts.some((n) => !Number.isInteger(n) || n < 1))
          return { ok: false, message: '--rate-limit needs three positive whole numbers: minute,hour,day' };
        options.rateLimits = { minute: parts[0], hour: parts[1], day: parts[2] };
        break;
      }
      case '--no-admin':
        options.adminEnabled = false;
        break;
      default:
        return { ok: false, message: `unknown option: ${arg}` };
    }
  }
  if (options.apiKey !== undefined && options.apiKey === options.readOnlyKey)
    return { ok: false, message: '--read-only-key must differ from --api-key' };
  return { ok: true, options, help };
}

export async function runEmulatorCli(
  argv: string[],
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  const parsed = parseArgs(argv);
  if (!parsed.ok) {
    err.write(`endpoint-studio emulator: ${parsed.message}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.help) {
    out.write(USAGE);
    return 0;
  }
  let emulator;
  try {
    emulator = await startEmulator(parsed.options);
  } catch (error) {
    err.write(`endpoint-studio emulator: could not start: ${(error as Error).message}\n`);
    return 1;
  }
  out.write(`Emulator of REST API v2 listening on ${emulator.restUrl}\n`);
  out.write(`Job API listening on ${emulator.jobsUrl}\n`);
  if (parsed.options.apiKey === undefined) out.write(`API key (development key): ${DEFAULT_DEV_API_KEY}\n`);
  if (parsed.options.statePath) out.write(`State file: ${parsed.options.statePath}\n`);
  out.write(
    `Try: ENDPOINT_STUDIO_API_URL=${emulator.restUrl} ENDPOINT_STUDIO_JOBS_URL=${emulator.jobsUrl}${parsed.options.apiKey === undefined ? ` ENDPOINT_STUDIO_API_KEY=${DEFAULT_DEV_API_KEY}` : ''}\n`,
  );
  out.write('Press Ctrl+C to stop.\n');
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await emulator.close();
  out.write('Emulator stopped.\n');
  return 0;
}
