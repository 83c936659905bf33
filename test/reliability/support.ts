/**
 * Shared by the reliability tests: the figures the issue asks for (counted as the tests run and
 * printed so they can be quoted), the emulator as a real child process, and a process's resident
 * memory read from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { REPO_ROOT } from '../support/lspClient';

export { REPO_ROOT };
export const CLI = join(REPO_ROOT, 'dist', 'cli.js');

/** Distinctive so that a leak anywhere is found by a plain substring search. */
export const SECRET_KEY = 'es_reliability_SECRET_9b7e4d1c55';

export interface Figures {
  /** Hostile or random inputs given to the parser, the server, the CLI or the emulator. */
  inputsTried: number;
  /** Faults caused on purpose: injected 5xx/429/latency/drops, cut connections, kills, restarts. */
  faultsInjected: number;
  /** Requests the emulator received while a 429 storm lasted, and the client calls made meanwhile. */
  stormRequests: number;
  stormCalls: number;
  linesLost: number;
  linesRepeated: number;
  endpointsLost: number;
  duplicates: number;
}

const tally: Figures = {
  inputsTried: 0,
  faultsInjected: 0,
  stormRequests: 0,
  stormCalls: 0,
  linesLost: 0,
  linesRepeated: 0,
  endpointsLost: 0,
  duplicates: 0,
};

export function count(figures: Partial<Figures>): void {
  for (const [name, value] of Object.entries(figures) as [keyof Figures, number][]) tally[name] += value;
}

const line = (f: Figures): string =>
  `inputs tried ${f.inputsTried}, faults injected ${f.faultsInjected}, 429-storm requests ${f.stormRequests} for ${f.stormCalls} calls, lines lost ${f.linesLost}, lines repeated ${f.linesRepeated}, endpoints lost ${f.endpointsLost}, duplicates ${f.duplicates}`;

/**
 * Prints this file's figures, and the sum over every reliability file this test run has finished
 * so far (test files run as separate processes of one runner, so they meet in a folder named after
 * the runner's pid). The last file to finish prints the total of the whole suite.
 */
export function reportFigures(testFile: string): void {
  const name = basename(testFile).replace(/\.test\.ts$/, '');
  console.log(`reliability [${name}]: ${line(tally)}`);
  const folder = join(tmpdir(), `es-reliability-figures-${process.ppid}`);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, `${name}.json`), JSON.stringify(tally));
  const expected = readdirSync(__dirname).filter((f) => f.endsWith('.test.ts')).length;
  const done = readdirSync(folder).filter((f) => f.endsWith('.json'));
  const total = { ...tally };
  for (const key of Object.keys(total) as (keyof Figures)[]) total[key] = 0;
  for (const file of done) {
    // A file from an older run may lack a figure added since.
    const figures = JSON.parse(readFileSync(join(folder, file), 'utf8')) as Partial<Figures>;
    for (const key of Object.keys(total) as (keyof Figures)[]) total[key] += figures[key] ?? 0;
  }
  console.log(`reliability${done.length === expected ? '' : ` (${done.length} of ${expected} files so far)`}: ${line(total)}`);
}

/** Resident memory of a process in MB, from /proc (Linux); undefined where there is no /proc. */
export function residentMb(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

export interface EmulatorProcess {
  readonly child: ChildProcess;
  readonly restUrl: string;
  readonly jobsUrl: string;
  /** Everything it printed on stdout and stderr. */
  output(): string;
  /** SIGTERM and wait; the emulator writes its state and stops. */
  stop(): Promise<number | null>;
  /** SIGKILL: no chance to write anything. */
  kill(): Promise<void>;
}

/** The URL the emulator printed it listens on. */
function listeningOn(pattern: RegExp, output: string): string {
  const url = pattern.exec(output)?.[1];
  if (url === undefined) throw new Error(`the emulator did not say where it listens (${pattern.source}): ${output}`);
  return url;
}

/** `endpoint-studio emulator` from the bundled CLI, as a user runs it, on free ports. */
export async function spawnEmulator(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<EmulatorProcess> {
  const child = spawn(process.execPath, [CLI, 'emulator', '--port', '0', '--jobs-port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      resolve(code);
    }),
  );
  const deadline = Date.now() + 20_000;
  while (!/Job API listening on (\S+)/.test(text)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the emulator did not start: ${text}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    child,
    restUrl: listeningOn(/REST API v2 listening on (\S+)/, text),
    jobsUrl: listeningOn(/Job API listening on (\S+)/, text),
    output: () => text,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** A call with a deadline: the test fails with `what` instead of hanging. */
export async function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`${what}: no answer within ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
