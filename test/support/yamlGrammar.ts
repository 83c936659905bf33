/**
 * fast-check arbitraries for YAML as people write specs, and just past it: nested block and flow mappings
 * and lists at indents of 1 to 4, `-   key:` items, comments at any indent, blank and space-only lines,
 * trailing spaces, no final newline, YAML 1.1 words (`no`, `on`, `yes`), numbers at the 15-digit edge,
 * `0o`/`0x`, quotes, and `#` or `:` inside scalars. The fast YAML path is held to the `yaml` library on them.
 */
import fc from 'fast-check';

type Tree = { scalar: string } | { map: [string, Tree][]; flow: boolean } | { list: Tree[]; flow: boolean };

const WORDS = ['QUEUE', 'ADA_24', 'myorg/worker:1.0', 'python -u handler.py', 'x', 'a-b', 'a.b', 'http://host:80/p', 'a#b', 'a:b', 'C#'];
const YAML_11_WORDS = ['no', 'No', 'NO', 'yes', 'Yes', 'on', 'On', 'off', 'OFF', 'y', 'n', 'true', 'False', 'TRUE', 'null', 'Null', '~'];
const NUMBERS = [
  '0',
  '-1',
  '+1',
  '1.5',
  '.5',
  '1.',
  '1e3',
  '1.5e-3',
  '0o17',
  '0o8',
  '0x1F',
  '0xG',
  '007',
  '.inf',
  '-.Inf',
  '.nan',
  '1_000',
];
const QUOTED = ['"a # b"', "'a: b'", '"12.1"', "'it''s'", '"a\\nb"', '"\\u00e9"', '""', "''", '"#"', "'no'", '"on"'];
const KEYS = ['name', 'type', 'image', 'a', 'b', 'k1', 'x-y', 'a.b', 'a/b', 'no', 'on', 'yes', 'Off', 'null', '1', 'pools', 'env'];

/** Digits around the 15-digit edge where the fast path hands numbers to the library. */
const edgeNumber = fc
  .tuple(fc.integer({ min: 13, max: 17 }), fc.constantFrom('', '-', '+'), fc.boolean())
  .map(([length, sign, fraction]) => {
    const digits = '9'.repeat(length - 1) + '7';
    return fraction ? `${sign}${digits.slice(0, length - 3)}.${digits.slice(length - 3)}` : `${sign}${digits}`;
  });

/** Mostly what the fast path reads, so that a text of many scalars still falls inside it often enough. */
const scalar: fc.Arbitrary<Tree> = fc
  .oneof(
    { arbitrary: fc.constantFrom(...WORDS), weight: 6 },
    { arbitrary: fc.constantFrom(...YAML_11_WORDS), weight: 3 },
    { arbitrary: fc.constantFrom(...NUMBERS), weight: 1 },
    { arbitrary: edgeNumber, weight: 1 },
    { arbitrary: fc.constantFrom(...QUOTED), weight: 1 },
  )
  .map((text) => ({ scalar: text }));

/** A mapping's keys, mostly distinct and mostly names. */
function keysOf<T>(value: fc.Arbitrary<T>, maxLength: number): fc.Arbitrary<[string, T][]> {
  return fc.uniqueArray(fc.tuple(fc.constantFrom(...KEYS), value), { minLength: 1, maxLength, selector: ([key]) => key });
}

/** Flow collections hold scalars (nested flow is left to the library, and seen now and then). */
const flowCollection: fc.Arbitrary<Tree> = fc.oneof(
  { arbitrary: fc.record({ map: keysOf(scalar, 3), flow: fc.constant(true) }), weight: 3 },
  { arbitrary: fc.record({ list: fc.array(scalar, { minLength: 1, maxLength: 3 }), flow: fc.constant(true) }), weight: 3 },
  {
    arbitrary: fc.record({
      list: fc.array(fc.record({ list: fc.array(scalar, { maxLength: 2 }), flow: fc.constant(true) })),
      flow: fc.constant(true),
    }),
    weight: 1,
  },
);

const tree: fc.Arbitrary<Tree> = fc.letrec<{ node: Tree }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { arbitrary: scalar, weight: 4 },
    { arbitrary: flowCollection, weight: 1 },
    { arbitrary: fc.record({ map: keysOf(tie('node'), 4), flow: fc.constant(false) }), weight: 2 },
    { arbitrary: fc.record({ list: fc.array(tie('node'), { minLength: 1, maxLength: 3 }), flow: fc.constant(false) }), weight: 2 },
  ),
})).node;

/** How the tree is laid out: each choice is drawn once per text. */
interface Layout {
  readonly indent: number;
  readonly dashSpaces: number;
}

function flow(node: Tree): string {
  if ('scalar' in node) return node.scalar;
  if ('map' in node) return `{${node.map.map(([key, value]) => `${key}: ${flow(value)}`).join(', ')}}`;
  return `[${node.list.map(flow).join(', ')}]`;
}

function isBlock(node: Tree): boolean {
  return !('scalar' in node) && !node.flow;
}

/** The lines of a block mapping or list whose first line starts at column `at`; `first` is the text before it on that line. */
function block(node: Tree, at: number, layout: Layout, first = ' '.repeat(at)): string[] {
  const lines: string[] = [];
  let lead = first;
  if ('map' in node) {
    for (const [key, value] of node.map) {
      if (isBlock(value)) lines.push(`${lead}${key}:`, ...block(value, at + layout.indent, layout));
      else lines.push(`${lead}${key}: ${flow(value)}`);
      lead = ' '.repeat(at);
    }
  } else if ('list' in node) {
    for (const item of node.list) {
      const dash = `${lead}-${' '.repeat(layout.dashSpaces)}`;
      if (isBlock(item) && 'map' in item) lines.push(...block(item, at + 1 + layout.dashSpaces, layout, dash));
      else if (isBlock(item)) lines.push(`${lead}-`, ...block(item, at + layout.indent, layout));
      else lines.push(`${dash}${flow(item)}`);
      lead = ' '.repeat(at);
    }
  }
  return lines;
}

/** One decoration of the laid-out lines: a comment, a blank or space-only line, trailing spaces, a line comment. */
const decoration = fc.record({
  kind: fc.constantFrom('comment', 'blank', 'spaces', 'trailing', 'line comment'),
  at: fc.nat(),
  width: fc.integer({ min: 0, max: 6 }),
});

function decorate(lines: string[], decorations: readonly { kind: string; at: number; width: number }[]): string[] {
  const result = [...lines];
  for (const { kind, at, width } of decorations) {
    const index = at % (result.length + 1);
    if (kind === 'comment') result.splice(index, 0, `${' '.repeat(width)}# note: a, b`);
    else if (kind === 'blank') result.splice(index, 0, '');
    else if (kind === 'spaces') result.splice(index, 0, ' '.repeat(width + 1));
    else if (index < result.length && kind === 'trailing') result[index] += ' '.repeat(width + 1);
    else if (index < result.length) result[index] += ` # ${width}`;
  }
  return result;
}

/** A spec-like YAML text: a top-level mapping laid out and decorated at random. */
export const yamlSpecText: fc.Arbitrary<string> = fc
  .record({
    top: keysOf(tree, 6),
    indent: fc.integer({ min: 1, max: 4 }),
    dashSpaces: fc.integer({ min: 1, max: 3 }),
    decorations: fc.array(decoration, { maxLength: 3 }),
    finalNewline: fc.boolean(),
  })
  .map(({ top, indent, dashSpaces, decorations, finalNewline }) => {
    const lines = decorate(block({ map: top, flow: false }, 0, { indent, dashSpaces }), decorations);
    return lines.join('\n') + (finalNewline ? '\n' : '');
  });
