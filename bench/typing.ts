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
 * Opens `c` at `uri`, types `TYPING_WARM_UP_EDITS` edits, then `edits` more (or fewer when `budgetMs` runs out)
 * with the server's CPU time read before and after. Each edit waits for its diagnostics; the next follows at once.
 */
export async function typingCpu(client: BenchLspClient, uri: string, c: EditCase, edits: number, budgetMs: number): Promise<TypingCpu> {
  const from = client.publishedCount;
  await client.open(uri, c.text);
  await client.diagnosticsAfter(uri, from);
  const warmUpStarted = performance.now();
  for (let i = 0; i < TYPING_WARM_UP_EDITS && performance.now() - warmUpStarted < budgetMs; i++)
    await client.editAndWait(uri, c.edits[i % 2].range, c.edits[i % 2].text);
  const times: number[] = [];
  const cpuBefore = client.cpuMs();
  const faultsBefore = client.minorFaults();
  const started = performance.now();
  for (let i = 0; i < edits; i++) {
    const { ms } = await client.editAndWait(uri, c.edits[i % 2].range, c.edits[i % 2].text);
    times.push(ms);
    if (performance.now() - started > budgetMs && i >= 1) break;
  }
  const wall = performance.now() - started;
  const cpuMs = client.cpuMs() - cpuBefore;
  const faultsPerEdit = (client.minorFaults() - faultsBefore) / times.length;
  return {
    edits: times.length,
    cpuMs,
    cpuMsPerEdit: cpuMs / times.length,
    faultsPerEdit,
    wallMsPerEdit: wall / times.length,
    p50: percentile(times, 50),
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
