/**
 * The spec language service: pure functions of (text, parsed result, offset). No LSP types and
 * no I/O, so the LSP handlers stay thin and everything here is testable on strings.
 */
import { checkSpecText, type CheckResult } from '../../core/spec/check';
import type { IncrementalChecker } from '../../core/spec/incremental';
import type { SpecFormat, TextSpan } from '../../core/spec/tree';
import type { Catalog } from '../../core/spec/catalog/catalog';
import type { ValidationContext } from '../../core/spec/validate';
import { completeAt, type SpecCompletion } from './completion';
import { completionContext, documentAt, nodeAt } from './cursor';
import { hoverMarkdown } from './hover';
import { quickFixes, type FixRequest, type QuickFix } from './quickFixes';

export type { CheckResult } from '../../core/spec/check';
export type { SpecCompletion } from './completion';
export type { QuickFix, FixRequest } from './quickFixes';
export { FIXABLE_CODES } from './quickFixes';
export { IncrementalChecker } from '../../core/spec/incremental';

export function analyze(text: string, format: SpecFormat, context: ValidationContext = {}, previous?: IncrementalChecker): CheckResult {
  return previous ? previous.check(text, format, 'create', context) : checkSpecText(text, format, 'create', context);
}

export function complete(text: string, format: SpecFormat, offset: number, analysis: CheckResult, catalog?: Catalog): SpecCompletion[] {
  const document = documentAt(analysis.documents, offset);
  const context = completionContext(text, offset, format, document);
  return context ? completeAt(context, document?.data, format, catalog) : [];
}

export function hover(offset: number, analysis: CheckResult, catalog?: Catalog): { markdown: string; span: TextSpan } | undefined {
  const document = documentAt(analysis.documents, offset);
  const target = nodeAt(document?.root, offset);
  if (!target) return undefined;
  const markdown = hoverMarkdown(target.path, target.onKey, target.node, document?.data, catalog);
  return markdown ? { markdown, span: target.span } : undefined;
}

export function fixes(text: string, format: SpecFormat, analysis: CheckResult, request: FixRequest, documentIndex: number, catalog?: Catalog): QuickFix[] {
  return quickFixes(request, text, format, analysis.documents[documentIndex], catalog);
}
