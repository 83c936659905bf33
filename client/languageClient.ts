import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';

export const SPEC_DOCUMENT_SELECTOR = [
  { scheme: 'file', language: 'yaml', pattern: '**/*.endpoint.{yaml,yml}' },
  { scheme: 'file', language: 'json', pattern: '**/*.endpoint.json' },
];

export async function startLanguageClient(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): Promise<LanguageClient> {
  const serverModule = context.asAbsolutePath('dist/server.js');
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc },
    debug: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6019'] } },
  };
  const settings = vscode.workspace.getConfiguration('endpointStudio');
  const clientOptions: LanguageClientOptions = {
    documentSelector: SPEC_DOCUMENT_SELECTOR,
    outputChannel: log,
    initializationOptions: { debounceMs: settings.get<number>('validation.debounceMs', 150) },
  };
  const client = new LanguageClient('endpointStudio', 'Endpoint Studio Language Server', serverOptions, clientOptions);
  context.subscriptions.push(client);
  await client.start();
  return client;
}
