/**
 * `endpoint-studio emulator`: runs the emulator in the foreground until SIGINT/SIGTERM, or, with
 * `--exit-with-parent`, until the process that started it is gone: its end of standard input closes
 * (which the system does even when that process is killed outright) or this process is re-parented.
 * Resolves with the exit code (0 after a clean stop, 2 for bad flags, 1 when it cannot start).
 */
import { readCommandLine, usageError, type CommandLine } from './args';
import type { CliIo } from './inputs';
import { DEFAULT_DEV_API_KEY, startEmulator, type EmulatorOptions, type RunningEmulator } from '../emulator/index';

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
  --exit-with-parent  stop when standard input closes or the parent process is gone
  --demo              seed demo endpoints with 30 days of billing, a live worker and jobs
  -h, --help          show this help
`;

const COMMAND_LINE = {
  command: 'emulator',
  usage: USAGE,
  options: {
    port: { type: 'string' },
    'jobs-port': { type: 'string' },
    host: { type: 'string' },
    'api-key': { type: 'string' },
    'read-only-key': { type: 'string' },
    state: { type: 'string' },
    'time-scale': { type: 'string' },
    'rate-limit': { type: 'string' },
    seed: { type: 'string' },
    'no-admin': { type: 'boolean', default: false },
    'exit-with-parent': { type: 'boolean', default: false },
    demo: { type: 'boolean', default: false },
  },
  allowPositionals: false,
} as const;

export async function runEmulatorCli(
  argv: string[],
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  const io: CliIo = { out: (text) => out.write(text), err: (text) => err.write(text) };
  const line = readCommandLine(COMMAND_LINE, argv, io);
  if (typeof line === 'number') return line;
  const options = emulatorOptions(line.values);
  if (typeof options === 'string') return usageError(COMMAND_LINE, io, options);
  let emulator: RunningEmulator;
  try {
    emulator = await startEmulator(options);
  } catch (error) {
    err.write(`endpoint-studio emulator: could not start: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  announce(emulator, options, out);
  const parent = line.values['exit-with-parent'] ? watchParent() : undefined;
  await (parent ? Promise.race([stopSignal(), parent.gone]) : stopSignal());
  parent?.stop();
  await emulator.close();
  out.write('Emulator stopped.\n');
  return 0;
}

/** The emulator's options from its flags, or what is wrong with the first flag that cannot be used. */
function emulatorOptions(flags: CommandLine<typeof COMMAND_LINE.options, false>['values']): EmulatorOptions | string {
  const problems: string[] = [];
  const options: EmulatorOptions = {
    port: portNumber('--port', flags.port, problems),
    jobsPort: portNumber('--jobs-port', flags['jobs-port'], problems),
    host: nonEmpty('--host', flags.host, problems),
    apiKey: nonEmpty('--api-key', flags['api-key'], problems),
    readOnlyKey: nonEmpty('--read-only-key', flags['read-only-key'], problems),
    statePath: nonEmpty('--state', flags.state, problems),
    timeScale: timeScale(flags['time-scale'], problems),
    rateLimits: rateLimits(flags['rate-limit'], problems),
    seed: seed(flags.seed, problems),
    adminEnabled: flags['no-admin'] ? false : undefined,
    demo: flags.demo ? true : undefined,
  };
  if (options.apiKey !== undefined && options.apiKey === options.readOnlyKey) problems.push('--read-only-key must differ from --api-key');
  return problems.length > 0 ? problems[0] : options;
}

function portNumber(flag: string, value: string | undefined, problems: string[]): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value) && Number(value) <= 65535) return Number(value);
  problems.push(`${flag} needs a port number from 0 to 65535`);
  return undefined;
}

function nonEmpty(flag: string, value: string | undefined, problems: string[]): string | undefined {
  if (value === '') problems.push(`${flag} needs a value`);
  return value || undefined;
}

function timeScale(value: string | undefined, problems: string[]): number | undefined {
  if (value === undefined) return undefined;
  const scale = Number(value);
  if (scale > 0 && Number.isFinite(scale)) return scale;
  problems.push('--time-scale needs a positive number');
  return undefined;
}

function seed(value: string | undefined, problems: string[]): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  problems.push('--seed needs a whole number');
  return undefined;
}

function rateLimits(value: string | undefined, problems: string[]): EmulatorOptions['rateLimits'] {
  if (value === undefined) return undefined;
  const [minute, hour, day, ...rest] = value.split(',').map(Number);
  if (rest.length === 0 && [minute, hour, day].every((n) => Number.isInteger(n) && n >= 1)) return { minute, hour, day };
  problems.push('--rate-limit needs three positive whole numbers: minute,hour,day');
  return undefined;
}

/** Where to reach it, and the environment a client needs, ready to paste. */
function announce(emulator: RunningEmulator, options: EmulatorOptions, out: NodeJS.WritableStream): void {
  const devKey = options.apiKey === undefined;
  out.write(`Emulator of REST API v2 listening on ${emulator.restUrl}\n`);
  out.write(`Job API listening on ${emulator.jobsUrl}\n`);
  if (devKey) out.write(`API key (development key): ${DEFAULT_DEV_API_KEY}\n`);
  if (options.statePath) out.write(`State file: ${options.statePath}\n`);
  out.write(
    `Try: ENDPOINT_STUDIO_API_URL=${emulator.restUrl} ENDPOINT_STUDIO_JOBS_URL=${emulator.jobsUrl}${devKey ? ` ENDPOINT_STUDIO_API_KEY=${DEFAULT_DEV_API_KEY}` : ''}\n`,
  );
  out.write('Press Ctrl+C to stop.\n');
}

/** How often the parent's pid is checked, for a parent whose pipe outlives it (it handed stdin on). */
const PARENT_CHECK_MS = 1000;

/**
 * `gone` resolves once the parent is gone: standard input ends or closes (the parent held the other
 * end), or the parent pid changes (the system re-parents an orphan). `stop` lets go of standard
 * input, which would otherwise keep the process alive after a stop by signal.
 */
function watchParent(): { gone: Promise<void>; stop(): void } {
  const parent = process.ppid;
  const stdin = process.stdin;
  let onGone = (): void => undefined;
  const gone = new Promise<void>((resolve) => {
    onGone = resolve;
  });
  const timer = setInterval(() => {
    if (process.ppid !== parent) onGone();
  }, PARENT_CHECK_MS);
  timer.unref();
  const stop = (): void => {
    clearInterval(timer);
    stdin.off('end', onGone).off('close', onGone).off('error', onGone);
    stdin.destroy();
  };
  stdin.on('end', onGone).on('close', onGone).on('error', onGone);
  // Read (and drop) whatever comes, so the end of the stream is seen.
  stdin.resume();
  return { gone, stop };
}

/** Resolves at the first SIGINT or SIGTERM. */
function stopSignal(): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
