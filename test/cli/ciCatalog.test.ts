/**
 * `validate` as a CI job runs it, through the built CLI against the emulator over HTTP: the live
 * catalog with a key, the same errors from an exported snapshot without one, a stale cache or no
 * network said in one line, and one JSON array whatever the files are.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { catalogCacheFile, type CatalogCache } from '../../core/catalog';
import { startEmulator } from '../../emulator';
import { TEST_KEY } from '../core/api/support';
import { REPO_ROOT } from '../support/lspClient';

const CLI = join(REPO_ROOT, 'dist', 'cli.js');

/** Only catalog rules can fault these: an unknown pool, a GPU type id as a pool, an exclusion outside the pools, an unknown template. */
const POOLS = `name: ci-catalog
type: QUEUE
image: myorg/worker:1.0
gpu:
  pools: [ADA_42, NVIDIA L4, AMPERE_24]
  excludedTypes: [NVIDIA A100 80GB PCIe]
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;
const TEMPLATE = `name: ci-template
type: QUEUE
templateId: tpl_missing_one
gpu:
  pools: [AMPERE_24]
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;
const CATALOG_CODES = ['pool-unknown', 'gpu-type-as-pool', 'excluded-type-outside-pools', 'template-unknown'];

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The built CLI in a child process, with only the environment given (so no key leaks in from outside). */
function cli(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => {
      resolve({ status, stdout, stderr });
    });
  });
}

interface Entry {
  file: string;
  code: string;
  severity: string;
  range: unknown;
  catalog: { source: string; fetchedAt?: string; ageSeconds?: number; stale?: boolean; reason?: string };
}

const entries = (run: Run): Entry[] => JSON.parse(run.stdout) as Entry[];
const problems = (list: Entry[]) => list.map((e) => [e.file.slice(e.file.lastIndexOf('/') + 1), e.code, JSON.stringify(e.range)]);

/** A URL nothing listens on: a port taken and given back. */
async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
}

describe('validate with the service catalog, for CI', () => {
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  let dir: string;
  let cacheDir: string;
  let specs: string[];
  const keyed = (apiUrl: string, cache = cacheDir) => ({
    ENDPOINT_STUDIO_API_URL: apiUrl,
    ENDPOINT_STUDIO_API_KEY: TEST_KEY,
    ENDPOINT_STUDIO_CACHE_DIR: cache,
  });

  before(async () => {
    emulator = await startEmulator({ port: 0, jobsPort: 0, apiKey: TEST_KEY, seed: 3 });
    dir = mkdtempSync(join(tmpdir(), 'es-ci-catalog-'));
    cacheDir = join(dir, 'cache');
    specs = [join(dir, 'pools.endpoint.yaml'), join(dir, 'template.endpoint.yaml')];
    writeFileSync(specs[0], POOLS);
    writeFileSync(specs[1], TEMPLATE);
  });
  after(async () => {
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('catches catalog errors against the live catalog with a key, and the same ones offline from an exported snapshot', async () => {
    const live = await cli(['validate', '--format', 'json', ...specs], keyed(emulator.restUrl));
    assert.equal(live.status, 1, live.stderr);
    assert.equal(live.stderr, '');
    const liveEntries = entries(live);
    assert.deepEqual(liveEntries.map((e) => e.code).sort(), [...CATALOG_CODES].sort());
    assert.ok(liveEntries.every((e) => e.catalog.source === 'live' && typeof e.catalog.fetchedAt === 'string'));

    const text = await cli(['validate', ...specs], keyed(emulator.restUrl));
    assert.equal(text.status, 1);
    assert.match(text.stderr, /^endpoint-studio validate: catalog: live, fetched \S+ \(just now\)\n$/);

    const snapshot = join(dir, 'catalog.json');
    const exported = await cli(['catalog', 'export', '--output', snapshot], keyed(emulator.restUrl));
    assert.equal(exported.status, 0, exported.stderr);
    const file = JSON.parse(readFileSync(snapshot, 'utf8')) as Record<string, unknown>;
    assert.equal(file.format, 'endpoint-studio-catalog');
    assert.equal(file.version, 1);
    assert.equal(file.apiUrl, emulator.restUrl);
    assert.ok(Array.isArray((file.pools as Record<string, unknown>).AMPERE_24));
    for (const list of ['gpuTypes', 'cpuFlavors', 'dataCenters', 'templates', 'networkVolumes', 'registries'])
      assert.ok(Array.isArray(file[list]), list);
    const l4 = (file.gpuTypes as { id: string; cudaVersions?: unknown; dataCenters?: unknown }[]).find((t) => t.id === 'NVIDIA L4');
    assert.ok(Array.isArray(l4?.cudaVersions) && Array.isArray(l4.dataCenters), 'GPU types carry CUDA versions and stock');

    // No key, no service: only the file.
    const offline = await cli(['validate', '--format', 'json', '--catalog', snapshot, ...specs], { ENDPOINT_STUDIO_CACHE_DIR: cacheDir });
    assert.equal(offline.status, 1, offline.stderr);
    const offlineEntries = entries(offline);
    assert.deepEqual(problems(offlineEntries), problems(liveEntries));
    assert.deepEqual(offlineEntries[0].catalog.source, 'snapshot');
    assert.equal(offlineEntries[0].catalog.fetchedAt, file.fetchedAt);

    const printed = await cli(['catalog', 'export'], keyed(emulator.restUrl));
    assert.equal(printed.status, 0);
    assert.equal((JSON.parse(printed.stdout) as { format: string }).format, 'endpoint-studio-catalog');
    const noKey = await cli(['catalog', 'export'], { ENDPOINT_STUDIO_API_URL: emulator.restUrl });
    assert.equal(noKey.status, 2);
    assert.match(noKey.stderr, /no API key/);
  });

  it('uses the cache when the service cannot be reached, and says it is stale and how old', async () => {
    const url = await deadUrl();
    const written = readdirCache(cacheDir, emulator.restUrl);
    const hoursAgo = new Date(Date.now() - 3 * 60 * 60 * 1000 - 60_000).toISOString();
    writeFileSync(catalogCacheFile(url, cacheDir), JSON.stringify({ ...written, apiUrl: url, fetchedAt: hoursAgo }));

    const stale = await cli(['validate', specs[0]], keyed(url));
    assert.equal(stale.status, 1, stale.stderr);
    assert.match(stale.stdout, /error pool-unknown/);
    const lines = stale.stderr.trim().split('\n');
    assert.equal(lines.length, 1, stale.stderr);
    assert.match(lines[0], /catalog: cached, fetched \S+ \(3 hours old\), stale: the service could not be reached/);
    assert.doesNotMatch(stale.stderr, new RegExp(TEST_KEY));

    const json = await cli(['validate', '--format', 'json', specs[0]], keyed(url));
    const first = entries(json)[0];
    assert.equal(first.catalog.source, 'cached');
    assert.equal(first.catalog.stale, true);
    assert.ok((first.catalog.ageSeconds ?? 0) >= 3 * 3600);

    // --offline asks nothing: the emulator's own cache answers, named as such.
    const offline = await cli(['validate', '--offline', specs[0]], keyed(emulator.restUrl));
    assert.equal(offline.status, 1);
    assert.match(offline.stderr, /catalog: cached, fetched \S+ \(just now\): --offline: the service was not asked/);
  });

  it('without network or cache: schema and rule checks only, and one line (or one entry per file) saying why', async () => {
    const url = await deadUrl();
    const empty = join(dir, 'empty-cache');
    const text = await cli(['validate', ...specs], keyed(url, empty));
    assert.equal(text.status, 0, text.stdout);
    assert.match(text.stdout, /2 files checked: 0 errors, 0 warnings/);
    const lines = text.stderr.trim().split('\n');
    assert.equal(lines.length, 1, text.stderr);
    assert.match(
      lines[0],
      /^endpoint-studio validate: catalog checks skipped \(schema and rule checks only\): the service could not be reached: .*; no cached catalog$/,
    );

    const json = await cli(['validate', '--format', 'json', ...specs], keyed(url, empty));
    assert.equal(json.status, 0);
    assert.deepEqual(
      entries(json).map((e) => [e.file, e.code, e.severity, e.catalog.source]),
      specs.map((file) => [file, 'catalog-skipped', 'information', 'none']),
    );

    const offline = await cli(['validate', '--offline', specs[0]], keyed(emulator.restUrl, empty));
    assert.match(offline.stderr, /catalog checks skipped .*--offline: the service was not asked; no cached catalog/);
  });

  it('prints one JSON array even for a file too large to check and one that cannot be read', async () => {
    const large = join(dir, 'large.endpoint.yaml');
    writeFileSync(large, POOLS);
    truncateSync(large, 11 * 1024 * 1024);
    // A spec name that is no regular file: a device (a folder would be searched for specs instead).
    const folder = join(dir, 'device.endpoint.yaml');
    symlinkSync('/dev/null', folder);
    const missing = join(dir, 'missing.endpoint.yaml');
    const result = await cli(['validate', '--format', 'json', '--offline', specs[1], large, folder, missing], keyed(emulator.restUrl));
    assert.equal(result.status, 2, 'an unreadable file keeps its documented exit status');
    const list = entries(result);
    assert.deepEqual(
      list.map((e) => [e.file.slice(dir.length + 1), e.code, e.severity]),
      [
        ['template.endpoint.yaml', 'template-unknown', 'error'],
        ['large.endpoint.yaml', 'file-too-large', 'error'],
        ['device.endpoint.yaml', 'file-unreadable', 'error'],
        ['missing.endpoint.yaml', 'file-unreadable', 'error'],
      ],
    );
    assert.match(result.stderr, /cannot read .*large\.endpoint\.yaml: larger than 10 MB/);
  });
});

function readdirCache(cacheDir: string, apiUrl: string): CatalogCache {
  return JSON.parse(readFileSync(catalogCacheFile(apiUrl, cacheDir), 'utf8')) as CatalogCache;
}
