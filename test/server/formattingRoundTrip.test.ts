/**
 * Formatting never changes what a spec means: every rule fixture and every input of the reliability corpus
 * is formatted (in the file's own order and in the contract's), and the formatted text must parse to the
 * same documents with the same data, format again to itself, and be refused only when the input does not parse.
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
