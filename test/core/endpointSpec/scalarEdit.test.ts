/**
 * An edit inside one value patches the last document (scalarEdit.ts). Held here to the fast path's full
 * reading of the new text over keystroke-like edits of every fixture: wherever it patches, the document is
 * the same, and it never patches text the fast path would leave to the library.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parsePlainYaml } from '../../../core/endpointSpec/plainYaml';
import { documentAfterScalarEdit } from '../../../core/endpointSpec/scalarEdit';
import type { SpecDocument } from '../../../core/endpointSpec/tree';
import { seededRandom } from '../../../emulator/ids';
import { typicalSpec } from '../../../bench/fixtures';
import { keystroke } from '../../support/keystroke';

const RULES = join(__dirname, '..', '..', 'fixtures', 'rules');
const specs = [
  typicalSpec(),
  ...readdirSync(RULES).flatMap((dir) =>
    readdirSync(join(RULES, dir))
      .filter((f) => /\.ya?ml$/.test(f))
      .map((f) => readFileSync(join(RULES, dir, f), 'utf8')),
  ),
].filter((text) => parsePlainYaml(text) !== undefined);

function plain(text: string): SpecDocument {
  const document = parsePlainYaml(text);
  assert.ok(document, 'the fast path reads the text');
  return document;
}

test('a document patched after a keystroke is the one the fast path reads from the new text', () => {
  const next = seededRandom(20261124);
  let patched = 0;
  let edits = 0;
  for (const spec of specs) {
    let text = spec;
    let document = plain(text);
    for (let i = 0; i < 60; i++) {
      const edited = keystroke(text, next);
      const after = documentAfterScalarEdit(document, text, edited);
      const full = parsePlainYaml(edited);
      edits++;
      if (after) {
        patched++;
        assert.deepStrictEqual(after, full, `the patch differs from a full reading\n---- before ----\n${text}\n---- after ----\n${edited}`);
      }
      // A keystroke the fast path cannot read is taken back, so the typing goes on in its subset.
      if (!full) continue;
      text = edited;
      document = after ?? full;
    }
  }
  assert.ok(edits > 2000, `${edits} edits`);
  assert.ok(patched > edits / 4, `only ${patched} of ${edits} edits patched`);
});

test('a keystroke that lengthens or shortens a value moves everything after it', () => {
  const before = 'name: a\nworkers:\n  max: 3\n  min: 0\nenv: {A: "x", B: y}\n';
  const after = before.replace('max: 3', 'max: 30');
  const document = documentAfterScalarEdit(plain(before), before, after);
  assert.deepStrictEqual(document, parsePlainYaml(after));
  assert.deepEqual(document?.data, { name: 'a', workers: { max: 30, min: 0 }, env: { A: 'x', B: 'y' } });
});

test('edits that change more than one value are read in full', () => {
  const before = 'name: a\ngpu:\n  pools: [ADA_24]\n';
  const document = plain(before);
  for (const after of [
    'name: a\ngpu:\n  pools: [ADA_24, X]\n',
    'name: a b: c\ngpu:\n  pools: [ADA_24]\n',
    'name: a\ngpu:\n  pools: ADA_24]\n',
    'name: a\n\ngpu:\n  pools: [ADA_24]\n',
    'name: a #\ngpu:\n  pools: [ADA_24]\n',
    'nam: a\ngpu:\n  pools: [ADA_24]\n',
  ])
    assert.equal(documentAfterScalarEdit(document, before, after), undefined, after);
});
