/** `Endpoint Studio: New Endpoint Spec`: pick a starter, name it, and open the new spec file. */
import * as vscode from 'vscode';
import { SPEC_STARTERS, starterText } from '../core/endpointSpec/starters';
import { specFileName } from '../core/protocol';

const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function registerNewSpecCommand(): vscode.Disposable {
  return vscode.commands.registerCommand('endpointStudio.spec.new', async () => {
    const starter = await vscode.window.showQuickPick(
      SPEC_STARTERS.map((s) => ({ label: s.label, detail: s.description, starter: s })),
      { title: 'New Endpoint Spec', placeHolder: 'What kind of endpoint?' },
    );
    if (!starter) return;
    const name = await vscode.window.showInputBox({
      title: 'New Endpoint Spec',
      prompt: 'Endpoint name (also the file name)',
      value: starter.starter.snippet.match(/\$\{1:([^}]*)\}/)?.[1] ?? 'my-endpoint',
      validateInput: (value) =>
        NAME_PATTERN.test(value) ? undefined : 'letters, digits, dot, dash and underscore; start with a letter or digit',
    });
    if (!name) return;
    const target = await chooseTarget(name);
    if (!target) return;
    try {
      await vscode.workspace.fs.stat(target);
      void vscode.window.showErrorMessage(`new spec not created, the file already exists: ${vscode.workspace.asRelativePath(target)}`);
      return;
    } catch {
      // Not there yet: the expected case.
    }
    await vscode.workspace.fs.writeFile(target, Buffer.from(starterText(starter.starter, name), 'utf8'));
    await vscode.window.showTextDocument(target);
  });
}

async function chooseTarget(name: string): Promise<vscode.Uri | undefined> {
  const fileName = specFileName(name);
  const active = vscode.window.activeTextEditor?.document.uri;
  const folder = active?.scheme === 'file' ? vscode.Uri.joinPath(active, '..') : vscode.workspace.workspaceFolders?.[0]?.uri;
  if (folder) return vscode.Uri.joinPath(folder, fileName);
  return vscode.window.showSaveDialog({
    title: 'Save the new endpoint spec',
    defaultUri: vscode.Uri.file(fileName),
    filters: { 'Endpoint spec': ['yaml'] },
  });
}
