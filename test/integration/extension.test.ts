/** The extension seen through the `vscode` API: activation, commands, diagnostics, completion, hover, quick fixes. */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { suite, suiteSetup, test } from 'mocha';
import * as vscode from 'vscode';
import { codeOf, diagnosticsWhen, DIAGNOSTIC_SOURCE, eventually, EXTENSION_ID, openSpec, workspaceFile } from './helpers';

suite('Endpoint Studio extension', () => {
  suiteSetup(async () => {
    await openSpec('sdxl-worker.endpoint.yaml');
  });

  test('activates on a spec in the workspace', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not loaded`);
    await eventually(() => extension.isActive, 'the extension to activate');
  });

  test('registers its commands', async () => {
    const commands = await vscode.commands.getCommands(true);
    for (const command of ['endpointStudio.spec.new', 'endpointStudio.server.restart']) {
      assert.ok(commands.includes(command), `command ${command} is missing`);
    }
  });

  test('reports the YAML spec mistakes with our codes and source', async () => {
    const uri = workspaceFile('broken-worker.endpoint.yaml');
    await openSpec('broken-worker.endpoint.yaml');
    const expected = ['env-value-not-string', 'invalid-enum', 'unknown-property', 'workers-min-above-max'];
    const diagnostics = await diagnosticsWhen(uri, (d) => d.length >= expected.length);
    assert.deepEqual(diagnostics.map(codeOf).sort(), expected);
    assert.ok(diagnostics.every((d) => d.source === DIAGNOSTIC_SOURCE));
    const unknown = diagnostics.find((d) => codeOf(d) === 'unknown-property');
    assert.ok(unknown, 'the unknown property is reported');
    assert.equal(unknown.range.start.line, 9, 'idelTimeout is on line 10');
    assert.match(unknown.message, /did you mean idleTimeout/);
    assert.equal(diagnostics.find((d) => codeOf(d) === 'workers-min-above-max')?.severity, vscode.DiagnosticSeverity.Warning);
  });

  test('reports the JSON spec mistakes', async () => {
    const uri = workspaceFile('broken-http.endpoint.json');
    await openSpec('broken-http.endpoint.json');
    const diagnostics = await diagnosticsWhen(uri, (d) => d.length >= 5);
    assert.deepEqual([...new Set(diagnostics.map(codeOf))].sort(), [
      'compute-choice',
      'port-format',
      'scaler-not-allowed',
      'vcpu-not-power-of-two',
    ]);
  });

  test('a valid spec has no diagnostics, and an edit that breaks it is reported then cleared', async () => {
    // A copy of its own to edit, so the examples the other tests read stay as they are.
    const uri = workspaceFile('integration-edit.endpoint.yaml');
    await vscode.workspace.fs.writeFile(uri, await vscode.workspace.fs.readFile(workspaceFile('sdxl-worker.endpoint.yaml')));
    const editor = await openSpec('integration-edit.endpoint.yaml');
    // Absence alone proves nothing (the server might not have answered yet): break it, then repair it.
    const broken = new vscode.WorkspaceEdit();
    broken.insert(uri, new vscode.Position(editor.document.lineCount, 0), 'bogusKey: 1\n');
    assert.ok(await vscode.workspace.applyEdit(broken));
    const reported = await diagnosticsWhen(uri, (d) => d.length > 0);
    assert.deepEqual(reported.map(codeOf), ['unknown-property']);
    const repair = new vscode.WorkspaceEdit();
    repair.delete(uri, new vscode.Range(editor.document.lineCount - 2, 0, editor.document.lineCount - 1, 0));
    assert.ok(await vscode.workspace.applyEdit(repair));
    await diagnosticsWhen(uri, (d) => d.length === 0);
  });

  test('completes enum values after `type: `', async () => {
    const editor = await openSpec('sdxl-worker.endpoint.yaml');
    const line = editor.document.lineAt(2);
    assert.equal(line.text, 'type: QUEUE');
    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      editor.document.uri,
      new vscode.Position(2, 'type: '.length),
    );
    const labels = list.items.map((item) => (typeof item.label === 'string' ? item.label : item.label.label));
    for (const value of ['QUEUE', 'LOAD_BALANCER']) assert.ok(labels.includes(value), `no ${value} in ${labels.join(', ')}`);
  });

  test('hovers document a field', async () => {
    const editor = await openSpec('sdxl-worker.endpoint.yaml');
    const flashbootLine = editor.document
      .getText()
      .split('\n')
      .findIndex((l) => l.startsWith('flashboot:'));
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      editor.document.uri,
      new vscode.Position(flashbootLine, 2),
    );
    // Markdown from the language client; a plain or code-block string when a hover is written that way.
    const text = hovers
      .flatMap((h) =>
        h.contents.map((c) => (c instanceof vscode.MarkdownString ? c.value : typeof c === 'string' ? c : (c as { value: string }).value)),
      )
      .join('\n');
    assert.match(text, /PRIORITY_FLASHBOOT/);
  });

  test('Restart Language Server leaves one server, which goes on checking', async () => {
    const uri = workspaceFile('integration-restart.endpoint.yaml');
    await vscode.workspace.fs.writeFile(uri, await vscode.workspace.fs.readFile(workspaceFile('sdxl-worker.endpoint.yaml')));
    const editor = await openSpec('integration-restart.endpoint.yaml');
    const before = serverProcesses();
    assert.equal(before.length, 1, `language server processes before the restart: ${before.join(', ')}`);
    await vscode.commands.executeCommand('endpointStudio.server.restart');
    const broken = new vscode.WorkspaceEdit();
    broken.insert(uri, new vscode.Position(editor.document.lineCount, 0), 'bogusKey: 1\n');
    assert.ok(await vscode.workspace.applyEdit(broken));
    assert.deepEqual((await diagnosticsWhen(uri, (d) => d.length > 0)).map(codeOf), ['unknown-property']);
    await eventually(() => serverProcesses().length === 1, 'the stopped server to exit', 5000);
    assert.notDeepEqual(serverProcesses(), before, 'a new server runs');
  });

  test('offers a quick fix for a misspelt key', async () => {
    const uri = workspaceFile('broken-worker.endpoint.yaml');
    await openSpec('broken-worker.endpoint.yaml');
    const diagnostics = await diagnosticsWhen(uri, (d) => d.some((x) => codeOf(x) === 'unknown-property'));
    const unknown = diagnostics.find((d) => codeOf(d) === 'unknown-property');
    assert.ok(unknown, 'the unknown property is reported');
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      uri,
      unknown.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    const titles = actions.map((a) => a.title);
    assert.ok(titles.includes('Rename to idleTimeout'), `quick fixes offered: ${titles.join(' | ')}`);
  });
});

/** The language servers this extension host runs: its children whose command line names dist/server.js (Linux). */
function serverProcesses(): number[] {
  const children = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  return children.map(Number).filter((pid) => {
    try {
      // Field 4 of /proc/<pid>/stat is the parent's pid; the command's name (field 2) may hold spaces.
      const parent = Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);
      return parent === process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('dist/server.js');
    } catch {
      return false; // it ended while being read
    }
  });
}
