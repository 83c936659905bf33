/**
 * Inlay hints in spec documents: the language service's defaults and costs as LSP inlay hints. Both depend
 * on more than the text (the settings, the catalog's prices), so a client that can be asked to fetch them
 * again is asked whenever either changes.
 */
import { MarkupKind, type Connection, type InlayHint } from 'vscode-languageserver';
import { environmentHints } from '../languageService/environments';
import { inlayHintsIn, oneHintPerOffset } from '../languageService/inlayHints';
import { ALL_INLAY_HINTS, type ServerSession } from '../session';
import type { SpecDocuments } from '../specDocuments';
import type { ServerCatalog } from './catalogStatus';
import type { ServerSettings } from './settings';

export function registerInlayHints(
  connection: Connection,
  specs: SpecDocuments,
  catalog: ServerCatalog,
  session: ServerSession,
  settings: ServerSettings,
): void {
  connection.languages.inlayHint.on((params): InlayHint[] => {
    const document = specs.spec(params.textDocument.uri);
    if (!document) return [];
    const start = document.offsetAt(params.range.start);
    const range = { offset: start, length: document.offsetAt(params.range.end) - start };
    const options = session.options.inlayHints ?? ALL_INLAY_HINTS;
    const environments = options.environments ? specs.linksOf(document).overlays : [];
    // An overlay's hints speak of its merged body: what the environment deploys, not what its text leaves out.
    const hints = inlayHintsIn(document.getText(), specs.deployedAnalysisOf(document), range, options, catalog.catalog);
    const fromEnvironments = environmentHints(specs.analysisOf(document).documents[0], environments, range);
    // An environment's value can sit where a cost hint is (beside workers.max): one hint per place, for every editor.
    const all = fromEnvironments.length > 0 ? oneHintPerOffset([...hints, ...fromEnvironments].sort((a, b) => a.offset - b.offset)) : hints;
    return all.map((hint) => ({
      position: document.positionAt(hint.offset),
      label: hint.label,
      tooltip: { kind: MarkupKind.Markdown, value: hint.tooltip },
      paddingLeft: true,
    }));
  });
  const refresh = (): void => {
    void session.requests.ask('workspace/inlayHint/refresh', () => connection.languages.inlayHint.refresh());
  };
  settings.onDidChange(refresh);
  catalog.onDidChangeCatalog(refresh);
}
