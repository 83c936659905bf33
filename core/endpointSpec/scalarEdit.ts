/**
 * Most keystrokes in a spec change one value: a digit of `queueDelay`, a letter of an image tag. For such an
 * edit the document is the last one with that scalar read again (plainYaml.ts reads it as its line pass
 * would), the nodes after it moved, and only the data along its path copied; the other fields keep their
 * data objects, so the validation memo sees at once that they did not change. Anything else (a new line, a
 * key, a bracket, text the fast path leaves to the library) is parsed in full. The tests hold the result to
 * a full parse of the new text over thousands of random edits.
 */
import { readScalarAt, type ScalarPlace } from './plainYaml';
import type { JsonPathSegment, PropertyNode, ScalarNode, SpecDocument, SpecNode, SyntaxProblem, TextSpan } from './tree';

interface Edit {
  /** Where the texts start to differ. */
  readonly from: number;
  /** Where the changed text ends in the old text. */
  readonly oldEnd: number;
  /** Characters added (negative: removed). */
  readonly delta: number;
}

interface FoundScalar {
  readonly node: ScalarNode;
  readonly place: ScalarPlace;
  readonly path: JsonPathSegment[];
}

/**
 * The document of `text`, from `before` (the fast path's document of `beforeText`), when the edit between
 * the two lies inside one scalar and leaves a scalar there; otherwise undefined.
 */
export function documentAfterScalarEdit(before: SpecDocument, beforeText: string, text: string): SpecDocument | undefined {
  const edit = editBetween(beforeText, text);
  if (!edit || !before.root) return undefined;
  const found = scalarAround(before.root, edit);
  if (!found) return undefined;
  const read = readScalarAt(text, found.node.offset, found.place);
  // The new scalar must end where the old one did, moved by the edit: otherwise the edit reached past it.
  if (!read || read.node.offset + read.node.length !== found.node.offset + found.node.length + edit.delta) return undefined;
  const moved = { target: found.node, replacement: read.node, at: found.node.offset + found.node.length, delta: edit.delta };
  // Built flat: a literal with literals inside is copied from a template by the runtime, a slow path when cold.
  const span = { offset: before.span.offset, length: before.span.length + edit.delta };
  const syntaxProblems: SyntaxProblem[] = [];
  return { span, root: rebuilt(before.root, moved), data: withValueAt(before.data, found.path, 0, read.data), syntaxProblems };
}

/** The one changed stretch of text, when it lies on one line and adds only printable ASCII (the fast path's subset). */
function editBetween(before: string, after: string): Edit | undefined {
  const shorter = Math.min(before.length, after.length);
  let from = 0;
  while (from < shorter && before.charCodeAt(from) === after.charCodeAt(from)) from++;
  if (from === before.length && from === after.length) return undefined;
  let tail = 0;
  while (tail < shorter - from && before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)) tail++;
  const oldEnd = before.length - tail;
  for (let i = from; i < oldEnd; i++) if (before.charCodeAt(i) === 0x0a) return undefined;
  for (let i = from; i < after.length - tail; i++) {
    const c = after.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return undefined;
  }
  return { from, oldEnd, delta: after.length - before.length };
}

/** The scalar whose text holds the whole edit (its ends included), with where it sits and its path. */
function scalarAround(root: SpecNode, edit: Edit): FoundScalar | undefined {
  const path: JsonPathSegment[] = [];
  let node = root;
  let place: ScalarPlace | undefined;
  for (;;) {
    if (node.kind === 'scalar') return place && { node, place, path };
    let next: SpecNode | undefined;
    if (node.kind === 'object') {
      for (let i = 0; i < node.properties.length && !next; i++) {
        const value = node.properties[i].value;
        if (value && holds(value, edit)) {
          next = value;
          path.push(node.properties[i].key);
        }
      }
    } else if (node.kind === 'array') {
      for (let i = 0; i < node.items.length && !next; i++) {
        if (holds(node.items[i], edit)) {
          next = node.items[i];
          path.push(i);
        }
      }
    }
    if (!next || node.kind === 'alias') return undefined;
    place = node.flow ? 'flow' : node.kind === 'object' ? 'mapping value' : 'list item';
    node = next;
  }
}

function holds(span: TextSpan, edit: Edit): boolean {
  return span.offset <= edit.from && edit.oldEnd <= span.offset + span.length;
}

interface Move {
  readonly target: ScalarNode;
  readonly replacement: ScalarNode;
  /** The old end of the target: spans from here on move by `delta`. */
  readonly at: number;
  readonly delta: number;
}

/** `node` with the target replaced and every span after it moved; what neither holds nor follows the target is kept as it is. */
function rebuilt(node: SpecNode, move: Move): SpecNode {
  if (node === move.target) return move.replacement;
  const end = node.offset + node.length;
  const holdsTarget = node.offset <= move.target.offset && move.at <= end;
  if (!holdsTarget && (end < move.at || move.delta === 0)) return node;
  const offset = node.offset >= move.at ? node.offset + move.delta : node.offset;
  const length = node.offset < move.at && move.at <= end ? node.length + move.delta : node.length;
  if (node.kind === 'object') return { ...node, offset, length, properties: node.properties.map((p) => rebuiltProperty(p, move)) };
  if (node.kind === 'array') return { ...node, offset, length, items: node.items.map((item) => rebuilt(item, move)) };
  return { ...node, offset, length };
}

function rebuiltProperty(property: PropertyNode, move: Move): PropertyNode {
  const value = property.value && rebuilt(property.value, move);
  const keySpan =
    property.keySpan.offset >= move.at
      ? { offset: property.keySpan.offset + move.delta, length: property.keySpan.length }
      : property.keySpan;
  return value === property.value && keySpan === property.keySpan ? property : { key: property.key, keySpan, value };
}

/** `data` with the value at `path` replaced, the lists and mappings along the path copied and the rest shared. */
function withValueAt(data: unknown, path: readonly JsonPathSegment[], depth: number, value: unknown): unknown {
  if (depth === path.length) return value;
  const segment = path[depth];
  if (Array.isArray(data)) {
    const copy = data.slice();
    copy[segment as number] = withValueAt(data[segment as number], path, depth + 1, value);
    return copy;
  }
  const mapping = data as Record<string, unknown>;
  // The fast path never reads a `__proto__` key, so a spread copies every key as data.
  return { ...mapping, [segment]: withValueAt(mapping[segment], path, depth + 1, value) };
}
