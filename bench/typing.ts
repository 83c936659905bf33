/**
 * What a person typing feels and what it costs: keystrokes 125 ms apart (8 keys/s) in bursts, each sent as
 * VS Code sends it (didChange, then at once a pull of that version's diagnostics, bench/lsp.ts), timed from
 * the keystroke to the diagnostics of its own version. The pause after a burst lets a server that pushes after
 * a quiet spell (yaml-language-server: 200 ms) show its diagnostics too, so every server types the same script.
 * The server's CPU time per keystroke is read over whole windows of bursts, pauses included, because work a
 * server does between keystrokes (timers, GC) never shows in a latency. Also: open → first diagnostics, idle CPU.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildSync } from 'esbuild';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { checkSpecText } from '../core/endpointSpec/check';
import type { EditCase } from './fixtures';
import { typicalSpec } from './fixtures';
import { BenchLspClient, percentile } from './lsp';

export const KEY_INTERVAL_MS = 125;
/** Keys per burst: odd, so that in-place bursts end alternately on the invalid and the valid text; a typed line is 7 keys. */
export const KEYS_PER_BURST = 7;
/** After a burst's last diagnostics: a person reading what they typed. */
export const PAUSE_MS = 500;
/** The slowest server (yaml-language-server on 2,000 documents) needs seconds per check on a loaded machine. */
const DIAGNOSTICS_TIMEOUT_MS = 60_000;

export interface KeystrokeFigures {
  keystrokes: number;
  /** Keystrokes whose own version's diagnostics arrived while still current (the others were never shown). */
  answered: number;
  p50: number;
  p95: number;
  max: number;
  cpuMs: number;
  cpuMsPerKeystroke: number;
  /** CPU per keystroke of each window, in the order they were typed. */
  windowCpuMsPerKeystroke: number[];
  /** Pulls sent, pulls a newer keystroke cancelled, pulls that failed otherwise (push servers: 0). */
  pulls: number;
  cancels: number;
  pullErrors: number;
  /** Problems shown for the last answered invalid and valid keystroke: the check ran, and saw the edit. */
  problems: { invalid?: number; valid?: number };
  /** Answers held to a check of their text in the benchmark's process (ours only: one per burst), and how many differed. */
  verified: number;
  differing: number;
  /** Files read, listed or statted while measured (a server started with bench/countFsCalls.cjs; others: none). */
  fsCalls: string[];
}

interface Window {
  keystrokes: number;
  latencies: number[];
  cpuMs: number;
  fsCalls: string[];
}

let floorBundle: string | undefined;

/** bench/floorServer.ts bundled and minified as dist/server-main.js is, into a temp folder (once per run). */
function buildFloorServer(): string {
  if (floorBundle !== undefined) return floorBundle;
  const outfile = join(mkdtempSync(join(tmpdir(), 'es-bench-floor-')), 'floor-server.js');
  buildSync({
    entryPoints: [join(__dirname, 'floorServer.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    minify: true,
    mainFields: ['module', 'main'],
    logLevel: 'warning',
  });
  return (floorBundle = outfile);
}

export function startFloorServer(): Promise<BenchLspClient> {
  return BenchLspClient.start({ args: [buildFloorServer(), '--stdio'] });
}

/**
 * One server typing one file. `open` types warm-up bursts unmeasured (every server then runs its optimized
 * code); each `measure` types a window of bursts with the server's CPU time read before and after. Sessions
 * of several servers take turns window by window, so a change in the machine's load falls on all alike.
 */
export class KeystrokeSession {
  private next = 0;
  private bursts = 0;
  private readonly windows: Window[] = [];
  private readonly pullsAtStart = { pulls: 0, cancels: 0, errors: 0 };
  private readonly problems: KeystrokeFigures['problems'] = {};
  /**
   * One answered keystroke per burst, its place in the burst going round, kept to be held to a check of its text once
   * typing is over (a check of the large file takes longer than the pause after a burst).
   */
  private readonly answers: { keystroke: number; diagnostics: readonly Diagnostic[] }[] = [];

  constructor(
    readonly client: BenchLspClient,
    private readonly uri: string,
    private readonly c: EditCase,
    /** Hold answers to `checkSpecText` of the same text (our server's: positions after moved text too). */
    private readonly verify = false,
  ) {}

  async open(warmUpBursts: number): Promise<void> {
    await this.client.open(this.uri, this.c.text);
    await this.client.diagnosticsOf(this.uri, 1, 0, DIAGNOSTICS_TIMEOUT_MS);
    for (let i = 0; i < warmUpBursts; i++) await this.burst();
    Object.assign(this.pullsAtStart, { pulls: this.client.pulls, cancels: this.client.cancels, errors: this.client.pullErrors.length });
  }

  async measure(bursts: number): Promise<void> {
    const cpuBefore = this.client.cpuMs();
    const fsCallsBefore = this.client.fsCalls.length;
    const window: Window = { keystrokes: 0, latencies: [], cpuMs: 0, fsCalls: [] };
    for (let i = 0; i < bursts; i++) {
      const typed = await this.burst();
      window.keystrokes += typed.keystrokes;
      window.latencies.push(...typed.latencies);
    }
    window.cpuMs = this.client.cpuMs() - cpuBefore;
    window.fsCalls = this.client.fsCalls.slice(fsCallsBefore);
    this.windows.push(window);
  }

  total(): KeystrokeFigures {
    const latencies = this.windows.flatMap((w) => w.latencies);
    const keystrokes = this.windows.reduce((sum, w) => sum + w.keystrokes, 0);
    const cpuMs = this.windows.reduce((sum, w) => sum + w.cpuMs, 0);
    return {
      keystrokes,
      answered: latencies.length,
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      max: percentile(latencies, 100),
      cpuMs,
      cpuMsPerKeystroke: cpuMs / keystrokes,
      windowCpuMsPerKeystroke: this.windows.map((w) => w.cpuMs / w.keystrokes),
      pulls: this.client.pulls - this.pullsAtStart.pulls,
      cancels: this.client.cancels - this.pullsAtStart.cancels,
      pullErrors: this.client.pullErrors.length - this.pullsAtStart.errors,
      problems: { ...this.problems },
      ...this.verified(),
      fsCalls: this.windows.flatMap((w) => w.fsCalls),
    };
  }

  /** Answers whose problems (code, message, range) are not those a check of their keystroke's text finds. */
  private verified(): { verified: number; differing: number } {
    if (!this.verify) return { verified: 0, differing: 0 };
    const key = (d: { code?: unknown; message: unknown; range: Diagnostic['range'] }): string =>
      `${String(d.code)} ${JSON.stringify(d.range)} ${JSON.stringify(d.message)}`;
    let differing = 0;
    for (const { keystroke, diagnostics } of this.answers) {
      const expected = checkSpecText(this.c.textAfter(keystroke + 1), 'yaml').diagnostics.map(key);
      if (diagnostics.map(key).join('\n') !== expected.join('\n')) differing++;
    }
    return { verified: this.answers.length, differing };
  }

  /** `KEYS_PER_BURST` keystrokes on schedule, the last one's diagnostics, the pause; then each keystroke's latency. */
  private async burst(): Promise<{ keystrokes: number; latencies: number[] }> {
    const from = this.client.shown.length;
    const sent: { version: number; sentAt: number; keystroke: number }[] = [];
    const start = performance.now();
    for (let k = 0; k < KEYS_PER_BURST; k++) {
      // On the clock, not after the previous key's answer: a person does not wait for the squiggles.
      const due = start + k * KEY_INTERVAL_MS - performance.now();
      if (due > 0) await sleep(due);
      const keystroke = this.next++;
      const { range, text } = this.c.keystroke(keystroke);
      sent.push({ ...(await this.client.change(this.uri, range, text)), keystroke });
    }
    await this.client.diagnosticsOf(this.uri, sent[sent.length - 1].version, from, DIAGNOSTICS_TIMEOUT_MS);
    await sleep(PAUSE_MS);
    const current = this.client.shown.slice(from).filter((s) => s.uri === this.uri && s.latest);
    const latencies = sent.flatMap(({ version, sentAt, keystroke }) => {
      const answer = current.find((s) => s.version === version);
      if (!answer) return [];
      this.problems[this.c.invalidAfter(keystroke) ? 'invalid' : 'valid'] = answer.diagnostics.length;
      if (this.verify && keystroke % KEYS_PER_BURST === this.bursts % KEYS_PER_BURST)
        this.answers.push({ keystroke, diagnostics: answer.diagnostics });
      return [answer.at - sentAt];
    });
    this.bursts++;
    return { keystrokes: sent.length, latencies };
  }
}

/** One server of a case: how it starts, the file it types into, and whether its answers are held to a check of their text. */
export interface Typist {
  readonly name: string;
  readonly start: () => Promise<BenchLspClient>;
  readonly uri: string;
  readonly verify: boolean;
}

/** Warm-up bursts, then rounds in which the servers take turns, a window of bursts each. */
export interface TypingPlan {
  readonly warmUpBursts: number;
  readonly rounds: number;
  readonly burstsPerRound: number;
}

/** One case typed by each of `typists`, taking turns window by window; each one's figures by name. */
export async function typeTogether(typists: readonly Typist[], c: EditCase, plan: TypingPlan): Promise<Record<string, KeystrokeFigures>> {
  const sessions: KeystrokeSession[] = [];
  try {
    for (const t of typists) sessions.push(new KeystrokeSession(await t.start(), t.uri, c, t.verify));
    for (const s of sessions) await s.open(plan.warmUpBursts);
    for (let round = 0; round < plan.rounds; round++) for (const s of sessions) await s.measure(plan.burstsPerRound);
  } finally {
    await Promise.all(sessions.map((s) => s.client.stop()));
  }
  return Object.fromEntries(typists.map((t, i) => [t.name, sessions[i].total()]));
}

/** didOpen → first diagnostics of `text` at a new uri (with the pull VS Code sends after the open). */
export async function openLatency(client: BenchLspClient, uri: string, text: string): Promise<number> {
  const from = client.shown.length;
  const sent = performance.now();
  await client.open(uri, text);
  return (await client.diagnosticsOf(uri, 1, from)).at - sent;
}

export interface OpenFigures {
  /** didOpen → diagnostics, the first open of a new process. */
  cold: number;
  /** Spawn → diagnostics of that first open. */
  coldFromSpawn: number;
  /** didOpen → diagnostics, warm server, after 10 unmeasured opens. */
  warm: number[];
}

/** A new server process opens the typical spec, then 10 more unmeasured and 20 measured, each a new file. */
export async function openFigures(start: () => Promise<BenchLspClient>, keepAliveMs = 0): Promise<OpenFigures> {
  const spawned = performance.now();
  const client = await start();
  try {
    const cold = await openLatency(client, 'file:///bench/open/cold.endpoint.yaml', typicalSpec());
    const coldFromSpawn = performance.now() - spawned;
    for (let i = 0; i < 10; i++)
      await openLatency(client, `file:///bench/open/warm-up-${String(i)}.endpoint.yaml`, typicalSpec(`up-${String(i)}`));
    const warm: number[] = [];
    for (let i = 0; i < 20; i++)
      warm.push(await openLatency(client, `file:///bench/open/warm-${String(i)}.endpoint.yaml`, typicalSpec(`open-${String(i)}`)));
    // Our server writes its code cache a few seconds in (server/node/load.ts): a caller can let it.
    const left = keepAliveMs - (performance.now() - spawned);
    if (left > 0) await sleep(left);
    return { cold, coldFromSpawn, warm };
  } finally {
    await client.stop();
  }
}

/**
 * CPU time of the server with `specs` documents open and no message from the client, over two windows of
 * `seconds`: the first holds V8's one-off clean-up after the burst of opens (its memory reducer runs a full GC
 * once the process goes quiet), the second shows whether anything polls.
 */
export async function idleCpu(
  client: BenchLspClient,
  specs: number,
  seconds: number,
): Promise<{ afterOpenCpuMs: number; steadyCpuMs: number; seconds: number }> {
  // Start-up work ends first: the server writes its code cache 4 s in (server/node/load.ts).
  await sleep(5000);
  for (let i = 0; i < specs; i++)
    await openLatency(client, `file:///bench/idle/spec-${String(i)}.endpoint.yaml`, typicalSpec(`idle-${String(i)}`));
  const window = async (): Promise<number> => {
    const before = client.cpuMs();
    await sleep(seconds * 1000);
    return client.cpuMs() - before;
  };
  const afterOpenCpuMs = await window();
  return { afterOpenCpuMs, steadyCpuMs: await window(), seconds };
}
