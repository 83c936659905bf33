/**
 * Hover in spec documents: the language service's markdown for the key or value under the cursor, after the
 * team policy's findings there (the rule, its limit, where the policy writes it, how to allow the value); and in
 * the team policy, its keys, codes and catalog ids.
 */
import { MarkupKind, type Connection, type Hover } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { environmentsHover, hover, hoverPolicy, policyFindingHover } from '../languageService';
import { rangeAt, type SpecDocuments } from '../specDocuments';
import { filePathOf } from '../uris';
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
    const findings = policyFindings(specs, document, offset);
    // In an overlay, what the field is and costs in the environment: its merged body.
    const result = hover(offset, specs.deployedAnalysisOf(document), catalog.catalog);
    const environments = result && environmentsHover(offset, specs.analysisOf(document), specs.linksOf(document).overlays);
    const field = result && (environments ? `${result.markdown}\n\n---\n\n${environments}` : result.markdown);
    const markdown = [findings?.markdown, field].filter((part) => part !== undefined).join('\n\n---\n\n');
    const span = result?.span ?? findings?.span;
    return span && markdown ? markdownHover(document, markdown, span) : null;
  });
}

/** The team policy's findings under the cursor, the silenced ones too, explained. */
function policyFindings(specs: SpecDocuments, document: TextDocument, offset: number): ReturnType<typeof policyFindingHover> {
  const path = filePathOf(document.uri);
  const analysis = specs.analysisOf(document);
  if (path === undefined) return undefined;
  const findings = [...analysis.diagnostics, ...(analysis.suppressed ?? [])];
  return policyFindingHover(offset, findings, () => specs.policyOver(document), { path, format: specs.formatOf(document) });
}

function markdownHover(document: TextDocument, value: string, span: { offset: number; length: number }): Hover {
  return { contents: { kind: MarkupKind.Markdown, value }, range: rangeAt(document, span.offset, span.length) };
}
