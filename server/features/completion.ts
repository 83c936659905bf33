/** Completion in spec documents and in the team policy: the language service's proposals as LSP completion items. */
import { CompletionItemKind, InsertTextFormat, MarkupKind, type CompletionItem, type Connection } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { complete, completePolicy, type SpecCompletion } from '../languageService';
import { rangeAt, type SpecDocuments } from '../specDocuments';
import type { ServerSession } from '../session';
import type { ServerCatalog } from './catalogStatus';

const kinds = {
  property: CompletionItemKind.Property,
  snippet: CompletionItemKind.Snippet,
  value: CompletionItemKind.EnumMember,
} as const;

export function registerCompletion(connection: Connection, specs: SpecDocuments, catalog: ServerCatalog, session: ServerSession): void {
  connection.onCompletion((params) => {
    // A client that takes no snippets would insert `${1:...}` literally: it gets plain text.
    const snippets = session.capabilities.textDocument?.completion?.completionItem?.snippetSupport === true;
    const policy = specs.policy(params.textDocument.uri);
    if (policy) {
      const at = policy.offsetAt(params.position);
      const proposals = completePolicy(policy.getText(), at, specs.policyAnalysisOf(policy), catalog.catalog, snippets);
      return proposals.map((proposal) => toCompletionItem(policy, proposal));
    }
    const document = specs.spec(params.textDocument.uri);
    if (!document) return [];
    const offset = document.offsetAt(params.position);
    // In an overlay, what a value may be depends on the merged body (the base's type, its pools); the keys on offer
    // still come from the overlay's own text.
    const analysis = specs.deployedAnalysisOf(document);
    const proposals = complete(document.getText(), specs.formatOf(document), offset, analysis, catalog.catalog, snippets);
    return proposals.map((proposal) => toCompletionItem(document, proposal));
  });
}

function toCompletionItem(document: TextDocument, c: SpecCompletion): CompletionItem {
  return {
    label: c.label,
    kind: kinds[c.kind],
    detail: c.detail,
    documentation: c.documentation ? { kind: MarkupKind.Markdown, value: c.documentation } : undefined,
    insertTextFormat: c.snippet ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
    sortText: c.sortText,
    filterText: c.label,
    textEdit: { range: rangeAt(document, c.replaceSpan.offset, c.replaceSpan.length), newText: c.insertText },
  };
}
