/**
 * The extension: starts the spec language server and contributes the authoring commands.
 * Everything the editor shows about a spec comes from the server, the same engine as the CLI.
 */
import * as vscode from 'vscode';
import { CatalogStatusItem } from './catalogStatus';
import { LanguageServerHost } from './languageClient';
import { registerNewSpecCommand } from './newSpec';

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const log = vscode.window.createOutputChannel('Endpoint Studio', { log: true });
  log.info(`Endpoint Studio ${String(context.extension.packageJSON.version)} activating; language server: ${context.asAbsolutePath('dist/server.js')}; workspace ${vscode.workspace.isTrusted ? 'trusted' : 'untrusted (nothing is sent to the service)'}`);
  const host = new LanguageServerHost(context, log);
  context.subscriptions.push(
    log,
    host,
    new CatalogStatusItem(host, log),
    registerNewSpecCommand(),
    vscode.commands.registerCommand('endpointStudio.server.restart', async () => {
      log.info('restarting the language server');
      await host.restart();
    }),
    // The API URL and trust decide what the server may call; both need a fresh server process.
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('endpointStudio.api')) void host.restart();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void host.restart()),
  );
  await host.start();
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
