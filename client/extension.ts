/**
 * The extension: starts the spec language server and contributes the authoring commands.
 * Everything the editor shows about a spec comes from the server, the same engine as the CLI.
 */
import * as vscode from 'vscode';
import { startLanguageClient } from './languageClient';
import { registerNewSpecCommand } from './newSpec';

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const log = vscode.window.createOutputChannel('Endpoint Studio', { log: true });
  context.subscriptions.push(log);
  const client = await startLanguageClient(context, log);
  context.subscriptions.push(
    registerNewSpecCommand(),
    vscode.commands.registerCommand('endpointStudio.server.restart', async () => {
      log.info('restarting the language server');
      await client.restart();
    }),
  );
}

export function deactivate(): void {
  // The language client is disposed through context.subscriptions.
}
