/**
 * The hostile corpus: the small files under corpus/ (kept as bytes: invalid UTF-8, binary, BOMs
 * and NULs cannot be written in a TypeScript string faithfully), and the large ones generated here
 * at test time, since a 10 MB file has no place in the repository.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type Format = 'yaml' | 'json';

export interface HostileInput {
  readonly name: string;
  /** A spec file name the server and the CLI recognise (`*.endpoint.yaml` / `*.endpoint.json`). */
  readonly fileName: string;
  readonly format: Format;
  /** The file's bytes, as the CLI reads them. */
  bytes(): Buffer;
  /** What an editor holds after opening the file (UTF-8 with replacement characters). */
  text(): string;
  /** Large enough that the per-input time bound is the large-input one. */
  readonly large: boolean;
}

const CORPUS = join(__dirname, 'corpus');

const VALID =
  'name: demo\ntype: QUEUE\nimage: myorg/worker:1.0.0\ngpu:\n  pools: [ADA_24]\nscaling:\n  type: QUEUE_DELAY\n  queueDelay: 4\n';
const DEEP = 10_000;

function fromText(name: string, format: Format, make: () => string, large = false): HostileInput {
  let cached: string | undefined;
  const text = (): string => (cached ??= make());
  return { name, fileName: `${name}.endpoint.${format}`, format, large, text, bytes: () => Buffer.from(text(), 'utf8') };
}

/** Text of about `bytes` bytes made of `unit(i)` repeated. */
function sized(bytes: number, head: string, unit: (i: number) => string): string {
  const parts = [head];
  let size = head.length;
  for (let i = 0; size < bytes; i++) {
    const part = unit(i);
    parts.push(part);
    size += part.length;
  }
  return parts.join('');
}

/** Generated: deep nesting, 10 MB files, long lines, many documents, anchors and aliases. */
export function generatedInputs(): HostileInput[] {
  const tenMb = 10 * 1024 * 1024 - 4096;
  return [
    fromText('deep-flow-10000', 'yaml', () => `${'['.repeat(DEEP)}${']'.repeat(DEEP)}\n`),
    fromText('deep-flow-unclosed-10000', 'yaml', () => `${'{a: ['.repeat(DEEP)}\n`),
    fromText('deep-compact-10000', 'yaml', () => `${'- '.repeat(DEEP)}x\n`),
    fromText('deep-explicit-keys-10000', 'yaml', () => `${'? '.repeat(DEEP)}x\n`),
    // 10,000 levels of block indentation would be 50 MB; 4,000 is as deep as 10 MB goes.
    fromText('deep-block-4000', 'yaml', () => Array.from({ length: 4000 }, (_, i) => `${' '.repeat(i)}a:`).join('\n') + '\n', true),
    fromText('deep-array-10000', 'json', () => `${'['.repeat(DEEP)}${']'.repeat(DEEP)}`),
    fromText('deep-object-10000', 'json', () => `${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}`),
    fromText('deep-unclosed-10000', 'json', () => '[{"a":'.repeat(DEEP)),
    fromText('ten-mb-env', 'yaml', () => sized(tenMb, `${VALID}env:\n`, (i) => `  KEY_${i}: "${'v'.repeat(40)}"\n`), true),
    fromText('ten-mb-unknown-keys', 'yaml', () => sized(tenMb, VALID, (i) => `k${i}: v\n`), true),
    fromText(
      'ten-mb-env',
      'json',
      () => sized(tenMb, '{"name": "demo", "env": {', (i) => `${i === 0 ? '' : ','}"KEY_${i}": "${'v'.repeat(40)}"`) + '}}',
      true,
    ),
    fromText('ten-mb-line', 'yaml', () => `${VALID}args: "${'x'.repeat(tenMb)}"\n`, true),
    fromText('long-key', 'yaml', () => `${'k'.repeat(2_000_000)}: 1\n`, true),
    fromText('hundred-thousand-lines', 'yaml', () => `${VALID}# ${'comment\n# '.repeat(100_000)}\n`, true),
    fromText('five-thousand-documents', 'yaml', () => `${VALID}---\n`.repeat(5000), true),
    fromText('many-anchors', 'yaml', () => Array.from({ length: 20_000 }, (_, i) => `k${i}: &a${i} v`).join('\n'), true),
    fromText('many-aliases', 'yaml', () => `a: &a x\n${Array.from({ length: 20_000 }, (_, i) => `k${i}: *a`).join('\n')}`, true),
    fromText('only-colons', 'yaml', () => ':'.repeat(1_000_000), true),
    fromText('long-quoted-string', 'json', () => `{"name": "${'\\u0041'.repeat(300_000)}", "image": "${'\\"'.repeat(300_000)}"}`, true),
  ];
}

/** The committed small files. */
export function corpusFiles(): HostileInput[] {
  return readdirSync(CORPUS)
    .filter((f) => /\.endpoint\.(yaml|json)$/.test(f))
    .sort()
    .map((fileName) => {
      const format: Format = fileName.endsWith('.json') ? 'json' : 'yaml';
      const bytes = (): Buffer => readFileSync(join(CORPUS, fileName));
      return {
        name: fileName.replace(/\.endpoint\.(yaml|json)$/, ''),
        fileName,
        format,
        large: false,
        bytes,
        text: () => bytes().toString('utf8'),
      };
    });
}

export function allInputs(): HostileInput[] {
  return [...corpusFiles(), ...generatedInputs()];
}

export const VALID_SPEC = VALID;

/**
 * The members Object.prototype lends every plain object. Written as spec keys or values they are names
 * like any other; a `{}` table, an `in` check or a deep equality that forgets that turns them into
 * crashes (corpus/prototype-key-crash.*) or into wrong answers. prototypeKeys.test.ts holds this list
 * to what the running Node has.
 */
export const PROTOTYPE_KEYS: readonly string[] = [
  'constructor',
  '__proto__',
  'toString',
  'toLocaleString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
];
