/**
 * The team policy in the editor, over real LSP stdio with VS Code's capabilities: a policy finding in an open
 * overlay on the line that wrote the value, a finding silenced by an ignore comment shown as a hint with its
 * reason, and a policy written on disk reaching an open overlay without an edit (the client watches
 * `.endpoint-studio/policy.yaml` for the server and says when it changed).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-protocol';
import { LspClient } from '../support/lspClient';
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
const PROD = 'extends: ./sdxl.endpoint.yaml\nname: sdxl-prod\nworkers:\n  max: 8\n';
const PROD_LIMITS = 'rules:\n  - name: prod-limits\n    environments: [prod]\n    maxWorkers: 4\n';

const policyFindings = (diagnostics: readonly Diagnostic[]) =>
  diagnostics
    .filter((d) => String(d.code).startsWith('policy-'))
    .map((d) => ({ code: d.code, line: d.range.start.line, severity: d.severity, message: d.message }));

describe('the team policy over LSP', () => {
  let folder: string;
  let client: LspClient;
  const path = (name: string) => join(folder, name);
  const uri = (name: string) => pathToFileURL(path(name)).href;

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'es-policy-'));
    mkdirSync(path('.endpoint-studio'));
    writeFileSync(path('sdxl.endpoint.yaml'), BASE);
    writeFileSync(path('sdxl.prod.endpoint.yaml'), PROD);
    client = await LspClient.start({ capabilities: vscodeClientCapabilities(), workspaceFolders: [folder] });
  });
  after(async () => {
    await client.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('is asked to watch the policy file', async () => {
    await client.until(() => client.registrations.some((r) => r.method === 'workspace/didChangeWatchedFiles'), 'a registration');
    const registration = client.registrations.find((r) => r.method === 'workspace/didChangeWatchedFiles');
    const globs = (registration?.registerOptions as { watchers: { globPattern: string }[] }).watchers.map((w) => w.globPattern);
    assert.ok(globs.includes('**/.endpoint-studio/policy.yaml'), globs.join(', '));
  });

  it('shows a finding in an open overlay when the policy is written on disk, without an edit', async () => {
    await client.open(uri('sdxl.prod.endpoint.yaml'), PROD);
    assert.deepEqual(policyFindings(await client.pulledDiagnostics(uri('sdxl.prod.endpoint.yaml'))), []);
    const refreshes = client.diagnosticRefreshes;
    writeFileSync(path('.endpoint-studio/policy.yaml'), PROD_LIMITS);
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [{ uri: uri('.endpoint-studio/policy.yaml'), type: 1 }],
    });
    await client.until(() => client.diagnosticRefreshes > refreshes, 'a diagnostic refresh');
    assert.deepEqual(policyFindings(await client.pulledDiagnostics(uri('sdxl.prod.endpoint.yaml'))), [
      { code: 'policy-max-workers', line: 3, severity: DiagnosticSeverity.Error, message: 'workers.max 8 is above 4 (policy prod-limits)' },
    ]);
  });

  it("shows on the base's line what the prod rule finds in a value the base wrote", async () => {
    const base = BASE.replace('  max: 2\n', '  max: 6\n');
    writeFileSync(path('sdxl.endpoint.yaml'), base);
    await client.open(uri('sdxl.endpoint.yaml'), base);
    await client.change(uri('sdxl.prod.endpoint.yaml'), 'extends: ./sdxl.endpoint.yaml\nname: sdxl-prod\n');
    assert.deepEqual(policyFindings(await client.pulledDiagnostics(uri('sdxl.endpoint.yaml'))), [
      {
        code: 'policy-max-workers',
        line: 7,
        severity: DiagnosticSeverity.Error,
        message: 'in prod: workers.max 6 is above 4 (policy prod-limits)',
      },
    ]);
    const [inOverlay] = await client.pulledDiagnostics(uri('sdxl.prod.endpoint.yaml'));
    assert.equal(inOverlay.range.start.line, 0, "on the overlay's extends line");
    assert.equal(inOverlay.relatedInformation?.[0]?.location.range.start.line, 7);
  });

  it('shows a finding silenced by an ignore comment as a hint with the reason', async () => {
    const silenced =
      'extends: ./sdxl.endpoint.yaml\nname: sdxl-prod\nworkers:\n  # endpoint-studio-ignore policy-max-workers: load test until 12-05\n  max: 8\n';
    await client.change(uri('sdxl.prod.endpoint.yaml'), silenced);
    assert.deepEqual(policyFindings(await client.pulledDiagnostics(uri('sdxl.prod.endpoint.yaml'))), [
      {
        code: 'policy-max-workers',
        line: 4,
        severity: DiagnosticSeverity.Hint,
        message: 'workers.max 8 is above 4 (policy prod-limits) (suppressed: load test until 12-05)',
      },
    ]);
  });
});
