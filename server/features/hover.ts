/**
 * Hover in spec documents: the language service's markdown for the key or value under the cursor; and in the
 * team policy, its keys, codes and catalog ids.
 */
import { MarkupKind, type Connection, type Hover } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { environmentsHover, hover, hoverPolicy } from '../languageService';
import { rangeAt, type SpecDocuments } from '../specDocuments';
import type { ServerCatalog } from './catalogStatus';

export function registerHover(connection: Connection, specs: SpecDocuments, catalog: ServerCatalog): void {
  connection.onHover((params) => {
    const policy = specs.policy(params.textDocument.uri);
    if (policy) {
      const result = hoverPolicy(policy.offsetAt(params.position), specs.policyAnalysisOf(policy), catalog.catalog);
      return result ? markdownHover(policy, result.markdown, result.span) : null;
    }
    const document = specs.spec(params.textDocument.uri);
    if (!document) return null;
    const offset = document.offsetAt(params.position);
    // In an overlay, what the field is and costs in the environment: its merged body.
    const result = hover(offset, specs.deployedAnalysisOf(document), catalog.catalog);
    if (!result) return null;
    const environments = environmentsHover(offset, specs.analysisOf(document), specs.linksOf(document).overlays);
    return markdownHover(document, environments ? `${result.markdown}\n\n---\n\n${environments}` : result.markdown, result.span);
  });
}

function markdownHover(document: TextDocument, value: string, span: { offset: number; length: number }): Hover {
  return { contents: { kind: MarkupKind.Markdown, value }, range: rangeAt(document, span.offset, span.length) };
}
