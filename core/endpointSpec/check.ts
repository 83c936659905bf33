/**
 * Text in, located diagnostics out: cut the file into its documents, parse each once, validate its data,
 * and map every problem back to a range. Pure, so the language server, the CLI and tests share it.
 *
 * The editor checks again on every keystroke, so it hands in a `DocumentReuse` per open file: in a file of
 * many `---` documents, only the documents an edit touched are checked again, and the others keep their parse
 * and problems (documentReuse.ts). The result is the same as checking without it.
 */
import { TextDocument, type Range } from 'vscode-languageserver-textdocument';
import { checkPieces, placedResult, type DocumentReuse, type PieceResult } from './documentReuse';
import { locatePath } from './locate';
import { parsePiece } from './parse';
import type { Severity, SpecProblem } from './problem';
import type { SpecMode } from './schemas';
import type { JsonPath, SpecDocument, SpecFormat, TextSpan } from './tree';
import { validateSpecData, type ValidationContext } from './validate';

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
  /** The place in another file this problem comes from or shows up in (an overlay's base, a base's overlay). */
  readonly origin?: { readonly path: string; readonly range: Range; readonly message: string };
}

/**
 * A document reports at most this many syntax problems and this many other problems. Past that
 * they only bury the first ones, and each costs a search of the text for its place (a 10 MB
 * mapping of unknown keys would otherwise take hours); the last one says that more were left out.
 */
const MAX_PROBLEMS_PER_DOCUMENT = 200;

export interface CheckResult {
  readonly documents: SpecDocument[];
  readonly diagnostics: SpecDiagnostic[];
}

export { DocumentReuse } from './documentReuse';

/**
 * `reuse`: what the last check of the same file found, so that only the `---` documents an edit touched are
 * checked again. JSON, and YAML whose `%` directives or `...` markers reach across documents, are checked whole.
 */
export function checkSpecText(
  text: string,
  format: SpecFormat,
  mode: SpecMode = 'create',
  context: ValidationContext = {},
  reuse?: DocumentReuse,
): CheckResult {
  const previous = reuse?.previous(format, mode, context);
  const pieces = format === 'yaml' ? checkPieces(text, previous, (piece) => checkPiece(piece, format, mode, context, true)) : undefined;
  reuse?.keep(format, mode, context, pieces && { text, pieces });
  return pieces ? placedResult(pieces, byPosition) : checkPiece(text, format, mode, context, false);
}

/** Parse, validate and locate one piece; `inMultiDocumentFile`: an empty document there is a separator, not a spec. */
function checkPiece(
  text: string,
  format: SpecFormat,
  mode: SpecMode,
  context: ValidationContext,
  inMultiDocumentFile: boolean,
): PieceResult {
  const documents = parsePiece(text, format);
  const lines = TextDocument.create('spec', 'spec', 0, text);
  const multi = inMultiDocumentFile || documents.length > 1;
  const diagnostics = documents.flatMap((document, index) => {
    // A problem at the very end of a document stops there rather than running into the next one.
    const limit = documents[index + 1]?.span.offset ?? text.length;
    return documentDiagnostics(document, index, multi, limit, lines, mode, context);
  });
  return { documents, diagnostics: byPosition(diagnostics) };
}

/** Problems of one parsed document, located in `lines` (the text its offsets refer to), none reaching past `limit`. */
function documentDiagnostics(
  document: SpecDocument,
  index: number,
  inMultiDocumentFile: boolean,
  limit: number,
  lines: TextDocument,
  mode: SpecMode,
  context: ValidationContext,
): SpecDiagnostic[] {
  const diagnostics: SpecDiagnostic[] = [];
  const noteOmitted = (omitted: number): void => {
    const last = diagnostics.at(-1);
    if (omitted > 0 && last)
      diagnostics[diagnostics.length - 1] = { ...last, message: `${last.message} (further problems in this document are not listed)` };
  };
  for (const problem of document.syntaxProblems.slice(0, MAX_PROBLEMS_PER_DOCUMENT))
    diagnostics.push(diagnosticAt(lines, problem, limit, { ...problem, path: [] }, index));
  noteOmitted(document.syntaxProblems.length - MAX_PROBLEMS_PER_DOCUMENT);
  // A document whose data could not be built would only repeat its syntax error.
  if (document.data === undefined && document.syntaxProblems.some((p) => p.severity === 'error')) return diagnostics;
  // A trailing `---` or a comment-only document in a multi-document file is not a spec.
  const empty = document.data == null && (!document.root || (document.root.kind === 'scalar' && document.root.value === null));
  if (empty && inMultiDocumentFile) return diagnostics;
  const problems = validateSpecData(document.data, mode, context);
  for (const problem of problems.slice(0, MAX_PROBLEMS_PER_DOCUMENT)) diagnostics.push(problemAt(lines, document, limit, problem, index));
  noteOmitted(problems.length - MAX_PROBLEMS_PER_DOCUMENT);
  return diagnostics;
}

/** What a diagnostic says, apart from where. */
type DiagnosticFacts = Pick<SpecDiagnostic, 'severity' | 'code' | 'message' | 'path' | 'suggestion' | 'related'>;

/** The diagnostic for `problem` at `span` of the text `lines` holds, cut at `limit`, in document `index`. */
export function diagnosticAt(lines: TextDocument, span: TextSpan, limit: number, problem: DiagnosticFacts, index: number): SpecDiagnostic {
  const end = Math.max(span.offset, Math.min(limit, span.offset + span.length));
  return {
    range: { start: lines.positionAt(span.offset), end: lines.positionAt(end) },
    offset: span.offset,
    length: end - span.offset,
    severity: problem.severity,
    code: problem.code,
    message: problem.message,
    path: problem.path,
    documentIndex: index,
    ...(problem.suggestion !== undefined ? { suggestion: problem.suggestion } : {}),
    ...(problem.related !== undefined ? { related: problem.related } : {}),
  };
}

/** `problem` on the line of the value (or key) it names in `document` (whose offsets `lines` holds), cut at `limit`. */
export function problemAt(lines: TextDocument, document: SpecDocument, limit: number, problem: SpecProblem, index = 0): SpecDiagnostic {
  return diagnosticAt(lines, locatePath(document.root, problem.path, problem.target, document.span), limit, problem, index);
}

/** The order every result uses, the policy's and the workspace's too: by position, then by code. */
export function byPosition<T extends SpecDiagnostic>(diagnostics: T[]): T[] {
  return diagnostics.sort((a, b) => a.offset - b.offset || a.code.localeCompare(b.code));
}
