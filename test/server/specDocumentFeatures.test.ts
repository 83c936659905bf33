/**
 * Spec files as documents over real LSP stdio: the outline (document symbols), folding and selection
 * ranges, formatting of a file and of a range (with the contract's key order as a setting), and links.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type {
  DocumentLink,
  DocumentSymbol,
  FoldingRange,
  FormattingOptions,
  Range,
  SelectionRange,
  TextEdit,
} from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { corpusFiles } from '../reliability/corpus';
import { LspClient } from '../support/lspClient';

const CATALOG = `${__dirname}/../fixtures/catalog.json`;
let counter = 0;
const specUri = (ext = 'yaml') => `file:///workspace/outline-${++counter}.endpoint.${ext}`;

const TWO_DOCUMENTS = `# Two endpoints in one file.
name: sdxl-worker
type: QUEUE
image: myorg/sdxl-worker:1.4.2
gpu:
  pools: [ADA_24, AMPERE_24]
workers:
  min: 0
  max: 3
env:
  LOG_LEVEL: info
---
name: cpu-worker
type: QUEUE
image: myorg/cpu:1
cpu:
  - id: cpu3c
    vcpuCount: 4
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;

const OPTIONS: FormattingOptions = { tabSize: 2, insertSpaces: true };

/** The symbol tree as `name  detail` lines, indented by depth. */
function outline(symbols: readonly DocumentSymbol[], depth = 0): string[] {
  return symbols.flatMap((s) => [
    `${'  '.repeat(depth)}${s.name}${s.detail ? `  ${s.detail}` : ''}`,
    ...outline(s.children ?? [], depth + 1),
  ]);
}

function child(symbol: DocumentSymbol | undefined, name: string): DocumentSymbol | undefined {
  return (symbol?.children ?? []).find((s) => s.name === name);
}

function applied(text: string, edits: readonly TextEdit[]): string {
  return TextDocument.applyEdits(TextDocument.create('file:///x', 'yaml', 1, text), [...edits]);
}

describe('document symbols, folding and selection', () => {
  let client: LspClient;
  before(async () => {
    client = await LspClient.start({ pull: true });
  });
  after(() => client.stop());

  it('declares the capabilities', () => {
    const capabilities = client.initializeResult?.capabilities;
    assert.ok(capabilities?.documentSymbolProvider);
    assert.ok(capabilities.foldingRangeProvider);
    assert.ok(capabilities.selectionRangeProvider);
    assert.ok(capabilities.documentFormattingProvider);
    assert.ok(capabilities.documentRangeFormattingProvider);
    assert.ok(capabilities.documentLinkProvider);
  });

  it('gives one root per document, named after the spec, with nested keys and short details', async () => {
    const uri = specUri();
    await client.open(uri, TWO_DOCUMENTS);
    const symbols: DocumentSymbol[] = await client.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } });
    assert.deepEqual(outline(symbols), [
      'sdxl-worker  QUEUE · myorg/sdxl-worker:1.4.2',
      '  name  sdxl-worker',
      '  type  QUEUE',
      '  image  myorg/sdxl-worker:1.4.2',
      '  gpu  ADA_24, AMPERE_24',
      '    pools  ADA_24, AMPERE_24',
      '      ADA_24',
      '      AMPERE_24',
      '  workers  0–3',
      '    min  0',
      '    max  3',
      '  env  1 variable',
      '    LOG_LEVEL  info',
      'cpu-worker  QUEUE · myorg/cpu:1',
      '  name  cpu-worker',
      '  type  QUEUE',
      '  image  myorg/cpu:1',
      '  cpu  cpu3c ×4',
      '    cpu3c  2 keys',
      '      id  cpu3c',
      '      vcpuCount  4',
      '  scaling  QUEUE_DELAY 4',
      '    type  QUEUE_DELAY',
      '    queueDelay  4',
    ]);
    // Kinds: a document is a file, an enum value an enum member, an env entry a variable.
    assert.equal(symbols[0].kind, 1);
    assert.equal(child(symbols[0], 'type')?.kind, 22);
    assert.equal(child(child(symbols[0], 'env'), 'LOG_LEVEL')?.kind, 13);
    // Ranges: the second root starts after the marker; a key's selection is the key, its range key and value.
    assert.equal(symbols[1].range.start.line, 11);
    const workers = child(symbols[0], 'workers');
    assert.deepEqual(workers?.selectionRange, { start: { line: 6, character: 0 }, end: { line: 6, character: 7 } });
    assert.deepEqual(workers.range, { start: { line: 6, character: 0 }, end: { line: 8, character: 8 } });
  });

  it('names a document without a name by its place, and answers JSON specs too', async () => {
    const uri = specUri();
    await client.open(uri, 'type: QUEUE\n---\nname: b\n');
    const yaml: DocumentSymbol[] = await client.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } });
    assert.deepEqual(
      yaml.map((s) => s.name),
      ['(document 1)', 'b'],
    );
    const json = specUri('json');
    await client.open(json, '{\n  "name": "j",\n  "workers": { "max": 5 }\n}\n');
    const symbols: DocumentSymbol[] = await client.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri: json } });
    assert.deepEqual(outline(symbols), ['j', '  name  j', '  workers  0–5', '    max  5']);
  });

  it('folds mappings, lists, multi-line strings, comment blocks and each document', async () => {
    const uri = specUri();
    const text = `# one\n# two\nname: a\ngpu:\n  pools:\n    - ADA_24\n    - AMPERE_24\nargs: |\n  python\n  serve.py\nenv: {A: "1"}\n---\nname: b\n`;
    await client.open(uri, text);
    const ranges: FoldingRange[] = await client.connection.sendRequest('textDocument/foldingRange', { textDocument: { uri } });
    assert.deepEqual(
      ranges.map((r) => `${r.startLine}-${r.endLine}${r.kind ? ` ${r.kind}` : ''}`),
      ['0-1 comment', '2-10', '3-6', '4-6', '7-9', '11-12'],
    );
    const json = specUri('json');
    await client.open(json, '{\n  "gpu": {\n    "pools": [\n      "ADA_24"\n    ]\n  }\n}\n');
    const jsonRanges: FoldingRange[] = await client.connection.sendRequest('textDocument/foldingRange', { textDocument: { uri: json } });
    // The closing bracket stays in view, as JSON folds.
    assert.deepEqual(
      jsonRanges.map((r) => `${r.startLine}-${r.endLine}`),
      ['1-4', '2-3'],
    );
  });

  it('folds a mapping or a list of one entry under its key, and a flow collection spread over lines', async () => {
    const uri = specUri();
    const text =
      'gpu:\n  pools: [ADA_24]\ncpu:\n  - cpu3c\nscaling:\n  type:\n    x: 1\nenv: {\n  A: "1"\n}\nargs: [\n  serve.py]\nname: a\n';
    await client.open(uri, text);
    const ranges: FoldingRange[] = await client.connection.sendRequest('textDocument/foldingRange', { textDocument: { uri } });
    assert.deepEqual(
      ranges.map((r) => `${r.startLine}-${r.endLine}`),
      ['0-1', '2-3', '4-6', '5-6', '7-8', '10-11'],
    );
    const json = specUri('json');
    await client.open(json, '{\n  "gpu": {\n    "pools": ["ADA_24"]\n  },\n  "cpu": [\n    "cpu3c"\n  ]\n}\n');
    const jsonRanges: FoldingRange[] = await client.connection.sendRequest('textDocument/foldingRange', { textDocument: { uri: json } });
    assert.deepEqual(
      jsonRanges.map((r) => `${r.startLine}-${r.endLine}`),
      ['1-2', '4-5'],
    );
  });

  it('folds a comment block as a comment', async () => {
    const uri = specUri();
    await client.open(uri, 'name: a\n# one\n# two\n# three\ntype: QUEUE\n');
    const ranges: FoldingRange[] = await client.connection.sendRequest('textDocument/foldingRange', { textDocument: { uri } });
    assert.deepEqual(ranges, [{ startLine: 1, endLine: 3, kind: 'comment' }]);
  });

  it('grows a selection from a value to its pair, the mapping, its pair and the document', async () => {
    const uri = specUri();
    await client.open(uri, TWO_DOCUMENTS);
    const [selection]: SelectionRange[] = await client.connection.sendRequest('textDocument/selectionRange', {
      textDocument: { uri },
      positions: [{ line: 8, character: 7 }],
    });
    const chain: Range[] = [];
    for (let s: SelectionRange | undefined = selection; s; s = s.parent) chain.push(s.range);
    const text = TextDocument.create(uri, 'yaml', 1, TWO_DOCUMENTS);
    const firstDocument = TWO_DOCUMENTS.slice(TWO_DOCUMENTS.indexOf('name'), TWO_DOCUMENTS.indexOf('---'));
    assert.deepEqual(
      chain.map((r) => text.getText(r)),
      ['3', 'max: 3', 'min: 0\n  max: 3', 'workers:\n  min: 0\n  max: 3', firstDocument.trimEnd(), firstDocument],
    );
  });

  it('answers every request on each file of the hostile corpus', async () => {
    for (const input of corpusFiles()) {
      const uri = `file:///workspace/hostile-${++counter}.${input.fileName}`;
      await client.open(uri, input.text());
      for (const method of ['textDocument/documentSymbol', 'textDocument/foldingRange', 'textDocument/documentLink']) {
        const result: unknown = await client.connection.sendRequest(method, { textDocument: { uri } });
        assert.ok(Array.isArray(result), `${method} on ${input.fileName}`);
      }
      const selections: unknown = await client.connection.sendRequest('textDocument/selectionRange', {
        textDocument: { uri },
        positions: [
          { line: 0, character: 0 },
          { line: 1, character: 2 },
        ],
      });
      assert.ok(Array.isArray(selections) && selections.length === 2, input.fileName);
      const edits: unknown = await client.connection.sendRequest('textDocument/formatting', { textDocument: { uri }, options: OPTIONS });
      assert.ok(Array.isArray(edits), input.fileName);
      await client.close(uri);
    }
    assert.ok(client.alive);
  });

  it('answers every request on a file that does not parse, without an error', async () => {
    const uri = specUri();
    await client.open(uri, 'name: [unclosed\n  type: {\n');
    for (const method of ['textDocument/documentSymbol', 'textDocument/foldingRange', 'textDocument/documentLink']) {
      const result: unknown = await client.connection.sendRequest(method, { textDocument: { uri } });
      assert.ok(Array.isArray(result), method);
    }
    const edits: TextEdit[] = await client.connection.sendRequest('textDocument/formatting', { textDocument: { uri }, options: OPTIONS });
    assert.deepEqual(edits, [], 'a file that does not parse is not formatted');
    assert.ok(client.alive);
  });
});

describe('formatting', () => {
  let client: LspClient;
  let ordered: LspClient;
  before(async () => {
    client = await LspClient.start({ pull: true });
    ordered = await LspClient.start({
      pull: true,
      capabilities: { workspace: { configuration: true } },
      settings: { endpointStudio: { format: { contractOrder: true } } },
    });
  });
  after(async () => {
    await client.stop();
    await ordered.stop();
  });

  async function format(on: LspClient, text: string, ext = 'yaml', range?: Range): Promise<string> {
    const uri = specUri(ext);
    await on.open(uri, text);
    const edits: TextEdit[] = range
      ? await on.connection.sendRequest('textDocument/rangeFormatting', { textDocument: { uri }, options: OPTIONS, range })
      : await on.connection.sendRequest('textDocument/formatting', { textDocument: { uri }, options: OPTIONS });
    return applied(text, edits);
  }

  const MESSY = `# Header comment

name:   "sdxl-worker"    # the name
type: 'QUEUE'
gpu:
    pools: [ ADA_24,  AMPERE_24 ]


workers:
    max: 3
    min: 0
env:
    LOG_LEVEL: "info"
    PORT: "8080"
    DEBUG: 'yes'
    EMPTY: ""
image: "myorg/sdxl-worker:1.4.2"
# closing comment
`;

  it('writes the canonical style and keeps comments and blank lines', async () => {
    assert.equal(
      await format(client, MESSY),
      `# Header comment

name: sdxl-worker # the name
type: QUEUE
gpu:
  pools: [ADA_24, AMPERE_24]


workers:
  max: 3
  min: 0
env:
  LOG_LEVEL: info
  PORT: "8080"
  DEBUG: "yes"
  EMPTY: ""
image: myorg/sdxl-worker:1.4.2
# closing comment
`,
    );
  });

  it('puts keys in the contract order when the setting asks for it', async () => {
    const formatted = await format(ordered, MESSY);
    assert.deepEqual(
      formatted.split('\n').filter((line) => /^\w/.test(line)),
      ['name: sdxl-worker # the name', 'type: QUEUE', 'image: myorg/sdxl-worker:1.4.2', 'env:', 'gpu:', 'workers:'],
    );
    assert.match(formatted, /workers:\n {2}min: 0\n {2}max: 3\n/);
    assert.ok(ordered.configurationRequests.includes('endpointStudio.format'), 'the setting is read for the document');
    assert.equal(await format(ordered, formatted), formatted, 'a second format changes nothing');
  });

  it('formats each document of a multi-document file', async () => {
    assert.equal(
      await format(client, 'name:  a\ngpu:\n    pools: [ A ]\n---\nname:   "b"\n'),
      'name: a\ngpu:\n  pools: [A]\n---\nname: b\n',
    );
  });

  it('formats only the lines a range covers (rangeFormatting.test.ts has more)', async () => {
    const text = 'name:   a\ngpu:\n    pools: [ A ]\n    count: 1\nworkers:\n    max: 3\n';
    const range = { start: { line: 1, character: 0 }, end: { line: 4, character: 0 } };
    assert.equal(await format(client, text, 'yaml', range), 'name:   a\ngpu:\n  pools: [A]\n  count: 1\nworkers:\n    max: 3\n');
  });

  it('formats JSON with the editor indentation, whole or a range', async () => {
    const text = '{"name":"j","workers":{"max":3,"min":0},\n"type":"QUEUE"}\n';
    assert.equal(
      await format(client, text, 'json'),
      '{\n  "name": "j",\n  "workers": {\n    "max": 3,\n    "min": 0\n  },\n  "type": "QUEUE"\n}\n',
    );
    assert.equal(
      await format(ordered, text, 'json'),
      '{\n  "name": "j",\n  "type": "QUEUE",\n  "workers": {\n    "min": 0,\n    "max": 3\n  }\n}\n',
    );
    const range = { start: { line: 1, character: 0 }, end: { line: 1, character: 15 } };
    assert.equal(await format(client, text, 'json', range), '{"name":"j","workers":{"max":3,"min":0},\n"type": "QUEUE"\n}\n');
  });

  it('returns no edits for a spec with a duplicate key or a syntax error', async () => {
    for (const text of ['name: a\nname: b\n', 'name: "a\n', '{"name": }']) {
      const ext = text.startsWith('{') ? 'json' : 'yaml';
      assert.equal(await format(client, text, ext), text, text);
    }
  });
});

describe('document links', () => {
  let client: LspClient;
  before(async () => {
    client = await LspClient.start({
      pull: true,
      catalogFile: CATALOG,
      capabilities: { workspace: { textDocumentContent: { dynamicRegistration: false } } },
    });
    await client.catalogStatus((s) => s.state !== 'none');
  });
  after(() => client.stop());

  async function links(text: string, on = client): Promise<{ text: string; target?: string; tooltip?: string }[]> {
    const uri = specUri();
    await on.open(uri, text);
    const found: DocumentLink[] = await on.connection.sendRequest('textDocument/documentLink', { textDocument: { uri } });
    const document = TextDocument.create(uri, 'yaml', 1, text);
    return found.map((l) => ({ text: document.getText(l.range), target: l.target, tooltip: l.tooltip }));
  }

  it('links an image on a well-known public registry to its page', async () => {
    const cases: Record<string, string | undefined> = {
      'myorg/worker:1.0': 'https://hub.docker.com/r/myorg/worker',
      'ubuntu:22.04': 'https://hub.docker.com/_/ubuntu',
      'docker.io/library/python@sha256:abcd': 'https://hub.docker.com/_/python',
      'ghcr.io/acme/tools/worker:2': 'https://ghcr.io/acme/tools/worker',
      'quay.io/org/app:latest': 'https://quay.io/repository/org/app',
      'nvcr.io/nvidia/pytorch:24.01-py3': 'https://catalog.ngc.nvidia.com/orgs/nvidia/containers/pytorch',
      'public.ecr.aws/lambda/python:3.12': 'https://gallery.ecr.aws/lambda/python',
      'registry.example.com:5000/private/app:1': undefined,
      'localhost/app': undefined,
      'Not An Image': undefined,
    };
    for (const [image, target] of Object.entries(cases)) {
      const found = await links(`name: a\nimage: "${image}"\n`);
      assert.deepEqual(
        found.map((l) => l.target),
        target ? [target] : [],
        image,
      );
      if (target) assert.equal(found[0].text, image, 'the link covers the value without its quotes');
    }
  });

  it('links a templateId the catalog knows to the template, whose text the server serves', async () => {
    const [link] = await links('name: a\ntemplateId: tpl_vllm\n');
    assert.equal(link.text, 'tpl_vllm');
    assert.equal(link.target, 'endpoint-studio-template:/tpl_vllm.yaml');
    assert.match(link.tooltip ?? '', /vLLM worker/);
    const content: { text: string } = await client.connection.sendRequest('workspace/textDocumentContent', { uri: link.target });
    assert.match(content.text, /^# Template vLLM worker/);
    assert.match(content.text, /image: example\/worker-vllm:2\.1/);
    assert.deepEqual(await links('name: a\ntemplateId: tpl_unknown\n'), [], 'an unknown template has no link');
  });

  it('does not link templates for an editor that cannot open the template text', async () => {
    const plain = await LspClient.start({ pull: true, catalogFile: CATALOG });
    try {
      await plain.catalogStatus((s) => s.state !== 'none');
      assert.deepEqual(
        (await links('name: a\ntemplateId: tpl_vllm\nimage: ubuntu\n', plain)).map((l) => l.text),
        ['ubuntu'],
      );
    } finally {
      await plain.stop();
    }
  });
});
