import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { checkSpecText, DocumentReuse } from '../../../core/endpointSpec/check';
import { splitYamlDocuments } from '../../../core/endpointSpec/chunks';
import { loadCatalogFile } from '../../../core/endpointSpec/catalog/load';
import { seededRandom } from '../../../core/util/seededRandom';

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

function assertSameAsWhole(reuse: DocumentReuse, text: string, context = {}, note = ''): void {
  const reused = checkSpecText(text, 'yaml', 'create', context, reuse);
  const whole = checkSpecText(text, 'yaml', 'create', context);
  assert.deepStrictEqual(reused, whole, `differs from the check without reuse ${note}\n---- text ----\n${text}`);
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

test('every fixture, joined into one file and edited at random, checks with reuse exactly as without', () => {
  const next = seededRandom(20261122);
  let edits = 0;
  for (let round = 0; round < 12; round++) {
    const picked = Array.from({ length: 3 + Math.floor(next() * 6) }, () => yamlFixtures[Math.floor(next() * yamlFixtures.length)]);
    let text = picked.join(next() < 0.5 ? '---\n' : '\n---\n');
    const reuse = new DocumentReuse();
    assertSameAsWhole(reuse, text, {}, `(round ${round}, opening)`);
    for (let i = 0; i < 40; i++) {
      text = edit(text, next);
      assertSameAsWhole(reuse, text, {}, `(round ${round}, edit ${i})`);
      edits++;
    }
  }
  assert.ok(edits >= 480);
});

test('a changed catalog checks every document again', () => {
  const catalog = loadCatalogFile(join(__dirname, '..', '..', 'fixtures', 'catalog.json'));
  const text = yamlFixtures.slice(0, 20).join('---\n');
  const reuse = new DocumentReuse();
  assertSameAsWhole(reuse, text);
  assertSameAsWhole(reuse, text, { catalog }, '(with the catalog)');
  assertSameAsWhole(reuse, text, {}, '(without it again)');
});

test('an unchanged document keeps its parse; a moved one only moves', () => {
  const one = 'name: one\ntype: QUEUE\n';
  const two = 'name: two\ntype: QUEUE\n';
  const reuse = new DocumentReuse();
  const before = checkSpecText(`${one}---\n${two}`, 'yaml', 'create', {}, reuse);
  const after = checkSpecText(`# added\n${one}---\n${two}`, 'yaml', 'create', {}, reuse);
  assert.equal(after.documents[1].data, before.documents[1].data, 'the second document was not parsed again');
  assert.equal(after.documents[1].span.offset, before.documents[1].span.offset + '# added\n'.length);
});
