/**
 * Where is the cursor in the spec's structure? Answers a JSON path plus whether the cursor
 * sits on a key or a value, for completions (text may be half-typed) and hovers (text is whole).
 */
import * as YAML from 'yaml';
import * as jsonc from 'jsonc-parser';
import { splitYamlDocuments } from '../../core/endpointSpec/chunks';
import { jsonNestingBeyond, yamlNestingBeyond } from '../../core/endpointSpec/nestingScan';
import { MAX_NESTING_DEPTH, YAML_SCAN_LIMIT } from '../../core/endpointSpec/parse';
import type { JsonPath, JsonPathSegment, SpecDocument, SpecFormat, SpecNode, TextSpan } from '../../core/endpointSpec/tree';
import { containsOffset, spanEnd } from '../../core/endpointSpec/tree';

export interface CursorContext {
  /** Path of the object (key position) or of the value (value position). */
  readonly path: JsonPath;
  readonly position: 'key' | 'value';
  /** What is already typed of the word being completed, and where it starts. */
  readonly prefix: string;
  readonly replaceSpan: TextSpan;
  /** Keys already present in the object, for key completion. */
  readonly siblingKeys: string[];
  /** In JSON a completed string value needs quotes; in YAML it does not. */
  readonly insideQuotes: boolean;
  /** The cursor is on a key that already has its value: a completion replaces the key's name alone. */
  readonly existingKey?: boolean;
}

// A marker that cannot occur in a spec: it makes half-typed text parse and shows where the cursor is.
const MARKER = 'zzEsCursorzz';

/** The document holding `offset`, or the one it precedes (comments above a document's first key). */
export function documentAt(documents: readonly SpecDocument[], offset: number): SpecDocument | undefined {
  return (
    documents.find((d) => containsOffset(d.span, offset)) ??
    documents.find((d) => offset < d.span.offset) ??
    documents[documents.length - 1]
  );
}

/** `document` is the parsed document under the cursor, when there is one: it often answers without a re-parse. */
export function completionContext(text: string, offset: number, format: SpecFormat, document?: SpecDocument): CursorContext | undefined {
  return format === 'json' ? jsonCompletionContext(text, offset) : yamlCompletionContext(text, offset, document);
}

function jsonCompletionContext(text: string, offset: number): CursorContext | undefined {
  // The JSON scanner recurses per level: text the spec parser refused as too deep would overflow it.
  if (jsonNestingBeyond(text, MAX_NESTING_DEPTH) >= 0) return undefined;
  const location = jsonc.getLocation(text, offset);
  const previous = location.previousNode;
  const path = location.path.filter((s) => s !== '') as JsonPathSegment[];
  const inPrevious = previous !== undefined && offset > previous.offset && offset <= previous.offset + previous.length;
  // A string or property name: what is typed starts after its opening quote.
  const quoted = inPrevious && (previous.type === 'string' || previous.type === 'property');
  const prefix = inPrevious ? text.slice(previous.offset + (quoted ? 1 : 0), offset) : '';
  const replaceSpan: TextSpan = inPrevious ? { offset: previous.offset, length: previous.length } : { offset, length: 0 };
  const insideQuotes = inPrevious && previous.type === 'string';
  if (location.isAtPropertyKey) {
    const objectPath = path.slice(0, -1);
    const siblingKeys = jsonSiblingKeys(text, objectPath);
    const existingKey = previous?.type === 'property' && replaceSpan.length > 0 && /^\s*:/.test(text.slice(spanEnd(replaceSpan)));
    // The key being replaced is no sibling: its own name stays on offer.
    const own = existingKey ? siblingKeys.indexOf(String(previous.value)) : -1;
    if (own >= 0) siblingKeys.splice(own, 1);
    return { path: objectPath, position: 'key', prefix, replaceSpan, siblingKeys, insideQuotes, existingKey };
  }
  return { path, position: 'value', prefix, replaceSpan, siblingKeys: [], insideQuotes };
}

function jsonSiblingKeys(text: string, objectPath: JsonPath): string[] {
  const tree = jsonc.parseTree(text);
  const node = tree ? jsonc.findNodeAtLocation(tree, [...objectPath]) : undefined;
  return node?.type === 'object' ? (node.children ?? []).map((p) => String(p.children?.[0]?.value)) : [];
}

function yamlCompletionContext(text: string, offset: number, document?: SpecDocument): CursorContext | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const nextBreak = text.indexOf('\n', offset);
  const lineEnd = nextBreak === -1 ? text.length : nextBreak;
  const before = text.slice(lineStart, offset);
  const after = text.slice(offset, lineEnd);
  if (/#/.test(before.replace(/(["']).*?\1/g, ''))) return undefined; // inside a comment
  const keyLine = /^(\s*(?:-\s+)*)([\w$.-]*)$/.exec(before);
  const valueLine = /^(\s*(?:-\s+)*)([^\s:#][^:#]*?):\s+(?:\[\s*(?:[^,\]]*,\s*)*)?(["']?)([^"',\]]*)$/.exec(before);
  const wordStart = (prefix: string) => offset - prefix.length;
  let patched: string;
  let prefix: string;
  let quoted = false;
  // The rest of a key the cursor is in, up to its colon: `ma|x: 3`.
  const keyRest = keyLine ? /^([\w$.-]*)\s*:(?:\s|$)/.exec(after) : null;
  if (keyLine && keyRest) return existingYamlKey(text, offset, keyLine[2], keyRest[1]);
  if (keyLine && after.trim() === '') {
    prefix = keyLine[2];
    // `- ` with nothing else may start an item of a scalar list: try it as a value first.
    patched = text.slice(0, wordStart(prefix)) + prefix + MARKER + ':' + text.slice(lineEnd);
  } else if (valueLine) {
    prefix = valueLine[4];
    quoted = valueLine[3] !== '';
    // The cursor is in a value the last parse already placed: its path is known, no re-parse needed.
    const bareKey =
      after.trim() === '' && /^\s*(?:-\s+)*[^\s:#][^:#]*?:\s+$/.test(before)
        ? { offset: lineStart + valueLine[1].length, key: valueLine[2] }
        : undefined;
    const typed = typedValuePath(document?.root, text, offset, prefix, bareKey);
    if (typed)
      return {
        path: typed,
        position: 'value',
        prefix,
        replaceSpan: { offset: wordStart(prefix), length: prefix.length + (after.match(/^[\w$.-]*/)?.[0].length ?? 0) },
        siblingKeys: [],
        insideQuotes: quoted,
      };
    patched = text.slice(0, offset) + MARKER + text.slice(offset);
  } else {
    return undefined;
  }
  const found = findMarker(patched, offset);
  if (!found) return undefined;
  const replaceSpan = { offset: wordStart(prefix), length: prefix.length + (after.match(/^[\w$.-]*/)?.[0].length ?? 0) };
  const { path, position, siblingKeys } = found;
  return { path, position, prefix, replaceSpan, siblingKeys, insideQuotes: position === 'value' && quoted };
}

/** The cursor on a key that has its value: the key is swapped for the marker to find its object and siblings. */
function existingYamlKey(text: string, offset: number, prefix: string, rest: string): CursorContext | undefined {
  const patched = text.slice(0, offset) + MARKER + text.slice(offset + rest.length);
  const found = findMarker(patched, offset);
  if (found?.position !== 'key') return undefined;
  const replaceSpan = { offset: offset - prefix.length, length: prefix.length + rest.length };
  return { path: found.path, position: 'key', prefix, replaceSpan, siblingKeys: found.siblingKeys, insideQuotes: false, existingKey: true };
}

/**
 * The path of the value the cursor is in, from the last parse: a scalar whose text from its start to the
 * cursor is `prefix`, or, right after `key: `, that key's property.
 */
function typedValuePath(
  root: SpecNode | undefined,
  text: string,
  offset: number,
  prefix: string,
  bareKey?: { offset: number; key: string },
): JsonPath | undefined {
  if (prefix === '') {
    if (!bareKey) return undefined;
    const property = nodeAt(root, bareKey.offset);
    return property?.onKey && property.path[property.path.length - 1] === bareKey.key ? property.path : undefined;
  }
  const hit = nodeAt(root, offset);
  if (!hit || hit.onKey || hit.node?.kind !== 'scalar') return undefined;
  const start = hit.node.offset + (hit.node.quoted ? 1 : 0);
  return text.slice(start, offset) === prefix ? hit.path : undefined;
}

interface MarkerHit {
  readonly path: JsonPath;
  readonly position: 'key' | 'value';
  readonly siblingKeys: string[];
}

/** The marker was written exactly at the cursor, so it is looked for there. */
function findMarker(patched: string, markerOffset: number): MarkerHit | undefined {
  if (!patched.startsWith(MARKER, markerOffset)) return undefined;
  // Only the `---` document holding the cursor is parsed again, however many the file has.
  const chunk = splitYamlDocuments(patched)
    ?.filter((c) => c.offset <= markerOffset)
    .pop() ?? { offset: 0, text: patched };
  // The YAML parser recurses per level: text the spec parser refused as too deep would overflow it.
  if (yamlNestingBeyond(chunk.text, YAML_SCAN_LIMIT) >= 0) return undefined;
  const documents = YAML.parseAllDocuments(chunk.text, { prettyErrors: false, uniqueKeys: false });
  if (!Array.isArray(documents)) return undefined;
  const at = markerOffset - chunk.offset;
  const doc = documents.find((d) => d.range[0] <= at && at <= d.range[2]);
  if (!doc?.contents) return undefined;
  let hit: MarkerHit | undefined;
  const visit = (node: unknown, path: JsonPathSegment[]): void => {
    if (hit) return;
    if (YAML.isMap(node)) {
      const keys = node.items.map((p) => (YAML.isScalar(p.key) ? String(p.key.value) : ''));
      for (const pair of node.items) {
        const key = YAML.isScalar(pair.key) ? String(pair.key.value) : '';
        if (key.includes(MARKER)) {
          // `- word:` under a list of scalars was typed as a value; the caller's schema decides.
          hit = { path, position: 'key', siblingKeys: keys.filter((k) => !k.includes(MARKER)) };
          return;
        }
        visit(pair.value, [...path, key]);
      }
    } else if (YAML.isSeq(node)) {
      node.items.forEach((item, index) => {
        visit(item, [...path, index]);
      });
    } else if (YAML.isScalar(node) && typeof node.value === 'string' && node.value.includes(MARKER)) {
      hit = { path, position: 'value', siblingKeys: [] };
    }
  };
  visit(doc.contents, []);
  return hit;
}

/** The key or value under the cursor, for hovers: its path and whether the key was hovered. */
export function nodeAt(
  root: SpecNode | undefined,
  offset: number,
): { path: JsonPath; onKey: boolean; node?: SpecNode; span: TextSpan } | undefined {
  if (!root) return undefined;
  let node: SpecNode = root;
  const path: JsonPathSegment[] = [];
  for (;;) {
    if (node.kind === 'object') {
      const property = node.properties.find(
        (p) => containsOffset(p.keySpan, offset) || (p.value !== undefined && containsOffset(p.value, offset)),
      );
      if (!property) return path.length > 0 ? { path, onKey: false, node, span: node } : undefined;
      path.push(property.key);
      const value = property.value;
      // A key without a value was found by its key, so the cursor is on the key.
      if (
        !value ||
        (containsOffset(property.keySpan, offset) && offset < spanEnd(property.keySpan) + 1 && !containsOffset(value, offset))
      ) {
        return { path, onKey: true, node: value, span: property.keySpan };
      }
      node = value;
    } else if (node.kind === 'array') {
      const index = node.items.findIndex((item) => containsOffset(item, offset));
      if (index === -1) return { path, onKey: false, node, span: node };
      path.push(index);
      node = node.items[index];
    } else {
      return { path, onKey: false, node, span: node };
    }
  }
}
