/**
 * A team policy finding in a spec, over real LSP stdio: the hover that names the rule, its limit, where the
 * policy writes it and how to allow the value; and each quick fix's edit: lower workers.max, an allowed pool of
 * the same VRAM, an ignore comment whose reason is a snippet placeholder for VS Code, plain text (selected
 * through window/showDocument where the client can be asked) for Neovim and Helix, which take no snippet edits.
 */
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { ClientCapabilities, CodeAction, MarkupContent } from 'vscode-languageserver-protocol';
import { recordedClient } from '../support/editorCapabilities';
import { LspClient } from '../support/lspClient';
import { vscodeClientCapabilities } from '../support/vscodeClientCapabilities';
import { applied, editsOf, policyFindings, policyWorkspace, SPEC } from './policyWorkspace';

describe('a team policy finding in VS Code', () => {
  const w = policyWorkspace();
  let client: LspClient;

  before(async () => {
    client = await LspClient.start({ capabilities: vscodeClientCapabilities(), workspaceFolders: [w.folder], catalogFile: w.catalogFile });
  });
  after(async () => {
    await client.stop();
    rmSync(w.folder, { recursive: true, force: true });
  });

  it('explains a finding on hover: the rule, its limit, where the policy writes it, how to allow it', async () => {
    const uri = w.uri('hover.endpoint.yaml');
    writeFileSync(w.path('hover.endpoint.yaml'), SPEC);
    await client.open(uri, SPEC);
    const finding = policyFindings(await client.pulledDiagnostics(uri)).find((d) => d.code === 'policy-max-workers');
    assert.equal(finding?.range.start.line, 7);
    const hover = await client.hover(uri, 7, 7);
    const text = (hover?.contents as MarkupContent).value;
    assert.match(text, /rule `team-limits` sets `maxWorkers: 4` \(`policy-max-workers`\)/);
    assert.match(text, /\[\.endpoint-studio\/policy\.yaml, line 3\]\(file:\/\/.*\/\.endpoint-studio\/policy\.yaml#L3\)/);
    assert.match(text, /# endpoint-studio-ignore policy-max-workers: <why>/);
    assert.match(text, /exceptions: \[\{ file: hover\.endpoint\.yaml, code: policy-max-workers/);
    assert.match(text, /\*\*workers\.max\*\*/, "the field's own hover follows");
    await client.close(uri);
  });

  it('lowers workers.max to the limit', async () => {
    const uri = w.uri('lower.endpoint.yaml');
    await client.open(uri, SPEC);
    const finding = policyFindings(await client.pulledDiagnostics(uri)).filter((d) => d.code === 'policy-max-workers');
    const actions = await client.codeActions(uri, finding);
    const lower = actions.find((a) => a.title === 'Lower workers.max to 4 (policy team-limits)');
    assert.ok(lower, actions.map((a) => a.title).join(' | '));
    assert.equal(lower.isPreferred, true);
    const fixed = applied(SPEC, editsOf(lower).edits);
    assert.equal(fixed, SPEC.replace('  max: 8', '  max: 4'));
    await client.change(uri, fixed);
    assert.deepEqual(
      policyFindings(await client.pulledDiagnostics(uri)).map((d) => d.code),
      ['policy-allowed-pools'],
    );
    await client.close(uri);
  });

  it('replaces a pool the policy does not allow with the allowed one of the same VRAM', async () => {
    const uri = w.uri('pool.endpoint.yaml');
    await client.open(uri, SPEC);
    const finding = policyFindings(await client.pulledDiagnostics(uri)).filter((d) => d.code === 'policy-allowed-pools');
    assert.deepEqual((finding[0]?.data as { policy?: { allowedPools?: unknown } }).policy?.allowedPools, [
      { id: 'AMPERE_48', memoryGb: 48 },
      { id: 'ADA_24', memoryGb: 24 },
    ]);
    const actions = await client.codeActions(uri, finding);
    const pools = actions.filter((a) => a.title.startsWith('Use pool'));
    assert.deepEqual(
      pools.map((a) => a.title),
      ['Use pool AMPERE_48 (48 GB, allowed by policy team-limits)'],
    );
    assert.equal(pools[0].isPreferred, true);
    assert.equal(applied(SPEC, editsOf(pools[0]).edits), SPEC.replace('[ADA_48_PRO]', '[AMPERE_48]'));
    await client.close(uri);
  });

  it('adds an ignore comment above the value, its reason a snippet placeholder', async () => {
    const uri = w.uri('ignore.endpoint.yaml');
    await client.open(uri, SPEC);
    const finding = policyFindings(await client.pulledDiagnostics(uri)).filter((d) => d.code === 'policy-max-workers');
    const ignore = (await client.codeActions(uri, finding)).find((a) => a.title === 'Ignore policy-max-workers here, with a reason');
    assert.ok(ignore);
    const { edits, snippets } = editsOf(ignore);
    assert.deepEqual(edits, []);
    assert.deepEqual(snippets, ['  # endpoint-studio-ignore policy-max-workers: ${1:reason}\n']);
    const change = ignore.edit?.documentChanges?.[0];
    assert.ok(change && 'edits' in change);
    assert.deepEqual(change.edits[0].range, { start: { line: 7, character: 0 }, end: { line: 7, character: 0 } });
    // The comment, once its reason is typed, silences the finding: a hint, with that reason.
    const typed = SPEC.replace('  max: 8', '  # endpoint-studio-ignore policy-max-workers: load test until 12-05\n  max: 8');
    await client.change(uri, typed);
    const silenced = (await client.pulledDiagnostics(uri)).find((d) => d.code === 'policy-max-workers');
    assert.ok(silenced);
    assert.equal(silenced.severity, 4);
    const offered = await client.codeActions(uri, [silenced]);
    assert.deepEqual(offered, [], 'a silenced finding has nothing left to fix');
    await client.close(uri);
  });
});

describe('a team policy finding in editors without snippet edits', () => {
  const w = policyWorkspace();
  const clients: LspClient[] = [];

  after(async () => {
    await Promise.all(clients.map((c) => c.stop()));
    rmSync(w.folder, { recursive: true, force: true });
  });

  async function start(capabilities: ClientCapabilities): Promise<LspClient> {
    const client = await LspClient.start({ capabilities, onlyDeclared: true, workspaceFolders: [w.folder], catalogFile: w.catalogFile });
    clients.push(client);
    return client;
  }

  async function ignoreAction(client: LspClient, name: string): Promise<CodeAction | undefined> {
    const uri = w.uri(name);
    await client.open(uri, SPEC);
    const finding = policyFindings(await client.pushedDiagnostics(uri, 1)).filter((d) => d.code === 'policy-max-workers');
    return (await client.codeActions(uri, finding)).find((a) => a.title.startsWith('Ignore policy-max-workers'));
  }

  it('gives Neovim a plain reason, and selects it once the edit is applied', async () => {
    const client = await start(recordedClient('neovim-0.10.4').capabilities);
    assert.deepEqual(client.initializeResult?.capabilities.executeCommandProvider, { commands: ['endpointStudio.selectText'] });
    const shown: unknown[] = [];
    client.connection.onRequest('window/showDocument', (params: unknown) => {
      shown.push(params);
      return { success: true };
    });
    const uri = w.uri('neovim.endpoint.yaml');
    const ignore = await ignoreAction(client, 'neovim.endpoint.yaml');
    assert.ok(ignore);
    assert.equal(ignore.edit?.documentChanges, undefined, 'no snippet edit');
    const { edits } = editsOf(ignore);
    assert.deepEqual(edits, [
      {
        range: { start: { line: 7, character: 0 }, end: { line: 7, character: 0 } },
        newText: '  # endpoint-studio-ignore policy-max-workers: reason\n',
      },
    ]);
    const range = { start: { line: 7, character: 47 }, end: { line: 7, character: 53 } };
    const { command } = ignore;
    assert.ok(command);
    assert.deepEqual(command.arguments, [uri, range]);
    // As Neovim does: the edit applied, then the command run.
    const text = applied(SPEC, edits);
    assert.equal(TextDocument.create(uri, 'yaml', 1, text).getText(range), 'reason');
    await client.change(uri, text);
    await client.connection.sendRequest('workspace/executeCommand', { command: command.command, arguments: command.arguments });
    assert.deepEqual(shown, [{ uri, takeFocus: true, selection: range }]);
  });

  it('gives Helix, which cannot be asked to show a document, the plain reason and no command', async () => {
    const client = await start(recordedClient('helix-25.01').capabilities);
    assert.equal(client.initializeResult?.capabilities.executeCommandProvider, undefined);
    const ignore = await ignoreAction(client, 'helix.endpoint.yaml');
    assert.ok(ignore);
    assert.equal(editsOf(ignore).edits[0]?.newText, '  # endpoint-studio-ignore policy-max-workers: reason\n');
    assert.equal(ignore.command, undefined);
    assert.deepEqual(client.undeclaredRequests, []);
  });
});
