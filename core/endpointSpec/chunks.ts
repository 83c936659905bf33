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
  let chunkStart = 0;
  let chunkLine = 0;
  let contentSeen = false;
  let line = 0;
  for (let at = 0; at < text.length; line++) {
    const lineBreak = text.indexOf('\n', at);
    const end = lineBreak === -1 ? text.length : lineBreak + 1;
    const first = text.charCodeAt(at);
    if (first === 0x25 /* % */ || (first === 0x2e /* . */ && isMarker(text, at, '...'))) return undefined;
    if (first === 0x2d /* - */ && isMarker(text, at, '---')) {
      // Comments before the first marker belong to the first document, as the parser reads them.
      if (contentSeen) {
        chunks.push({ offset: chunkStart, line: chunkLine, text: text.slice(chunkStart, at) });
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
  return chunks;
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

/** The document parsed from a chunk, moved to where the chunk sits in the file. */
export function shiftDocument(document: SpecDocument, delta: number): SpecDocument {
  if (delta === 0) return document;
  return {
    span: { offset: document.span.offset + delta, length: document.span.length },
    root: document.root && shiftNode(document.root, delta),
    data: document.data,
    syntaxProblems: document.syntaxProblems.map((p): SyntaxProblem => ({ ...p, offset: p.offset + delta })),
  };
}

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
