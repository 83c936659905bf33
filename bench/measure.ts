/**
 * The measurements of `npm run bench`, one function each. Every figure comes from real processes over
 * real transports: stdio LSP to dist/server.js and to yaml-language-server, the CLI as a child process,
 * the emulator over loopback HTTP.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { DEFAULT_DEV_API_KEY } from '../emulator/index';
import { COMPLETION_CASES, createBody, typicalSpec } from './fixtures';
import { BenchLspClient, percentile } from './lsp';

export const ROOT = resolve(__dirname, '..');
const SERVER = join(ROOT, 'dist/server.js');
const CLI = join(ROOT, 'dist/cli.js');
const YLS = join(ROOT, 'node_modules/yaml-language-server/bin/yaml-language-server');
export const SCHEMA = join(ROOT, 'schemas/endpoint-create.schema.json');
/** yaml-language-server waits this long after every change before it validates (yamlSettings.validationDelayMs; not configurable). */
export const YLS_VALIDATION_DELAY_MS = 200;

/** An environment with no key, URL or cache of the developer's, so nothing reaches a real service. */
export function isolatedEnv(cacheDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const dropped = new Set([
    'ENDPOINT_STUDIO_API_KEY',
    'RUNPOD_API_KEY',
    'ENDPOINT_STUDIO_API_URL',
    'ENDPOINT_STUDIO_JOBS_URL',
    'ENDPOINT_STUDIO_CATALOG_FILE',
    'ENDPOINT_STUDIO_DEBOUNCE_MS',
  ]);
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !dropped.has(name)));
  return { ...env, ENDPOINT_STUDIO_CACHE_DIR: cacheDir, ...extra };
}

/** bench/countFsCalls.cjs: preloaded, it reports each file the server reads, lists or stats. */
const COUNT_FS_CALLS = join(ROOT, 'bench/countFsCalls.cjs');

/**
 * dist/server.js as the extension runs it, on a cache folder of the benchmark's; reporting the files it touches
 * (`BenchLspClient.fsCalls`) when `countFsCalls` is set.
 */
export function startOurServer(cacheDir: string, extraEnv: Record<string, string> = {}, countFsCalls = false): Promise<BenchLspClient> {
  const preload = countFsCalls ? ['--require', COUNT_FS_CALLS] : [];
  return BenchLspClient.start({ args: [...preload, SERVER, '--stdio'], env: isolatedEnv(cacheDir, extraEnv) });
}

/** yaml-language-server with our create schema associated with `*.endpoint.yaml`. */
export async function startYls(): Promise<BenchLspClient> {
  const yaml = {
    validate: true,
    hover: false,
    completion: false,
    format: { enable: false },
    schemaStore: { enable: false },
    schemas: { [pathToFileURL(SCHEMA).href]: '*.endpoint.yaml' },
  };
  const settings: Record<string, unknown> = { yaml, http: { proxy: '', proxyStrictSSL: false }, '[yaml]': {}, editor: { tabSize: 2 } };
  const client = await BenchLspClient.start({
    args: [YLS, '--stdio'],
    env: process.env,
    configuration: (section) => (section ? (settings[section] ?? null) : settings),
  });
  await client.connection.sendNotification('workspace/didChangeConfiguration', { settings });
  return client;
}

/** Diagnostics each server shows on opening each fixture. */
export async function fixtureCounts(
  ours: BenchLspClient,
  yls: BenchLspClient,
  files: readonly string[],
): Promise<{ fixture: string; ours: number; yls: number }[]> {
  const rows: { fixture: string; ours: number; yls: number }[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const uri = pathToFileURL(file).href;
    await Promise.all([ours.open(uri, text), yls.open(uri, text)]);
    const [a, b] = await Promise.all([ours.diagnosticsOf(uri), yls.diagnosticsOf(uri)]);
    rows.push({ fixture: file.slice(file.indexOf('rules/') + 'rules/'.length), ours: a.diagnostics.length, yls: b.diagnostics.length });
  }
  return rows;
}

export interface CompletionResult {
  name: string;
  requests: number;
  items: number;
  p50: number;
  p99: number;
}

/** Completion latency with the catalog read live from the emulator (its own process) and warm. */
export async function completionLatency(requests: number): Promise<{ results: CompletionResult[]; catalogMs: number }> {
  const emulator = await spawnEmulator();
  const cacheDir = mkdtempSync(join(tmpdir(), 'es-bench-catalog-'));
  const started = performance.now();
  const client = await startOurServer(cacheDir, {
    ENDPOINT_STUDIO_API_URL: emulator.restUrl,
    ENDPOINT_STUDIO_API_KEY: DEFAULT_DEV_API_KEY,
  });
  try {
    await client.notification('endpointStudio/catalogStatus', (p) => (p as { state?: string }).state === 'live', 30000);
    const catalogMs = performance.now() - started;
    const results: CompletionResult[] = [];
    for (const c of COMPLETION_CASES) {
      const uri = `file:///bench/completion-${c.name.replace(/\W+/g, '-')}.endpoint.yaml`;
      await client.open(uri, c.text);
      await client.diagnosticsOf(uri);
      const request = async (): Promise<{ ms: number; items: number }> => {
        const t = performance.now();
        const result = await client.connection.sendRequest<unknown[] | { items: unknown[] } | null>('textDocument/completion', {
          textDocument: { uri },
          position: c.position,
        });
        return { ms: performance.now() - t, items: Array.isArray(result) ? result.length : (result?.items.length ?? 0) };
      };
      for (let i = 0; i < 20; i++) await request();
      const times: number[] = [];
      let items = 0;
      for (let i = 0; i < requests; i++) {
        const r = await request();
        times.push(r.ms);
        items = r.items;
      }
      results.push({ name: c.name, requests, items, p50: percentile(times, 50), p99: percentile(times, 99) });
    }
    return { results, catalogMs };
  } finally {
    await client.stop();
    emulator.stop();
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

/** One `endpoint-studio validate <target>` process: wall clock, exit code and what it printed on stderr. */
export function validateOnce(target: string, cacheDir: string): { seconds: number; status: number | null; stderr: string; stdout: string } {
  const t = performance.now();
  const r = spawnSync(process.execPath, [CLI, 'validate', target], {
    env: isolatedEnv(cacheDir),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return { seconds: (performance.now() - t) / 1000, status: r.status, stderr: r.stderr, stdout: r.stdout };
}

/** `endpoint-studio validate` over `count` spec files in a temp folder: one process, wall clock. */
export function cliThroughput(count: number): {
  files: number;
  seconds: number;
  filesPerSecond: number;
  oneFileSeconds: number;
  exitCode: number | null;
} {
  const dir = mkdtempSync(join(tmpdir(), 'es-bench-cli-'));
  try {
    mkdirSync(join(dir, 'one'));
    writeFileSync(join(dir, 'one', 'only.endpoint.yaml'), typicalSpec('only'));
    const specs = join(dir, 'specs');
    mkdirSync(specs);
    for (let i = 0; i < count; i++)
      writeFileSync(join(specs, `spec-${String(i).padStart(4, '0')}.endpoint.yaml`), typicalSpec(`worker-${i}`));
    const one = validateOnce(join(dir, 'one'), join(dir, 'cache'));
    const all = validateOnce(specs, join(dir, 'cache'));
    if (all.status !== 0) throw new Error(`validate exited ${all.status}: ${all.stderr.slice(0, 500)}`);
    return { files: count, seconds: all.seconds, filesPerSecond: count / all.seconds, oneFileSeconds: one.seconds, exitCode: all.status };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Server RSS right after initialize and after opening `count` specs (each waited for). */
export async function memory(count: number): Promise<{ idleBytes?: number; openBytes?: number; specs: number }> {
  const cacheDir = mkdtempSync(join(tmpdir(), 'es-bench-mem-'));
  const client = await startOurServer(cacheDir);
  try {
    await new Promise((r) => setTimeout(r, 200));
    const idleBytes = client.rssBytes();
    for (let i = 0; i < count; i++) {
      const uri = `file:///bench/memory/spec-${i}.endpoint.yaml`;
      await client.open(uri, typicalSpec(`worker-${String(i)}`, i % 2 ? '4' : '0'));
      await client.diagnosticsOf(uri);
    }
    await new Promise((r) => setTimeout(r, 300));
    return { idleBytes, openBytes: client.rssBytes(), specs: count };
  } finally {
    await client.stop();
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

/**
 * Spawn → initialize response of dist/server.js. The first start of a fresh install has no code cache; the
 * server writes it a few seconds in, so that start is kept running past then, and `runs` starts follow.
 */
export async function startTimes(runs: number): Promise<{ first: number; runs: number[] }> {
  const cacheDir = mkdtempSync(join(tmpdir(), 'es-bench-start-'));
  const times: number[] = [];
  try {
    const fresh = await startOurServer(cacheDir);
    const first = fresh.readyMs;
    await new Promise((r) => setTimeout(r, 5000));
    await fresh.stop();
    for (let i = 0; i < runs; i++) {
      const client = await startOurServer(cacheDir);
      times.push(client.readyMs);
      await client.stop();
    }
    return { first, runs: times };
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

/** The emulator as its own process (dist/cli.js emulator); `total` creates from `concurrency` clients over loopback. */
export async function emulatorThroughput(
  total: number,
  concurrency: number,
): Promise<{ creates: number; failed: number; perSecond: number; p50: number; p99: number }> {
  const emulator = await spawnEmulator();
  try {
    const restUrl = emulator.restUrl;
    const create = async (i: number): Promise<{ ms: number; ok: boolean }> => {
      const t = performance.now();
      const response = await fetch(`${restUrl}/v2/serverless`, {
        method: 'POST',
        headers: { authorization: `Bearer ${DEFAULT_DEV_API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(createBody(i)),
      });
      await response.arrayBuffer();
      return { ms: performance.now() - t, ok: response.status >= 200 && response.status < 300 };
    };
    for (let i = 0; i < concurrency; i++) await create(-1 - i);
    const times: number[] = [];
    let failed = 0;
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < total) {
          const r = await create(next++);
          times.push(r.ms);
          if (!r.ok) failed++;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    return { creates: times.length, failed, perSecond: times.length / seconds, p50: percentile(times, 50), p99: percentile(times, 99) };
  } finally {
    emulator.stop();
  }
}

/** The emulator as its own process, so its timers never run inside the measuring process. */
async function spawnEmulator(): Promise<{ restUrl: string; stop(): void }> {
  const child = spawn(
    process.execPath,
    [CLI, 'emulator', '--port', '0', '--jobs-port', '0', '--rate-limit', '100000000,100000000,100000000'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  try {
    const restUrl = await new Promise<string>((resolveUrl, reject) => {
      let out = '';
      const timer = setTimeout(() => {
        reject(new Error(`emulator did not start: ${out}`));
      }, 15000);
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(out);
        if (match) {
          clearTimeout(timer);
          resolveUrl(match[1]);
        }
      });
      child.once('exit', (code) => {
        reject(new Error(`emulator exited ${code}: ${out}`));
      });
    });
    return { restUrl, stop: () => child.kill() };
  } catch (error) {
    child.kill();
    throw error;
  }
}
