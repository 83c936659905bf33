/**
 * Formatting a spec file, whole or a range of it, as text edits. YAML gets the canonical style of
 * yamlFormat.ts, one `---` document at a time; JSON gets jsonc-parser's formatter with the editor's
 * indentation. A file with a syntax error is not formatted at all, and no edit is returned unless the
 * formatted text parses to the same data as before: formatting never changes what a spec means. A range
 * gets only the edits that lie inside it (rangeFormat.ts).
 */
import * as jsonc from 'jsonc-parser';
import { sameData } from '../../core/endpointSpec/ownData';
import { parseSpecText, specPieces } from '../../core/endpointSpec/parse';
import { spanEnd, type JsonPath, type SpecDocument, type SpecFormat, type TextSpan } from '../../core/endpointSpec/tree';
import type { TextEdit } from './edits';
import { inContractOrder } from './keyOrder';
import { editsWithin, lineChanges, minimalEdit } from './rangeFormat';
import { commentsOf, formatYamlPiece, sectionSpans } from './yamlFormat';

export interface FormatRequest {
  /** JSON only; YAML specs always indent by 2 spaces. */
  readonly tabSize: number;
  readonly insertSpaces: boolean;
  readonly contractKeyOrder: boolean;
  /** JSON only: end the text with a line break; by default as the text does now. */
  readonly insertFinalNewline?: boolean;
  /** Only this part of the text: no edit reaches outside it. */
  readonly range?: TextSpan;
}

/** The edits, or why there are none: the text does not parse, or (a defect) the result would mean something else. */
export function formatting(
  text: string,
  format: SpecFormat,
  documents: readonly SpecDocument[],
  request: FormatRequest,
): { edits: TextEdit[]; refused?: 'syntax-error' | 'meaning-changed' } {
  const parses = documents.length > 0 && documents.every((d) => !d.syntaxProblems.some((p) => p.severity === 'error'));
  if (!parses) return { edits: [], refused: 'syntax-error' };
  const changes = format === 'json' ? jsonChanges(text, request) : yamlChanges(text, request);
  if (changes === undefined) return { edits: [], refused: 'syntax-error' };
  if (request.range) return { edits: editsWithin(changes, request.range, keepsAll(text, format, documents)) };
  const edits = changes.flat();
  return keepsMeaning(text, format, documents, edits) ? { edits } : { edits: [], refused: 'meaning-changed' };
}

// ---------------------------------------------------------------- YAML

/**
 * The edits in groups: for the whole text one per piece; for a range one per run of changed lines, of the
 * top-level sections the range touches (a section is compared with its own formatted text, so the contract's
 * key order does not move sections past each other). Undefined when a piece does not parse for the formatter.
 */
function yamlChanges(text: string, request: FormatRequest): TextEdit[][] | undefined {
  // A byte order mark is not part of any document; it stays where it is.
  const bom = text.startsWith('\uFEFF') ? 1 : 0;
  const range = request.range;
  const changes: TextEdit[][] = [];
  for (const piece of specPieces(text.slice(bom), 'yaml')) {
    const offset = piece.offset + bom;
    if (range && !overlaps(range, { offset, length: piece.text.length })) continue;
    const formatted = formatYamlPiece(piece.text, { contractKeyOrder: request.contractKeyOrder });
    if (formatted === undefined) return undefined;
    if (!range) {
      changes.push(minimalEdit(piece.text, formatted, offset));
      continue;
    }
    const whole = { before: { offset: 0, length: piece.text.length }, after: { offset: 0, length: formatted.length } };
    for (const { before, after } of sectionSpans(piece.text, formatted) ?? [whole]) {
      if (!overlaps(range, { offset: offset + before.offset, length: before.length })) continue;
      const was = piece.text.slice(before.offset, spanEnd(before));
      changes.push(...lineChanges(was, formatted.slice(after.offset, spanEnd(after)), offset + before.offset));
    }
  }
  return changes;
}

function overlaps(a: TextSpan, b: TextSpan): boolean {
  return a.offset <= spanEnd(b) && b.offset <= spanEnd(a);
}

// ---------------------------------------------------------------- JSON

/** For a range, jsonc-parser's edits each made as small as they can be (it widens the range to whole lines). */
function jsonChanges(text: string, request: FormatRequest): TextEdit[][] {
  const options: jsonc.FormattingOptions = {
    tabSize: request.tabSize,
    insertSpaces: request.insertSpaces,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
    insertFinalNewline: request.insertFinalNewline ?? text.endsWith('\n'),
  };
  if (request.range) {
    return jsonc
      .format(text, request.range, options)
      .map((e) => minimalEdit(text.slice(e.offset, e.offset + e.length), e.content, e.offset));
  }
  const source = request.contractKeyOrder ? orderedJson(text) : text;
  const formatted = jsonc.applyEdits(source, jsonc.format(source, undefined, options));
  return [minimalEdit(text, formatted, 0)];
}

/** The JSON text with each object's members in the contract's order; every value keeps its own text. */
function orderedJson(text: string): string {
  const tree = jsonc.parseTree(text);
  const data: unknown = jsonc.parse(text);
  if (!tree) return text;
  const write = (node: jsonc.Node, path: JsonPath): string => {
    if (node.type === 'array') return `[${(node.children ?? []).map((item, index) => write(item, [...path, index])).join(',')}]`;
    if (node.type !== 'object') return text.slice(node.offset, node.offset + node.length);
    const members = (node.children ?? []).flatMap((member) => {
      const key = member.children?.at(0);
      const value = member.children?.at(1);
      return key && value ? [{ name: String(key.value), key, value }] : [];
    });
    const written = inContractOrder(members, (m) => m.name, path, data).map(
      (m) => `${text.slice(m.key.offset, m.key.offset + m.key.length)}:${write(m.value, [...path, m.name])}`,
    );
    return `{${written.join(',')}}`;
  };
  return write(tree, []);
}

// ---------------------------------------------------------------- the guard

/** The edits applied give the same documents with the same data, and nothing that fails to parse. */
function keepsMeaning(text: string, format: SpecFormat, documents: readonly SpecDocument[], edits: readonly TextEdit[]): boolean {
  if (edits.length === 0) return true;
  const after = parseSpecText(applyEdits(text, edits), format);
  return (
    after.length === documents.length &&
    after.every((d, i) => !d.syntaxProblems.some((p) => p.severity === 'error') && sameData(d.data, documents[i].data))
  );
}

/**
 * The guard for a range, whose edits may be kept in part: the meaning, and in YAML every comment too. An edit
 * of one line may stand for a comment the formatter moved (the contract's key order takes comments along),
 * which kept without its counterpart would lose one comment and repeat another.
 */
function keepsAll(text: string, format: SpecFormat, documents: readonly SpecDocument[]): (edits: readonly TextEdit[]) => boolean {
  if (format === 'json') return (edits) => keepsMeaning(text, format, documents, edits);
  const comments = commentsOf(text);
  return (edits) => {
    if (!keepsMeaning(text, format, documents, edits)) return false;
    const after = commentsOf(applyEdits(text, edits));
    return after.length === comments.length && after.every((comment, i) => comment === comments[i]);
  };
}

export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => b.offset - a.offset);
  let result = text;
  for (const edit of sorted) result = result.slice(0, edit.offset) + edit.newText + result.slice(edit.offset + edit.length);
  return result;
}
