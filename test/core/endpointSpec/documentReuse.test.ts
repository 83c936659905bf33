import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { checkSpecText, DocumentReuse, type CheckResult } from '../../../core/endpointSpec/check';
import { splitYamlDocuments, splitYamlDocumentsAfterEdit } from '../../../core/endpointSpec/chunks';
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

function assertSameAsWhole(reuse: DocumentReuse, text: string, context = {}, note = ''): CheckResult {
  const reused = checkSpecText(text, 'yaml', 'create', context, reuse);
  const whole = checkSpecText(text, 'yaml', 'create', context);
  assert.deepStrictEqual(reused, whole, `differs from the check without reuse ${note}\n---- text ----\n${text}`);
  return reused;
}

/** What a person types: characters, a new line, the start of a key, a document marker, a quote. */
const KEYS = ['a', 'x', '1', ' ', ':', '\n', '-', '#', '"', '---\n', '\n---\n', '  '];

/** Keystrokes at a cursor that moves as they land: a key inserted, or a backspace. */
function typeAt(text: string, cursor: number, next: () => number): { text: string; cursor: number } {
  if (next() < 0.3 && cursor > 0) return { text: text.slice(0, cursor - 1) + text.slice(cursor), cursor: cursor - 1 };
  const key = KEYS[Math.floor(next() * KEYS.length)];
  return { text: text.slice(0, cursor) + key + text.slice(cursor), cursor: cursor + key.length };
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

test('typing at a cursor anywhere in a file of many documents checks with reuse exactly as without', () => {
  const next = seededRandom(20261207);
  let keystrokes = 0;
  for (let round = 0; round < 16; round++) {
    const picked = Array.from({ length: 20 + Math.floor(next() * 20) }, () => yamlFixtures[Math.floor(next() * yamlFixtures.length)]);
    let text = picked.join('---\n');
    const reuse = new DocumentReuse();
    assertSameAsWhole(reuse, text, {}, `(round ${round}, opening)`);
    // At the start, in the middle and at the end of the file, and at the start of a line, where markers count.
    const where = [0, text.length, Math.floor(next() * text.length)][round % 3];
    let cursor = round % 2 === 0 ? where : text.lastIndexOf('\n', where - 1) + 1;
    for (let i = 0; i < 30; i++) {
      ({ text, cursor } = typeAt(text, cursor, next));
      assertSameAsWhole(reuse, text, {}, `(round ${round}, keystroke ${i}, cursor ${cursor})`);
      keystrokes++;
    }
  }
  assert.equal(keystrokes, 480);
});

test('edits at several places at once (a replace-all, several cursors) check with reuse exactly as without', () => {
  const next = seededRandom(20261208);
  for (let round = 0; round < 12; round++) {
    let text = Array.from({ length: 12 }, () => yamlFixtures[Math.floor(next() * yamlFixtures.length)]).join('---\n');
    const reuse = new DocumentReuse();
    assertSameAsWhole(reuse, text);
    for (let i = 0; i < 20; i++) {
      const places = 2 + Math.floor(next() * 3);
      for (let p = 0; p < places; p++) text = edit(text, next);
      assertSameAsWhole(reuse, text, {}, `(round ${round}, change ${i})`);
    }
  }
});

test('a text checked whole in between (a directive typed, then taken back) keeps the parses of the documents', () => {
  const text = yamlFixtures.slice(0, 30).join('---\n');
  const reuse = new DocumentReuse();
  const first = assertSameAsWhole(reuse, text);
  const at = text.indexOf('---\n', text.length / 2);
  assertSameAsWhole(reuse, `${text.slice(0, at)}%YAML 1.2\n${text.slice(at)}`, {}, '(with a directive)');
  assertSameAsWhole(reuse, `${text.slice(0, at)}%YAML 1.2\nx${text.slice(at)}`, {}, '(typed after it)');
  const back = assertSameAsWhole(reuse, `# moved\n${text}`, {}, '(taken back, a line added at the start)');
  assert.equal(back.documents.at(-1)?.data, first.documents.at(-1)?.data, 'the last document was not parsed again');
});

test('a cut after an edit is the cut of the new text, and scans only the edited part', () => {
  const next = seededRandom(20261209);
  for (let round = 0; round < 300; round++) {
    let text = yamlFixtures
      .slice(0, 8)
      .map((f) => (next() < 0.3 ? `# comment\n${f}` : f))
      .join(next() < 0.5 ? '---\n' : '--- # marker\n');
    const before = splitYamlDocuments(text);
    if (!before) continue;
    const starts = { offsets: before.map((c) => c.offset), lines: before.map((c) => c.line) };
    const previous = text;
    text = edit(text, next);
    const after = splitYamlDocuments(text);
    const edited = splitYamlDocumentsAfterEdit(previous, starts, text);
    if (!after) {
      assert.equal(edited, undefined, `round ${round}: the new text is not cut`);
      continue;
    }
    assert.ok(edited, `round ${round}: the new text is cut`);
    const moved = (i: number) => ({ offset: starts.offsets[i] + edited.shift, line: starts.lines[i] + edited.lineShift });
    const places = [
      ...before.slice(0, edited.kept).map((c) => ({ offset: c.offset, line: c.line })),
      ...edited.chunks.map((c) => ({ offset: c.offset, line: c.line })),
      ...before.slice(edited.kept + edited.replaced).map((_, i) => moved(edited.kept + edited.replaced + i)),
    ];
    assert.deepEqual(
      places,
      after.map((c) => ({ offset: c.offset, line: c.line })),
      `round ${round}\n${text}`,
    );
    assert.deepEqual(edited.chunks, after.slice(edited.kept, edited.kept + edited.chunks.length));
    assert.ok(edited.replaced <= 3 && edited.chunks.length <= 3, `round ${round}: only the edited documents are cut again`);
  }
});

test('a moved document keeps its parse, and its tree is moved once, when first read', () => {
  const documents = yamlFixtures.slice(0, 10);
  const reuse = new DocumentReuse();
  const before = checkSpecText(documents.join('---\n'), 'yaml', 'create', {}, reuse);
  const after = checkSpecText(`# typed\n${documents.join('---\n')}`, 'yaml', 'create', {}, reuse);
  const [moved, was] = [after.documents[9], before.documents[9]];
  assert.equal(moved.data, was.data, 'not parsed again');
  assert.equal(moved.span.offset, was.span.offset + '# typed\n'.length);
  assert.equal(moved.root, moved.root, 'the tree is moved once');
  assert.equal(moved.root?.offset, (was.root?.offset ?? NaN) + '# typed\n'.length);
  assert.equal(after.documents, after.documents, 'the documents are placed once per check');
});
