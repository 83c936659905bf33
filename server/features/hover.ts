/** Hover in spec documents: the language service's markdown for the key or value under the cursor. */
import { MarkupKind, type Connection } from 'vscode-languageserver';
import { hover } from '../languageService';
import { rangeAt, type SpecDocuments } from '../specDocuments';
import type { ServerCatalog } from './catalogStatus';

export function registerHover(connection: Connection, specs: SpecDocuments, catalog: ServerCatalog): void {
  connection.onHover((params) => {
    const document = specs.spec(params.textDocument.uri);
    if (!document) return null;
    const result = hover(document.offsetAt(params.position), specs.analysisOf(document), catalog.catalog);
    if (!result) return null;
    return {
      contents: { kind: MarkupKind.Markdown, value: result.markdown },
      range: rangeAt(document, result.span.offset, result.span.length),
    };
  });
}
