/**
 * What the editor keeps of a file of many `---` documents from one check to the next. Each document is checked
 * on its own (chunks.ts), and its parse and problems are kept relative to its own start. After an edit only the
 * documents the edit touched are cut and checked again; the ones after it only move, and their results are put
 * at their new offsets and lines when someone reads them: the problems (a few) at once, the parsed documents when
 * a feature asks for them, and a document's tree only when a feature walks it. So a keystroke costs about the
 * same wherever it lands.
 */
import type { CheckResult, SpecDiagnostic } from './check';
import { shiftDocument, splitYamlDocuments, splitYamlDocumentsAfterEdit, type ChunkEdit, type DocumentChunk } from './chunks';
import type { SpecMode } from './schemas';
import type { SpecDocument, SpecFormat } from './tree';
import type { ValidationContext } from './validate';

/** One piece of the file checked on its own: offsets, lines and document indexes count from its start. */
export interface PieceResult {
  readonly documents: SpecDocument[];
  readonly diagnostics: SpecDiagnostic[];
  /** Where each was last put in the file, kept so a piece that did not move costs nothing. */
  placedDiagnostics?: { readonly offset: number; readonly line: number; readonly index: number; readonly diagnostics: SpecDiagnostic[] };
  placedDocuments?: { readonly offset: number; readonly documents: SpecDocument[] };
}

/** One version of a file cut into pieces: where each piece starts, and what its check found. */
export interface CheckedPieces {
  readonly offsets: readonly number[];
  readonly lines: readonly number[];
  readonly results: readonly PieceResult[];
}

interface LastCheck {
  readonly text: string;
  readonly pieces: CheckedPieces;
}

/**
 * The last check of one open file that was cut into pieces. It answers only for the same format, mode and
 * catalog: problems depend on all three.
 */
export class DocumentReuse {
  private setting?: { format: SpecFormat; mode: SpecMode; context: ValidationContext };
  private last?: LastCheck;

  /** The last check cut into pieces, when it ran with the same setting. */
  previous(format: SpecFormat, mode: SpecMode, context: ValidationContext): LastCheck | undefined {
    return this.sameSetting(format, mode, context) ? this.last : undefined;
  }

  /**
   * `last`: this check's pieces. A text checked whole (one document, or a `%` directive typed at the start of a
   * line) leaves the last pieces in place: the next text is compared with theirs, and what did not change is reused.
   */
  keep(format: SpecFormat, mode: SpecMode, context: ValidationContext, last: LastCheck | undefined): void {
    if (last || !this.sameSetting(format, mode, context)) this.last = last;
    this.setting = { format, mode, context };
  }

  private sameSetting(format: SpecFormat, mode: SpecMode, context: ValidationContext): boolean {
    const last = this.setting;
    return (
      last?.format === format &&
      last.mode === mode &&
      last.context.catalog === context.catalog &&
      last.context.liveProperties === context.liveProperties
    );
  }
}

/**
 * YAML `text` cut into its documents, each checked by `check` or taken from `previous` (the last check of the same
 * file) when its text did not change. `undefined` when the text is one piece, to be checked whole.
 */
export function checkPieces(
  text: string,
  previous: LastCheck | undefined,
  check: (piece: string) => PieceResult,
): CheckedPieces | undefined {
  if (previous) {
    const edit = splitYamlDocumentsAfterEdit(previous.text, previous.pieces, text);
    if (!edit || previous.pieces.offsets.length - edit.replaced + edit.chunks.length === 1) return undefined;
    return applyEdit(previous, edit, check);
  }
  const chunks = splitYamlDocuments(text);
  if (!chunks || chunks.length === 1) return undefined;
  const checked = checkChunks(chunks, new Map(), check);
  return { offsets: chunks.map((c) => c.offset), lines: chunks.map((c) => c.line), results: checked };
}

/** The pieces after `edit`: the ones before it as they were, the ones it cut checked, the ones after it moved. */
function applyEdit(previous: LastCheck, edit: ChunkEdit, check: (piece: string) => PieceResult): CheckedPieces {
  const { offsets, lines, results } = previous.pieces;
  const end = edit.kept + edit.replaced;
  // The replaced pieces by text: an edit that only moves a piece, or cuts it where it was cut before, checks nothing.
  const known = new Map<string, PieceResult>();
  for (let i = edit.kept; i < end; i++) known.set(previous.text.slice(offsets[i], offsets.at(i + 1)), results[i]);
  const checked = checkChunks(edit.chunks, known, check);
  const count = offsets.length - edit.replaced + checked.length;
  const pieces = { offsets: new Array<number>(count), lines: new Array<number>(count), results: new Array<PieceResult>(count) };
  // Plain loops: this runs on every keystroke, over every piece of the file.
  for (let i = 0; i < edit.kept; i++) setPiece(pieces, i, offsets[i], lines[i], results[i]);
  for (let i = 0; i < edit.chunks.length; i++) setPiece(pieces, edit.kept + i, edit.chunks[i].offset, edit.chunks[i].line, checked[i]);
  for (let i = end, to = edit.kept + checked.length; i < offsets.length; i++, to++)
    setPiece(pieces, to, offsets[i] + edit.shift, lines[i] + edit.lineShift, results[i]);
  return pieces;
}

function setPiece(
  pieces: { offsets: number[]; lines: number[]; results: PieceResult[] },
  at: number,
  offset: number,
  line: number,
  result: PieceResult,
): void {
  pieces.offsets[at] = offset;
  pieces.lines[at] = line;
  pieces.results[at] = result;
}

/** Each chunk's result, from `known` (by text) or checked; identical chunks share one check. */
function checkChunks(
  chunks: readonly DocumentChunk[],
  known: Map<string, PieceResult>,
  check: (piece: string) => PieceResult,
): PieceResult[] {
  return chunks.map((chunk) => {
    let result = known.get(chunk.text);
    if (!result) known.set(chunk.text, (result = check(copyOf(chunk.text))));
    return result;
  });
}

/**
 * A copy of `text` that shares no memory with the string it was cut from. A slice keeps its whole source alive,
 * and a parse kept for many keystrokes would keep the file's text of the keystroke that made it.
 */
function copyOf(text: string): string {
  return ` ${text}`.slice(1);
}

/**
 * The check of the whole file from its pieces. Its problems are placed now; its documents, which only features
 * read, when they are first read, and then each document's tree only when it is read (`shiftDocument`).
 */
export function placedResult(pieces: CheckedPieces, sort: (diagnostics: SpecDiagnostic[]) => SpecDiagnostic[]): CheckResult {
  const diagnostics: SpecDiagnostic[] = [];
  let index = 0;
  pieces.results.forEach((result, i) => {
    if (result.diagnostics.length > 0) diagnostics.push(...placeDiagnostics(result, pieces.offsets[i], pieces.lines[i], index));
    index += result.documents.length;
  });
  let documents: SpecDocument[] | undefined;
  return {
    diagnostics: sort(diagnostics),
    get documents() {
      return (documents ??= pieces.results.flatMap((result, i) => placeDocuments(result, pieces.offsets[i])));
    },
  };
}

function placeDiagnostics(result: PieceResult, offset: number, line: number, index: number): SpecDiagnostic[] {
  const placed = result.placedDiagnostics;
  if (placed?.offset === offset && placed.line === line && placed.index === index) return placed.diagnostics;
  const diagnostics = result.diagnostics.map((d) => ({
    ...d,
    offset: d.offset + offset,
    range: {
      start: { line: d.range.start.line + line, character: d.range.start.character },
      end: { line: d.range.end.line + line, character: d.range.end.character },
    },
    documentIndex: d.documentIndex + index,
  }));
  result.placedDiagnostics = { offset, line, index, diagnostics };
  return diagnostics;
}

function placeDocuments(result: PieceResult, offset: number): SpecDocument[] {
  const placed = result.placedDocuments;
  if (placed?.offset === offset) return placed.documents;
  const documents = result.documents.map((document) => shiftDocument(document, offset));
  result.placedDocuments = { offset, documents };
  return documents;
}
