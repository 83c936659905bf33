/**
 * An overlay is shown as the environment it deploys: its inlay hints, hover and cost come from its merged body,
 * so a value its base sets is never shown as a default, and a misspelt key whose right name the base already
 * has is offered a Rename, not only a Remove.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { InlayHint, MarkupContent } from 'vscode-languageserver-protocol';
import { DEFAULT_DEV_API_KEY, startEmulator, type RunningEmulator } from '../../emulator/index';
import { diagnosticText, LspClient } from '../support/lspClient';

const BASE = `name: sdxl-worker
type: QUEUE
image: myorg/sdxl-worker:1.4.2
gpu:
  pools: [AMPERE_24, ADA_24]
  excludedTypes: ["NVIDIA L4"]
  count: 1
workers:
  min: 0
  max: 3
  idleTimeout: 30
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
flashboot: FLASHBOOT
timeout: 600000
`;
const STAGING = `extends: ./sdxl-worker.endpoint.yaml
name: sdxl-worker-staging
workers:
  max: 1
`;

const labels = (hints: InlayHint[]): string[] =>
  hints.map((h) => (typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join('')));

describe('an overlay shown from its merged body', () => {
  let folder: string;
  let client: LspClient;
  let emulator: RunningEmulator;
  const uri = (name: string) => pathToFileURL(join(folder, name)).href;

  before(async () => {
    // The emulator's catalog prices one of these GPUs at $0.36–$0.69 an hour.
    emulator = await startEmulator({ port: 0, jobsPort: 0 });
    folder = mkdtempSync(join(tmpdir(), 'es-overlay-features-'));
    writeFileSync(join(folder, 'sdxl-worker.endpoint.yaml'), BASE);
    writeFileSync(join(folder, 'sdxl-worker.staging.endpoint.yaml'), STAGING);
    client = await LspClient.start({
      pull: true,
      workspaceFolders: [folder],
      env: { ENDPOINT_STUDIO_API_URL: emulator.restUrl, ENDPOINT_STUDIO_API_KEY: DEFAULT_DEV_API_KEY, ENDPOINT_STUDIO_CACHE_DIR: folder },
      initializationOptions: { inlayHints: { defaults: true, cost: true, environments: true } },
    });
    await client.catalogStatus((s) => s.state === 'live');
  });
  after(async () => {
    await client.stop();
    await emulator.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("shows no default for what the base sets, and the environment's cost", async () => {
    await client.open(uri('sdxl-worker.staging.endpoint.yaml'), STAGING);
    assert.deepEqual(await client.pulledDiagnostics(uri('sdxl-worker.staging.endpoint.yaml')), []);
    const shown = labels(await client.inlayHints(uri('sdxl-worker.staging.endpoint.yaml')));
    const all = shown.join(' | ');
    for (const setByBase of ['flashboot', 'idleTimeout', 'timeout']) assert.doesNotMatch(all, new RegExp(setByBase), all);
    // workers.max 1: the cost of this environment at full scale, not of the base's 3 workers ($1.08–$2.07/h).
    const atMax = (await client.inlayHints(uri('sdxl-worker.staging.endpoint.yaml'))).filter((h) => h.position.line === 3);
    assert.deepEqual(labels(atMax), ['$0.36–$0.69/h'], all);
  });

  it("hovers a field with the environment's values and cost", async () => {
    const hover = await client.hover(uri('sdxl-worker.staging.endpoint.yaml'), 3, 3);
    const text = (hover?.contents as MarkupContent).value;
    // The hover on workers.max prices the merged body: 1 worker at most here, 3 in the base.
    assert.match(text, /workers\.max/);
    assert.match(text, /\$0\.36–\$0\.69/, text);
    assert.doesNotMatch(text, /\$1\.08/, text);
    const base = await client.hover(uri('sdxl-worker.staging.endpoint.yaml'), 1, 2);
    assert.ok(base, 'a hover on name');
  });

  it("completes values from the merged body: the base's GPU pools and type decide what fits", async () => {
    const text = `${STAGING}gpu:\n  excludedTypes: []\n`;
    await client.change(uri('sdxl-worker.staging.endpoint.yaml'), text);
    // Inside excludedTypes: the GPU types of the base's pools (AMPERE_24, ADA_24), which the overlay does not repeat.
    const items = (await client.completion(uri('sdxl-worker.staging.endpoint.yaml'), 5, 18)).map((item) => item.label);
    assert.ok(items.includes('NVIDIA GeForce RTX 4090'), JSON.stringify(items));
    assert.ok(!items.some((label) => /H100/.test(label)), JSON.stringify(items));
  });

  it('offers Rename for a misspelt key whose right name the base already sets', async () => {
    const text = `${STAGING}  idleTimout: 5\n`;
    await client.change(uri('sdxl-worker.staging.endpoint.yaml'), text);
    const problems = await client.pulledDiagnostics(uri('sdxl-worker.staging.endpoint.yaml'));
    assert.deepEqual(
      problems.map((d) => [d.code, d.range.start.line]),
      [['unknown-property', 4]],
    );
    assert.match(diagnosticText(problems[0]), /did you mean idleTimeout\?/);
    const titles = (await client.codeActions(uri('sdxl-worker.staging.endpoint.yaml'), problems)).map((a) => a.title);
    assert.ok(titles.includes('Rename to idleTimeout'), JSON.stringify(titles));
  });
});
