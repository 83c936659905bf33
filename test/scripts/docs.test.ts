/**
 * The generated reference pages (docs/rules.md, docs/settings.md) are what `npm run docs` writes from
 * the code now, so a rule, a setting or a fixture cannot change without its documentation. The
 * generator itself is held to the sources: every diagnostic code they emit is documented, and every
 * code it documents is still emitted somewhere.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CATALOG_RULES } from '../../core/endpointSpec/catalog/rules';
import { everyDocumentedCode as documentedCodes } from '../../core/policy';
import { SPEC_RULES } from '../../core/endpointSpec/rules';
import { generateDocs, REPO_ROOT, RULE_FIXTURES } from '../../scripts/generate-docs';

/** Where diagnostics are made: the spec engine, the team policy, the language server, and the editor's deploy command. */
const EMITTING_SOURCES = ['core/endpointSpec', 'core/policy', 'server', 'client/deploy'];

/** The first line where two texts part, for a failure message shorter than the whole page. */
function firstDifference(committed: string, generated: string): string {
  const a = committed.split('\n');
  const b = generated.split('\n');
  const line = a.findIndex((text, index) => text !== b[index]);
  const at = line === -1 ? a.length : line;
  return `line ${at + 1}:\n  committed: ${a[at] ?? '(end of file)'}\n  generated: ${b[at] ?? '(end of file)'}`;
}

function typeScriptFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : typeScriptFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Codes written as literals where a problem or diagnostic is built: `code: 'x'`, `code = 'x'`, `problem('x', ...)`, `text.at(span, 'x', ...)`. */
function emittedCodes(): Set<string> {
  const codes = new Set<string>();
  const literal = /'([a-z]+(?:-[a-z0-9]+)+)'/g;
  for (const file of EMITTING_SOURCES.flatMap((folder) => typeScriptFiles(join(REPO_ROOT, folder)))) {
    const text = readFileSync(file, 'utf8');
    for (const statement of text.match(/\bcode\s*[:=][^,;\n]*|\bproblem\(\s*'[^']*'|\.at\(\s*(?:[\w.]+|\{[^}]*\}),\s*'[^']*'/g) ?? []) {
      for (const match of statement.matchAll(literal)) codes.add(match[1]);
    }
  }
  return codes;
}

// Generating runs the engine over every rule fixture: once is enough for all the tests here.
const generated = generateDocs();
const page = (path: string): string => generated.find((doc) => doc.path === path)?.content ?? '';

test('docs/rules.md and docs/settings.md are what `npm run docs` writes now', () => {
  for (const doc of generated) {
    const path = join(REPO_ROOT, doc.path);
    assert.ok(existsSync(path), `${doc.path} is missing: run \`npm run docs\``);
    const committed = readFileSync(path, 'utf8');
    assert.ok(
      committed === doc.content,
      `${doc.path} is out of date: run \`npm run docs\` (first difference at ${firstDifference(committed, doc.content)})`,
    );
  }
});

test('the rules page has a section per rule with its severity and its own description', () => {
  const rules = page('docs/rules.md');
  for (const rule of [...SPEC_RULES, ...CATALOG_RULES]) {
    const section = rules.split('\n### ').find((part) => part.startsWith(`${rule.code}\n`));
    assert.ok(section, `no section for ${rule.code}`);
    assert.ok(section.includes(`**${rule.severity}**`), `${rule.code}: severity ${rule.severity} not stated`);
    assert.ok(section.includes(rule.description), `${rule.code}: its description is not on the page`);
  }
});

test('every code with fixtures shows one of them and what the engine reports on it', () => {
  const rules = page('docs/rules.md');
  const documented = new Set(documentedCodes().map((c) => c.code));
  const fixtureCodes = readdirSync(join(REPO_ROOT, RULE_FIXTURES)).filter((name) => documented.has(name));
  assert.ok(fixtureCodes.length >= 30, `only ${fixtureCodes.length} fixture folders are named after a code`);
  for (const code of fixtureCodes) {
    const section = rules.split('\n### ').find((part) => part.startsWith(`${code}\n`)) ?? '';
    assert.match(section, new RegExp(`Example, \\[\`${RULE_FIXTURES}/${code}/invalid`), `${code}: no example`);
    assert.match(section, new RegExp(`^invalid[\\w.-]*:\\d+:\\d+: (error|warning) ${code} `, 'm'), `${code}: no reported diagnostic`);
  }
});

test('every code the sources emit is documented, and every documented code is still emitted', () => {
  const documented = new Set(documentedCodes().map((c) => c.code));
  const emitted = emittedCodes();
  const undocumented = [...emitted].filter((code) => !documented.has(code));
  const stale = [...documented].filter((code) => !emitted.has(code));
  assert.deepEqual(undocumented, [], `codes missing from core/endpointSpec/diagnosticCodes.ts: ${undocumented.join(', ')}`);
  assert.deepEqual(stale, [], `documented codes no source emits any more: ${stale.join(', ')}`);
  assert.equal(documented.size, documentedCodes().length, 'a code is documented twice');
});

test('the settings page lists every setting of the manifest with its default and scope', () => {
  const settings = page('docs/settings.md');
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, { default: unknown; scope?: string }> } };
  };
  const properties = Object.entries(manifest.contributes.configuration.properties);
  assert.ok(properties.length > 0);
  for (const [key, setting] of properties) {
    const section = settings.split('\n## ').find((part) => part.startsWith(`${key}\n`));
    assert.ok(section, `no section for ${key}`);
    assert.ok(section.includes(`default: \`${JSON.stringify(setting.default)}\``), `${key}: default not stated`);
    assert.ok(section.includes(`scope: \`${setting.scope ?? 'window'}\``), `${key}: scope not stated`);
  }
});
