/**
 * Quick fixes for the server's own diagnostics. The client sends the diagnostics back with their
 * `data` (see diagnostics.ts), which says where in which `---` document the problem is, and for a team policy
 * finding its rule, limit and allowed pools. An ignore comment's reason is typed by the user: a snippet
 * placeholder for a client that takes snippets in workspace edits, otherwise a plain `reason`, which a client
 * that can be asked to show a document then finds selected.
 */
import {
  CodeActionKind,
  type CodeAction,
  type Command,
  type Connection,
  type Diagnostic,
  type Range,
  type WorkspaceEdit,
} from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { DIAGNOSTIC_SOURCE } from '../../core/endpointSpec/problem';
import type { SpecFormat } from '../../core/endpointSpec/tree';
import type { PolicyFacts } from '../../core/policy';
import { policyFixes, quickFixes, REASON_PLACEHOLDER, snippetAsPlainText, type CheckResult, type QuickFix } from '../languageService';
import { SELECT_TEXT_COMMAND, takesSnippetEdits, type ServerSession } from '../session';
import { rangeAt, type SpecDocuments } from '../specDocuments';
import type { ServerCatalog } from './catalogStatus';
import type { SpecDiagnosticData } from './diagnostics';

export function registerCodeActions(connection: Connection, specs: SpecDocuments, catalog: ServerCatalog, session: ServerSession): void {
  connection.onCodeAction((params) => {
    const document = specs.spec(params.textDocument.uri);
    if (!document) return [];
    const analysis = specs.analysisOf(document);
    const format = specs.formatOf(document);
    return params.context.diagnostics.flatMap((diagnostic) =>
      fixesOf(document, format, analysis, diagnostic, catalog).map((fix) => toCodeAction(document, diagnostic, fix, session)),
    );
  });
  // Only a client without snippet edits that can show a document is told of this command (session.ts).
  connection.onExecuteCommand(async ({ command, arguments: args }) => {
    if (command !== SELECT_TEXT_COMMAND) return null;
    const [uri, range] = (args ?? []) as [unknown, Range | undefined];
    const document = typeof uri === 'string' ? specs.spec(uri) : undefined;
    // The edit it follows may not have been applied as sent (the user typed meanwhile): then nothing is selected.
    if (!document || !range || document.getText(range) !== REASON_PLACEHOLDER) return null;
    await session.requests.ask('window/showDocument', () =>
      connection.window.showDocument({ uri: document.uri, takeFocus: true, selection: range }),
    );
    return null;
  });
}

/** The fixes of a diagnostic of ours: a team policy finding's, with the facts they need, or a spec problem's. */
function fixesOf(
  document: TextDocument,
  format: SpecFormat,
  analysis: CheckResult,
  diagnostic: Diagnostic,
  catalog: ServerCatalog,
): QuickFix[] {
  // Sent back by the client, which may send any diagnostic: its shape is checked, not trusted.
  const data = diagnostic.data as Partial<SpecDiagnosticData> | null | undefined;
  const { code } = diagnostic;
  if (diagnostic.source !== DIAGNOSTIC_SOURCE || typeof code !== 'string' || !Array.isArray(data?.path)) return [];
  const { path } = data;
  const text = document.getText();
  const parsed = analysis.documents[data.documentIndex ?? 0];
  const facts: unknown = data.policy;
  if (typeof facts !== 'object' || facts === null)
    return quickFixes({ code, path, suggestion: data.suggestion, related: data.related }, text, format, parsed, catalog.catalog);
  const offset = document.offsetAt(diagnostic.range.start);
  return policyFixes({ code, path, facts: facts as PolicyFacts, offset, suppressed: data.suppressed === true }, text, format, parsed);
}

function toCodeAction(document: TextDocument, diagnostic: Diagnostic, fix: QuickFix, session: ServerSession): CodeAction {
  const snippet = fix.snippet === true;
  const asSnippet = snippet && takesSnippetEdits(session.capabilities);
  const select = snippet && !asSnippet ? selectPlaceholder(document, fix, session) : undefined;
  return {
    title: fix.title,
    kind: CodeActionKind.QuickFix,
    diagnostics: [diagnostic],
    isPreferred: fix.preferred,
    edit: asSnippet ? snippetEdit(document, fix) : textEdit(document, fix, snippet),
    ...(select ? { command: select } : {}),
  };
}

function textEdit(document: TextDocument, fix: QuickFix, snippet: boolean): WorkspaceEdit {
  const edits = fix.edits.map((e) => ({
    range: rangeAt(document, e.offset, e.length),
    newText: snippet ? snippetAsPlainText(e.newText) : e.newText,
  }));
  return { changes: { [document.uri]: edits } };
}

/** A snippet text edit (LSP 3.18), which only goes in a versioned document change. */
function snippetEdit(document: TextDocument, fix: QuickFix): WorkspaceEdit {
  const edits = fix.edits.map((e) => ({
    range: rangeAt(document, e.offset, e.length),
    snippet: { kind: 'snippet' as const, value: e.newText },
  }));
  return { documentChanges: [{ textDocument: { uri: document.uri, version: document.version }, edits }] };
}

/**
 * The command that selects the placeholder's default once the plain edit is applied, for a client that can be
 * asked to show a document with a selection; undefined otherwise. The edit inserts whole lines before the
 * placeholder's, so its line is the edit's and its column is its place in the inserted text.
 */
function selectPlaceholder(document: TextDocument, fix: QuickFix, session: ServerSession): Command | undefined {
  const [edit] = fix.edits;
  if (fix.edits.length !== 1 || !session.requests.declares('window/showDocument')) return undefined;
  const start = snippetAsPlainText(edit.newText.slice(0, edit.newText.indexOf('${1:'))).split(/\r?\n/);
  const line = document.positionAt(edit.offset).line + start.length - 1;
  const character = (start.length === 1 ? document.positionAt(edit.offset).character : 0) + (start.at(-1)?.length ?? 0);
  const range = { start: { line, character }, end: { line, character: character + REASON_PLACEHOLDER.length } };
  return { title: 'Select the reason', command: SELECT_TEXT_COMMAND, arguments: [document.uri, range] };
}
