/**
 * The floor of the keystroke benchmark: an LSP server that does only what any server must in VS Code's mode
 * (incremental text sync through vscode-languageserver, pull diagnostics answered with no items). Whatever our
 * server costs per keystroke beyond this is its own work. The benchmark bundles it the way dist/server-main.js is.
 */
import { DocumentDiagnosticReportKind, TextDocuments, TextDocumentSyncKind, createConnection } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';

const connection = createConnection();
const documents = new TextDocuments(TextDocument);

connection.onInitialize(() => ({
  capabilities: {
    textDocumentSync: TextDocumentSyncKind.Incremental,
    diagnosticProvider: { interFileDependencies: false, workspaceDiagnostics: false },
  },
}));
connection.languages.diagnostics.on(() => ({ kind: DocumentDiagnosticReportKind.Full, items: [] }));

documents.listen(connection);
connection.listen();
