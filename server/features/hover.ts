/** Hover in spec documents: the language service's markdown for the key or value under the cursor. */
import { MarkupKind, type Connection } from 'vscode-languageserver';
import { environmentsHover, hover } from '../languageService';
import { rangeAt, type SpecDocuments } from '../specDocuments';
import type { ServerCatalog } from './catalogStatus';

export function registerHover(connection: Connection, specs: SpecDocuments, catalog: ServerCatalog): void {
  connection.onHover((params) => {
    const document = specs.spec(params.textDocument.uri);
    if (!document) return null;
    const offset = document.offsetAt(params.position);
    // In an overlay, what the field is and costs in the environment: its merged body.
    const result = hover(offset, specs.deployedAnalysisOf(document), catalog.catalog);
    if (!result) return null;
    const environments = environmentsHover(offset, specs.analysisOf(document), specs.linksOf(document).overlays);
    return {
      contents: { kind: MarkupKind.Markdown, value: environments ? `${result.markdown}\n\n---\n\n${environments}` : result.markdown },
      range: rangeAt(document, result.span.offset, result.span.length),
    };
  });
}
