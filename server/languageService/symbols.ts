/**
 * The outline of a spec file: one root per `---` document, named after the spec's `name`, with its keys
 * nested below and a short detail where a section has a natural summary (`workers  0–3`,
 * `gpu  ADA_24, AMPERE_24`). Editors build the Outline view, breadcrumbs, sticky scroll and Go to Symbol
 * from it. A file of many thousands of keys is cut at a budget, shallow levels first, so the answer stays small.
 */
import { createDefault } from '../../core/endpointSpec/contract';
import { schemaViewAt } from '../../core/endpointSpec/schemas';
import { findProperty, spanEnd, type JsonPath, type SpecDocument, type SpecNode, type TextSpan } from '../../core/endpointSpec/tree';
import { plural } from '../../core/util/plural';

export type SpecSymbolKind = 'document' | 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null' | 'enum' | 'variable' | 'alias';

export interface SpecSymbol {
  readonly name: string;
  readonly detail: string;
  readonly kind: SpecSymbolKind;
  /** The whole entry: key and value, or the document. */
  readonly span: TextSpan;
  /** What an editor reveals and highlights: the key, or the item itself. */
  readonly selectionSpan: TextSpan;
  readonly children: SpecSymbol[];
}

/** More symbols than this are of no use in an outline and cost the editor time to show. */
export const MAX_SYMBOLS = 5000;
const MAX_TEXT = 80;

interface Pending {
  readonly symbol: SpecSymbol;
  readonly node: SpecNode;
  readonly path: JsonPath;
  readonly data: unknown;
}

export function documentSymbols(documents: readonly SpecDocument[]): SpecSymbol[] {
  const roots: SpecSymbol[] = [];
  const queue: Pending[] = [];
  let budget = MAX_SYMBOLS;
  documents.forEach((document, index) => {
    const root = document.root;
    if (!root || (root.kind === 'scalar' && root.value === null) || budget <= 0) return;
    budget--;
    const symbol = documentSymbol(document, root, index);
    roots.push(symbol);
    queue.push({ symbol, node: root, path: [], data: document.data });
  });
  // Breadth first: when the budget runs out, what is missing is the deepest detail, never a document.
  for (let next = 0; next < queue.length && budget > 0; next++) {
    const { symbol, node, path, data } = queue[next];
    for (const child of childEntries(node, path, data)) {
      if (budget-- <= 0) break;
      symbol.children.push(child.symbol);
      queue.push(child);
    }
  }
  return roots;
}

function documentSymbol(document: SpecDocument, root: SpecNode, index: number): SpecSymbol {
  const name = findProperty(root, 'name')?.value;
  const parts = ['type', 'image'].map((key) => scalarText(findProperty(root, key)?.value)).filter((t) => t !== '');
  return {
    name: scalarText(name) || `(document ${index + 1})`,
    detail: parts.join(' · '),
    kind: 'document',
    span: document.span.length > 0 ? document.span : root,
    selectionSpan: name ?? { offset: root.offset, length: 0 },
    children: [],
  };
}

function childEntries(node: SpecNode, path: JsonPath, data: unknown): Pending[] {
  if (node.kind === 'object') {
    return node.properties.map((property) => {
      const childPath = [...path, property.key];
      const value = property.value;
      const end = spanEnd(value ?? property.keySpan);
      const symbol: SpecSymbol = {
        name: clip(property.key) || '""',
        detail: value ? detailOf(value, childPath) : '',
        kind: kindOf(value, childPath, data),
        span: { offset: property.keySpan.offset, length: end - property.keySpan.offset },
        selectionSpan: property.keySpan,
        children: [],
      };
      return { symbol, node: value ?? emptyScalar(property.keySpan), path: childPath, data };
    });
  }
  if (node.kind === 'array') {
    return node.items.map((item, index) => {
      const childPath = [...path, index];
      const symbol: SpecSymbol = {
        name: itemName(item, index),
        detail: item.kind === 'scalar' ? '' : detailOf(item, childPath),
        kind: kindOf(item, childPath, data),
        span: item,
        selectionSpan: item,
        children: [],
      };
      return { symbol, node: item, path: childPath, data };
    });
  }
  return [];
}

function emptyScalar(at: TextSpan): SpecNode {
  return { kind: 'scalar', value: null, quoted: false, offset: at.offset, length: 0 };
}

function kindOf(node: SpecNode | undefined, path: JsonPath, data: unknown): SpecSymbolKind {
  if (!node) return 'null';
  if (path.length === 2 && path[0] === 'env') return 'variable';
  if (node.kind !== 'scalar') return node.kind;
  if (node.value === null) return 'null';
  if (typeof node.value === 'string') return schemaViewAt(path, data)?.enum ? 'enum' : 'string';
  return typeof node.value === 'number' ? 'number' : 'boolean';
}

/** A list item's name: its value, or for a mapping its `id` or `name`, else its place. */
function itemName(item: SpecNode, index: number): string {
  const own = item.kind === 'scalar' ? scalarText(item) : scalarText(findProperty(item, 'id')?.value ?? findProperty(item, 'name')?.value);
  return own || `[${index}]`;
}

/** The short summary some sections have; other mappings and lists say how much they hold. */
const SECTION_DETAILS: Readonly<Record<string, (node: SpecNode) => string>> = {
  workers: (node) => {
    const bound = (key: string): string => {
      const fallback = createDefault(`workers.${key}`);
      return scalarText(findProperty(node, key)?.value) || (typeof fallback === 'number' ? String(fallback) : '?');
    };
    return `${bound('min')}–${bound('max')}`;
  },
  gpu: (node) => {
    const pools = listText(findProperty(node, 'pools')?.value);
    const count = scalarText(findProperty(node, 'count')?.value);
    return count && count !== '1' ? `${pools} ×${count}` : pools;
  },
  cpu: (node) =>
    node.kind === 'array'
      ? node.items
          .map((item) => [scalarText(findProperty(item, 'id')?.value), scalarText(findProperty(item, 'vcpuCount')?.value)])
          .map(([id, count]) => (count ? `${id || '?'} ×${count}` : id || '?'))
          .join(', ')
      : '',
  scaling: (node) =>
    ['type', 'queueDelay', 'requestCount']
      .map((key) => scalarText(findProperty(node, key)?.value))
      .filter(Boolean)
      .join(' '),
  env: (node) => (node.kind === 'object' ? plural(node.properties.length, 'variable') : ''),
};

function detailOf(node: SpecNode, path: JsonPath): string {
  const section = path.length === 1 && Object.hasOwn(SECTION_DETAILS, path[0]) ? SECTION_DETAILS[path[0]] : undefined;
  if (section) return clip(section(node));
  if (node.kind === 'scalar') return scalarText(node);
  if (node.kind === 'alias') return 'alias';
  if (node.kind === 'array') {
    const scalars = node.items.every((item) => item.kind === 'scalar');
    return scalars && node.items.length > 0 ? clip(listText(node)) : plural(node.items.length, 'item');
  }
  return plural(node.properties.length, 'key');
}

function listText(node: SpecNode | undefined): string {
  if (node?.kind !== 'array') return scalarText(node);
  return node.items.map((item) => scalarText(item) || '…').join(', ');
}

function scalarText(node: SpecNode | undefined): string {
  return node?.kind === 'scalar' && node.value !== null ? clip(String(node.value)) : '';
}

/** One line, not too long: a name or detail is a label, and a key can be megabytes. */
function clip(text: string): string {
  const line = text.length > MAX_TEXT * 4 ? text.slice(0, MAX_TEXT * 4) : text;
  const flat = line.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_TEXT ? `${flat.slice(0, MAX_TEXT - 1)}…` : flat;
}
