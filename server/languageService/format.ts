/**
 * Formatting a spec file, whole or a range of it, as text edits. YAML gets the canonical style of
 * yamlFormat.ts, one `---` document at a time; JSON gets jsonc-parser's formatter with the editor's
 * indentation. A file with a syntax error is not formatted at all, and no edit is returned unless the
 * formatted text parses to the same data as before: formatting never changes what a spec means.
 */
import * as jsonc from 'jsonc-parser';
import { sameData } from '../../core/endpointSpec/ownData';
import { parseSpecText, specPieces } from '../../core/endpointSpec/parse';
import { spanEnd, type JsonPath, type SpecDocument, type SpecFormat, type TextSpan } from '../../core/endpointSpec/tree';
import type { TextEdit } from './edits';
import { inContractOrder } from './keyOrder';
import { formatYamlPiece, sectionSpans } from './yamlFormat';

export interface FormatRequest {
  /** JSON only; YAML specs always indent by 2 spaces. */
  readonly tabSize: number;
  readonly insertSpaces: boolean;
  readonly contractKeyOrder: boolean;
  /** JSON only: end the text with a line break; by default as the text does now. */
  readonly insertFinalNewline?: boolean;
  /** Only this part of the text: for YAML, the top-level sections it touches. */
  readonly range?: TextSpan;
}

export function formatSpec(text: string, format: SpecFormat, documents: readonly SpecDocument[], request: FormatRequest): TextEdit[] {
  return formatting(text, format, documents, request).edits;
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
  const edits = format === 'json' ? jsonEdits(text, request) : yamlEdits(text, request);
  if (edits === undefined) return { edits: [], refused: 'syntax-error' };
  return keepsMeaning(text, format, documents, edits) ? { edits } : { edits: [], refused: 'meaning-changed' };
}

// ---------------------------------------------------------------- YAML

/** Undefined when a piece does not parse for the formatter. */
function yamlEdits(text: string, request: FormatRequest): TextEdit[] | undefined {
  // A byte order mark is not part of any document; it stays where it is.
  const bom = text.startsWith('\uFEFF') ? 1 : 0;
  const edits: TextEdit[] = [];
  for (const piece of specPieces(text.slice(bom), 'yaml')) {
    const offset = piece.offset + bom;
    const span = { offset, length: piece.text.length };
    if (request.range && !overlaps(request.range, span)) continue;
    const formatted = formatYamlPiece(piece.text, { contractKeyOrder: request.contractKeyOrder });
    if (formatted === undefined) return undefined;
    const sections = request.range ? sectionSpans(piece.text, formatted) : undefined;
    if (!sections) {
      edits.push(...minimalEdit(piece.text, formatted, offset));
      continue;
    }
    for (const { before, after } of sections) {
      if (!request.range || !overlaps(request.range, { offset: offset + before.offset, length: before.length })) continue;
      const was = piece.text.slice(before.offset, spanEnd(before));
      edits.push(...minimalEdit(was, formatted.slice(after.offset, spanEnd(after)), offset + before.offset));
    }
  }
  return edits;
}

function overlaps(a: TextSpan, b: TextSpan): boolean {
  return a.offset <= spanEnd(b) && b.offset <= spanEnd(a);
}

/** One edit replacing only what differs between the two texts (their common start and end stay). */
function minimalEdit(before: string, after: string, offset: number): TextEdit[] {
  if (before === after) return [];
  let start = 0;
  const shorter = Math.min(before.length, after.length);
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let end = 0;
  while (end < shorter - start && before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)) end++;
  return [{ offset: offset + start, length: before.length - start - end, newText: after.slice(start, after.length - end) }];
}

// ---------------------------------------------------------------- JSON

function jsonEdits(text: string, request: FormatRequest): TextEdit[] {
  const options: jsonc.FormattingOptions = {
    tabSize: request.tabSize,
    insertSpaces: request.insertSpaces,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
    insertFinalNewline: request.insertFinalNewline ?? text.endsWith('\n'),
  };
  if (request.range) {
    return jsonc.format(text, request.range, options).map((e) => ({ offset: e.offset, length: e.length, newText: e.content }));
  }
  const source = request.contractKeyOrder ? orderedJson(text) : text;
  const formatted = jsonc.applyEdits(source, jsonc.format(source, undefined, options));
  return minimalEdit(text, formatted, 0);
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

export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => b.offset - a.offset);
  let result = text;
  for (const edit of sorted) result = result.slice(0, edit.offset) + edit.newText + result.slice(edit.offset + edit.length);
  return result;
}
