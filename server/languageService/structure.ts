/**
 * The shape of a spec for moving around it: which spans fold (mappings, lists, multi-line strings,
 * comment blocks, and each document of a multi-document file) and which spans Expand Selection steps
 * through (a value, its key/value pair, the enclosing mapping, on out to the document). Both read the
 * parse the diagnostics already made; spans are offsets, turned into lines and positions by the LSP layer.
 */
import { containsOffset, spanEnd, type SpecDocument, type SpecNode, type TextSpan } from '../../core/endpointSpec/tree';

export interface FoldSpan extends TextSpan {
  readonly kind?: 'comment';
}

/** Editors show at most a few thousand folds; more would only be work for both sides. */
export const MAX_FOLDS = 5000;

export function foldingSpans(text: string, documents: readonly SpecDocument[]): FoldSpan[] {
  const folds: FoldSpan[] = [];
  if (documents.length > 1) for (const document of documents) if (document.root) folds.push(document.span);
  for (const document of documents) if (document.root) collectFolds(text, document.root, folds);
  folds.push(...commentBlocks(text));
  return folds.slice(0, MAX_FOLDS);
}

/** Every mapping, list and string spread over several lines, folding from its key when it has one. */
function collectFolds(text: string, root: SpecNode, folds: FoldSpan[]): void {
  const stack: Array<{ node: SpecNode; from: number }> = [{ node: root, from: root.offset }];
  while (stack.length > 0 && folds.length < MAX_FOLDS) {
    const { node, from } = stack.pop() as { node: SpecNode; from: number };
    // The document itself is not a fold of its own: its first key would fold the whole file.
    if (node !== root && foldsOverLines(text, node, from)) folds.push({ offset: from, length: foldEnd(text, node) - from });
    if (node.kind === 'object') {
      for (const property of node.properties) if (property.value) stack.push({ node: property.value, from: property.keySpan.offset });
    } else if (node.kind === 'array') {
      for (const item of node.items) stack.push({ node: item, from: item.offset });
    }
  }
}

/**
 * Whether the fold from `from` (the key, when the node has one) to the node's end crosses a line. A block
 * mapping or list is measured from its key: with one child it sits on a single line of its own, yet folds
 * under the key above it. Folds within one line are left out here so they do not use up MAX_FOLDS.
 */
function foldsOverLines(text: string, node: SpecNode, from: number): boolean {
  if (node.kind === 'object' || node.kind === 'array') {
    const lineBreak = text.indexOf('\n', from);
    return lineBreak !== -1 && lineBreak < foldEnd(text, node);
  }
  return node.kind === 'scalar' && typeof node.value === 'string' && node.value.includes('\n');
}

/** A bracketed collection folds up to its last entry, so its closing bracket stays in view (as JSON folds). */
function foldEnd(text: string, node: SpecNode): number {
  let end = spanEnd(node);
  if ((node.kind !== 'object' && node.kind !== 'array') || !node.flow || !/[}\]]/.test(text.charAt(end - 1))) return end;
  end--;
  while (end > node.offset && /\s/.test(text.charAt(end - 1))) end--;
  return end;
}

/** Runs of two or more whole-line YAML comments. */
function commentBlocks(text: string): FoldSpan[] {
  const blocks: FoldSpan[] = [];
  let start = -1;
  let lastEnd = -1;
  let lines = 0;
  const close = (): void => {
    if (lines >= 2) blocks.push({ offset: start, length: lastEnd - start, kind: 'comment' });
    start = -1;
    lines = 0;
  };
  for (let at = 0; at < text.length && blocks.length < MAX_FOLDS;) {
    const lineBreak = text.indexOf('\n', at);
    const end = lineBreak === -1 ? text.length : lineBreak;
    if (/^[ \t]*#/.test(text.slice(at, Math.min(end, at + 256)))) {
      if (start === -1) start = at;
      lastEnd = end;
      lines++;
    } else {
      close();
    }
    at = end + 1;
  }
  close();
  return blocks;
}

/**
 * The spans Expand Selection grows through at `offset`, innermost first: the text inside quotes, the
 * value (or key), its key/value pair, the enclosing mapping or list, and so on out to the document.
 * Each contains the one before it.
 */
export function selectionSpans(document: SpecDocument | undefined, offset: number): TextSpan[] {
  if (!document?.root) return [];
  const outward: TextSpan[] = [document.span];
  let node: SpecNode = document.root;
  for (;;) {
    outward.push(node);
    if (node.kind === 'object') {
      const property = node.properties.find(
        (p) => containsOffset(p.keySpan, offset) || (p.value !== undefined && containsOffset(p.value, offset)),
      );
      if (!property) break;
      const end = property.value ? spanEnd(property.value) : spanEnd(property.keySpan);
      outward.push({ offset: property.keySpan.offset, length: end - property.keySpan.offset });
      if (!property.value || (containsOffset(property.keySpan, offset) && !containsOffset(property.value, offset))) {
        outward.push(property.keySpan);
        break;
      }
      node = property.value;
    } else if (node.kind === 'array') {
      const item = node.items.find((i) => containsOffset(i, offset));
      if (!item) break;
      node = item;
    } else {
      if (node.kind === 'scalar' && node.quoted && node.length >= 2) outward.push({ offset: node.offset + 1, length: node.length - 2 });
      break;
    }
  }
  return nested(outward).reverse();
}

/** Drops repeats and any span that does not contain the next one, so each step really grows. */
function nested(outward: TextSpan[]): TextSpan[] {
  const kept: TextSpan[] = [];
  for (const span of outward) {
    const outer = kept.at(-1);
    if (outer && (span.offset < outer.offset || spanEnd(span) > spanEnd(outer))) continue;
    if (outer?.offset === span.offset && outer.length === span.length) continue;
    kept.push(span);
  }
  return kept;
}
