/**
 * The stock warning over real LSP stdio, with a pinned catalog in which the chosen pools have no serverless
 * stock: the warning on the `pools` key (or on `dataCenterIds`), the alternatives in its `data`, and a quick
 * fix per alternative that adds it, titled with what it adds to the hourly bill at max workers.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DiagnosticSeverity, type CodeAction, type Diagnostic } from 'vscode-languageserver-protocol';
import { diagnosticText, LspClient } from '../support/lspClient';
import { STOCK_CATALOG_DATA } from '../support/stockCatalog';

const spec = (compute: string, extra = '') =>
  `name: demo\ntype: QUEUE\nimage: myorg/worker:1.0.0\n${compute}workers:\n  max: 2\nscaling:\n  type: QUEUE_DELAY\n  queueDelay: 4\n${extra}`;

function apply(text: string, action: CodeAction, uri: string): string {
  return TextDocument.applyEdits(TextDocument.create(uri, 'yaml', 1, text), action.edit?.changes?.[uri] ?? []);
}

describe('stock warnings over LSP stdio (pinned catalog file)', () => {
  let client: LspClient;
  let folder: string;
  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'es-stock-'));
    const catalogFile = join(folder, 'catalog.json');
    writeFileSync(catalogFile, JSON.stringify(STOCK_CATALOG_DATA));
    client = await LspClient.start({ pull: true, catalogFile });
  });
  after(async () => {
    await client.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  /** The one diagnostic of `code` in the text, and the titles of its quick fixes. */
  async function warning(uri: string, text: string, code: string): Promise<{ diagnostic: Diagnostic; actions: CodeAction[] }> {
    await client.open(uri, text);
    const all = await client.pulledDiagnostics(uri);
    const found = all.filter((d) => d.code === code);
    assert.equal(found.length, 1, all.map((d) => `${String(d.code)}: ${diagnosticText(d)}`).join('\n'));
    return { diagnostic: found[0], actions: await client.codeActions(uri, [found[0]]) };
  }

  /** Applies the action, and the spec is then clean: the added pool has stock. */
  async function fixedClean(uri: string, text: string, action: CodeAction): Promise<string> {
    const fixed = apply(text, action, uri);
    await client.change(uri, fixed);
    assert.deepEqual(
      (await client.pulledDiagnostics(uri)).map((d) => `${String(d.code)}: ${diagnosticText(d)}`),
      [],
    );
    return fixed;
  }

  it('warns on gpu.pools, carries the alternatives, and adds one with its price at max workers', async () => {
    const uri = 'file:///stock/flow.endpoint.yaml';
    const text = spec('gpu:\n  pools: [ADA_48_PRO]\n');
    const { diagnostic, actions } = await warning(uri, text, 'no-serverless-stock');
    assert.equal(diagnostic.severity, DiagnosticSeverity.Warning);
    assert.equal(diagnostic.source, 'endpoint-studio');
    assert.deepEqual(diagnostic.range, { start: { line: 4, character: 2 }, end: { line: 4, character: 7 } });
    assert.match(
      diagnosticText(diagnostic),
      /^none of the GPUs chosen in ADA_48_PRO has serverless stock, so workers would wait THROTTLED; pools with stock: AMPERE_48 \(48 GB, \$0\.40–\$0\.76\/h per worker\), AMPERE_80 \(80 GB, \$1\.64\/h per worker\), ADA_80_PRO/,
    );
    const data = diagnostic.data as { path: unknown; related: unknown };
    assert.deepEqual(data.path, ['gpu', 'pools']);
    assert.deepEqual(data.related, ['AMPERE_48', 'AMPERE_80', 'ADA_80_PRO']);
    assert.deepEqual(
      actions.map((a) => a.title),
      [
        'Add pool AMPERE_48 (+$0.80 to +$1.52/h at max workers)',
        'Add pool AMPERE_80 (+$3.28/h at max workers)',
        'Add pool ADA_80_PRO (+$4.78/h at max workers)',
      ],
    );
    assert.deepEqual(actions[1].diagnostics, [diagnostic]);
    assert.equal(await fixedClean(uri, text, actions[1]), spec('gpu:\n  pools: [ADA_48_PRO, AMPERE_80]\n'));
  });

  it('adds to a block list on a line of its own', async () => {
    const uri = 'file:///stock/block.endpoint.yaml';
    const text = spec('gpu:\n  pools:\n    - ADA_48_PRO\n  count: 1\n');
    const { actions } = await warning(uri, text, 'no-serverless-stock');
    assert.equal(await fixedClean(uri, text, actions[0]), spec('gpu:\n  pools:\n    - ADA_48_PRO\n    - AMPERE_48\n  count: 1\n'));
  });

  it('adds to a JSON list', async () => {
    const uri = 'file:///stock/spec.endpoint.json';
    const body = (pools: string) =>
      `{\n  "name": "demo",\n  "type": "QUEUE",\n  "image": "x",\n  "gpu": { "pools": [${pools}] },\n  "scaling": { "type": "QUEUE_DELAY", "queueDelay": 4 }\n}\n`;
    const text = body('"ADA_48_PRO"');
    const { actions } = await warning(uri, text, 'no-serverless-stock');
    assert.match(actions[0].title, /^Add pool AMPERE_48 \(.*\/h at max workers\)$/);
    assert.equal(await fixedClean(uri, text, actions[0]), body('"ADA_48_PRO", "AMPERE_48"'));
  });

  it('warns on dataCenterIds when the chosen GPUs have stock only elsewhere, naming pools with stock there', async () => {
    const uri = 'file:///stock/placed.endpoint.yaml';
    const text = spec('gpu:\n  pools: [ADA_24]\n', 'dataCenterIds: [EU-RO-1]\n');
    const { diagnostic, actions } = await warning(uri, text, 'no-stock-in-data-centers');
    assert.equal(diagnostic.range.start.line, 10);
    assert.match(diagnosticText(diagnostic), /pools with stock in EU-RO-1: AMPERE_48 \(48 GB, \$0\.40\/h per worker\), AMPERE_80/);
    assert.deepEqual((diagnostic.data as { related: unknown }).related, ['AMPERE_48', 'AMPERE_80']);
    assert.deepEqual(
      actions.map((a) => a.title),
      ['Add pool AMPERE_48 (+$0.80/h at max workers)', 'Add pool AMPERE_80 (+$3.28/h at max workers)'],
    );
    assert.equal(await fixedClean(uri, text, actions[0]), spec('gpu:\n  pools: [ADA_24, AMPERE_48]\n', 'dataCenterIds: [EU-RO-1]\n'));
  });

  it('warns on cpu for CPU flavors without stock, and adds a flavor with stock at the same vCPU count', async () => {
    const uri = 'file:///stock/cpu.endpoint.yaml';
    const text = spec('cpu:\n  - id: cpu3c\n    vcpuCount: 2\n');
    const { diagnostic, actions } = await warning(uri, text, 'no-serverless-stock');
    assert.deepEqual(diagnostic.range.start, { line: 3, character: 0 });
    assert.deepEqual(
      actions.map((a) => a.title),
      ['Add cpu3g with 2 vCPUs (+$0.16/h at max workers)', 'Add cpu5g with 4 vCPUs (+$0.48/h at max workers)'],
    );
    assert.equal(await fixedClean(uri, text, actions[0]), spec('cpu:\n  - id: cpu3c\n    vcpuCount: 2\n  - { id: cpu3g, vcpuCount: 2 }\n'));
  });

  it('says nothing when a chosen pool has stock', async () => {
    const uri = 'file:///stock/fine.endpoint.yaml';
    await client.open(uri, spec('gpu:\n  pools: [ADA_48_PRO, AMPERE_48]\n'));
    assert.deepEqual(await client.pulledDiagnostics(uri), []);
  });
});
