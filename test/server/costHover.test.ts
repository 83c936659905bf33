/**
 * The cost hover as an editor sees it: the language server over real stdio, reading its catalog
 * from the emulator over HTTP. Figures are the hand-computed ones of cost.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { MarkupContent } from 'vscode-languageserver-protocol';
import { DEFAULT_DEV_API_KEY, startEmulator, type RunningEmulator } from '../../emulator/index';
import { LspClient } from '../support/lspClient';

const SPEC = `name: priced
type: QUEUE
image: myorg/worker:1.0
gpu:
  pools: [AMPERE_24, ADA_24]
  excludedTypes: ["NVIDIA L4"]
  count: 2
workers:
  min: 2
  max: 5
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;

describe('cost hover over LSP', () => {
  let emulator: RunningEmulator;
  let client: LspClient;
  let cacheDir: string;
  before(async () => {
    emulator = await startEmulator({ port: 0, jobsPort: 0 });
    cacheDir = mkdtempSync(join(tmpdir(), 'es-billing-hover-'));
    client = await LspClient.start({
      pull: true,
      env: { ENDPOINT_STUDIO_API_URL: emulator.restUrl, ENDPOINT_STUDIO_API_KEY: DEFAULT_DEV_API_KEY, ENDPOINT_STUDIO_CACHE_DIR: cacheDir },
    });
    await client.catalogStatus((s) => s.state === 'live');
  });
  after(async () => {
    await client.stop();
    await emulator.close();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  const hover = async (uri: string, line: number, character: number): Promise<string> =>
    ((await client.hover(uri, line, character))?.contents as MarkupContent | undefined)?.value ?? '';

  it('on workers.min and workers.max: the field documentation, then always-on and at-max cost per hour and month', async () => {
    const uri = 'file:///billing/priced.endpoint.yaml';
    await client.open(uri, SPEC);
    const onMin = await hover(uri, 8, 3);
    assert.match(onMin, /^\*\*workers\.min\*\*/, 'the field documentation comes first');
    assert.match(onMin, /\| Always on: `workers.min` 2 \| \$1\.44–\$2\.76 \| \$1,051\.20–\$2,014\.80 \|/);
    assert.match(onMin, /\| At `workers.max` 5 \| \$3\.60–\$6\.90 \| \$2,628\.00–\$5,037\.00 \|/);
    assert.match(await hover(uri, 9, 8), /At `workers.max` 5/);
    // On a pool value: the pool's catalog entry, then the cost.
    const onPool = await hover(uri, 4, 12);
    assert.match(onPool, /Pool AMPERE_24/);
    assert.match(onPool, /Cost from catalog prices/);
    assert.doesNotMatch(await hover(uri, 12, 4), /Cost from catalog prices/, 'not on scaling');
  });

  it('on a CPU spec in JSON: priced per vCPU', async () => {
    const uri = 'file:///billing/cpu.endpoint.json';
    await client.open(
      uri,
      JSON.stringify(
        {
          name: 'c',
          type: 'QUEUE',
          image: 'x',
          cpu: [{ id: 'cpu3c', vcpuCount: 4 }],
          workers: { min: 1, max: 4 },
          scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
        },
        null,
        2,
      ),
    );
    const text = await hover(uri, 7, 6);
    assert.match(text, /\| Always on: `workers.min` 1 \| \$0\.12 \| \$87\.60 \|/);
    assert.match(text, /cpu3c 4 vCPU × \$0\.03 = \$0\.12/);
  });
});
