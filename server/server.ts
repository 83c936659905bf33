/**
 * LSP wiring for the spec language service. Each feature registers its own handlers (features/);
 * they share the open spec documents, whose analysis is computed once per version, and the catalog.
 */
import { TextDocuments, type Connection } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { ServerCatalog } from './features/catalogStatus';
import { registerCodeActions } from './features/codeActions';
import { registerCompletion } from './features/completion';
import { registerDefinition } from './features/definition';
import { SpecDiagnostics } from './features/diagnostics';
import { registerFormatting } from './features/formatting';
import { registerHover } from './features/hover';
import { registerInlayHints } from './features/inlayHints';
import { registerLinks } from './features/links';
import { registerOutline } from './features/outline';
import { registerSpecFacts } from './features/specFacts';
import { WatchedFiles } from './features/watchedFiles';
import { ServerSettings } from './features/settings';
import { registerInitialize, type ServerOptions } from './session';
import { SpecDocuments } from './specDocuments';

export type { ServerOptions } from './session';

/** An error as the output shows it: its stack, where the bug is. */
export function errorText(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

export function startServer(connection: Connection, defaults: ServerOptions): void {
  const session = registerInitialize(connection, defaults);
  const catalog = new ServerCatalog(connection, session);
  const settings = new ServerSettings(connection, session);
  const documents = new TextDocuments(TextDocument);
  const watchedFiles = new WatchedFiles(connection, session);
  const logError = (what: string, error: unknown): void => {
    connection.console.error(`${what}: ${errorText(error)}`);
  };
  const specs = new SpecDocuments(
    documents,
    () => catalog.validationContext(),
    logError,
    () => session.workspaceRoots,
    (folder) => {
      watchedFiles.readsFolder(folder);
    },
  );
  const diagnostics = new SpecDiagnostics(connection, specs, session);
  // An edit to a base, or a change on disk, changes its overlays' problems, and one to an overlay its base's.
  specs.onDidChangeLinked(() => {
    diagnostics.recheckAll();
  });
  watchedFiles.onDidChange((changes) => {
    // The policy is read by the checks like a spec file: its change drops the checks it judged.
    if (changes.files.length > 0) specs.changedOnDisk(changes.files);
    if (changes.environments) diagnostics.recheckAll();
  });
  // Checks depend on the catalog: every open spec is checked again against a new one.
  catalog.onDidChangeCatalog(() => {
    specs.invalidateAll();
    diagnostics.recheckAll();
  });
  registerCompletion(connection, specs, catalog, session);
  registerHover(connection, specs, catalog);
  registerCodeActions(connection, specs, catalog, session);
  registerInlayHints(connection, specs, catalog, session, settings);
  registerOutline(connection, specs);
  registerFormatting(connection, specs, session);
  registerLinks(connection, specs, catalog, session);
  registerDefinition(connection, specs);
  registerSpecFacts(connection, specs, logError);
  documents.listen(connection);
  connection.listen();
}
