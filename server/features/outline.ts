/**
 * The spec's structure for the editor: document symbols (Outline, breadcrumbs, sticky scroll, Go to
 * Symbol), folding ranges and selection ranges, from the language service's spans.
 */
import {
  FoldingRangeKind,
  SymbolKind,
  type Connection,
  type DocumentSymbol,
  type FoldingRange,
  type SelectionRange,
} from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { spanEnd } from '../../core/endpointSpec/tree';
import { documentAt } from '../languageService/cursor';
import { foldingSpans, selectionSpans } from '../languageService/structure';
import { documentSymbols, type SpecSymbol, type SpecSymbolKind } from '../languageService/symbols';
import { rangeAt, type SpecDocuments } from '../specDocuments';

const SYMBOL_KINDS: Record<SpecSymbolKind, SymbolKind> = {
  document: SymbolKind.File,
  object: SymbolKind.Object,
  array: SymbolKind.Array,
  string: SymbolKind.String,
  number: SymbolKind.Number,
  boolean: SymbolKind.Boolean,
  null: SymbolKind.Null,
  enum: SymbolKind.EnumMember,
  variable: SymbolKind.Variable,
  alias: SymbolKind.Constant,
};

export function registerOutline(connection: Connection, specs: SpecDocuments): void {
  connection.onDocumentSymbol((params) => {
    const document = specs.spec(params.textDocument.uri);
    if (!document) return [];
    return documentSymbols(specs.analysisOf(document).documents).map((symbol) => toDocumentSymbol(document, symbol));
  });
  connection.onFoldingRanges((params) => {
    const document = specs.spec(params.textDocument.uri);
    if (!document) return [];
    return toFoldingRanges(document, foldingSpans(document.getText(), specs.analysisOf(document).documents));
  });
  connection.onSelectionRanges((params) => {
    const document = specs.spec(params.textDocument.uri);
    if (!document) return [];
    const documents = specs.analysisOf(document).documents;
    return params.positions.map((position): SelectionRange => {
      const offset = document.offsetAt(position);
      const spans = selectionSpans(documentAt(documents, offset), offset);
      // Innermost first in the list, so the chain is built from the outside in.
      let chain: SelectionRange | undefined;
      for (const span of [...spans].reverse()) chain = { range: rangeAt(document, span.offset, span.length), parent: chain };
      return chain ?? { range: { start: position, end: position } };
    });
  });
}

function toDocumentSymbol(document: TextDocument, symbol: SpecSymbol): DocumentSymbol {
  const range = rangeAt(document, symbol.span.offset, symbol.span.length);
  const inside = symbol.selectionSpan.offset >= symbol.span.offset && spanEnd(symbol.selectionSpan) <= spanEnd(symbol.span);
  // Editors refuse a symbol whose selection lies outside its range.
  const selectionRange = inside
    ? rangeAt(document, symbol.selectionSpan.offset, symbol.selectionSpan.length)
    : { start: range.start, end: range.start };
  return {
    name: symbol.name,
    detail: symbol.detail,
    kind: SYMBOL_KINDS[symbol.kind],
    range,
    selectionRange,
    children: symbol.children.map((child) => toDocumentSymbol(document, child)),
  };
}

/** Line ranges, one per start line (the outermost), none within a single line. */
function toFoldingRanges(document: TextDocument, spans: ReturnType<typeof foldingSpans>): FoldingRange[] {
  const byStart = new Map<number, FoldingRange>();
  for (const span of spans) {
    const startLine = document.positionAt(span.offset).line;
    const end = document.positionAt(spanEnd(span));
    // A span that ends at the start of a line (a document up to the next `---`) ends on the line before.
    const endLine = end.character === 0 && end.line > startLine ? end.line - 1 : end.line;
    if (endLine <= startLine) continue;
    const known = byStart.get(startLine);
    if (known && known.endLine >= endLine) continue;
    byStart.set(startLine, { startLine, endLine, ...(span.kind === 'comment' ? { kind: FoldingRangeKind.Comment } : {}) });
  }
  return [...byStart.values()].sort((a, b) => a.startLine - b.startLine);
}
