/**
 * The live catalog: the server reads it from the emulator over HTTP, checks and completes with it,
 * caches it on disk, and answers from the cache (saying how old) when the service is unreachable.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diagnosticText, LspClient } from '../support/lspClient';
import { startEmulator, DEFAULT_DEV_API_KEY, type RunningEmulator } from '../../emulator/index';

const SPEC = 'name: demo\ntype: QUEUE\nimage: x\ngpu:\n  pools: [ADA_42]\nscaling:\n  type: QUEUE_DELAY\n  queueDelay: 4\n';

describe('live catalog from the service', () => {
  let emulator: RunningEmulator;
  let cacheDir: string;
  before(async () => {
    emulator = await startEmulator({ port: 0, jobsPort: 0, newerServiceFields: { gpuPriority: { type: 'string' } } });
    cacheDir = mkdtempSync(join(tmpdir(), 'es-catalog-cache-'));
  });
  after(async () => {
    await emulator.close();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  const serverEnv = (apiUrl: string) => ({
    ENDPOINT_STUDIO_API_URL: apiUrl,
    ENDPOINT_STUDIO_API_KEY: DEFAULT_DEV_API_KEY,
    ENDPOINT_STUDIO_CACHE_DIR: cacheDir,
  });

  /** The cache files in `cacheDir`, once there is one or 5 s have passed (a `.tmp` file on its way does not count). */
  const cacheFilesSoon = async (): Promise<string[]> => {
    const files = () => readdirSync(cacheDir).filter((file) => /^catalog-[0-9a-f]{16}\.json$/.test(file));
    for (const deadline = Date.now() + 5000; files().length === 0 && Date.now() < deadline;)
      await new Promise((resolve) => setTimeout(resolve, 20));
    return files();
  };

  it('checks, completes and caches with the catalog it fetched', async () => {
    const client = await LspClient.start({ pull: true, env: serverEnv(emulator.restUrl) });
    try {
      const status = await client.catalogStatus((s) => s.state === 'live');
      assert.ok(status.fetchedAt);
      const uri = 'file:///live/a.endpoint.yaml';
      await client.open(uri, SPEC);
      const diagnostics = await client.pulledDiagnostics(uri);
      assert.deepEqual(
        diagnostics.map((d) => d.code),
        ['pool-unknown'],
      );
      assert.match(diagnosticText(diagnostics[0]), /did you mean ADA_24\?/);
      const items = await client.completion(uri, 4, 11);
      assert.ok(
        items.some((i) => i.label === 'HOPPER_141' && /no serverless stock/.test(i.detail ?? '')),
        items.map((i) => i.label).join(', '),
      );
      await client.change(uri, `${SPEC.replace('ADA_42', 'ADA_24')}gpuPriority: cost\n`);
      assert.deepEqual(
        (await client.pulledDiagnostics(uri)).map((d) => [d.code, d.severity]),
        [['newer-service-property', 2]],
      );
      // Written after the catalog is applied, through a temporary file renamed over it: the next test reads it.
      assert.equal((await cacheFilesSoon()).length, 1);
    } finally {
      await client.stop();
    }
  });

  it('answers from the cache when the service is unreachable, and says so', async () => {
    // Same URL as the cache was written for, but nothing listens there any more.
    const url = emulator.restUrl;
    await emulator.close();
    const client = await LspClient.start({ pull: true, env: serverEnv(url) });
    try {
      await client.catalogStatus((s) => s.state === 'cached' && s.error !== undefined);
      const uri = 'file:///live/offline.endpoint.yaml';
      await client.open(uri, SPEC);
      assert.deepEqual(
        (await client.pulledDiagnostics(uri)).map((d) => d.code),
        ['pool-unknown'],
      );
      const refreshed = await client.connection.sendRequest<{ state: string; error?: string }>('endpointStudio/refreshCatalog');
      assert.equal(refreshed.state, 'cached');
      assert.doesNotMatch(refreshed.error ?? '', new RegExp(DEFAULT_DEV_API_KEY));
    } finally {
      await client.stop();
      emulator = await startEmulator({ port: 0, jobsPort: 0 });
    }
  });

  it('skips catalog checks when there is no catalog at all', async () => {
    const client = await LspClient.start({
      pull: true,
      env: { ENDPOINT_STUDIO_CACHE_DIR: mkdtempSync(join(tmpdir(), 'es-empty-cache-')) },
    });
    try {
      const uri = 'file:///live/none.endpoint.yaml';
      await client.open(uri, SPEC);
      assert.deepEqual(await client.pulledDiagnostics(uri), []);
    } finally {
      await client.stop();
    }
  });
});
