/**
 * A YAML file of several `---` documents, cut into one text per document. YAML forbids a document marker
 * at the start of a line inside any content, so each document can be parsed on its own: an unclosed quote
 * stays in its document instead of swallowing the rest of the file, and an edit to one document leaves
 * the parse of the others valid.
 */
import type { SpecDocument, SpecNode, SyntaxProblem } from './tree';

/** One document's text and where it starts in the file (always at the start of a line). */
export interface DocumentChunk {
  readonly offset: number;
  readonly line: number;
  readonly text: string;
}

/**
 * Cuts YAML text at its `---` document markers. Answers `undefined` when the text has directives
 * (`%YAML`) or `...` end markers, whose meaning reaches across documents; such text is parsed whole.
 */
export function splitYamlDocuments(text: string): DocumentChunk[] | undefined {
  const chunks: DocumentChunk[] = [];
  return scanChunks(text, { offset: 0, line: 0, contentSeen: false }, chunks) === 'directive' ? undefined : chunks;
}

/** Where the scan of the lines starts: at a chunk's start, and whether a document's content came before it. */
interface ScanStart {
  readonly offset: number;
  readonly line: number;
  readonly contentSeen: boolean;
}

/**
 * Pushes the chunks from `start` on, line by line. `stopAt`, asked at each marker that starts a chunk, may end the
 * scan there (the rest of the text is cut as it was before an edit): the scan then answers where it stopped.
 */
function scanChunks(
  text: string,
  start: ScanStart,
  chunks: DocumentChunk[],
  stopAt?: (offset: number) => boolean,
): 'directive' | { offset: number; line: number } | undefined {
  let chunkStart = start.offset;
  let chunkLine = start.line;
  let contentSeen = start.contentSeen;
  let line = start.line;
  for (let at = start.offset; at < text.length; line++) {
    const lineBreak = text.indexOf('\n', at);
    const end = lineBreak === -1 ? text.length : lineBreak + 1;
    const first = text.charCodeAt(at);
    if (first === 0x25 /* % */ || (first === 0x2e /* . */ && isMarker(text, at, '...'))) return 'directive';
    if (first === 0x2d /* - */ && isMarker(text, at, '---')) {
      // Comments before the first marker belong to the first document, as the parser reads them.
      if (contentSeen && at > chunkStart) {
        chunks.push({ offset: chunkStart, line: chunkLine, text: text.slice(chunkStart, at) });
        if (stopAt?.(at)) return { offset: at, line };
        chunkStart = at;
        chunkLine = line;
      }
      contentSeen = true;
    } else if (!contentSeen && !isBlankOrComment(text, at, end)) {
      contentSeen = true;
    }
    at = end;
  }
  chunks.push({ offset: chunkStart, line: chunkLine, text: text.slice(chunkStart) });
  return undefined;
}

/** Where the chunks of a text start, as the last cut of the file left them (offsets and lines ascending). */
export interface ChunkStarts {
  readonly offsets: readonly number[];
  readonly lines: readonly number[];
}

/**
 * The cut of `text` after an edit of `previous`, whose chunks started at `starts`: chunks `[0, kept)` stay as they
 * were, chunks `[kept, kept + replaced)` give way to `chunks`, and the ones after move by `shift` characters and
 * `lineShift` lines. Only the lines from the edited chunk to the first chunk start after the edit are scanned again.
 */
export interface ChunkEdit {
  readonly kept: number;
  readonly replaced: number;
  readonly chunks: DocumentChunk[];
  readonly shift: number;
  readonly lineShift: number;
}

/**
 * Cuts `text` as `splitYamlDocuments` does, reading only the lines an edit of `previous` can have changed: a
 * line's cut depends on its own first characters and, before the first document's content, on the lines before
 * it. Answers `undefined` where `splitYamlDocuments` does.
 */
export function splitYamlDocumentsAfterEdit(previous: string, starts: ChunkStarts, text: string): ChunkEdit | undefined {
  const count = starts.offsets.length;
  const prefix = commonPrefixLength(previous, text);
  if (prefix === text.length && prefix === previous.length) return { kept: count, replaced: 0, chunks: [], shift: 0, lineShift: 0 };
  const suffix = commonSuffixLength(previous, text, Math.min(previous.length, text.length) - prefix);
  const shift = text.length - previous.length;
  // The first line that changed; the chunk before it may grow (its next marker may be gone), so the scan starts there.
  const editedLine = prefix === 0 ? 0 : text.lastIndexOf('\n', prefix - 1) + 1;
  const kept = editedLine === 0 ? 0 : lastAtOrBelow(starts.offsets, editedLine - 1);
  const start = { offset: starts.offsets[kept], line: starts.lines[kept], contentSeen: kept > 0 };
  const unchangedFrom = text.length - suffix;
  const chunks: DocumentChunk[] = [];
  let resumed = count;
  // A chunk start in the unchanged end of the text that also started a chunk before: from there on all is as it was.
  const stopAt = (offset: number): boolean => {
    if (offset < unchangedFrom) return false;
    const before = lastAtOrBelow(starts.offsets, offset - shift);
    if (starts.offsets[before] !== offset - shift || before < kept) return false;
    resumed = before;
    return true;
  };
  const stopped = scanChunks(text, start, chunks, stopAt);
  if (stopped === 'directive') return undefined;
  const lineShift = stopped ? stopped.line - starts.lines[resumed] : 0;
  return { kept, replaced: resumed - kept, chunks, shift, lineShift };
}

/** The index of the last of the ascending `values` at or below `value` (0 if none is). */
function lastAtOrBelow(values: readonly number[], value: number): number {
  let [low, high] = [0, values.length - 1];
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (values[middle] <= value) low = middle;
    else high = middle - 1;
  }
  return low;
}

/*
 * The common start and end of two texts, by comparing slices: equality of two long strings is a native
 * comparison of their memory, tens of times faster than comparing them a character at a time. The block
 * doubles while it matches and then halves down to where they differ, so a 400 KB file takes a few dozen slices.
 */
const SMALLEST_BLOCK = 16;

export function commonPrefixLength(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let at = matchedBlocks((from, block) => from + block <= limit && a.slice(from, from + block) === b.slice(from, from + block));
  while (at < limit && a.charCodeAt(at) === b.charCodeAt(at)) at++;
  return at;
}

/** The length of the common end of `a` and `b`, at most `limit`. */
export function commonSuffixLength(a: string, b: string, limit: number): number {
  let length = matchedBlocks(
    (from, block) =>
      from + block <= limit && a.slice(a.length - from - block, a.length - from) === b.slice(b.length - from - block, b.length - from),
  );
  while (length < limit && a.charCodeAt(a.length - length - 1) === b.charCodeAt(b.length - length - 1)) length++;
  return length;
}

/** How far `same(from, block)` matches, to within `SMALLEST_BLOCK`: the doubling, then the halving. */
function matchedBlocks(same: (from: number, block: number) => boolean): number {
  let at = 0;
  let block = 4 * SMALLEST_BLOCK;
  while (same(at, block)) [at, block] = [at + block, block * 2];
  // They differ, or the shorter one ends, within `block` characters from `at`.
  while (block > SMALLEST_BLOCK) {
    block /= 2;
    if (same(at, block)) at += block;
  }
  return at;
}

function isMarker(text: string, at: number, marker: string): boolean {
  if (!text.startsWith(marker, at)) return false;
  const after = text.charCodeAt(at + 3);
  return Number.isNaN(after) || after === 0x20 || after === 0x09 || after === 0x0a || after === 0x0d;
}

function isBlankOrComment(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x23 /* # */) return true;
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return false;
  }
  return true;
}

/**
 * The document parsed from a chunk, moved `delta` characters on to where the chunk sits in the file. Its span
 * moves now; its tree and syntax problems when first read, so finding a document by its span (as every feature
 * at a position does) moves no other document's tree.
 */
export function shiftDocument(document: SpecDocument, delta: number): SpecDocument {
  if (delta === 0) return document;
  let root: { value: SpecNode | undefined } | undefined;
  let syntaxProblems: SyntaxProblem[] | undefined;
  return {
    span: { offset: document.span.offset + delta, length: document.span.length },
    data: document.data,
    get root() {
      root ??= { value: document.root && shiftNode(document.root, delta) };
      return root.value;
    },
    get syntaxProblems() {
      return (syntaxProblems ??= document.syntaxProblems.map((p) => ({ ...p, offset: p.offset + delta })));
    },
  };
}

/** The tree moved `delta` characters on. */
function shiftNode(node: SpecNode, delta: number): SpecNode {
  const offset = node.offset + delta;
  switch (node.kind) {
    case 'object':
      return {
        ...node,
        offset,
        properties: node.properties.map((p) => ({
          key: p.key,
          keySpan: { offset: p.keySpan.offset + delta, length: p.keySpan.length },
          value: p.value && shiftNode(p.value, delta),
        })),
      };
    case 'array':
      return { ...node, offset, items: node.items.map((item) => shiftNode(item, delta)) };
    default:
      return { ...node, offset };
  }
}
