/**
 * The server as each editor meets it: started with the capabilities Neovim 0.10.4, Helix 25.01 and Emacs Eglot
 * 1.17.30 recorded in their initialize (test/fixtures/clients/), and those vscode-languageclient computes. Each
 * client answers only what it declared, as Neovim does (MethodNotFound for the rest). With a key set (a live
 * catalog arriving re-checks every open spec) and a base and its overlay open, which once made the server send
 * Neovim a refresh it does not take and exit, every feature is walked, and the server must still answer at the
 * end, five seconds on at least, having sent nothing the client did not declare.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { DEFAULT_DEV_API_KEY, startEmulator, type RunningEmulator } from '../../emulator/index';
import { recordedClient, type RecordedClient } from '../support/editorCapabilities';
import { diagnosticText, LspClient } from '../support/lspClient';
import { vscodeClientCapabilities } from '../support/vscodeClientCapabilities';

const PROFILES: RecordedClient[] = [
  recordedClient('neovim-0.10.4'),
  recordedClient('helix-25.01'),
  recordedClient('emacs-eglot-1.17.30'),
  { client: 'VS Code (vscode-languageclient)', clientInfo: { name: 'Visual Studio Code' }, capabilities: vscodeClientCapabilities() },
];

const BASE = `# A queue worker.
name: sdxl-worker
type: QUEUE
image: "myorg/sdxl-worker:1.4.2"
gpu:
  pools: [ADA_24]
workers:
  min: 0
  max: 3
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
flashboot: FLASHBOOT
`;
const OVERLAY = 'extends: ./sdxl.endpoint.yaml\nname: sdxl-prod\nworkers:\n  max: 5\n';
/** The overlay after an edit that breaks a value the base also sets. */
const BROKEN_OVERLAY = `${OVERLAY}flashboot: FLASHBOOTS\n`;
const SETTINGS = { endpointStudio: { inlayHints: { defaults: true, cost: true } } };
const ALIVE_FOR_MS = 5000;

let emulator: RunningEmulator;
let workspace: string;
before(async () => {
  emulator = await startEmulator({ port: 0, jobsPort: 0 });
  workspace = mkdtempSync(join(tmpdir(), 'es-client-profiles-'));
});
after(async () => {
  await emulator.close();
  rmSync(workspace, { recursive: true, force: true });
});

/** A folder of its own per client: a base and its prod overlay, on disk as an editor's workspace holds them. */
function specFolder(name: string): { base: string; overlay: string; folder: string } {
  const folder = mkdtempSync(join(workspace, `${name.replace(/\W+/g, '-')}-`));
  writeFileSync(join(folder, 'sdxl.endpoint.yaml'), BASE);
  writeFileSync(join(folder, 'sdxl.prod.endpoint.yaml'), OVERLAY);
  const uri = (file: string): string => pathToFileURL(join(folder, file)).href;
  return { base: uri('sdxl.endpoint.yaml'), overlay: uri('sdxl.prod.endpoint.yaml'), folder };
}

/** The document's current problems, the way this client gets them: its latest push, or a pull. */
async function currentProblems(client: LspClient, uri: string): Promise<Diagnostic[] | undefined> {
  if (client.initializeResult?.capabilities.diagnosticProvider) return client.pulledDiagnostics(uri);
  return client.publishedFor(uri).at(-1)?.diagnostics;
}

/** Waits until the document's problems satisfy `accept`, as the client learns of them (a refresh, or a push). */
async function problemsOnceThey(
  client: LspClient,
  uri: string,
  accept: (problems: Diagnostic[]) => boolean,
  what: string,
): Promise<Diagnostic[]> {
  let last: Diagnostic[] | undefined;
  for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
    last = await currentProblems(client, uri);
    if (last && accept(last)) return last;
    const refreshes = client.diagnosticRefreshes;
    const pushes = client.publishedFor(uri).length;
    await client
      .until(() => client.diagnosticRefreshes > refreshes || client.publishedFor(uri).length > pushes, what, 2000)
      .catch(() => undefined);
  }
  assert.fail(`${what}: last saw ${JSON.stringify(last?.map(diagnosticText))}`);
}

for (const profile of PROFILES) {
  describe(`as ${profile.client}`, () => {
    let client: LspClient;
    let startedAt: number;
    let files: ReturnType<typeof specFolder>;
    before(async () => {
      files = specFolder(profile.clientInfo.name);
      startedAt = Date.now();
      client = await LspClient.start({
        viaCli: true,
        capabilities: profile.capabilities,
        clientInfo: profile.clientInfo,
        onlyDeclared: true,
        settings: SETTINGS,
        workspaceFolders: [files.folder],
        debounceMs: 50,
        env: { ENDPOINT_STUDIO_API_URL: emulator.restUrl, ENDPOINT_STUDIO_API_KEY: DEFAULT_DEV_API_KEY },
      });
    });
    after(async () => {
      await client.stop();
    });

    it('checks a base and its overlay against the live catalog, and an overlay edit reaches the base', async () => {
      await client.open(files.base, BASE);
      await client.open(files.overlay, OVERLAY);
      await client.catalogStatus((status) => status.state === 'live');
      assert.deepEqual(await problemsOnceThey(client, files.base, (p) => p.length === 0, 'the base checked'), []);
      await client.change(files.overlay, BROKEN_OVERLAY);
      const inBase = await problemsOnceThey(client, files.base, (p) => p.length > 0, "the overlay's problem in the base");
      assert.deepEqual(
        inBase.map((d) => [d.range.start.line, diagnosticText(d)]),
        [
          [
            12,
            'in prod: flashboot must be one of OFF, FLASHBOOT, PRIORITY_FLASHBOOT; got: "FLASHBOOTS"; did you mean FLASHBOOT? (set in sdxl.prod.endpoint.yaml)',
          ],
        ],
      );
      const inOverlay = await problemsOnceThey(client, files.overlay, (p) => p.length > 0, 'the overlay checked');
      assert.deepEqual(
        inOverlay.map((d) => d.range.start.line),
        [4],
      );
    });

    it('answers every feature on the base and the overlay', async () => {
      const { base, overlay } = files;
      const request = <R>(method: string, params: object): Promise<R> => client.connection.sendRequest<R>(method, params);
      const doc = (uri: string) => ({ textDocument: { uri } });
      const whole = { start: { line: 0, character: 0 }, end: { line: 14, character: 0 } };
      const options = { tabSize: 2, insertSpaces: true };

      assert.ok(
        (await client.completion(base, 12, 11)).some((item) => item.label === 'OFF'),
        'completion of a value',
      );
      assert.match(JSON.stringify(await client.hover(base, 5, 12)), /ADA_24/, 'hover on a pool');
      const problems = await problemsOnceThey(client, overlay, (p) => p.length > 0, 'the overlay problem');
      const fixes = await client.codeActions(overlay, problems);
      assert.ok(
        fixes.some((action) => /FLASHBOOT/.test(action.title)),
        JSON.stringify(fixes.map((a) => a.title)),
      );
      assert.match(JSON.stringify(await request<unknown[]>('textDocument/documentSymbol', doc(base))), /"name":"scaling"/, 'symbols');
      assert.ok((await request<unknown[]>('textDocument/foldingRange', doc(base))).length >= 3, 'folding');
      const formatted = await request<{ newText: string }[]>('textDocument/formatting', { ...doc(base), options });
      assert.ok(
        formatted.some((edit) => edit.newText.includes('myorg/sdxl-worker:1.4.2')),
        'document formatting unquotes the image',
      );
      const linewise = { start: { line: 6, character: 0 }, end: { line: 9, character: 0 } };
      const rangeEdits = await request<{ range: typeof linewise }[]>('textDocument/rangeFormatting', {
        ...doc(base),
        options,
        range: linewise,
      });
      for (const edit of rangeEdits) assert.ok(edit.range.start.line >= 6, `range formatting stays in its range: ${JSON.stringify(edit)}`);
      assert.ok((await request<unknown[]>('textDocument/documentLink', doc(overlay))).length >= 1, "the overlay's link to its base");
      assert.ok((await client.inlayHints(base, whole)).length >= 1, 'inlay hints');
      const definition = await request<unknown>('textDocument/definition', { ...doc(overlay), position: { line: 0, character: 14 } });
      assert.match(JSON.stringify(definition), /sdxl\.endpoint\.yaml/, 'definition of extends goes to the base');
    });

    it('is alive five seconds on, having sent only what the client declared', async () => {
      const waited = ALIVE_FOR_MS - (Date.now() - startedAt);
      if (waited > 0) await new Promise((resolve) => setTimeout(resolve, waited));
      // An answer, not just a running process: the connection is served.
      assert.ok(await client.hover(files.base, 1, 2));
      assert.ok(client.alive, client.stderr.join(''));
      assert.deepEqual(client.undeclaredRequests, [], `sent ${client.serverRequests.join(', ')}`);
    });
  });
}

describe('a client that declares every request and rejects them all', () => {
  it('logs each refused method once and goes on', async () => {
    const files = specFolder('rejecting');
    const client = await LspClient.start({
      viaCli: true,
      capabilities: vscodeClientCapabilities(),
      onlyDeclared: {},
      workspaceFolders: [files.folder],
      env: { ENDPOINT_STUDIO_API_URL: emulator.restUrl, ENDPOINT_STUDIO_API_KEY: DEFAULT_DEV_API_KEY },
    });
    try {
      await client.open(files.base, BASE);
      await client.open(files.overlay, OVERLAY);
      await client.pulledDiagnostics(files.base);
      await client.catalogStatus((status) => status.state === 'live');
      await client.until(() => client.undeclaredRequests.includes('workspace/diagnostic/refresh'), 'a refresh sent and refused');
      // Each overlay edit reaches a base that was pulled since the last one, so each asks for a refresh.
      for (const text of [BROKEN_OVERLAY, OVERLAY, BROKEN_OVERLAY]) {
        await client.pulledDiagnostics(files.base);
        await client.change(files.overlay, text);
      }
      await client.until(() => client.undeclaredRequests.filter((m) => m === 'workspace/diagnostic/refresh').length >= 3, 'more refreshes');
      assert.ok(await client.hover(files.base, 1, 2));
      assert.ok(client.alive);
      const refusals = client.logMessages.filter((message) => /rejected workspace\/diagnostic\/refresh/.test(message));
      assert.equal(refusals.length, 1, client.logMessages.join('\n'));
    } finally {
      await client.stop();
    }
  });
});
