/**
 * The typing regime: an edit, the server's debounce, its diagnostics, the next edit, as a person typing
 * produces. What counts is the CPU time of the server process per edit, set beside an empty server (the
 * floor, bench/floorServer.ts), because the work a server does while it sits idle between edits (timers,
 * GC, status or log traffic) never shows in a latency figure. Also: open → first diagnostics and idle CPU.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildSync } from 'esbuild';
import type { EditCase } from './fixtures';
import { typicalSpec } from './fixtures';
import { BenchLspClient, percentile } from './lsp';

/** Edits before the CPU reading starts, so every server runs its optimized code. */
export const TYPING_WARM_UP_EDITS = 100;

export interface TypingCpu {
  edits: number;
  cpuMs: number;
  cpuMsPerEdit: number;
  /** Minor page faults per edit: each is a fresh 4 KB page of the young generation (BenchLspClient.minorFaults). */
  faultsPerEdit: number;
  wallMsPerEdit: number;
  /** didChange → diagnostics, debounce included. */
  p50: number;
}

/** bench/floorServer.ts bundled and minified as dist/server-main.js is, into a temp folder. */
export function buildFloorServer(): string {
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
  return outfile;
}

export function startFloorServer(bundle: string, nodeArgs: readonly string[] = []): Promise<BenchLspClient> {
  return BenchLspClient.start({ args: [...nodeArgs, bundle, '--stdio'] });
}

/**
 * One server typing one file: `open` types `TYPING_WARM_UP_EDITS` edits unmeasured, then each `measure` types
 * a window of edits with the server's CPU time read before and after. Windows continue the edits' alternation,
 * so windows of two servers can take turns (the benchmark pairs the floor's and ours in rounds, so a change in
 * the machine's state between minutes falls on both alike). Each edit waits for its diagnostics; the next follows
 * at once.
 */
export class TypingSession {
  private next = 0;
  private readonly windows: TypingCpu[] = [];
  private readonly latencies: number[] = [];

  constructor(
    readonly client: BenchLspClient,
    private readonly uri: string,
    private readonly c: EditCase,
    private readonly budgetMs: number,
  ) {}

  async open(): Promise<void> {
    const from = this.client.publishedCount;
    await this.client.open(this.uri, this.c.text);
    await this.client.diagnosticsAfter(this.uri, from);
    const started = performance.now();
    for (let i = 0; i < TYPING_WARM_UP_EDITS && performance.now() - started < this.budgetMs; i++) await this.edit();
  }

  /** A window of `edits` edits, or fewer (at least 2) when the budget runs out. */
  async measure(edits: number): Promise<TypingCpu> {
    const times: number[] = [];
    const cpuBefore = this.client.cpuMs();
    const faultsBefore = this.client.minorFaults();
    const started = performance.now();
    for (let i = 0; i < edits; i++) {
      times.push(await this.edit());
      if (performance.now() - started > this.budgetMs && i >= 1) break;
    }
    const window = figures(
      times.length,
      this.client.cpuMs() - cpuBefore,
      this.client.minorFaults() - faultsBefore,
      performance.now() - started,
      times,
    );
    this.windows.push(window);
    this.latencies.push(...times);
    return window;
  }

  /** Every window so far as one figure. */
  total(): TypingCpu {
    const sum = (pick: (w: TypingCpu) => number): number => this.windows.reduce((total, w) => total + pick(w), 0);
    const edits = sum((w) => w.edits);
    return figures(
      edits,
      sum((w) => w.cpuMs),
      sum((w) => w.faultsPerEdit * w.edits),
      sum((w) => w.wallMsPerEdit * w.edits),
      this.latencies,
    );
  }

  private async edit(): Promise<number> {
    const { range, text } = this.c.edits[this.next++ % 2];
    return (await this.client.editAndWait(this.uri, range, text)).ms;
  }
}

function figures(edits: number, cpuMs: number, faults: number, wallMs: number, latencies: readonly number[]): TypingCpu {
  return {
    edits,
    cpuMs,
    cpuMsPerEdit: cpuMs / edits,
    faultsPerEdit: faults / edits,
    wallMsPerEdit: wallMs / edits,
    p50: percentile(latencies, 50),
  };
}

/** didOpen → first diagnostics of `text` at a new uri, in a server that is already up. */
export async function openLatency(client: BenchLspClient, uri: string, text: string): Promise<number> {
  const from = client.publishedCount;
  const sent = performance.now();
  await client.open(uri, text);
  await client.diagnosticsAfter(uri, from);
  return performance.now() - sent;
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
  await new Promise((r) => setTimeout(r, 5000));
  for (let i = 0; i < specs; i++) await openLatency(client, `file:///bench/idle/spec-${i}.endpoint.yaml`, typicalSpec(`idle-${i}`));
  const window = async (): Promise<number> => {
    const before = client.cpuMs();
    await new Promise((r) => setTimeout(r, seconds * 1000));
    return client.cpuMs() - before;
  };
  const afterOpenCpuMs = await window();
  return { afterOpenCpuMs, steadyCpuMs: await window(), seconds };
}
