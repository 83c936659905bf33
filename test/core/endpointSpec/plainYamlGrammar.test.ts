/**
 * The fast YAML path against the `yaml` library on texts drawn from a grammar of spec-like YAML
 * (test/support/yamlGrammar.ts): wherever the fast path answers, it gives the library's document. The same
 * property must fail on mutants of the fast path, each a mistake it could plausibly make, so a grammar too
 * narrow to catch them fails here too.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { buildSync } from 'esbuild';
import fc from 'fast-check';
import { agreesWithLibrary, type FastPath } from '../../support/fastYamlPath';
import { fuzz, FUZZ_SEED } from '../../support/fuzz';
import { yamlSpecText } from '../../support/yamlGrammar';

const SOURCE = join(__dirname, '..', '..', '..', 'core', 'endpointSpec', 'plainYaml.ts');
const RUNS = 3000;

/** Mistakes the fast path could make: each replaces one piece of its source. */
const MUTANTS: readonly { name: string; from: string; to: string }[] = [
  {
    name: 'reads the YAML 1.1 words no and yes as booleans',
    from: 'const BOOLEAN = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;',
    to: 'const BOOLEAN = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE|no|yes)$/;',
  },
  { name: "keeps trailing spaces in a collection's end", from: '    if (i === end) return at;', to: '    if (i === end) return end;' },
  {
    name: 'reads 1_000 as a number, as YAML 1.1 did',
    from: '    if (c < 0x30 || c > 0x39) return false;',
    to: '    if ((c < 0x30 || c > 0x39) && c !== 0x5f) return false;',
  },
  {
    name: 'reads a comment after a value as part of the value',
    from: 'if (c === 0x23 /* # */ && this.text.charCodeAt(i - 1) === 0x20) return true;',
    to: 'if (c === 0x23 /* # */ && this.text.charCodeAt(i - 1) === 0x20) return false;',
  },
  {
    name: 'takes a:b for a key',
    from: 'return colon + 1 === end || this.text.charCodeAt(colon + 1) === 0x20 ? colon : -1;',
    to: 'return colon;',
  },
  {
    name: 'reads 0x numbers as text',
    from: 'const LEFT_TO_LIBRARY = /^(?:0o[0-7]+|0x[0-9a-fA-F]+|',
    to: 'const LEFT_TO_LIBRARY = /^(?:0o[0-7]+|',
  },
  {
    name: "starts a list item's mapping at its dash rather than its first key",
    from: 'const map = this.push(indent + value - content, value,',
    to: 'const map = this.push(indent + value - content, content,',
  },
  { name: 'reads escapes in quotes as written', from: "if (body.includes('\\\\') ||", to: 'if (' },
];

const folder = mkdtempSync(join(tmpdir(), 'es-plain-yaml-mutants-'));
after(() => {
  rmSync(folder, { recursive: true, force: true });
});

/** The fast path built from its source with one mutation. */
function mutant(from: string, to: string, index: number): FastPath {
  const source = readFileSync(SOURCE, 'utf8');
  assert.ok(source.includes(from), `the mutation's text is still in plainYaml.ts: ${from}`);
  const built = buildSync({
    stdin: { contents: source.replace(from, to), resolveDir: join(SOURCE, '..'), sourcefile: 'plainYaml.ts', loader: 'ts' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    write: false,
  });
  const file = join(folder, `mutant-${index}.js`);
  writeFileSync(file, built.outputFiles[0].text);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a module built by this test
  return (require(file) as { parsePlainYaml: FastPath }).parsePlainYaml;
}

describe('the fast YAML path on texts from a grammar of spec-like YAML', () => {
  it('gives the library document whenever it answers, and answers for many', () => {
    let answered = 0;
    fuzz(
      fc.property(yamlSpecText, (text) => {
        if (agreesWithLibrary(text)) answered++;
      }),
      { numRuns: RUNS },
    );
    // Both sides of the edge are exercised: a grammar the fast path never reads would prove nothing.
    assert.ok(answered > RUNS * 0.1 && answered < RUNS * 0.9, `${answered} of ${RUNS} texts read by the fast path`);
    console.log(`${answered} of ${RUNS} grammar texts read by the fast path, the rest left to the library`);
  });

  MUTANTS.forEach(({ name, from, to }, index) => {
    it(`catches a fast path that ${name}`, () => {
      const parse = mutant(from, to, index);
      const result = fc.check(
        fc.property(yamlSpecText, (text) => {
          agreesWithLibrary(text, parse);
        }),
        { numRuns: RUNS, seed: FUZZ_SEED },
      );
      assert.ok(result.failed, `the mutant passed ${RUNS} texts`);
    });
  });
});
