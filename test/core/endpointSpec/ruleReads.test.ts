/**
 * Each rule declares the top-level fields it reads, and a check after an edit keeps the findings of a rule
 * that reads no changed field (validationMemo.ts). A wrong declaration would keep a stale problem, so every
 * rule runs here over every fixture through a proxy that records what it touches.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { CATALOG_RULES } from '../../../core/endpointSpec/catalog/rules';
import { loadCatalogFile } from '../../../core/endpointSpec/catalog/load';
import { parseSpecText } from '../../../core/endpointSpec/parse';
import { SPEC_RULES } from '../../../core/endpointSpec/rules';
import { specFormatOf } from '../../../core/protocol';
import { loadFixtures } from '../../support/fixtures';

const FIXTURES = join(__dirname, '..', '..', 'fixtures');
const catalog = loadCatalogFile(join(FIXTURES, 'catalog.json'));

const fixtureBodies = loadFixtures(FIXTURES).flatMap((fixture) =>
  parseSpecText(fixture.text, specFormatOf(fixture.file))
    .map((document) => document.data)
    .filter((data): data is Record<string, unknown> => typeof data === 'object' && data !== null && !Array.isArray(data))
    .map((data) => ({ name: fixture.name, data })),
);
// Two fixtures' fields together reach paths neither does alone (a template with a GPU selection, say).
const bodies = [
  ...fixtureBodies,
  ...fixtureBodies.flatMap((a, i) =>
    [1, 7, 23].map((step) => {
      const b = fixtureBodies[(i + step) % fixtureBodies.length];
      return { name: `${a.name} + ${b.name}`, data: { ...a.data, ...b.data } };
    }),
  ),
];

/** The body behind a proxy that notes each top-level field read, and `(every field)` when the fields are listed. */
function watched(body: Record<string, unknown>): { proxy: Record<string, unknown>; read: Set<string> } {
  const read = new Set<string>();
  const note = (key: string | symbol): void => {
    if (typeof key === 'string') read.add(key);
  };
  const proxy = new Proxy(body, {
    get: (target, key, receiver): unknown => (note(key), Reflect.get(target, key, receiver) as unknown),
    has: (target, key) => (note(key), Reflect.has(target, key)),
    getOwnPropertyDescriptor: (target, key) => (note(key), Reflect.getOwnPropertyDescriptor(target, key)),
    ownKeys: (target) => (read.add('(every field)'), Reflect.ownKeys(target)),
  });
  return { proxy, read };
}

function assertReadsDeclared(code: string, reads: readonly string[], run: (body: Record<string, unknown>) => unknown): void {
  for (const { name, data } of bodies) {
    const { proxy, read } = watched(data);
    run(proxy);
    const undeclared = [...read].filter((key) => !reads.includes(key));
    assert.deepEqual(undeclared, [], `${code} read undeclared fields on the fixture ${name}`);
  }
}

/** `'names'`: the findings stay the same whatever the values. */
function assertNamesOnly(code: string, run: (body: Record<string, unknown>) => unknown): void {
  for (const { name, data } of bodies) {
    const blanked = Object.fromEntries(Object.keys(data).map((key) => [key, null]));
    assert.deepStrictEqual(run(blanked), run(data), `${code} read a value on the fixture ${name}`);
  }
}

/** `'each'`: the findings are those of each field checked alone, in the fields' order. */
function assertEachField(code: string, run: (body: Record<string, unknown>) => unknown[]): void {
  for (const { name, data } of bodies) {
    const apart = Object.keys(data).flatMap((key) => run(Object.fromEntries([[key, data[key]]])));
    assert.deepStrictEqual(run(data), apart, `${code} relates two fields on the fixture ${name}`);
  }
}

const allRules = [...SPEC_RULES, ...CATALOG_RULES];
const check = (rule: (typeof allRules)[number]) => (body: Record<string, unknown>) => rule.check(body, catalog);

test('every rule reads only what it declares', () => {
  assert.ok(fixtureBodies.length > 50, `only ${fixtureBodies.length} fixture specs`);
  for (const rule of allRules) {
    if (rule.reads === 'names') assertNamesOnly(rule.code, check(rule));
    else if (rule.reads === 'each') assertEachField(rule.code, check(rule));
    else assertReadsDeclared(rule.code, rule.reads, check(rule));
  }
});

test('a rule that names fields reads each of them on some fixture', () => {
  // An over-wide declaration only costs time; this keeps them honest all the same.
  for (const rule of allRules) {
    if (!Array.isArray(rule.reads)) continue;
    const seen = new Set<string>();
    for (const { data } of bodies) {
      const { proxy, read } = watched(data);
      rule.check(proxy, catalog);
      for (const key of read) seen.add(key);
    }
    assert.deepEqual(
      (rule.reads as readonly string[]).filter((key) => !seen.has(key)),
      [],
      `${rule.code} declares fields it never reads`,
    );
  }
});
