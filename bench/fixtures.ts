/**
 * The texts and edits the benchmark sends: a typical ~40-line spec and a 2,000-document YAML file, each typed
 * two ways: a keystroke in place that makes the text alternately valid and invalid (no offset moves), and a
 * person typing a line at the start, middle or end (every keystroke inserts, and moves all that follows); specs
 * for the CLI and memory runs, and the positions for completions.
 */
import { checkSpecText } from '../core/endpointSpec/check';

export interface Range {
  start: { line: number; character: number };
  end: { line: number; character: number };
}

export interface TextEdit {
  readonly range: Range;
  readonly text: string;
}

/** How the keystrokes change the text: in place, or inserting at a cursor that moves as a person types. */
export type EditKind = 'replace' | 'insert';

export interface EditCase {
  readonly name: string;
  readonly kind: EditKind;
  /** Where in the file the keystrokes land: `start`, `middle` or `end`. */
  readonly where: string;
  readonly text: string;
  /** The edit of keystroke `n` (from 0), typed after every earlier one. */
  keystroke(n: number): TextEdit;
  /** The whole text after keystrokes 0 to `n - 1`. */
  textAfter(n: number): string;
  /** Whether the text after keystroke `n` holds an error; its pattern repeats every `period` keystrokes. */
  invalidAfter(n: number): boolean;
  readonly period: number;
}

/** A typical spec: GPU queue endpoint with container settings, env and data centers (~40 lines). */
export function typicalSpec(name = 'sdxl-worker', queueDelay = '4'): string {
  return `# A queue endpoint on 24 GB GPUs: jobs arrive through /run and /runsync.
name: ${name}
type: QUEUE
image: myorg/sdxl-worker:1.4.2
args: python -u handler.py
disk: 40
gpu:
  pools: [ADA_24, AMPERE_24]
  count: 1
  excludedTypes:
    - NVIDIA GeForce RTX 3090
  minCudaVersion: "12.1"
workers:
  min: 0
  max: 3
  idleTimeout: 10
scaling:
  type: QUEUE_DELAY
  queueDelay: ${queueDelay}
flashboot: FLASHBOOT
timeout: 300000
dataCenterIds:
  - EU-RO-1
  - US-TX-3
env:
  LOG_LEVEL: "info"
  MODEL_ID: "stabilityai/sdxl-base-1.0"
  HF_HOME: "/runpod-volume/hf"
  TORCH_COMPILE: "0"
  MAX_BATCH: "4"
  CACHE_DIR: "/tmp/cache"
  OUTPUT_FORMAT: "png"
  SAFETY_CHECKER: "on"
  SCHEDULER: "euler"
  PRECISION: "fp16"
  REFINER: "off"
  WATERMARK: "off"
  UPLOAD_BUCKET: "s3://outputs"
  REGION: "eu-central-1"
`;
}

/** One short document of the multi-document file. */
function smallDocument(i: number, queueDelay = '4'): string {
  return `name: worker-${i}
type: QUEUE
image: myorg/worker:1.${i % 10}.0
gpu:
  pools: [ADA_24]
workers: { min: 0, max: 3, idleTimeout: 10 }
scaling:
  type: QUEUE_DELAY
  queueDelay: ${queueDelay}
flashboot: FLASHBOOT
`;
}

export function multiDocument(count: number): string {
  return Array.from({ length: count }, (_, i) => smallDocument(i)).join('---\n');
}

const lineStarts = (text: string): number[] => [0, ...[...text.matchAll(/\n/g)].map((m) => m.index + 1)];

/** The line of the `occurrence`-th line (0-based) that starts with `prefix`. */
function lineStartingWith(text: string, prefix: string, occurrence: number): number {
  const lines = text.split('\n');
  let seen = 0;
  for (let line = 0; line < lines.length; line++) if (lines[line].startsWith(prefix) && seen++ === occurrence) return line;
  throw new Error(`no line #${String(occurrence)} starting with ${prefix}`);
}

function offsetAt(text: string, position: Range['start']): number {
  return lineStarts(text)[position.line] + position.character;
}

/** Each case's pattern of invalid texts over one period, from a check of the texts themselves. */
function invalidPattern(textAfter: (n: number) => string, period: number): boolean[] {
  return Array.from({ length: period }, (_, n) => checkSpecText(textAfter(n + 1), 'yaml').diagnostics.some((d) => d.severity === 'error'));
}

/** `queueDelay: 4` ↔ `queueDelay: 0` on the `occurrence`-th such line: 0 is below the minimum of 1, so every other edit adds one problem. */
function replaceCase(name: string, text: string, occurrence: number, where: string): EditCase {
  const line = lineStartingWith(text, '  queueDelay: ', occurrence);
  const character = '  queueDelay: '.length;
  const range = { start: { line, character }, end: { line, character: character + 1 } };
  const at = offsetAt(text, range.start);
  const textAfter = (n: number): string => (n === 0 ? text : text.slice(0, at) + (n % 2 === 1 ? '0' : '4') + text.slice(at + 1));
  const pattern = invalidPattern(textAfter, 2);
  return {
    name: `${name}, ${where}, in place`,
    kind: 'replace',
    where,
    text,
    keystroke: (n) => ({ range, text: n % 2 === 0 ? '0' : '4' }),
    textAfter,
    invalidAfter: (n) => pattern[n % 2],
    period: 2,
  };
}

/**
 * What a person types in the insertion cases: a comment line above a field, one key at a time (Enter last). From
 * the `#` until the Enter the field is commented out, which in most cases makes a problem, and the Enter brings it
 * back; the cursor ends where it started, at the start of the field's line, and the next burst types another.
 */
export const TYPED_LINE = '# note\n';

/** Typing `TYPED_LINE` over and over at the start of `line`: every keystroke inserts, and moves all that follows. */
function insertCase(name: string, text: string, line: number, where: string): EditCase {
  const at = offsetAt(text, { line, character: 0 });
  const typed = (n: number): string => TYPED_LINE.repeat(Math.ceil(n / TYPED_LINE.length)).slice(0, n);
  const cursor = (n: number): Range['start'] => {
    const before = typed(n);
    const lines = before.split('\n');
    return { line: line + lines.length - 1, character: lines[lines.length - 1].length };
  };
  const textAfter = (n: number): string => text.slice(0, at) + typed(n) + text.slice(at);
  const pattern = invalidPattern(textAfter, TYPED_LINE.length);
  return {
    name: `${name}, ${where}, typing`,
    kind: 'insert',
    where,
    text,
    keystroke: (n) => ({ range: { start: cursor(n), end: cursor(n) }, text: TYPED_LINE[n % TYPED_LINE.length] }),
    textAfter,
    invalidAfter: (n) => pattern[n % TYPED_LINE.length],
    period: TYPED_LINE.length,
  };
}

/**
 * The typical spec, typed in place at `queueDelay`, and typed into at its `name` (the start), its `queueDelay`
 * (the middle) and its last line (the end).
 */
export function typicalCases(): EditCase[] {
  const text = typicalSpec();
  const name = 'typical spec';
  return [
    replaceCase(name, text, 0, 'middle'),
    insertCase(name, text, lineStartingWith(text, 'name: ', 0), 'start'),
    insertCase(name, text, lineStartingWith(text, '  queueDelay: ', 0), 'middle'),
    insertCase(name, text, text.split('\n').length - 2, 'end'),
  ];
}

/**
 * The file of `count` documents, typed in place in its middle document, and typed into at the `name` of its
 * first, middle and last document.
 */
export function multiDocumentCases(count = 2000): EditCase[] {
  const text = multiDocument(count);
  const name = `${count.toLocaleString('en')}-document file`;
  const middle = Math.floor(count / 2);
  return [
    replaceCase(name, text, middle, 'middle'),
    insertCase(name, text, lineStartingWith(text, 'name: ', 0), 'start'),
    insertCase(name, text, lineStartingWith(text, 'name: ', middle), 'middle'),
    insertCase(name, text, lineStartingWith(text, 'name: ', count - 1), 'end'),
  ];
}

/** Fails loudly when the fixtures do not say what the benchmark assumes: each edit makes the text it claims. */
export function assertFixtures(cases: readonly EditCase[]): void {
  for (const c of cases) {
    let text = c.text;
    for (let n = 0; n < 2 * c.period; n++) {
      const { range, text: typed } = c.keystroke(n);
      text = text.slice(0, offsetAt(text, range.start)) + typed + text.slice(offsetAt(text, range.end));
      if (text !== c.textAfter(n + 1)) throw new Error(`${c.name}: keystroke ${String(n)} does not make the text it claims`);
    }
    if (checkSpecText(c.text, 'yaml').diagnostics.some((d) => d.severity === 'error')) throw new Error(`${c.name}: the text has errors`);
    if (c.kind === 'replace' && !(c.invalidAfter(0) && !c.invalidAfter(1)))
      throw new Error(`${c.name}: the edits do not make the text invalid and valid again`);
  }
}

/** Specs for the completion run, with the cursor where the catalog values go. */
export const COMPLETION_CASES = [
  {
    name: 'gpu.pools',
    text: 'name: demo\ntype: QUEUE\nimage: myorg/worker:1.0.0\ngpu:\n  pools: [A]\nscaling:\n  type: QUEUE_DELAY\n  queueDelay: 4\n',
    position: { line: 4, character: 11 },
  },
  {
    name: 'cpu[].id',
    text: 'name: demo\ntype: QUEUE\nimage: myorg/worker:1.0.0\ncpu:\n  - id: \nscaling:\n  type: QUEUE_DELAY\n  queueDelay: 4\n',
    position: { line: 4, character: 8 },
  },
] as const;

/** A valid create body for the emulator run. */
export function createBody(i: number): Record<string, unknown> {
  return {
    name: `bench-${i}`,
    type: 'QUEUE',
    image: 'myorg/worker:1.0.0',
    gpu: { pools: ['ADA_24'] },
    workers: { min: 0, max: 1, idleTimeout: 5 },
    scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
  };
}
