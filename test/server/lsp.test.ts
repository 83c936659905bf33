/** Language server behaviour over real stdio: diagnostics modes, debounce, hovers, completions, hostile input. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CompletionItem, MarkupContent } from 'vscode-languageserver-protocol';
import { diagnosticText, LspClient } from '../support/lspClient';

/** The order key the server gave a completion; every key completion is expected to carry one. */
function sortTextOf(item: CompletionItem): string {
  assert.ok(item.sortText !== undefined, `${item.label} has a sortText`);
  return item.sortText;
}

const VALID = `name: demo
type: QUEUE
image: myorg/worker:1.0.0
gpu:
  pools: [ADA_24]
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;

let counter = 0;
const specUri = (ext = 'yaml') => `file:///workspace/spec-${++counter}.endpoint.${ext}`;

describe('diagnostics', () => {
  it('pushes diagnostics for each version and clears them when the spec is fixed', async () => {
    const client = await LspClient.start();
    try {
      const uri = specUri();
      await client.open(uri, VALID.replace('QUEUE_DELAY', 'QUEUE_DELAYS'));
      const broken = await client.pushedDiagnostics(uri, 1);
      assert.deepEqual(
        broken.map((d) => d.code),
        ['invalid-enum'],
      );
      assert.deepEqual(broken[0].range, { start: { line: 6, character: 8 }, end: { line: 6, character: 20 } });
      assert.deepEqual((broken[0].data as { path: unknown }).path, ['scaling', 'type']);
      const version = await client.change(uri, VALID);
      assert.deepEqual(await client.pushedDiagnostics(uri, version), []);
    } finally {
      await client.stop();
    }
  });

  it('debounces bursts of edits and never publishes a stale version', async () => {
    const client = await LspClient.start({ debounceMs: 150 });
    try {
      const uri = specUri();
      await client.open(uri, VALID);
      let last = 1;
      for (let i = 0; i < 10; i++) last = await client.change(uri, VALID.replace('queueDelay: 4', `queueDelay: 0.0${i}`));
      const final = await client.pushedDiagnostics(uri, last);
      assert.deepEqual(
        final.map((d) => d.code),
        ['out-of-range'],
      );
      const versions = client.publishedFor(uri).map((p) => p.version);
      assert.deepEqual(versions, [last], 'only the settled version is published');
    } finally {
      await client.stop();
    }
  });

  it('answers pull requests when the client supports them and does not push', async () => {
    const text = JSON.stringify({
      name: 'demo',
      type: 'QUEUE',
      image: 'x',
      cpu: [{ id: 'cpu3c', vcpuCount: 3 }],
      scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
    });
    // With no debounce, a server that pushes has pushed a document's diagnostics before it answers a later request.
    const pushing = await LspClient.start({ debounceMs: 0 });
    try {
      const uri = specUri('json');
      await pushing.open(uri, text);
      await pushing.completion(uri, 0, 0);
      assert.equal(pushing.publishedFor(uri).length, 1, 'pushed before the answer');
    } finally {
      await pushing.stop();
    }
    const client = await LspClient.start({ pull: true, debounceMs: 0 });
    try {
      assert.ok(client.initializeResult?.capabilities.diagnosticProvider, 'advertises pull diagnostics');
      const uri = specUri('json');
      await client.open(uri, text);
      const items = await client.pulledDiagnostics(uri);
      assert.deepEqual(
        items.map((d) => d.code),
        ['vcpu-not-power-of-two'],
      );
      assert.equal(client.publishedFor(uri).length, 0, 'nothing pushed before the answer');
    } finally {
      await client.stop();
    }
  });

  it('ignores files that are not endpoint specs', async () => {
    const client = await LspClient.start({ pull: true });
    try {
      const uri = 'file:///workspace/docker-compose.yaml';
      await client.open(uri, 'services: {}\n');
      assert.deepEqual(await client.pulledDiagnostics(uri), []);
      assert.deepEqual(await client.completion(uri, 0, 0), []);
    } finally {
      await client.stop();
    }
  });
});

describe('hostile and malformed input', () => {
  let client: LspClient;
  before(async () => {
    client = await LspClient.start({ pull: true });
  });
  after(async () => {
    await client.stop();
  });

  const inputs: Record<string, string> = {
    'broken YAML': 'name: [unclosed\n  type: {\n',
    'binary bytes': Buffer.from([0, 1, 2, 255, 254, 0x1b, 0x5b, 0x41, 10, 0]).toString('latin1'),
    'empty file': '',
    'only a document marker': '---\n',
    'tab indentation': 'name: x\n\ttype: QUEUE\n',
    'deep nesting': `${'a:\n'.replace(/\n$/, '')}${Array.from({ length: 2000 }, (_, i) => `${' '.repeat(i + 1)}a:`).join('\n')}\n`,
    'alias bomb': [
      'a: &a [x,x,x,x,x,x,x,x,x,x]',
      ...'bcdefghij'.split('').map((n, i) => `${n}: &${n} [${Array(10).fill(`*${'abcdefghij'[i]}`).join(',')}]`),
    ].join('\n'),
    'a scalar document': '42\n',
    'huge number': `${VALID}timeout: 1${'0'.repeat(400)}\n`,
    'very long line': `${VALID}args: "${'x'.repeat(200_000)}"\n`,
  };
  for (const [label, text] of Object.entries(inputs)) {
    it(`answers ${label} without crashing`, async () => {
      const uri = specUri();
      await client.open(uri, text);
      const diagnostics = await client.pulledDiagnostics(uri);
      assert.ok(Array.isArray(diagnostics));
      assert.ok(!diagnostics.some((d) => d.code === 'internal-error'), diagnostics.map(diagnosticText).join('\n'));
      if (label !== 'only a document marker' && label !== 'very long line') assert.ok(diagnostics.length > 0, 'something is reported');
      assert.ok(client.alive, 'server still running');
    });
  }

  it('stays usable for the next document', async () => {
    const uri = specUri();
    await client.open(uri, VALID);
    assert.deepEqual(await client.pulledDiagnostics(uri), []);
  });
});

describe('hover', () => {
  let client: LspClient;
  before(async () => {
    client = await LspClient.start({ pull: true });
  });
  after(async () => {
    await client.stop();
  });

  it('documents a field from the schema', async () => {
    const uri = specUri();
    await client.open(uri, VALID);
    const hover = await client.hover(uri, 7, 4); // queueDelay
    const value = (hover?.contents as MarkupContent).value;
    assert.match(value, /\*\*scaling\.queueDelay\*\*/);
    assert.match(value, /minimum 0\.5/);
    assert.deepEqual(hover?.range, { start: { line: 7, character: 2 }, end: { line: 7, character: 12 } });
  });

  it('explains an enum value', async () => {
    const uri = specUri();
    await client.open(uri, VALID);
    const hover = await client.hover(uri, 1, 8); // QUEUE
    assert.match((hover?.contents as MarkupContent).value, /\*\*QUEUE\*\*.*\n\nQueue-based/);
  });

  it('works in JSON specs', async () => {
    const uri = specUri('json');
    await client.open(uri, '{\n  "flashboot": "FLASHBOOT"\n}');
    const onKey = await client.hover(uri, 1, 5);
    assert.match((onKey?.contents as MarkupContent).value, /FlashBoot cold-start acceleration/);
  });
});

describe('completion', () => {
  let client: LspClient;
  before(async () => {
    client = await LspClient.start({ pull: true });
  });
  after(async () => {
    await client.stop();
  });

  it('offers the keys not yet written, required first', async () => {
    const uri = specUri();
    const text = 'name: demo\n\n';
    await client.open(uri, text);
    const items = await client.completion(uri, 1, 0);
    const labels = items
      .filter((i) => !i.label.startsWith('endpoint:'))
      .sort((a, b) => sortTextOf(a).localeCompare(sortTextOf(b)))
      .map((i) => i.label);
    assert.ok(!labels.includes('name'));
    assert.deepEqual(labels.slice(0, 2), ['scaling', 'type']);
    assert.ok(labels.includes('gpu') && labels.includes('flashboot') && labels.includes('workers'));
  });

  it('offers nested keys by indentation, with the scaler variant chosen by type', async () => {
    const uri = specUri();
    await client.open(uri, 'scaling:\n  type: REQUEST_COUNT\n  \n');
    const labels = (await client.completion(uri, 2, 2)).map((i) => i.label);
    assert.deepEqual(labels, ['requestCount']);
  });

  it('offers enum values with their meaning', async () => {
    const uri = specUri();
    await client.open(uri, 'type: \n');
    const items = await client.completion(uri, 0, 6);
    assert.deepEqual(
      items.map((i) => i.label),
      ['QUEUE', 'LOAD_BALANCER'],
    );
    assert.match(JSON.stringify(items[1].documentation), /HTTP/);
  });

  it('completes a half-typed enum value and replaces the typed word', async () => {
    const uri = specUri();
    await client.open(uri, 'flashboot: PRI\n');
    const items = await client.completion(uri, 0, 14);
    const priority = items.find((i) => i.label === 'PRIORITY_FLASHBOOT');
    assert.ok(priority);
    assert.deepEqual((priority.textEdit as { range: unknown }).range, {
      start: { line: 0, character: 11 },
      end: { line: 0, character: 14 },
    });
  });

  it('completes keys inside list items', async () => {
    const uri = specUri();
    await client.open(uri, 'cpu:\n  - id: cpu3c\n    \n');
    const labels = (await client.completion(uri, 2, 4)).map((i) => i.label);
    assert.deepEqual(labels, ['vcpuCount']);
  });

  it('offers starter snippets in an empty spec', async () => {
    const uri = specUri();
    await client.open(uri, '');
    const starters = (await client.completion(uri, 0, 0)).filter((i) => i.label.startsWith('endpoint:'));
    assert.equal(starters.length, 3);
    assert.equal(starters[0].insertTextFormat, 2);
  });

  it('completes keys and values in JSON with quotes', async () => {
    const uri = specUri('json');
    await client.open(uri, '{\n  "type": "",\n  ""\n}');
    const values = await client.completion(uri, 1, 11);
    assert.deepEqual(
      values.map((i) => i.label),
      ['QUEUE', 'LOAD_BALANCER'],
    );
    assert.equal((values[0].textEdit as { newText: string }).newText, '"QUEUE"');
    const keys = await client.completion(uri, 2, 3);
    assert.ok(keys.some((i) => i.label === 'scaling' && (i.textEdit as { newText: string }).newText.startsWith('"scaling": {')));
    assert.ok(!keys.some((i) => i.label === 'type'));
  });
});

describe('the CLI as an LSP server', () => {
  it('speaks LSP over stdio through `endpoint-studio lsp --stdio`', async () => {
    const client = await LspClient.start({ viaCli: true, pull: true });
    try {
      assert.equal(client.initializeResult?.serverInfo?.name, 'endpoint-studio');
      const uri = specUri();
      await client.open(uri, VALID.replace('image: myorg/worker:1.0.0\n', ''));
      assert.deepEqual(
        (await client.pulledDiagnostics(uri)).map((d) => d.code),
        ['image-required'],
      );
    } finally {
      await client.stop();
    }
  });
});

describe('completion above the first key', () => {
  it('works on an empty line between a leading comment and the first key', async () => {
    const client = await LspClient.start({ pull: true });
    try {
      const uri = 'file:///workspace/commented.endpoint.yaml';
      await client.open(uri, '# A worker for SDXL\n\nname: demo\ntype: QUEUE\n');
      const labels = (await client.completion(uri, 1, 0)).map((i) => i.label);
      assert.ok(labels.includes('scaling') && labels.includes('gpu section'), labels.join(', '));
      assert.ok(!labels.includes('name'));
    } finally {
      await client.stop();
    }
  });
});
