/**
 * Starts the language server on the transport named in argv. The extension starts it over node IPC; any
 * other LSP client runs `endpoint-studio lsp --stdio` (or this file with `--stdio`).
 */
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from '../server';

export const DEFAULT_DEBOUNCE_MS = 150;

export function runLanguageServer(): void {
  // createConnection() picks the transport from argv: --stdio, --node-ipc or --socket=N.
  const connection = createConnection(ProposedFeatures.all);
  const fromEnvironment = Number(process.env.ENDPOINT_STUDIO_DEBOUNCE_MS);
  startServer(connection, {
    debounceMs: Number.isFinite(fromEnvironment) && fromEnvironment >= 0 ? fromEnvironment : DEFAULT_DEBOUNCE_MS,
    catalogFile: process.env.ENDPOINT_STUDIO_CATALOG_FILE || undefined,
  });
}
