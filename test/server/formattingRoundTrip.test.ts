/**
 * Formatting never changes what a spec means: every rule fixture and every input of the reliability corpus
 * is formatted (in the file's own order and in the contract's), and the formatted text must parse to the
 * same documents with the same data, format again to itself, and be refused only when the input does not parse.
 * Range formatting of every fixture, a few whole lines at a time, edits only inside the range and keeps the
 * data and every comment.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sameData } from '../../core/endpointSpec/ownData';
import { parseSpecText } from '../../core/endpointSpec/parse';
import type { SpecFormat } from '../../core/endpointSpec/tree';
import { MAX_CHECKED_TEXT_LENGTH } from '../../server/languageService';
import { applyEdits, formatting } from '../../server/languageService/format';
import { allInputs } from '../reliability/corpus';

const FIXTURES = join(__dirname, '..', 'fixtures');

interface Input {
  readonly name: string;
  readonly format: SpecFormat;
  text(): string;
}

function fixtureFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? fixtureFiles(join(folder, entry.name)) : /\.(ya?ml|json)$/.test(entry.name) ? [join(folder, entry.name)] : [],
  );
}

const fixtures: Input[] = fixtureFiles(join(FIXTURES, 'rules')).map((file) => ({
  name: file.slice(FIXTURES.length + 1),
  format: file.endsWith('.json') ? 'json' : 'yaml',
  text: () => readFileSync(file, 'utf8'),
}));

/** The corpus as an editor would hold it; files over the editor's limit are never formatted there. */
const corpus: Input[] = allInputs().map((input) => ({
  name: `reliability ${input.fileName}`,
  format: input.format,
  text: () => input.text(),
}));

function parses(documents: ReturnType<typeof parseSpecText>): boolean {
  return documents.length > 0 && documents.every((d) => !d.syntaxProblems.some((p) => p.severity === 'error'));
}

/** Formats, then holds the result to the input's data and to itself. Answers whether anything changed. */
function roundTrip(input: Input, contractKeyOrder: boolean): boolean {
  const text = input.text();
  const request = { tabSize: 2, insertSpaces: true, contractKeyOrder };
  if (text.length > MAX_CHECKED_TEXT_LENGTH) return false;
  const before = parseSpecText(text, input.format);
  const first = formatting(text, input.format, before, request);
  assert.notEqual(first.refused, 'meaning-changed', `${input.name}: the formatter's own guard refused its result`);
  if (!parses(before)) {
    assert.deepEqual(first.edits, [], `${input.name} does not parse, so it is not formatted`);
    return false;
  }
  assert.equal(first.refused, undefined, `${input.name} parses, so it is formatted`);
  const formatted = applyEdits(text, first.edits);
  const after = parseSpecText(formatted, input.format);
  assert.equal(after.length, before.length, `${input.name}: as many documents`);
  after.forEach((document, index) => {
    assert.ok(
      sameData(document.data, before[index].data),
      `${input.name}: document ${index} holds the same data\n--- before\n${text.slice(0, 2000)}\n--- after\n${formatted.slice(0, 2000)}`,
    );
  });
  const second = formatting(formatted, input.format, after, request);
  assert.deepEqual(second.edits, [], `${input.name}: a second format changes nothing\n${formatted.slice(0, 2000)}`);
  return first.edits.length > 0;
}

describe('formatting keeps the data of every fixture', () => {
  for (const contractKeyOrder of [false, true]) {
    it(contractKeyOrder ? 'in the contract key order' : 'in the file key order', () => {
      const changed = fixtures.filter((input) => roundTrip(input, contractKeyOrder));
      assert.ok(fixtures.length > 50, `${fixtures.length} fixtures`);
      // The fixtures are written by hand in many styles: a formatter that changed none would be doing nothing.
      assert.ok(changed.length > 5, `formatting changed ${changed.length} fixtures`);
    });
  }
});

/** The whole-line comments of a YAML text, sorted: range formatting may move none out of the text. */
function commentLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('#'))
    .sort();
}

/** Formats each run of `size` whole lines (column 0 to column 0 of the next line). Answers how many changed anything. */
function rangeRoundTrip(input: Input, size: number, contractKeyOrder: boolean): number {
  const text = input.text();
  const before = parseSpecText(text, input.format);
  if (!parses(before)) return 0;
  const starts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  let changed = 0;
  for (let first = 0; first < starts.length; first++) {
    const offset = starts[first];
    const end = starts[first + size] ?? text.length;
    const request = { tabSize: 2, insertSpaces: true, contractKeyOrder, range: { offset, length: end - offset } };
    const { edits } = formatting(text, input.format, before, request);
    const where = `${input.name} lines ${first}–${first + size - 1}`;
    for (const edit of edits) assert.ok(edit.offset >= offset && edit.offset + edit.length <= end, `${where}: ${JSON.stringify(edit)}`);
    const formatted = applyEdits(text, edits);
    const after = parseSpecText(formatted, input.format);
    assert.ok(
      after.length === before.length && after.every((d, i) => sameData(d.data, before[i].data)),
      `${where}: the same data\n${formatted.slice(0, 2000)}`,
    );
    if (input.format === 'yaml') assert.deepEqual(commentLines(formatted), commentLines(text), `${where}: every comment`);
    if (edits.length > 0) changed++;
  }
  return changed;
}

describe('range formatting keeps to its range, the data and the comments of every fixture', () => {
  for (const contractKeyOrder of [false, true]) {
    it(contractKeyOrder ? 'in the contract key order' : 'in the file key order', () => {
      let changed = 0;
      for (const input of fixtures) for (const size of [1, 3]) changed += rangeRoundTrip(input, size, contractKeyOrder);
      assert.ok(changed > 50, `range formatting changed ${changed} ranges`);
    });
  }
});

describe('formatting keeps the data of the reliability corpus', () => {
  for (const input of corpus) {
    it(input.name, () => {
      roundTrip(input, false);
    });
  }
  it('in the contract key order, for the small files', () => {
    for (const input of corpus) if (input.text().length < 100_000) roundTrip(input, true);
  });
});
