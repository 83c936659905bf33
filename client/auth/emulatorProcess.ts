/**
 * The local emulator for "Use Local Emulator", run as `dist/cli.js emulator` in a child process on
 * the extension's own Node rather than inside the extension host: the extension bundle carries no
 * emulator code, and a busy emulator never stalls the editor. Free of `vscode`, so it is tested on
 * its own. The address and key are read from the lines the emulator prints when it listens. The
 * child holds a pipe to this process on its standard input and exits when it closes, so it does not
 * outlive an extension host that is killed without a chance to stop it.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface EmulatorAddress {
  readonly restUrl: string;
  readonly jobsUrl: string;
  readonly apiKey: string;
}

const REST_LINE = /^Emulator of REST API v2 listening on (\S+)$/;
const JOBS_LINE = /^Job API listening on (\S+)$/;
const KEY_LINE = /^API key \(development key\): (\S+)$/;
const START_TIMEOUT_MS = 60_000;

export class EmulatorProcess {
  private child: ChildProcess | undefined;
  private address: Promise<EmulatorAddress> | undefined;

  /** `cliPath` is dist/cli.js; `log` receives the emulator's output, one line at a time. */
  constructor(
    private readonly cliPath: string,
    private readonly log: (line: string) => void,
  ) {}

  /** The running emulator's address, starting it first when it is not running. */
  start(): Promise<EmulatorAddress> {
    this.address ??= this.spawnEmulator().catch((error: unknown) => {
      this.address = undefined;
      throw error;
    });
    return this.address;
  }

  get running(): boolean {
    return this.child !== undefined;
  }

  /** Stops the emulator; resolves once the process has exited. */
  stop(): Promise<void> {
    const child = this.child;
    if (!child) return Promise.resolve();
    return new Promise((resolve) => {
      child.once('exit', () => {
        resolve();
      });
      child.kill('SIGTERM');
    });
  }

  private spawnEmulator(): Promise<EmulatorAddress> {
    return new Promise((resolve, reject) => {
      // In the editor, process.execPath is its Electron binary, which runs as plain Node with this variable.
      const child = spawn(process.execPath, [this.cliPath, 'emulator', '--port', '0', '--jobs-port', '0', '--exit-with-parent', '--demo'], {
        env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      // Nothing is written to it: the pipe only tells the child this process is alive.
      child.stdin.on('error', () => undefined);
      this.child = child;
      const found: { restUrl?: string; jobsUrl?: string; apiKey?: string } = {};
      let settled = false;
      const settle = (error?: Error): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (error) {
          child.kill('SIGTERM');
          reject(error);
        } else if (found.restUrl && found.jobsUrl && found.apiKey) {
          resolve({ restUrl: found.restUrl, jobsUrl: found.jobsUrl, apiKey: found.apiKey });
        }
      };
      const timer = setTimeout(() => {
        settle(new Error(`the emulator did not start listening within ${START_TIMEOUT_MS / 1000}s`));
      }, START_TIMEOUT_MS);
      let stderr = '';
      onLines(child.stdout, (line) => {
        this.log(line);
        found.restUrl ??= REST_LINE.exec(line)?.[1];
        found.jobsUrl ??= JOBS_LINE.exec(line)?.[1];
        found.apiKey ??= KEY_LINE.exec(line)?.[1];
        if (found.restUrl && found.jobsUrl && found.apiKey) settle();
      });
      onLines(child.stderr, (line) => {
        stderr = `${stderr}${line}\n`.slice(-2000);
        this.log(line);
      });
      child.once('error', (error) => {
        settle(error);
      });
      child.once('exit', (code, signal) => {
        this.child = undefined;
        this.address = undefined;
        settle(
          new Error(`the emulator exited (${signal ?? `code ${String(code)}`}) before it listened${stderr ? `: ${stderr.trim()}` : ''}`),
        );
      });
    });
  }
}

function onLines(stream: NodeJS.ReadableStream | null, onLine: (line: string) => void): void {
  if (!stream) return;
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const lines = `${pending}${chunk}`.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) onLine(line.trimEnd());
  });
}
