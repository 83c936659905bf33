/**
 * The floor of the typing benchmark: an LSP server that does nothing but what every server must (full text
 * sync through vscode-languageserver, a 150 ms debounce per document, publishing `[]`). Whatever our server
 * costs per edit beyond this is its own work. The benchmark bundles it the way dist/server.js is bundled.
 */
import { TextDocuments, TextDocumentSyncKind, createConnection } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';

const DEBOUNCE_MS = 150;

const connection = createConnection();
const documents = new TextDocuments(TextDocument);
const timers = new Map<string, NodeJS.Timeout>();

connection.onInitialize(() => ({ capabilities: { textDocumentSync: TextDocumentSyncKind.Full } }));

documents.onDidChangeContent(({ document }) => {
  const { uri, version } = document;
  clearTimeout(timers.get(uri));
  timers.set(
    uri,
    setTimeout(() => {
      timers.delete(uri);
      void connection.sendDiagnostics({ uri, version, diagnostics: [] });
    }, DEBOUNCE_MS),
  );
});

documents.listen(connection);
connection.listen();
