/**
 * Changes on disk reach open specs without an edit. VS Code (the capabilities vscode-languageclient computes)
 * is asked to watch the spec files and sends `workspace/didChangeWatchedFiles`; the base's next pull then shows
 * what an overlay rewritten on disk breaks, and an open overlay what its rewritten base breaks. Neovim 0.10
 * registers no watchers, so the server watches the folders it read itself and pushes the new problems.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { recordedClient } from '../support/editorCapabilities';
import { diagnosticText, LspClient } from '../support/lspClient';
import { vscodeClientCapabilities } from '../support/vscodeClientCapabilities';

const BASE = `name: sdxl
type: QUEUE
image: myorg/sdxl:1.0.0
gpu:
  pools: [ADA_24]
workers:
  min: 0
  max: 2
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;
const PROD = 'extends: ./sdxl.endpoint.yaml\nname: sdxl-prod\n';
/** The prod overlay after `git pull`: more workers at rest than the base allows at most. */
const PROD_PULLED = `${PROD}workers:\n  min: 4\n`;

const texts = (diagnostics: readonly Diagnostic[]): string[] => diagnostics.map(diagnosticText);

describe('files changed on disk, in a client that watches them (VS Code)', () => {
  let folder: string;
  let client: LspClient;
  const path = (name: string) => join(folder, name);
  const uri = (name: string) => pathToFileURL(path(name)).href;
  const notify = (name: string, type: 1 | 2 | 3) =>
    client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uri(name), type }] });

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'es-watched-'));
    writeFileSync(path('sdxl.endpoint.yaml'), BASE);
    writeFileSync(path('sdxl.prod.endpoint.yaml'), PROD);
    client = await LspClient.start({ capabilities: vscodeClientCapabilities(), workspaceFolders: [folder] });
  });
  after(async () => {
    await client.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('is asked to watch the spec files, the environments file and the team policy', async () => {
    await client.until(() => client.registrations.some((r) => r.method === 'workspace/didChangeWatchedFiles'), 'a registration');
    const registration = client.registrations.find((r) => r.method === 'workspace/didChangeWatchedFiles');
    assert.deepEqual(registration?.registerOptions, {
      watchers: [
        { globPattern: '**/*.endpoint.{yaml,yml,json}' },
        { globPattern: '**/.endpoint-studio/environments.yaml' },
        { globPattern: '**/.endpoint-studio/policy.yaml' },
      ],
    });
  });

  it('shows in the open base what an overlay rewritten on disk breaks, on the next pull, with no edit', async () => {
    await client.open(uri('sdxl.endpoint.yaml'), BASE);
    assert.deepEqual(await client.pulledDiagnostics(uri('sdxl.endpoint.yaml')), []);
    const refreshes = client.diagnosticRefreshes;
    writeFileSync(path('sdxl.prod.endpoint.yaml'), PROD_PULLED);
    await notify('sdxl.prod.endpoint.yaml', 2);
    await client.until(() => client.diagnosticRefreshes > refreshes, 'a diagnostic refresh');
    assert.deepEqual(texts(await client.pulledDiagnostics(uri('sdxl.endpoint.yaml'))), [
      'in prod: workers.min (4) is above max (2): raise max or lower min (set in sdxl.prod.endpoint.yaml)',
    ]);
  });

  it('shows a new overlay in the open base, and forgets a deleted one', async () => {
    writeFileSync(path('sdxl.dev.endpoint.yaml'), 'extends: ./sdxl.endpoint.yaml\nname: sdxl-dev\nworkers:\n  max: 1\n  min: 3\n');
    let refreshes = client.diagnosticRefreshes;
    await notify('sdxl.dev.endpoint.yaml', 1);
    await client.until(() => client.diagnosticRefreshes > refreshes, 'a diagnostic refresh');
    const environments = (diagnostics: Diagnostic[]) => texts(diagnostics).map((text) => text.split(':')[0]);
    assert.deepEqual(environments(await client.pulledDiagnostics(uri('sdxl.endpoint.yaml'))), ['in dev', 'in prod']);
    unlinkSync(path('sdxl.dev.endpoint.yaml'));
    refreshes = client.diagnosticRefreshes;
    await notify('sdxl.dev.endpoint.yaml', 3);
    await client.until(() => client.diagnosticRefreshes > refreshes, 'a diagnostic refresh');
    assert.deepEqual(environments(await client.pulledDiagnostics(uri('sdxl.endpoint.yaml'))), ['in prod']);
  });

  it('shows in an open overlay what its base rewritten on disk breaks', async () => {
    await client.close(uri('sdxl.endpoint.yaml'));
    await client.open(uri('sdxl.prod.endpoint.yaml'), PROD_PULLED);
    assert.equal((await client.pulledDiagnostics(uri('sdxl.prod.endpoint.yaml'))).length, 1);
    const refreshes = client.diagnosticRefreshes;
    writeFileSync(path('sdxl.endpoint.yaml'), BASE.replace('max: 2', 'max: 8'));
    await notify('sdxl.endpoint.yaml', 2);
    await client.until(() => client.diagnosticRefreshes > refreshes, 'a diagnostic refresh');
    assert.deepEqual(await client.pulledDiagnostics(uri('sdxl.prod.endpoint.yaml')), []);
  });
});

describe('files changed on disk, in a client that cannot watch them (Neovim 0.10)', () => {
  let folder: string;
  let client: LspClient;
  const path = (name: string) => join(folder, name);
  const uri = (name: string) => pathToFileURL(path(name)).href;

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'es-watched-self-'));
    writeFileSync(path('sdxl.endpoint.yaml'), BASE);
    writeFileSync(path('sdxl.prod.endpoint.yaml'), PROD);
    const neovim = recordedClient('neovim-0.10.4');
    client = await LspClient.start({ capabilities: neovim.capabilities, onlyDeclared: true, workspaceFolders: [folder] });
  });
  after(async () => {
    await client.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('watches the folder itself and pushes the open base its new problems', async () => {
    await client.open(uri('sdxl.endpoint.yaml'), BASE);
    assert.deepEqual(await client.pushedDiagnostics(uri('sdxl.endpoint.yaml'), 1), []);
    const pushes = client.publishedFor(uri('sdxl.endpoint.yaml')).length;
    writeFileSync(path('sdxl.prod.endpoint.yaml'), PROD_PULLED);
    await client.until(() => client.publishedFor(uri('sdxl.endpoint.yaml')).length > pushes, 'a new push for the base', 3000);
    const latest = client.publishedFor(uri('sdxl.endpoint.yaml')).at(-1)?.diagnostics ?? [];
    assert.match(texts(latest).join('\n'), /^in prod: workers\.min \(4\) is above max \(2\)/);
    assert.deepEqual(client.registrations, [], 'nothing registered with a client that does not take it');
    assert.deepEqual(client.undeclaredRequests, []);
  });
});
