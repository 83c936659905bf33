/**
 * The team policy file as a document of the language server, over real LSP stdio: its own problems on their
 * lines, completion of its keys, pool and flavor ids and codes, hovers on its keys and codes, and an edit of the
 * open policy, unsaved, judging the open specs again without an edit of theirs (a refresh for a client that
 * pulls, a new push for one that does not).
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { MarkupContent, TextEdit } from 'vscode-languageserver-protocol';
import { recordedClient } from '../support/editorCapabilities';
import { diagnosticText, LspClient } from '../support/lspClient';
import { vscodeClientCapabilities } from '../support/vscodeClientCapabilities';
import { POLICY, policyFindings, policyWorkspace, WITHIN } from './policyWorkspace';

describe('the team policy file in the editor, as VS Code sees it', () => {
  const w = policyWorkspace();
  const policyUri = w.uri('.endpoint-studio/policy.yaml');
  let client: LspClient;

  before(async () => {
    client = await LspClient.start({ capabilities: vscodeClientCapabilities(), workspaceFolders: [w.folder], catalogFile: w.catalogFile });
  });
  after(async () => {
    await client.stop();
    rmSync(w.folder, { recursive: true, force: true });
  });

  it("shows the policy file's problems on their lines in the file", async () => {
    await client.open(policyUri, 'rules:\n  - name: team-limits\n    maxWorker: 4\nseverity:\n  timeout-unit: error\n');
    const problems = await client.pulledDiagnostics(policyUri);
    assert.deepEqual(
      problems.map((d) => ({ line: d.range.start.line, code: d.code, severity: d.severity })),
      [{ line: 2, code: 'policy-invalid', severity: 1 }],
    );
    assert.match(diagnosticText(problems[0]), /rules\[0\]\.maxWorker is not a policy setting.*did you mean maxWorkers\?/);
    await client.change(policyUri, 'rules:\n  - name: team-limits\n    maxWorkers: 4\nseverity:\n  timeout-unit: error\n');
    const [code] = await client.pulledDiagnostics(policyUri);
    assert.equal(code.range.start.line, 4);
    assert.match(diagnosticText(code), /timeout-unit is not a diagnostic code.*did you mean timeout-units\?/);
    await client.close(policyUri);
  });

  it('completes keys from the schema, pool and flavor ids from the catalog, and codes', async () => {
    const labels = async (text: string, line: number, character: number): Promise<string[]> => {
      await client.open(policyUri, text);
      const items = await client.completion(policyUri, line, character);
      await client.close(policyUri);
      return items.map((item) => item.label);
    };
    const keys = await labels('rules:\n  - name: x\n    max\n', 2, 7);
    assert.ok(keys.includes('maxWorkers') && keys.includes('allowedPools') && !keys.includes('name'), keys.join(', '));
    assert.deepEqual((await labels('rules:\n  - name: x\n    allowedPools: [A]\n', 2, 20)).slice(0, 3), [
      'ADA_24',
      'ADA_48_PRO',
      'ADA_80_PRO',
    ]);
    assert.ok((await labels('rules:\n  - name: x\n    allowedCpuFlavors:\n      - \n', 3, 8)).includes('cpu3g'));
    const codes = await labels('severity:\n  time\n', 1, 6);
    assert.ok(codes.includes('timeout-units') && codes.includes('policy-max-workers'), codes.slice(0, 5).join(', '));
    const exceptionCodes = await labels('exceptions:\n  - file: a.endpoint.yaml\n    code: pol\n', 2, 13);
    assert.ok(exceptionCodes.includes('policy-allowed-pools'), exceptionCodes.slice(0, 5).join(', '));
  });

  it('inserts a severity key with its grade to choose, as a snippet', async () => {
    await client.open(policyUri, 'severity:\n  time\n');
    const item = (await client.completion(policyUri, 1, 6)).find((i) => i.label === 'timeout-units');
    await client.close(policyUri);
    assert.equal((item?.textEdit as TextEdit | undefined)?.newText, 'timeout-units: ${1|error,warning,information,off|}');
  });

  it('hovers a key of the policy with its schema description, and a code with what it means', async () => {
    await client.open(policyUri, 'rules:\n  - name: x\n    maxWorkers: 4\nseverity:\n  timeout-units: error\n');
    const key = await client.hover(policyUri, 2, 6);
    const code = await client.hover(policyUri, 4, 4);
    await client.close(policyUri);
    assert.match((key?.contents as MarkupContent).value, /rules\[0\]\.maxWorkers.*integer[\s\S]*`workers\.max` at most this/);
    assert.match((code?.contents as MarkupContent).value, /\*\*timeout-units\*\*/);
  });

  it('judges an open spec by the unsaved text of the open policy, at once, without an edit of the spec', async () => {
    const uri = w.uri('judged.endpoint.yaml');
    await client.open(uri, WITHIN);
    assert.deepEqual(policyFindings(await client.pulledDiagnostics(uri)), []);
    const refreshes = client.diagnosticRefreshes;
    await client.open(policyUri, POLICY);
    await client.change(policyUri, POLICY.replace('maxWorkers: 4', 'maxWorkers: 2'));
    await client.until(() => client.diagnosticRefreshes > refreshes, 'a diagnostic refresh');
    const found = policyFindings(await client.pulledDiagnostics(uri));
    assert.deepEqual(
      found.map((d) => [d.code, diagnosticText(d)]),
      [['policy-max-workers', 'workers.max 3 is above 2 (policy team-limits)']],
    );
    // Back to the text on disk when the editor closes unsaved.
    const before = client.diagnosticRefreshes;
    await client.close(policyUri);
    await client.until(() => client.diagnosticRefreshes > before, 'a diagnostic refresh');
    assert.deepEqual(policyFindings(await client.pulledDiagnostics(uri)), []);
    await client.close(uri);
  });
});

describe('the team policy file in an editor that does not pull', () => {
  const w = policyWorkspace();
  const policyUri = w.uri('.endpoint-studio/policy.yaml');
  let client: LspClient;

  before(async () => {
    client = await LspClient.start({
      capabilities: recordedClient('emacs-eglot-1.17.30').capabilities,
      onlyDeclared: true,
      workspaceFolders: [w.folder],
      catalogFile: w.catalogFile,
    });
  });
  after(async () => {
    await client.stop();
    rmSync(w.folder, { recursive: true, force: true });
  });

  it('publishes an open spec again when the open policy is edited, and the broken policy in its own file', async () => {
    const uri = w.uri('pushed.endpoint.yaml');
    await client.open(uri, WITHIN);
    assert.deepEqual(policyFindings(await client.pushedDiagnostics(uri, 1)), []);
    await client.open(policyUri, POLICY);
    await client.change(policyUri, POLICY.replace('maxWorkers: 4', 'maxWorkers: 2'));
    const latest = () => client.publishedFor(uri).at(-1)?.diagnostics ?? [];
    await client.until(() => policyFindings(latest()).length > 0, 'the spec published again with the finding');
    assert.deepEqual(
      policyFindings(latest()).map((d) => diagnosticText(d)),
      ['workers.max 3 is above 2 (policy team-limits)'],
    );
    await client.change(policyUri, 'rules: [');
    const problems = await client.pushedDiagnostics(policyUri, 3);
    assert.equal(problems[0]?.code, 'policy-invalid', 'the broken policy is an error in its own file');
    assert.deepEqual(client.undeclaredRequests, []);
  });
});
