/**
 * Starts the language server on the transport named in argv. The extension starts it over node IPC; any
 * other LSP client runs `endpoint-studio lsp --stdio` (or this file with `--stdio`).
 */
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { catalogFileFromEnvironment } from '../../core/api/config';
import { errorText, startServer } from '../server';

export const DEFAULT_DEBOUNCE_MS = 150;

export function runLanguageServer(): void {
  // createConnection() picks the transport from argv: --stdio, --node-ipc or --socket=N.
  const connection = createConnection(ProposedFeatures.all);
  // The last resort: a promise nobody awaited must not end the process (Node's default), which would take every
  // open spec's problems with it. The features settle their own; what reaches here is a bug, logged and survived.
  process.on('unhandledRejection', (reason) => {
    connection.console.error(`unexpected error, the server goes on: ${errorText(reason)}`);
  });
  const fromEnvironment = Number(process.env.ENDPOINT_STUDIO_DEBOUNCE_MS);
  startServer(connection, {
    debounceMs: Number.isFinite(fromEnvironment) && fromEnvironment >= 0 ? fromEnvironment : DEFAULT_DEBOUNCE_MS,
    catalogFile: catalogFileFromEnvironment(),
  });
}
