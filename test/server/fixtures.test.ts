/**
 * Every fixture under test/fixtures/ opened in the real language server over stdio: valid ones
 * get no diagnostics at all; invalid ones get exactly the annotated codes at the annotated ranges.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { diagnosticText, LspClient, REPO_ROOT } from '../support/lspClient';
import { loadFixtures } from '../support/fixtures';
import { SPEC_RULES } from '../../core/endpointSpec/rules';

const FIXTURES = join(REPO_ROOT, 'test', 'fixtures');
const fixtures = loadFixtures(FIXTURES);

/** Codes that come from the schema and the parser rather than from a rule object. */
const SCHEMA_AND_SYNTAX_CODES = [
  'unknown-property',
  'missing-property',
  'wrong-type',
  'invalid-enum',
  'out-of-range',
  'empty-value',
  'too-few-items',
  'pattern-mismatch',
  'duplicate-item',
  'syntax-error',
  'duplicate-key',
  'alias-limit',
  'unknown-tag',
  'empty-spec',
  'not-a-mapping',
];

const show = (r: { start: { line: number; character: number }; end: { line: number; character: number } }) =>
  `${r.start.line + 1}:${r.start.character + 1}-${r.end.line + 1}:${r.end.character + 1}`;

describe('spec fixtures over LSP stdio', () => {
  let client: LspClient;
  before(async () => {
    client = await LspClient.start();
  });
  after(async () => {
    await client.stop();
  });

  it('covers every rule and schema code with a valid and an invalid fixture', () => {
    const codes = [...SPEC_RULES.map((r) => r.code), ...SCHEMA_AND_SYNTAX_CODES];
    for (const code of codes) {
      const directory = join(FIXTURES, 'rules', code);
      assert.ok(existsSync(directory), `missing fixtures for ${code}`);
      const files = readdirSync(directory);
      assert.ok(
        files.some((f) => f.startsWith('valid')),
        `no valid fixture for ${code}`,
      );
      assert.ok(
        files.some((f) => f.startsWith('invalid')),
        `no invalid fixture for ${code}`,
      );
      const invalid = fixtures.filter((f) => f.name.startsWith(`rules/${code}/invalid`));
      assert.ok(
        invalid.some((f) => f.expected.some((e) => e.code === code)),
        `no invalid fixture of ${code} expects ${code}`,
      );
    }
  });

  for (const fixture of fixtures) {
    it(fixture.name, async () => {
      const uri = pathToFileURL(fixture.file).href;
      await client.open(uri, fixture.text);
      const diagnostics = await client.diagnostics(uri);
      await client.close(uri);
      for (const d of diagnostics) {
        assert.equal(d.source, 'endpoint-studio');
        assert.ok(typeof d.message === 'string' && d.message.length > 10, `message too thin: ${diagnosticText(d)}`);
        assert.ok(Array.isArray((d.data as { path?: unknown }).path), 'data.path carries the JSON path');
      }
      const actual = diagnostics.map((d) => `${String(d.code)} @ ${show(d.range)}`).sort();
      const expected = fixture.valid ? [] : fixture.expected.map((e) => `${e.code} @ ${show(e.range)}`).sort();
      if (!fixture.valid) assert.ok(expected.length > 0, 'an invalid fixture must annotate what it expects');
      assert.deepEqual(actual, expected, diagnostics.map((d) => `${String(d.code)} @ ${show(d.range)}: ${diagnosticText(d)}`).join('\n'));
    });
  }
});
