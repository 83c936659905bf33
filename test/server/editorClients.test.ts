/**
 * Every client gets what it declares: the server over `endpoint-studio lsp --stdio` (the command docs/editor.md
 * gives Neovim, Helix and Emacs), spoken to with the capabilities those editors send. Neovim 0.10.4 takes no
 * snippets and pulls diagnostics without taking a refresh, so it has them pushed, as a plain client (Eglot,
 * editors without pull diagnostics) does. Both answer `workspace/configuration` from their
 * settings by section, and the settings shown in docs/editor.md are the ones used here.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CompletionItem, InlayHint, Registration, TextEdit } from 'vscode-languageserver-protocol';
import { LspClient, REPO_ROOT } from '../support/lspClient';
import { NEOVIM_0_10, PLAIN_CLIENT } from '../support/editorCapabilities';
import { vscodeClientCapabilities } from '../support/vscodeClientCapabilities';

const SPEC = `name: demo
type: QUEUE
image: myorg/worker:1.0.0
gpu:
  pools: [ADA_24]
workers:
  max: 2
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;

/** What docs/editor.md shows each editor sending: the defaults' inlay hints on, the cost's off. */
const SETTINGS = { endpointStudio: { inlayHints: { defaults: true, cost: false } } };
/** The hints at one place come as one (`inlayHints.test.ts`). */
const DEFAULT_HINTS = ['count 1', 'min 0  idleTimeout 10 s', 'flashboot OFF  timeout 300000 ms'];
const EDITOR_DOC = readFileSync(resolve(REPO_ROOT, 'docs/editor.md'), 'utf8');

let counter = 0;
const specUri = (ext = 'yaml'): string => `file:///editors/spec-${++counter}.endpoint.${ext}`;

const editOf = (item: CompletionItem | undefined): TextEdit => {
  assert.ok(item?.textEdit && 'range' in item.textEdit, `${item?.label ?? 'no item'} has a text edit`);
  return item.textEdit;
};
const labels = (hints: InlayHint[]): string[] =>
  hints.map((h) => (typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join('')));

/** The checks both kinds of client share: key completion on a key that has its value, and settings by section. */
function sharedChecks(client: () => LspClient): void {
  it('completes on a key that has its value: every other key, replacing the key alone', async () => {
    const uri = specUri();
    await client().open(uri, SPEC);
    const items = await client().completion(uri, 6, 4);
    assert.deepEqual(items.map((i) => i.label).sort(), ['idleTimeout', 'max', 'min']);
    const min = items.find((i) => i.label === 'min');
    assert.deepEqual(editOf(min), { range: { start: { line: 6, character: 2 }, end: { line: 6, character: 5 } }, newText: 'min' });
    const json = specUri('json');
    await client().open(json, '{\n  "name": "demo",\n  "workers": { "max": 2 }\n}\n');
    const inJson = await client().completion(json, 2, 17);
    assert.deepEqual(editOf(inJson.find((i) => i.label === 'min')), {
      range: { start: { line: 2, character: 15 }, end: { line: 2, character: 20 } },
      newText: '"min"',
    });
  });

  it('reads its settings through workspace/configuration, section endpointStudio, again on every change', async () => {
    const c = client();
    const uri = specUri();
    await c.open(uri, SPEC);
    for (const defaults of [true, false]) {
      const asked = c.configurationRequests.length;
      await c.changeSettings({ endpointStudio: { inlayHints: { defaults, cost: true } } });
      await c.until(() => c.configurationRequests.length > asked, 'a workspace/configuration request');
      // No catalog here, so no cost hint either way.
      assert.deepEqual(labels(await c.inlayHints(uri)), defaults ? DEFAULT_HINTS : []);
    }
    assert.ok(c.configurationRequests.every((section) => section === 'endpointStudio'));
  });
}

describe('Neovim 0.10.4 (vim.lsp.start with its default capabilities)', () => {
  let client: LspClient;
  before(async () => {
    client = await LspClient.start({ viaCli: true, capabilities: NEOVIM_0_10, settings: SETTINGS });
  });
  after(async () => {
    await client.stop();
  });

  it('has diagnostics pushed, since it cannot be asked to pull again, and is offered inlay hints', async () => {
    const capabilities = client.initializeResult?.capabilities;
    assert.equal(capabilities?.diagnosticProvider, undefined, 'no pull diagnostics');
    assert.ok(capabilities?.inlayHintProvider, 'inlay hints');
    const uri = specUri();
    await client.open(uri, SPEC.replace('image: myorg/worker:1.0.0\n', ''));
    assert.deepEqual(
      (await client.pushedDiagnostics(uri, 1)).map((d) => d.code),
      ['image-required'],
    );
  });

  it('gets completions as plain text, as it declares no snippets', async () => {
    const uri = specUri();
    await client.open(uri, 'gpu:\n  pools: [ADA_24]\n  \n');
    const count = (await client.completion(uri, 2, 2)).find((i) => i.label === 'count');
    assert.equal(count?.insertTextFormat, 1);
    assert.equal(editOf(count).newText, 'count: 1');
  });

  it('switches a kind of inlay hint off and on again from its settings, and is asked to refresh', async () => {
    const uri = specUri();
    await client.open(uri, SPEC);
    await client.until(() => client.configurationRequests.length > 0, 'a workspace/configuration request');
    assert.deepEqual(labels(await client.inlayHints(uri)), DEFAULT_HINTS, 'no catalog here to price the cost');
    const refreshes = client.inlayHintRefreshes;
    // Neovim sends its settings with the notification, and answers workspace/configuration from the same table.
    await client.changeSettings({ endpointStudio: { inlayHints: { defaults: false } } });
    await client.until(() => client.inlayHintRefreshes > refreshes, 'an inlay hint refresh');
    assert.deepEqual(labels(await client.inlayHints(uri)), []);
  });

  sharedChecks(() => client);

  it('is set up in docs/editor.md with vim.lsp.start and with lspconfig, the same command and settings', () => {
    const count = (text: string): number => EDITOR_DOC.split(text).length - 1;
    assert.equal(count('vim.lsp.start({'), 1);
    assert.equal(count("require('lspconfig').endpoint_studio.setup({})"), 1);
    assert.equal(count("cmd = { 'endpoint-studio', 'lsp', '--stdio' },"), 2, 'both set-ups run the command tested here');
    assert.equal(count('settings = { endpointStudio = { inlayHints = { defaults = true, cost = false } } },'), 2, 'both send SETTINGS');
    assert.ok(!/cmd_env\s*=/.test(EDITOR_DOC), 'no set-up puts the key in cmd_env');
  });
});

describe('a client without snippets or pull diagnostics (Helix, Emacs Eglot without yasnippet)', () => {
  let client: LspClient;
  before(async () => {
    client = await LspClient.start({ viaCli: true, capabilities: PLAIN_CLIENT, settings: SETTINGS });
  });
  after(async () => {
    await client.stop();
  });

  it('has diagnostics pushed, not pulled', async () => {
    assert.equal(client.initializeResult?.capabilities.diagnosticProvider, undefined);
    const uri = specUri();
    await client.open(uri, SPEC.replace('QUEUE_DELAY', 'QUEUE_DELAYS'));
    assert.deepEqual(
      (await client.pushedDiagnostics(uri, 1)).map((d) => d.code),
      ['invalid-enum'],
    );
  });

  it('gets every completion as plain text, placeholders at their defaults', async () => {
    const uri = specUri();
    await client.open(uri, 'gpu:\n  pools: [ADA_24]\n  \n');
    const count = (await client.completion(uri, 2, 2)).find((i) => i.label === 'count');
    assert.equal(count?.insertTextFormat, 1);
    assert.equal(editOf(count).newText, 'count: 1');
    const empty = specUri();
    await client.open(empty, '');
    const all = await client.completion(empty, 0, 0);
    assert.ok(all.length > 10);
    for (const item of all) {
      assert.equal(item.insertTextFormat, 1, item.label);
      assert.doesNotMatch(editOf(item).newText, /\$\{?\d/, item.label);
    }
    assert.match(editOf(all.find((i) => i.label === 'endpoint: Queue endpoint on GPU')).newText, /^name: my-gpu-worker\ntype: QUEUE\n/);
  });

  it('takes its settings from didChangeConfiguration when it offers no workspace/configuration', async () => {
    const bare = await LspClient.start({
      viaCli: true,
      capabilities: { textDocument: { completion: { completionItem: { snippetSupport: false } } } },
      initializationOptions: { inlayHints: { defaults: false } },
    });
    try {
      const uri = specUri();
      await bare.open(uri, SPEC);
      assert.deepEqual(labels(await bare.inlayHints(uri)), []);
      // Read in order: the notification is applied before the request behind it.
      await bare.changeSettings({}, { endpointStudio: { inlayHints: { defaults: true } } });
      assert.deepEqual(labels(await bare.inlayHints(uri)), DEFAULT_HINTS);
      assert.deepEqual(bare.configurationRequests, [], 'never asked');
      const applied = bare.logMessages.filter((message) => message.startsWith('settings applied: '));
      assert.match(applied.join('\n'), /^settings applied: inlay hints defaults on, cost on, environments on; debounce \d+ ms$/);
    } finally {
      await bare.stop();
    }
  });

  sharedChecks(() => client);

  it('is set up in docs/editor.md for Helix and Eglot, the same command and settings', () => {
    for (const text of [
      '[language-server.endpoint-studio]\ncommand = "endpoint-studio"\nargs = ["lsp", "--stdio"]\n',
      'config = { endpointStudio = { inlayHints = { defaults = true, cost = false } } }',
      '. ("endpoint-studio" "lsp" "--stdio")',
      "'(:endpointStudio (:inlayHints (:defaults t :cost :json-false)))",
    ])
      assert.ok(EDITOR_DOC.includes(text), `docs/editor.md holds ${text}`);
  });
});

describe('VS Code', () => {
  it('is asked to send changes of the endpointStudio settings (a registration it takes)', async () => {
    const client = await LspClient.start({ capabilities: vscodeClientCapabilities() });
    try {
      const configuration = (): Registration[] => client.registrations.filter((r) => r.method === 'workspace/didChangeConfiguration');
      await client.until(() => configuration().length > 0, 'a registration');
      assert.deepEqual(
        configuration().map((r) => r.registerOptions as unknown),
        [{ section: 'endpointStudio' }],
      );
    } finally {
      await client.stop();
    }
  });
});
