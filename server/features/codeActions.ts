/**
 * Quick fixes for the server's own diagnostics. The client sends the diagnostics back with their
 * `data` (see diagnostics.ts), which says where in which `---` document the problem is.
 */
import { CodeActionKind, type CodeAction, type Connection, type Diagnostic } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { DIAGNOSTIC_SOURCE } from '../../core/endpointSpec/problem';
import { FIXABLE_CODES, fixes, type FixRequest, type QuickFix } from '../languageService';
import { rangeAt, type SpecDocuments } from '../specDocuments';
import type { ServerCatalog } from './catalogStatus';
import type { SpecDiagnosticData } from './diagnostics';

export function registerCodeActions(connection: Connection, specs: SpecDocuments, catalog: ServerCatalog): void {
  connection.onCodeAction((params) => {
    const document = specs.spec(params.textDocument.uri);
    if (!document) return [];
    const analysis = specs.analysisOf(document);
    const text = document.getText();
    const actions: CodeAction[] = [];
    for (const diagnostic of params.context.diagnostics) {
      const fixable = fixRequestOf(diagnostic);
      if (!fixable) continue;
      const found = fixes(text, specs.formatOf(document), analysis, fixable.request, fixable.documentIndex, catalog.catalog);
      for (const fix of found) actions.push(toCodeAction(document, diagnostic, fix));
    }
    return actions;
  });
}

/** What to fix, when the diagnostic is one of ours with a fix; the client may send back any diagnostic. */
function fixRequestOf(diagnostic: Diagnostic): { request: FixRequest; documentIndex: number } | undefined {
  const data = diagnostic.data as Partial<SpecDiagnosticData> | null | undefined;
  const { code } = diagnostic;
  if (diagnostic.source !== DIAGNOSTIC_SOURCE || typeof code !== 'string' || !FIXABLE_CODES.includes(code)) return undefined;
  if (!Array.isArray(data?.path)) return undefined;
  return {
    request: { code, path: data.path, suggestion: data.suggestion, related: data.related },
    documentIndex: data.documentIndex ?? 0,
  };
}

function toCodeAction(document: TextDocument, diagnostic: Diagnostic, fix: QuickFix): CodeAction {
  return {
    title: fix.title,
    kind: CodeActionKind.QuickFix,
    diagnostics: [diagnostic],
    isPreferred: fix.preferred,
    edit: {
      changes: {
        [document.uri]: fix.edits.map((e) => ({ range: rangeAt(document, e.offset, e.length), newText: e.newText })),
      },
    },
  };
}
