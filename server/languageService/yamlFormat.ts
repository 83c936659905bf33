/**
 * The canonical style of a YAML spec, written by the `yaml` library's document model: 2-space indentation,
 * quotes only where YAML needs them (and always around an `env` value that a YAML reader, 1.1 or 1.2, would
 * take for something other than a string), flow collections kept as flow, numbers kept as written, and
 * optionally the contract's key order. The library keeps every comment; the blank lines between top-level
 * sections it would collapse or add are put back as they were.
 */
import * as YAML from 'yaml';
import { MAX_ALIAS_COUNT } from '../../core/endpointSpec/parse';
import type { JsonPath, TextSpan } from '../../core/endpointSpec/tree';
import { inContractOrder } from './keyOrder';

export interface YamlStyle {
  /** Reorders keys as the contract lists them; keys it does not know follow, in their own order. */
  readonly contractKeyOrder: boolean;
}

type WrittenTag = YAML.ScalarTag & { stringify?: NonNullable<YAML.ScalarTag['stringify']> };
type Stringify = NonNullable<YAML.ScalarTag['stringify']>;

/** A folded block (`>`) is written folded at this width, as such blocks are meant to be read. */
const FOLDED_WIDTH = 80;

/**
 * The library's own scalar tags, writing two things differently: numbers as the source wrote them (`1.50`,
 * `0x1F` and a 20-digit integer keep their text), and folded blocks folded rather than on one line.
 */
function writtenTags(tags: YAML.Tags): YAML.Tags {
  return tags.map((tag) => {
    if (typeof tag === 'string' || !('stringify' in tag) || typeof tag.stringify !== 'function') return tag;
    const own = tag as WrittenTag & { stringify: Stringify };
    if (/:(int|float)$/.test(own.tag)) {
      const stringify: Stringify = (item, ctx, onComment, onChompKeep) =>
        YAML.isScalar(item) && typeof item.source === 'string' && item.source !== ''
          ? item.source
          : own.stringify(item, ctx, onComment, onChompKeep);
      return { ...own, stringify };
    }
    if (own.tag.endsWith(':str')) {
      const stringify: Stringify = (item, ctx, onComment, onChompKeep) => {
        const folded = YAML.isScalar(item) && item.type === 'BLOCK_FOLDED';
        return own.stringify(item, folded ? { ...ctx, options: { ...ctx.options, lineWidth: FOLDED_WIDTH } } : ctx, onComment, onChompKeep);
      };
      return { ...own, stringify };
    }
    return tag;
  });
}

const PARSE_OPTIONS: YAML.ParseOptions & YAML.DocumentOptions & YAML.SchemaOptions = {
  version: '1.2',
  strict: true,
  uniqueKeys: false,
  prettyErrors: false,
  customTags: writtenTags,
};

const WRITE_OPTIONS: YAML.ToStringOptions = {
  indent: 2,
  indentSeq: true,
  // No folding of long lines: a plain string would turn into a multi-line one.
  lineWidth: 0,
  flowCollectionPadding: false,
};

/** The piece (one `---` document, or a whole file that cannot be cut) in canonical style; undefined when it does not parse. */
export function formatYamlPiece(piece: string, style: YamlStyle): string | undefined {
  const eol = piece.includes('\r\n') ? '\r\n' : '\n';
  const source = piece.replace(/\r\n/g, '\n');
  const documents = YAML.parseAllDocuments(source, PARSE_OPTIONS);
  // Nothing but comments: nothing to restyle.
  if (!Array.isArray(documents) || documents.length === 0) return piece;
  if (documents.some((d) => d.errors.length > 0)) return undefined;
  // An empty `---` document prints as a marker and a blank line; as written it is already canonical.
  if (documents.some((d) => d.contents === null || (YAML.isScalar(d.contents) && d.contents.value === null && !d.contents.source)))
    return piece;
  const written = documents.map((document) => {
    restyle(document, style);
    return document.toString(WRITE_OPTIONS);
  });
  const formatted = documents.length === 1 ? keepSectionGaps(source, written[0]) : written.join('');
  return eol === '\n' ? formatted : formatted.replace(/\n/g, eol);
}

function restyle(document: YAML.Document.Parsed, style: YamlStyle): void {
  const data = style.contractKeyOrder ? dataOf(document) : undefined;
  const visit = (node: unknown, path: JsonPath): void => {
    if (YAML.isMap(node)) {
      if (style.contractKeyOrder && data !== undefined) orderKeys(node, path, data);
      for (const pair of node.items) {
        if (YAML.isScalar(pair.key)) unquote(pair.key);
        const key = YAML.isScalar(pair.key) ? String(pair.key.value) : '';
        visit(pair.value, [...path, key]);
      }
    } else if (YAML.isSeq(node)) {
      node.items.forEach((item, index) => {
        visit(item, [...path, index]);
      });
    } else if (YAML.isScalar(node)) {
      if (path.length === 2 && path[0] === 'env' && typeof node.value === 'string' && readsAsOtherThanString(node.value)) {
        node.type = 'QUOTE_DOUBLE';
      } else {
        unquote(node);
      }
    }
  };
  visit(document.contents, []);
}

/** The document's data, which picks the schema's variants for the key order; undefined when aliases expand too far. */
function dataOf(document: YAML.Document.Parsed): unknown {
  try {
    return document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch {
    return undefined;
  }
}

/** A quoted one-line string is written plain; the library quotes it again where plain text would mean something else. */
function unquote(scalar: YAML.Scalar): void {
  if (scalar.type !== 'QUOTE_DOUBLE' && scalar.type !== 'QUOTE_SINGLE') return;
  if (typeof scalar.value !== 'string' || !/^[^\p{Cc}\p{Cs}\u2028\u2029\uFEFF]*$/u.test(scalar.value)) return;
  scalar.type = 'PLAIN';
}

/** Under YAML 1.1 (`yes`, `on`, `0755`, dates) or 1.2, this text written plain is not this string. */
function readsAsOtherThanString(value: string): boolean {
  if (value.includes('\n')) return false;
  for (const options of [{ version: '1.1' as const, schema: 'yaml-1.1' }, { version: '1.2' as const }]) {
    try {
      if (YAML.parse(value, options) !== value) return true;
    } catch {
      return true;
    }
  }
  return false;
}

function orderKeys(map: YAML.YAMLMap, path: JsonPath, data: unknown): void {
  map.items = inContractOrder(map.items, (pair) => (YAML.isScalar(pair.key) ? String(pair.key.value) : undefined), path, data);
}

/** The comments of a YAML text, sorted: edits of a range, kept in part, may neither lose nor repeat one. */
export function commentsOf(text: string): string[] {
  const comments: string[] = [];
  for (const token of new YAML.Lexer().lex(text)) if (YAML.CST.tokenType(token) === 'comment') comments.push(token.trimEnd());
  return comments.sort();
}

// ---------------------------------------------------------------- blank lines between sections

/**
 * The library writes at most one blank line before a key and always one before a closing comment. Above
 * each top-level key, and at the end, the run of blank lines and column-0 comments is written as it was
 * when it holds the same comments, so blank lines between sections stay exactly as many as they were.
 */
function keepSectionGaps(original: string, formatted: string): string {
  const before = linesOf(original);
  const after = linesOf(formatted);
  const keysBefore = rootKeyLines(original);
  const keysAfter = rootKeyLines(formatted);
  // Bottom up, so the line numbers still to be used stay valid.
  const targets: Array<{ from: number; to: number }> = [{ from: before.length, to: after.length }];
  for (const [key, line] of keysAfter) {
    const from = keysBefore.get(key);
    if (from !== undefined) targets.push({ from, to: line });
  }
  targets.sort((a, b) => b.to - a.to);
  for (const { from, to } of targets) {
    const was = before.slice(gapStart(before, from), from);
    const start = gapStart(after, to);
    const now = after.slice(start, to);
    const kept = was.map((line) => line.trimEnd());
    if (sameComments(was, now) && !(kept.length === now.length && kept.every((line, i) => line === now[i])))
      after.splice(start, now.length, ...kept);
  }
  return `${after.join('\n')}\n`;
}

function linesOf(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Where the run of blank lines and column-0 comments just above `line` begins. */
function gapStart(lines: readonly string[], line: number): number {
  let start = line;
  while (start > 0 && (lines[start - 1].trim() === '' || lines[start - 1].startsWith('#'))) start--;
  return start;
}

function sameComments(a: readonly string[], b: readonly string[]): boolean {
  const comments = (lines: readonly string[]) => lines.map((l) => l.trimEnd()).filter((l) => l !== '');
  const [x, y] = [comments(a), comments(b)];
  return x.length === y.length && x.every((line, i) => line === y[i]);
}

/** The line of each top-level key of a block mapping document. */
function rootKeyLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  const document = YAML.parseDocument(text, PARSE_OPTIONS);
  if (!YAML.isMap(document.contents) || document.contents.flow) return lines;
  // Keys come in the order of the text, so one pass counts the line breaks before each.
  let line = 0;
  let at = 0;
  for (const pair of document.contents.items) {
    if (!YAML.isScalar(pair.key)) continue;
    for (let next = text.indexOf('\n', at); next !== -1 && next < pair.key.range[0]; next = text.indexOf('\n', next + 1)) {
      line++;
      at = next + 1;
    }
    lines.set(String(pair.key.value), line);
  }
  return lines;
}

/**
 * The top-level sections of a one-document piece and of its formatted text, paired by key: each from its
 * key's line to the blank lines and comments above the next key (or the end). Range formatting compares each
 * section it touches with its own formatted text, which is sound because each starts at column 0 in both, and
 * keeps the contract's key order from moving whole sections past each other. Undefined when the piece
 * is not one block mapping (or has CRLF line ends, whose offsets the line split would not keep).
 */
export function sectionSpans(piece: string, formatted: string): Array<{ before: TextSpan; after: TextSpan }> | undefined {
  if (piece.includes('\r')) return undefined;
  const [before, after] = [sectionsOf(piece), sectionsOf(formatted)];
  if (!before || !after) return undefined;
  return [...before].flatMap(([key, span]) => {
    const other = after.get(key);
    return other ? [{ before: span, after: other }] : [];
  });
}

function sectionsOf(text: string): Map<string, TextSpan> | undefined {
  const keys = [...rootKeyLines(text)].sort((a, b) => a[1] - b[1]);
  if (keys.length === 0) return undefined;
  const lines = linesOf(text);
  const starts: number[] = [];
  for (let line = 0, at = 0; line <= lines.length; line++) {
    starts.push(at);
    at += (lines[line]?.length ?? 0) + 1;
  }
  const offsetOf = (line: number): number => Math.min(text.length, starts[line]);
  const sections = new Map<string, TextSpan>();
  keys.forEach(([key, line], index) => {
    const next = index + 1 < keys.length ? keys[index + 1][1] : lines.length;
    const end = offsetOf(Math.max(line + 1, gapStart(lines, next)));
    sections.set(key, { offset: offsetOf(line), length: end - offsetOf(line) });
  });
  return sections;
}
