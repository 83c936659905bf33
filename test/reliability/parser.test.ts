/**
 * The spec engine (parse, validate, locate) in-process against the hostile corpus and against
 * fast-check's random text: it never throws, answers each input within a bound, and every
 * diagnostic it gives points inside the text. The language server and the CLI run this same code;
 * lsp.test.ts and cli.test.ts drive them as processes.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { fuzz } from '../support/fuzz';
import * as YAML from 'yaml';
import { checkSpecText, DocumentReuse, type CheckResult } from '../../core/endpointSpec/check';
import { allInputs, PROTOTYPE_KEYS, VALID_SPEC, type Format } from './corpus';
import { count, reportFigures } from './support';

/** Generous for a shared 2-core machine; the hang this guards against took hours. */
const SMALL_BOUND_MS = 2_000;
const LARGE_BOUND_MS = 60_000;
const RUNS = 250;

after(() => {
  reportFigures(__filename);
});

function checked(text: string, format: Format, boundMs = SMALL_BOUND_MS): CheckResult {
  const started = performance.now();
  const result = checkSpecText(text, format);
  const took = performance.now() - started;
  count({ inputsTried: 1 });
  assert.ok(took < boundMs, `took ${Math.round(took)} ms (bound ${boundMs} ms) for ${JSON.stringify(text.slice(0, 120))}`);
  const lines = text.split(/\r\n|\r|\n/).length;
  for (const d of result.diagnostics) {
    assert.ok(d.range.start.line < lines && d.range.end.line < lines, `range past the text: ${JSON.stringify(d.range)}`);
    assert.ok(d.offset >= 0 && d.offset + d.length <= text.length, `offset past the text: ${d.offset}+${d.length} of ${text.length}`);
    assert.ok(d.message.length > 0 && d.message.length < 2_000, `message: ${d.message.slice(0, 200)}`);
  }
  return result;
}

describe('the hostile corpus, in-process', () => {
  for (const input of allInputs()) {
    it(`${input.fileName}: answered within the bound, located diagnostics`, () => {
      const result = checked(input.text(), input.format, input.large ? LARGE_BOUND_MS : SMALL_BOUND_MS);
      if (/^deep-/.test(input.name)) assert.match(result.diagnostics.map((d) => d.message).join('\n'), /nesting is deeper than 256 levels/);
      if (input.name === 'billion-laughs') assert.ok(result.diagnostics.some((d) => d.code === 'alias-limit'));
      if (input.name === 'complex-keys') assert.ok(result.diagnostics.some((d) => /a key must be a name/.test(d.message)));
      // Listing is bounded however many problems a document has.
      const perDocument = new Map<number, number>();
      for (const d of result.diagnostics) perDocument.set(d.documentIndex, (perDocument.get(d.documentIndex) ?? 0) + 1);
      assert.ok(
        [...perDocument.values()].every((n) => n <= 400),
        `at most 400 diagnostics per document; got ${Math.max(...perDocument.values())}`,
      );
    });
  }
});

/** Pieces YAML and JSON are made of, so random text often gets past the first character. */
const YAML_PIECES = [
  '[',
  ']',
  '{',
  '}',
  ':',
  ': ',
  '- ',
  '? ',
  ',',
  '&a ',
  '*a',
  '&b ',
  '*b',
  '!tag ',
  '!!str ',
  '!!binary ',
  '"',
  "'",
  '\\',
  '\n',
  '\r\n',
  '  ',
  '\t',
  '#',
  '|',
  '>-',
  '---\n',
  '...\n',
  '%YAML 1.2\n',
  '<<: ',
  '.inf',
  '-.inf',
  '.nan',
  '0x1F',
  '1e309',
  '1' + '0'.repeat(30),
  '~',
  'null',
  'true',
  'name',
  'type',
  'QUEUE',
  'LOAD_BALANCER',
  'scaling',
  'gpu',
  'pools',
  'ADA_24',
  'env',
  'workers',
  '\u0000',
  '\ufeff',
  '\u2028',
  '\ud800',
  'é',
  ...PROTOTYPE_KEYS,
];
const JSON_PIECES = [
  '{',
  '}',
  '[',
  ']',
  ':',
  ',',
  '"',
  '"name"',
  '"type"',
  '"QUEUE"',
  '"scaling"',
  '"gpu"',
  '"env"',
  '1e999',
  '-0',
  '0.5',
  'true',
  'null',
  '\\u0000',
  '\\',
  '//',
  '/*',
  '\n',
  ' ',
  '\u0000',
  '\ufeff',
  ...PROTOTYPE_KEYS.map((key) => JSON.stringify(key)),
];

const soup = (pieces: string[]) => fc.array(fc.constantFrom(...pieces), { maxLength: 200 }).map((parts) => parts.join(''));

/** A valid spec with a few characters inserted, deleted or replaced: the text of an edit in progress. */
const mutatedSpec = fc
  .array(fc.tuple(fc.nat({ max: VALID_SPEC.length }), fc.nat({ max: 3 }), fc.string({ unit: 'binary', maxLength: 4 })), {
    minLength: 1,
    maxLength: 6,
  })
  .map((edits) => edits.reduce((text, [at, remove, insert]) => text.slice(0, at) + insert + text.slice(at + remove), VALID_SPEC));

/** Spec-shaped data with values of any type, written out as YAML and as JSON: work for the validator. */
const specShaped = fc.record(
  {
    name: fc.oneof(fc.string(), fc.anything()),
    type: fc.oneof(fc.constantFrom('QUEUE', 'LOAD_BALANCER'), fc.anything()),
    image: fc.oneof(fc.string(), fc.anything()),
    gpu: fc.oneof(fc.record({ pools: fc.array(fc.string(), { maxLength: 3 }), count: fc.oneof(fc.integer(), fc.double()) }), fc.anything()),
    cpu: fc.anything(),
    scaling: fc.oneof(
      fc.record({ type: fc.constantFrom('QUEUE_DELAY', 'REQUEST_COUNT'), queueDelay: fc.double(), requestCount: fc.integer() }),
      fc.anything(),
    ),
    workers: fc.oneof(fc.record({ min: fc.integer(), max: fc.integer(), idleTimeout: fc.double() }), fc.anything()),
    env: fc.dictionary(fc.oneof(fc.string(), fc.constantFrom(...PROTOTYPE_KEYS)), fc.anything(), { maxKeys: 5 }),
    args: fc.string(),
    timeout: fc.oneof(fc.integer(), fc.double()),
  },
  { requiredKeys: [] },
);

describe('fast-check: random input never breaks the engine', () => {
  const property = (format: Format) => (text: string) => {
    const first = checked(text, format);
    // Deterministic, and the check the server runs, reusing what it found before, agrees with a fresh one.
    const reuse = new DocumentReuse();
    checkSpecText(text, format, 'create', {}, reuse);
    const again = checkSpecText(text, format, 'create', {}, reuse);
    assert.deepEqual(
      again.diagnostics.map((d) => `${d.code}@${d.offset}`),
      first.diagnostics.map((d) => `${d.code}@${d.offset}`),
    );
  };

  it('YAML token soup', () => {
    fuzz(fc.property(soup(YAML_PIECES), property('yaml')), { numRuns: RUNS });
  });
  it('JSON token soup', () => {
    fuzz(fc.property(soup(JSON_PIECES), property('json')), { numRuns: RUNS });
  });
  it('arbitrary Unicode and binary text, as YAML and as JSON', () => {
    fuzz(fc.property(fc.string({ unit: 'binary', maxLength: 300 }), property('yaml')), { numRuns: RUNS });
    fuzz(fc.property(fc.string({ unit: 'binary', maxLength: 300 }), property('json')), { numRuns: RUNS });
  });
  it('a valid spec under random edits', () => {
    fuzz(fc.property(mutatedSpec, property('yaml')), { numRuns: RUNS });
  });
  it('spec-shaped data of every type, written as YAML and as JSON', () => {
    fuzz(
      fc.property(specShaped, (data) => {
        // Undefined for data JSON cannot write (a function, a symbol), whatever the declared type says.
        const json = JSON.stringify(data, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) as string | undefined;
        if (json !== undefined) property('json')(json);
        let yaml: string | undefined;
        try {
          yaml = YAML.stringify(data);
        } catch {
          // Values YAML cannot write (symbols, functions) have no text to check.
        }
        if (yaml !== undefined) property('yaml')(yaml);
      }),
      { numRuns: RUNS },
    );
  });
  it('random nesting depths, up to ten times the limit', () => {
    const nested = fc
      .tuple(fc.integer({ min: 1, max: 2600 }), fc.constantFrom('[', '{a: ', '- ', '? ', '{"a":'), fc.boolean())
      .map(([depth, open, closed]) => {
        const close = open === '[' ? ']' : open.startsWith('{') ? '}' : '';
        return `${open.repeat(depth)}x${closed ? close.repeat(depth) : ''}`;
      });
    fuzz(
      fc.property(nested, (text) => {
        property('yaml')(text);
        property('json')(text);
      }),
      { numRuns: 60 },
    );
  });
});
