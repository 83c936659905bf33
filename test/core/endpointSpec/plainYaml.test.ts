import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parsePlainYaml } from '../../../core/endpointSpec/plainYaml';
import { seededRandom } from '../../../core/util/seededRandom';
import { agreesWithLibrary } from '../../support/fastYamlPath';

const ROOT = join(__dirname, '..', '..', '..');
const RULES = join(ROOT, 'test', 'fixtures', 'rules');
const fixtures = readdirSync(RULES).flatMap((dir) =>
  readdirSync(join(RULES, dir))
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => readFileSync(join(RULES, dir, f), 'utf8')),
);
const EXAMPLE = readFileSync(join(ROOT, 'examples', 'sdxl-worker.endpoint.yaml'), 'utf8');

const TYPICAL = `# A queue endpoint on 24 GB GPUs.
name: sdxl-worker
type: QUEUE
image: myorg/sdxl-worker:1.4.2
args: python -u handler.py
gpu:
  pools: [ADA_24, AMPERE_24]
  count: 1
  excludedTypes:
    - NVIDIA GeForce RTX 3090
  minCudaVersion: "12.1"
workers: { min: 0, max: 3, idleTimeout: 10 }
cpu:
  - id: cpu3c
    vcpuCount: 4
  - 'x'
scaling:
  type: QUEUE_DELAY
  queueDelay: 4 # seconds

  # between entries
  requestCount: 1.5e1
flashboot: true
env:
  HF_HOME: "/runpod-volume/hf"
  EMPTY: ''
  NOTHING: null
timeout: 300
# the end
`;

/** Pieces of the subset and just beyond it, so edits walk back and forth over the fast path's edges. */
const INSERTIONS = [
  ' ',
  '  ',
  '\n',
  '# c',
  ' # c',
  '\n# c\n',
  ': ',
  ':',
  '- ',
  '[',
  ']',
  '{',
  '}',
  ', ',
  '"',
  "'",
  '\\',
  'x',
  '1',
  '0',
  '.',
  '-',
  'true',
  'null',
  '~',
  'k: v\n',
  '  k: v\n',
  '- a\n',
  '\n  ',
  '1e3',
  '0x1',
  '#',
  'a: [1, 2]\n',
  'b: {c: d}\n',
  '&a ',
  '*a',
  '!!str ',
  '|\n',
  '---\n',
  '\t',
  'é',
];

function mutate(text: string, next: () => number): string {
  let result = text;
  const edits = 1 + Math.floor(next() * 3);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(next() * (result.length + 1));
    if (next() < 0.35) {
      result = result.slice(0, at) + result.slice(at + 1 + Math.floor(next() * 4));
    } else {
      const lineStart = next() < 0.5 ? result.lastIndexOf('\n', at - 1) + 1 : at;
      result = result.slice(0, lineStart) + INSERTIONS[Math.floor(next() * INSERTIONS.length)] + result.slice(lineStart);
    }
  }
  return result;
}

test('the fast path reads typical specs, and reads them as the yaml library does', () => {
  for (const text of [TYPICAL, EXAMPLE]) assert.equal(agreesWithLibrary(text), true);
});

test('the fast path gives the library document for every fixture it reads', () => {
  const read = fixtures.filter((text) => agreesWithLibrary(text)).length;
  assert.ok(read >= fixtures.length / 2, `${read} of ${fixtures.length} fixtures read by the fast path`);
});

test('the fast path gives the library document over 20,000 random edits, or leaves the text to the library', () => {
  const corpus = [TYPICAL, EXAMPLE, ...fixtures];
  const next = seededRandom(20261123);
  let read = 0;
  for (let i = 0; i < 20000; i++) {
    if (agreesWithLibrary(mutate(corpus[Math.floor(next() * corpus.length)], next))) read++;
  }
  // Both sides of the edge are exercised.
  assert.ok(read > 2000 && read < 18000, `${read} of 20,000 edited texts read by the fast path`);
});

test('what the fast path leaves to the library', () => {
  for (const text of [
    'a: &x 1\nb: *x\n',
    'a: |\n  text\n',
    'a: !!str 1\n',
    'a: "esc\\n"\n',
    'a: one\n  two\n',
    '---\na: 1\n',
    'a:\n- x\n',
    'a:\n  b: 1\n# closes b\nc: 2\n',
    'a: 0x1f\n',
    'a: 1\na: 2\n',
    'a:\n',
    'a: caf\u00e9\n',
    '- a\n',
    '',
  ])
    assert.equal(parsePlainYaml(text), undefined, JSON.stringify(text));
});
