/**
 * Text in, located diagnostics out: parse once, validate each document's data, and map every
 * problem back to a range. Pure, so the language server, the CLI and tests share it.
 */
import { TextDocument } from 'vscode-languageserver-textdocument';
import { locatePath } from './locate';
import { parseSpecText } from './parse';
import type { Severity } from './problem';
import type { SpecMode } from './schemas';
import type { JsonPath, SpecDocument, SpecFormat, TextSpan } from './tree';
import { validateSpecData } from './validate';
import type { ValidationContext } from './validate';
import type { ValidationMemo } from './validationMemo';

export interface Position {
  readonly line: number;
  readonly character: number;
}

export interface Range {
  readonly start: Position;
  readonly end: Position;
}

export interface SpecDiagnostic {
  readonly range: Range;
  readonly offset: number;
  readonly length: number;
  readonly severity: Severity;
  readonly code: string;
  readonly message: string;
  readonly path: JsonPath;
  /** Index of the YAML document (`---`) the diagnostic belongs to. */
  readonly documentIndex: number;
  readonly suggestion?: string;
  readonly related?: readonly string[];
}

/**
 * A document reports at most this many syntax problems and this many other problems. Past that
 * they only bury the first ones, and each costs a search of the text for its place (a 10 MB
 * mapping of unknown keys would otherwise take hours); the last one says that more were left out.
 */
export const MAX_PROBLEMS_PER_DOCUMENT = 200;

export interface CheckResult {
  readonly documents: SpecDocument[];
  readonly diagnostics: SpecDiagnostic[];
}

export function checkSpecText(text: string, format: SpecFormat, mode: SpecMode = 'create', context: ValidationContext = {}): CheckResult {
  return checkParsed(text, parseSpecText(text, format), mode, context);
}

/**
 * The check of `text` once parsed into `documents`. A `memo` of the last validation of a one-document
 * file lets the validation run again only what an edit changed (validationMemo.ts). `lines` places the
 * problems: an editor's document of `text` has its line offsets already, kept up to date as it is edited.
 */
export function checkParsed(
  text: string,
  documents: SpecDocument[],
  mode: SpecMode,
  context: ValidationContext,
  memo?: ValidationMemo,
  lines: TextDocument = TextDocument.create('spec', 'spec', 0, text),
): CheckResult {
  const single = documents.length === 1;
  const diagnostics = documents.flatMap((document, index) => {
    // A problem at the very end of a document stops there rather than running into the next one.
    const limit = documents[index + 1]?.span.offset ?? text.length;
    return documentDiagnostics(document, index, !single, limit, lines, mode, context, single ? memo : undefined);
  });
  return { documents, diagnostics: sortDiagnostics(diagnostics) };
}

/** Problems of one parsed document, located in `lines` (the text its offsets refer to), none reaching past `limit`. */
export function documentDiagnostics(
  document: SpecDocument,
  index: number,
  inMultiDocumentFile: boolean,
  limit: number,
  lines: TextDocument,
  mode: SpecMode,
  context: ValidationContext,
  memo?: ValidationMemo,
): SpecDiagnostic[] {
  const diagnostics: SpecDiagnostic[] = [];
  const add = (
    span: TextSpan,
    severity: Severity,
    code: string,
    message: string,
    path: JsonPath,
    hints: { suggestion?: string; related?: readonly string[] } = {},
  ): void => {
    const end = Math.max(span.offset, Math.min(limit, span.offset + span.length));
    diagnostics.push({
      range: { start: lines.positionAt(span.offset), end: lines.positionAt(end) },
      offset: span.offset,
      length: end - span.offset,
      severity,
      code,
      message,
      path,
      documentIndex: index,
      ...(hints.suggestion !== undefined ? { suggestion: hints.suggestion } : {}),
      ...(hints.related !== undefined ? { related: hints.related } : {}),
    });
  };
  const noteOmitted = (omitted: number): void => {
    const last = diagnostics.at(-1);
    if (omitted > 0 && last)
      diagnostics[diagnostics.length - 1] = { ...last, message: `${last.message} (further problems in this document are not listed)` };
  };
  const syntaxProblems = document.syntaxProblems;
  for (let i = 0; i < Math.min(syntaxProblems.length, MAX_PROBLEMS_PER_DOCUMENT); i++) {
    const problem = syntaxProblems[i];
    add(problem, problem.severity, problem.code, problem.message, []);
  }
  noteOmitted(document.syntaxProblems.length - MAX_PROBLEMS_PER_DOCUMENT);
  // A document whose data could not be built would only repeat its syntax error.
  if (document.data === undefined && document.syntaxProblems.some((p) => p.severity === 'error')) return diagnostics;
  // A trailing `---` or a comment-only document in a multi-document file is not a spec.
  const empty = document.data == null && (!document.root || (document.root.kind === 'scalar' && document.root.value === null));
  if (empty && inMultiDocumentFile) return diagnostics;
  const problems = validateSpecData(document.data, mode, context, memo);
  for (let i = 0; i < Math.min(problems.length, MAX_PROBLEMS_PER_DOCUMENT); i++) {
    const problem = problems[i];
    add(
      locatePath(document.root, problem.path, problem.target, document.span),
      problem.severity,
      problem.code,
      problem.message,
      problem.path,
      problem,
    );
  }
  noteOmitted(problems.length - MAX_PROBLEMS_PER_DOCUMENT);
  return diagnostics;
}

/** The order every result uses: by position, then by code. */
export function sortDiagnostics(diagnostics: SpecDiagnostic[]): SpecDiagnostic[] {
  return diagnostics.sort((a, b) => a.offset - b.offset || a.code.localeCompare(b.code));
}
