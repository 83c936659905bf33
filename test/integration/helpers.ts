/** Small waits over the `vscode` API: diagnostics and activation arrive asynchronously from the language server. */
import * as vscode from 'vscode';

export const EXTENSION_ID = 'endpoint-studio.endpoint-studio';
export const DIAGNOSTIC_SOURCE = 'endpoint-studio';

export function workspaceFile(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the integration suite needs a workspace folder (a copy of examples/)');
  return vscode.Uri.joinPath(folder.uri, name);
}

export async function openSpec(name: string): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(workspaceFile(name));
  return vscode.window.showTextDocument(document);
}

/** Resolves with the file's diagnostics once `accept` holds for them, listening rather than sleeping. */
export function diagnosticsWhen(
  uri: vscode.Uri,
  accept: (diagnostics: readonly vscode.Diagnostic[]) => boolean,
  timeoutMs = 20_000,
): Promise<readonly vscode.Diagnostic[]> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const diagnostics = vscode.languages.getDiagnostics(uri);
      if (!accept(diagnostics)) return false;
      cleanup();
      resolve(diagnostics);
      return true;
    };
    const subscription = vscode.languages.onDidChangeDiagnostics((event) => {
      if (event.uris.some((u) => u.toString() === uri.toString())) check();
    });
    const timer = setTimeout(() => {
      cleanup();
      const seen = vscode.languages.getDiagnostics(uri).map((d) => `${codeOf(d)}: ${d.message}`);
      reject(new Error(`diagnostics of ${vscode.workspace.asRelativePath(uri)} never matched; last seen: ${JSON.stringify(seen)}`));
    }, timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      subscription.dispose();
    };
    check();
  });
}

export function codeOf(diagnostic: vscode.Diagnostic): string {
  const code = diagnostic.code;
  return String(typeof code === 'object' ? code.value : code);
}

/** Polls a condition the extension host will meet soon (activation has no event of its own). */
export async function eventually(condition: () => boolean, description: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${description}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
