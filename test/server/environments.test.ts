/**
 * Environments over real LSP stdio: an overlay is checked merged into its base (from disk, or the base's open
 * editor when it has one), a base shows what an overlay breaks with related information, an edit to the base
 * asks the client to pull again, the hover on a base field lists each environment's value, and `extends`
 * leads to the base by definition and by link.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { DocumentLink, Location, MarkupContent } from 'vscode-languageserver-protocol';
import { diagnosticText, LspClient } from '../support/lspClient';

const BASE = `name: sdxl-worker
type: QUEUE
image: myorg/sdxl-worker:1.4.2
gpu:
  pools: [ADA_24]
workers:
  min: 0
  max: 2
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;
const PROD = `extends: ./sdxl-worker.endpoint.yaml
name: sdxl-worker-prod
workers:
  min: 4
`;
const STAGING = `extends: ./sdxl-worker.endpoint.yaml
name: sdxl-worker-staging
`;

describe('environments in the language server', () => {
  let folder: string;
  let client: LspClient;
  const uri = (name: string) => pathToFileURL(join(folder, name)).href;

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'es-environments-'));
    writeFileSync(join(folder, 'sdxl-worker.endpoint.yaml'), BASE);
    writeFileSync(join(folder, 'sdxl-worker.prod.endpoint.yaml'), PROD);
    writeFileSync(join(folder, 'sdxl-worker.staging.endpoint.yaml'), STAGING);
    client = await LspClient.start({ pull: true, workspaceFolders: [folder] });
  });

  after(async () => {
    await client.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('checks an overlay merged into its base on disk, its problem on its own line', async () => {
    await client.open(uri('sdxl-worker.prod.endpoint.yaml'), PROD);
    const items = await client.pulledDiagnostics(uri('sdxl-worker.prod.endpoint.yaml'));
    assert.deepEqual(
      items.map((d) => [d.code, d.range.start.line]),
      [['workers-min-above-max', 3]],
      JSON.stringify(items.map(diagnosticText)),
    );
  });

  it('shows in the base what an overlay breaks, pointing at the overlay', async () => {
    await client.open(uri('sdxl-worker.endpoint.yaml'), BASE);
    const items = await client.pulledDiagnostics(uri('sdxl-worker.endpoint.yaml'));
    assert.equal(items.length, 1, JSON.stringify(items.map(diagnosticText)));
    const [problem] = items;
    assert.match(diagnosticText(problem), /^in prod: .* \(set in sdxl-worker\.prod\.endpoint\.yaml\)$/);
    assert.equal(problem.range.start.line, 6);
    assert.deepEqual(problem.relatedInformation?.[0].location, {
      uri: uri('sdxl-worker.prod.endpoint.yaml'),
      range: { start: { line: 3, character: 7 }, end: { line: 3, character: 8 } },
    });
  });

  it('an edit to the base, not yet saved, asks for a new pull and re-checks the overlay against it', async () => {
    const before = client.diagnosticRefreshes;
    await client.change(uri('sdxl-worker.endpoint.yaml'), BASE.replace('max: 2', 'max: 5'));
    await client.until(() => client.diagnosticRefreshes > before, 'a diagnostic refresh');
    assert.deepEqual(await client.pulledDiagnostics(uri('sdxl-worker.prod.endpoint.yaml')), []);
    assert.deepEqual(await client.pulledDiagnostics(uri('sdxl-worker.endpoint.yaml')), []);
  });

  it('the hover on a base field lists its value in each environment', async () => {
    const hover = await client.hover(uri('sdxl-worker.endpoint.yaml'), 6, 3);
    const text = (hover?.contents as MarkupContent).value;
    assert.match(text, /workers\.min in each environment/);
    assert.match(text, /- `prod`: `4` \(its overlay\)/);
    assert.match(text, /- `staging`: `0` \(the base\)/);
  });

  it('inlay hints in the base show what each environment deploys where an overlay changes a value', async () => {
    const hints = await client.inlayHints(uri('sdxl-worker.endpoint.yaml'));
    const labels = hints.map((hint) => [hint.position.line, typeof hint.label === 'string' ? hint.label : '']);
    assert.deepEqual(
      labels.filter(([, label]) => String(label).includes('prod') || String(label).includes('staging')),
      [
        [0, 'prod sdxl-worker-prod · staging sdxl-worker-staging'],
        [6, 'prod 4'],
      ],
    );
  });

  it('extends leads to the base, by definition and by link', async () => {
    const location: Location | null = await client.connection.sendRequest('textDocument/definition', {
      textDocument: { uri: uri('sdxl-worker.prod.endpoint.yaml') },
      position: { line: 0, character: 12 },
    });
    assert.equal(location?.uri, uri('sdxl-worker.endpoint.yaml'));
    const links: DocumentLink[] = await client.connection.sendRequest('textDocument/documentLink', {
      textDocument: { uri: uri('sdxl-worker.prod.endpoint.yaml') },
    });
    assert.ok(links.some((link) => link.target === uri('sdxl-worker.endpoint.yaml') && link.range.start.line === 0));
  });

  it('inside an overlay, completion offers the schema’s keys and a misspelt key gets its quick fix, nothing required', async () => {
    const text = 'extends: ./sdxl-worker.endpoint.yaml\nname: sdxl-worker-canary\nworkrs:\n  max: 1\nscaling:\n  type: QUEUE_DELAY\n  \n';
    await client.open(uri('sdxl-worker.canary.endpoint.yaml'), text);
    const items = await client.pulledDiagnostics(uri('sdxl-worker.canary.endpoint.yaml'));
    assert.deepEqual(
      items.map((d) => [d.code, d.range.start.line]),
      [['unknown-property', 2]],
    );
    const actions = await client.codeActions(uri('sdxl-worker.canary.endpoint.yaml'), items);
    assert.ok(
      actions.some((action) => /workrs/.test(action.title)),
      JSON.stringify(actions.map((a) => a.title)),
    );
    const labels = (await client.completion(uri('sdxl-worker.canary.endpoint.yaml'), 6, 2)).map((item) => item.label);
    assert.ok(labels.includes('queueDelay'), JSON.stringify(labels));
  });

  it('an empty key in an overlay removes the base value, and the problem says so on that key', async () => {
    const text = 'extends: ./sdxl-worker.endpoint.yaml\nname: sdxl-worker-bare\nscaling:\n';
    await client.open(uri('sdxl-worker.bare.endpoint.yaml'), text);
    const items = await client.pulledDiagnostics(uri('sdxl-worker.bare.endpoint.yaml'));
    assert.deepEqual(
      items.map((d) => [d.code, d.range.start.line]),
      [['missing-property', 2]],
    );
    assert.match(diagnosticText(items[0]), /this overlay removes it/);
  });

  it('a broken extends is an error on its line that names the problem', async () => {
    const text = 'extends: ./gone.endpoint.yaml\nname: lost\n';
    await client.open(uri('sdxl-worker.lost.endpoint.yaml'), text);
    const items = await client.pulledDiagnostics(uri('sdxl-worker.lost.endpoint.yaml'));
    assert.deepEqual(
      items.map((d) => [d.code, d.range.start.line, diagnosticText(d)]),
      [['overlay-base', 0, './gone.endpoint.yaml does not exist']],
    );
  });

  it('the base never shows a problem of a key that only an overlay wrote', async () => {
    const typo = 'extends: ./sdxl-worker.endpoint.yaml\nname: sdxl-worker-typo\nworkrs:\n  max: 1\n';
    writeFileSync(join(folder, 'sdxl-worker.typo.endpoint.yaml'), typo);
    await client.open(uri('sdxl-worker.typo.endpoint.yaml'), typo);
    const inOverlay = await client.pulledDiagnostics(uri('sdxl-worker.typo.endpoint.yaml'));
    assert.deepEqual(
      inOverlay.map((d) => [d.code, d.range.start.line]),
      [['unknown-property', 2]],
    );
    // A new version of the base, so that it is checked again with the typo overlay beside it on disk.
    await client.change(uri('sdxl-worker.endpoint.yaml'), BASE);
    const inBase = await client.pulledDiagnostics(uri('sdxl-worker.endpoint.yaml'));
    assert.ok(
      inBase.some((d) => diagnosticText(d).startsWith('in prod: ')),
      'the overlays were read',
    );
    assert.deepEqual(inBase.filter((d) => diagnosticText(d).startsWith('in typo: ')).map(diagnosticText), []);
  });
});
