/**
 * The texts and edits the benchmark sends: a typical ~40-line spec, a 2,000-document YAML file, the
 * keystroke that makes each alternately valid and invalid (so every other answer differs), specs for the CLI
 * and memory runs, and the positions for completions.
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

export interface EditCase {
  readonly name: string;
  readonly text: string;
  /** Alternating edits: even edits make the file invalid, odd edits valid again. */
  readonly edits: readonly [TextEdit, TextEdit];
  /** The full texts after each kind of edit, held to what the edits claim (`assertFixtures`). */
  readonly invalidText: string;
  readonly validText: string;
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

/** The range of the digit after `queueDelay: ` on the `occurrence`-th such line (0-based). */
function queueDelayRange(text: string, occurrence: number): Range {
  const lines = text.split('\n');
  let seen = 0;
  for (let line = 0; line < lines.length; line++) {
    const at = lines[line].indexOf('queueDelay: ');
    if (at < 0) continue;
    if (seen++ === occurrence) {
      const character = at + 'queueDelay: '.length;
      return { start: { line, character }, end: { line, character: character + 1 } };
    }
  }
  throw new Error(`no queueDelay line #${occurrence}`);
}

function replaceAt(text: string, range: Range, replacement: string): string {
  const lines = text.split('\n');
  const line = lines[range.start.line];
  lines[range.start.line] = line.slice(0, range.start.character) + replacement + line.slice(range.end.character);
  return lines.join('\n');
}

/** `queueDelay: 4` ↔ `queueDelay: 0`: 0 is below the minimum of 1, so every other edit adds one problem. */
function editCase(name: string, text: string, occurrence: number): EditCase {
  const range = queueDelayRange(text, occurrence);
  const invalidText = replaceAt(text, range, '0');
  const validText = replaceAt(invalidText, range, '4');
  return {
    name,
    text,
    edits: [
      { range, text: '0' },
      { range, text: '4' },
    ],
    invalidText,
    validText,
  };
}

export function typicalCase(): EditCase {
  return editCase('typical spec (~40 lines)', typicalSpec(), 0);
}

export function multiDocumentCase(count = 2000): EditCase {
  // Edit a document in the middle of the file.
  return editCase(`${count}-document YAML file`, multiDocument(count), Math.floor(count / 2));
}

/** Fails loudly when the fixtures do not say what the benchmark assumes. */
export function assertFixtures(cases: readonly EditCase[]): void {
  for (const c of cases) {
    const valid = checkSpecText(c.validText, 'yaml').diagnostics.filter((d) => d.severity === 'error');
    const invalid = checkSpecText(c.invalidText, 'yaml').diagnostics.filter((d) => d.severity === 'error');
    if (valid.length !== 0)
      throw new Error(`${c.name}: the valid text has errors: ${valid.map((d) => `${d.code} ${d.message}`).join('; ')}`);
    if (invalid.length === 0) throw new Error(`${c.name}: the invalid text has no error`);
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
