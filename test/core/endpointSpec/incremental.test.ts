import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { checkSpecText } from '../../../core/endpointSpec/check';
import { splitYamlDocuments } from '../../../core/endpointSpec/chunks';
import { IncrementalChecker } from '../../../core/endpointSpec/incremental';
import { loadCatalogFile } from '../../../core/endpointSpec/catalog/load';
import { seededRandom } from '../../../emulator/ids';
import { validateSpecData } from '../../../core/endpointSpec/validate';
import { ValidationMemo } from '../../../core/endpointSpec/validationMemo';
import { keystroke } from '../../support/keystroke';
import { TextDocument } from 'vscode-languageserver-textdocument';

const RULES = join(__dirname, '..', '..', 'fixtures', 'rules');
const yamlFixtures = readdirSync(RULES).flatMap((dir) =>
  readdirSync(join(RULES, dir))
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => readFileSync(join(RULES, dir, f), 'utf8')),
);

const INSERTIONS = [
  '---\n',
  '\n---\n',
  '# note\n',
  'x',
  ': ',
  '  ',
  '\n',
  '"',
  "'",
  '|\n',
  '- ',
  '...\n',
  '%YAML 1.2\n',
  '---',
  '{',
  '&a ',
  '*a',
  '\t',
  'workers:\n  min: 9\n',
];

function edit(text: string, next: () => number): string {
  const at = Math.floor(next() * (text.length + 1));
  if (next() < 0.35 && text.length > 0) {
    const length = Math.min(text.length - at, 1 + Math.floor(next() * 12));
    return text.slice(0, at) + text.slice(at + length);
  }
  // Markers only count at the start of a line: often put the insertion there.
  const lineStart = next() < 0.5 ? text.lastIndexOf('\n', at - 1) + 1 : at;
  return text.slice(0, lineStart) + INSERTIONS[Math.floor(next() * INSERTIONS.length)] + text.slice(lineStart);
}

function assertSameAsWhole(checker: IncrementalChecker, text: string, context = {}, note = ''): void {
  const incremental = checker.check(text, 'yaml', 'create', context);
  const whole = checkSpecText(text, 'yaml', 'create', context);
  if (process.env.INCREMENTAL_DUMP && JSON.stringify(incremental) !== JSON.stringify(whole))
    writeFileSync(process.env.INCREMENTAL_DUMP, text);
  assert.deepStrictEqual(incremental, whole, `differs from the whole-file check ${note}\n---- text ----\n${text}`);
}

test('a multi-document file cuts at each marker, comments before the first one staying with it', () => {
  const chunks = splitYamlDocuments('# head\n---\na: 1\n---\nb: 2\n  ---\nc: |\n  ---\n---');
  assert.deepEqual(
    chunks?.map((c) => [c.offset, c.line, c.text]),
    [
      [0, 0, '# head\n---\na: 1\n'],
      [16, 3, '---\nb: 2\n  ---\nc: |\n  ---\n'],
      [42, 8, '---'],
    ],
  );
  assert.equal(splitYamlDocuments('a: 1\n...\n---\nb: 2'), undefined);
  assert.equal(splitYamlDocuments('%YAML 1.2\n---\na: 1'), undefined);
  assert.equal(splitYamlDocuments('a: 1\n---x: 2\n')?.length, 1);
});

test('every fixture, joined into one file and edited at random, checks exactly as the whole file does', () => {
  const next = seededRandom(20261122);
  let edits = 0;
  for (let round = 0; round < 12; round++) {
    const picked = Array.from({ length: 3 + Math.floor(next() * 6) }, () => yamlFixtures[Math.floor(next() * yamlFixtures.length)]);
    let text = picked.join(next() < 0.5 ? '---\n' : '\n---\n');
    const checker = new IncrementalChecker();
    assertSameAsWhole(checker, text, {}, `(round ${round}, opening)`);
    for (let i = 0; i < 40; i++) {
      text = edit(text, next);
      assertSameAsWhole(checker, text, {}, `(round ${round}, edit ${i})`);
      edits++;
    }
  }
  assert.ok(edits >= 480);
});

test('a changed catalog checks every document again', () => {
  const catalog = loadCatalogFile(join(__dirname, '..', '..', 'fixtures', 'catalog.json'));
  const text = yamlFixtures.slice(0, 20).join('---\n');
  const checker = new IncrementalChecker();
  assertSameAsWhole(checker, text);
  assertSameAsWhole(checker, text, { catalog }, '(with the catalog)');
  assertSameAsWhole(checker, text, {}, '(without it again)');
});

test('an unchanged document keeps its parse; a moved one only moves', () => {
  const one = 'name: one\ntype: QUEUE\n';
  const two = 'name: two\ntype: QUEUE\n';
  const checker = new IncrementalChecker();
  const before = checker.check(`${one}---\n${two}`, 'yaml');
  const after = checker.check(`# added\n${one}---\n${two}`, 'yaml');
  assert.equal(after.documents[1].data, before.documents[1].data, 'the second document was not parsed again');
  assert.equal(after.documents[1].span.offset, before.documents[1].span.offset + '# added\n'.length);
});

/** Values an edit may put in place of a field's value: each kind the schema and the rules tell apart. */
const VALUES = ['0', '1', '-1', '3.5', '1000000', '.inf', 'QUEUE', 'LOAD_BALANCER', 'REQUEST_COUNT', 'QUEUE_DELAY', 'ADA_24', '""', 'x y'];
const MORE_VALUES = ['true', 'null', '[]', '[ADA_24, ADA_24]', '{a: 1}', '"12.1"', 'ADA_24, AMPERE_24]'];
const VALUE_LINE = /^(\s*(?:- )?(?:[\w.-]+:[ \t]+)?)(\S.*)$/;

/** One field's value replaced, the edit a person makes most: every field keeps its name and place. */
function valueEdit(text: string, next: () => number): string {
  const lines = text.split('\n');
  const candidates = lines.flatMap((line, index) => (VALUE_LINE.test(line) && !line.trimStart().startsWith('#') ? [index] : []));
  if (candidates.length === 0) return text;
  const index = candidates[Math.floor(next() * candidates.length)];
  const pool = next() < 0.8 ? VALUES : MORE_VALUES;
  lines[index] = lines[index].replace(VALUE_LINE, (_, head: string) => head + pool[Math.floor(next() * pool.length)]);
  return lines.join('\n');
}

test('a one-document spec typed in and edited field by field checks exactly as the whole file does, in both modes, with and without a catalog', () => {
  const catalog = loadCatalogFile(join(__dirname, '..', '..', 'fixtures', 'catalog.json'));
  const next = seededRandom(20261124);
  let edits = 0;
  for (const fixture of yamlFixtures) {
    const mode = next() < 0.8 ? 'create' : 'update';
    const context = next() < 0.5 ? { catalog } : {};
    const checker = new IncrementalChecker();
    let text = fixture;
    for (let i = 0; i < 40; i++) {
      const kind = next();
      text = kind < 0.5 ? keystroke(text, next) : kind < 0.85 ? valueEdit(text, next) : edit(text, next);
      const incremental = checker.check(text, 'yaml', mode, context);
      assert.deepStrictEqual(incremental, checkSpecText(text, 'yaml', mode, context), `differs in ${mode} mode\n---- text ----\n${text}`);
      edits++;
    }
  }
  assert.ok(edits > 3000, `${edits} edits`);
});

test('every value of every fixture, replaced in turn, checks exactly as the whole file does', () => {
  const catalog = loadCatalogFile(join(__dirname, '..', '..', 'fixtures', 'catalog.json'));
  const next = seededRandom(20261125);
  const values = [...VALUES, ...MORE_VALUES, '2', '5', '100'];
  let edits = 0;
  for (const fixture of yamlFixtures) {
    const lines = fixture.split('\n');
    const context = next() < 0.5 ? { catalog } : {};
    const checker = new IncrementalChecker();
    lines.forEach((line, index) => {
      if (!VALUE_LINE.test(line) || line.trimStart().startsWith('#')) return;
      for (let n = 0; n < 5; n++) {
        const value = values[Math.floor(next() * values.length)];
        const text = [
          ...lines.slice(0, index),
          line.replace(VALUE_LINE, (_, head: string) => head + value),
          ...lines.slice(index + 1),
        ].join('\n');
        checker.check(fixture, 'yaml', 'create', context);
        assert.deepStrictEqual(checker.check(text, 'yaml', 'create', context), checkSpecText(text, 'yaml', 'create', context), text);
        edits++;
      }
    });
  }
  assert.ok(edits > 3000, `${edits} edits`);
});

test('an edit to one field is checked again for that field only; new or moved fields check the spec again', () => {
  const memo = new ValidationMemo();
  const spec = {
    name: 'a',
    type: 'QUEUE',
    image: 'org/app:1',
    scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
    gpu: { pools: ['ADA_24'] },
  };
  validateSpecData(spec, 'create', {}, memo);
  const edited = { ...spec, scaling: { type: 'QUEUE_DELAY', queueDelay: 0 }, gpu: { pools: ['ADA_24'] } };
  assert.deepEqual([...(memo.since(edited, 'create', {})?.changed ?? [])], ['scaling']);
  assert.equal(memo.since(edited, 'update', {}), undefined, 'another mode');
  assert.equal(
    memo.since({ type: 'QUEUE', name: 'a', image: spec.image, scaling: spec.scaling, gpu: spec.gpu }, 'create', {}),
    undefined,
    'fields moved',
  );
  assert.equal(memo.since({ ...spec, workers: {} }, 'create', {}), undefined, 'a field added');
  assert.deepEqual(
    validateSpecData(edited, 'create', {}, memo).map((p) => p.code),
    validateSpecData(edited, 'create', {}).map((p) => p.code),
  );
  assert.deepEqual(
    validateSpecData(edited, 'create', {}).map((p) => `${p.code}@${p.path.join('.')}`),
    ['out-of-range@scaling.queueDelay'],
  );
});

test("with the editor's document, kept up to date by incremental changes, problems sit where the whole-file check puts them", () => {
  const next = seededRandom(20261124);
  let checked = 0;
  for (const fixture of yamlFixtures.slice(0, 40)) {
    const checker = new IncrementalChecker();
    const document = TextDocument.create('file:///a.endpoint.yaml', 'yaml', 0, fixture);
    let text = fixture;
    for (let n = 0; n < 25; n++) {
      const after = edit(text, next);
      // The change as an editor sends it: the range that differs, in the old text.
      let from = 0;
      while (from < Math.min(text.length, after.length) && text[from] === after[from]) from++;
      let tail = 0;
      while (tail < Math.min(text.length, after.length) - from && text[text.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
      const range = { start: document.positionAt(from), end: document.positionAt(text.length - tail) };
      TextDocument.update(document, [{ range, text: after.slice(from, after.length - tail) }], n + 1);
      text = after;
      assert.equal(document.getText(), text);
      assert.deepStrictEqual(checker.check(text, 'yaml', 'create', {}, document), checkSpecText(text, 'yaml', 'create', {}), text);
      checked++;
    }
  }
  assert.ok(checked >= 500, `${checked} edits`);
});
