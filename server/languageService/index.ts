/**
 * The spec language service: pure functions of (text, parsed result, offset). No LSP types and
 * no I/O, so the LSP handlers stay thin and everything here is testable on strings.
 */
import { checkSpecText, type CheckResult, type DocumentReuse, type SpecDiagnostic } from '../../core/endpointSpec/check';
import type { SpecFormat, TextSpan } from '../../core/endpointSpec/tree';
import type { Catalog } from '../../core/endpointSpec/catalog/catalog';
import type { ValidationContext } from '../../core/endpointSpec/validate';
import { completeAt, forSnippets, type SpecCompletion } from './completion';
import { completionContext, documentAt, nodeAt } from './cursor';
import { hoverMarkdown } from './hover';
import { environmentsHoverMarkdown, type EnvironmentValues } from './environments';

export type { CheckResult } from '../../core/endpointSpec/check';
export type { SpecCompletion } from './completion';
export { quickFixes, type QuickFix } from './quickFixes';
export { snippetAsPlainText } from './completion';
export { analyzePolicy, completePolicy, hoverPolicy, type PolicyAnalysis } from './policyDocument';
export { policyFindingHover, policyFixes, REASON_PLACEHOLDER, type PolicyFixRequest, type PolicyOver } from './policyFindings';
export { DocumentReuse } from '../../core/endpointSpec/check';

/**
 * Larger files are not checked in the editor: a spec is a few kilobytes, a file of thousands of specs well
 * under this, and parsing many megabytes would hold the server's memory at gigabytes for a file nobody
 * edits by hand. The CLI still checks them.
 */
export const MAX_CHECKED_TEXT_LENGTH = 4 * 1024 * 1024;

/** `reuse`: what the last check of the same file found, so unchanged `---` documents are not checked again. */
export function analyze(text: string, format: SpecFormat, context: ValidationContext = {}, reuse?: DocumentReuse): CheckResult {
  if (text.length > MAX_CHECKED_TEXT_LENGTH) return tooLarge(text);
  return checkSpecText(text, format, 'create', context, reuse);
}

function tooLarge(text: string): CheckResult {
  const megabytes = (size: number): string => `${(size / 1024 / 1024).toFixed(1)} MB`;
  return fileProblem({
    severity: 'warning',
    code: 'file-too-large',
    message: `the file is not checked in the editor: it is ${megabytes(text.length)}, the limit is ${megabytes(MAX_CHECKED_TEXT_LENGTH)} (split it, or run endpoint-studio validate on it)`,
  });
}

/** A result of no documents and one problem of the whole file, shown at its start. */
export function fileProblem(problem: Pick<SpecDiagnostic, 'severity' | 'code' | 'message'>): CheckResult {
  const start = { line: 0, character: 0 };
  const diagnostic = { range: { start, end: start }, offset: 0, length: 0, ...problem, path: [], documentIndex: 0 };
  return { documents: [], diagnostics: [diagnostic] };
}

/** `snippets`: the client takes snippets; otherwise every proposal inserts plain text, its placeholders at their defaults. */
export function complete(
  text: string,
  format: SpecFormat,
  offset: number,
  analysis: CheckResult,
  catalog?: Catalog,
  snippets = true,
): SpecCompletion[] {
  if (text.length > MAX_CHECKED_TEXT_LENGTH) return [];
  const document = documentAt(analysis.documents, offset);
  const context = completionContext(text, offset, format, document);
  return forSnippets(context ? completeAt(context, document?.data, format, catalog) : [], snippets);
}

export function hover(offset: number, analysis: CheckResult, catalog?: Catalog): { markdown: string; span: TextSpan } | undefined {
  const document = documentAt(analysis.documents, offset);
  const target = nodeAt(document?.root, offset);
  if (!target) return undefined;
  const markdown = hoverMarkdown(target.path, target.onKey, target.node, document?.data, catalog);
  return markdown ? { markdown, span: target.span } : undefined;
}

/** A base's field under the cursor, in each of its environments. */
export function environmentsHover(offset: number, analysis: CheckResult, environments: readonly EnvironmentValues[]): string | undefined {
  const target = nodeAt(documentAt(analysis.documents, offset)?.root, offset);
  return target && environmentsHoverMarkdown(target.path, environments);
}
