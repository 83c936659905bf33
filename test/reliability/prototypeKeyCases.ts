/**
 * The cases prototypeKeys.test.ts and prototypeKeysEmulator.test.ts share: where a name of an
 * Object.prototype member can stand in a spec, what each surface must report there, and random specs
 * keyed with such names.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import * as YAML from 'yaml';
import type { SpecDiagnostic } from '../../core/endpointSpec/check';
import { LEGACY_FIELDS } from '../../core/endpointSpec/migrate';
import { formatJsonPath, type JsonPath } from '../../core/endpointSpec/tree';
import { PROTOTYPE_KEYS, type Format } from './corpus';

export type Spec = Record<string, unknown>;

/** What every surface reports of a problem (the engine, the CLI's JSON, the server's diagnostic data), its path as `$.a[0].b`. */
export interface Reported {
  readonly code: string;
  readonly path: string;
  readonly message: string;
}

export interface Expected {
  readonly code: string;
  readonly path: JsonPath;
}

/** Where a name goes, the PATCH that carries it to an endpoint of `compute`, and what must be said about it. */
export interface Placement {
  readonly where: string;
  readonly compute: 'cpu' | 'gpu';
  patch(name: string): Spec;
  expected(name: string): Expected[];
}

const SCALING = { type: 'QUEUE_DELAY', queueDelay: 2 };
export const BASE: Record<Placement['compute'], Spec> = {
  cpu: { name: 'proto', type: 'QUEUE', image: 'r/w:1', scaling: SCALING, cpu: [{ id: 'cpu3c', vcpuCount: 2 }] },
  gpu: { name: 'proto', type: 'QUEUE', image: 'r/w:1', scaling: SCALING, gpu: { pools: ['ADA_24'] } },
};
export const unknown = (...path: JsonPath): Expected => ({ code: 'unknown-property', path });

export const PLACEMENTS: readonly Placement[] = [
  { where: 'a top-level key', compute: 'cpu', patch: (n) => ({ [n]: 0 }), expected: (n) => [unknown(n)] },
  { where: 'nested unknown mappings', compute: 'cpu', patch: (n) => ({ [n]: { [n]: { [n]: [1] } } }), expected: (n) => [unknown(n)] },
  { where: 'a scaling key', compute: 'cpu', patch: (n) => ({ scaling: { ...SCALING, [n]: 0 } }), expected: (n) => [unknown('scaling', n)] },
  { where: 'a workers key', compute: 'cpu', patch: (n) => ({ workers: { min: 0, [n]: 1 } }), expected: (n) => [unknown('workers', n)] },
  { where: 'a gpu key', compute: 'gpu', patch: (n) => ({ gpu: { pools: ['ADA_24'], [n]: 0 } }), expected: (n) => [unknown('gpu', n)] },
  {
    where: 'a cpu item key (the crash)',
    compute: 'cpu',
    patch: (n) => ({ cpu: [{}, { [n]: 0 }] }),
    expected: (n) => [unknown('cpu', 1, n)],
  },
  {
    where: 'the same key in two equal cpu items',
    compute: 'cpu',
    patch: (n) => ({ cpu: [1, 2].map(() => ({ id: 'cpu3c', vcpuCount: 2, [n]: { [n]: 1 } })) }),
    expected: (n) => [unknown('cpu', 0, n), unknown('cpu', 1, n), { code: 'duplicate-item', path: ['cpu', 1] }],
  },
  {
    where: 'an env name with a number',
    compute: 'cpu',
    patch: (n) => ({ env: { [n]: 5 } }),
    expected: (n) => [{ code: 'env-value-not-string', path: ['env', n] }],
  },
  { where: 'the endpoint type', compute: 'cpu', patch: (n) => ({ type: n }), expected: () => [{ code: 'invalid-enum', path: ['type'] }] },
  { where: 'flashboot', compute: 'cpu', patch: (n) => ({ flashboot: n }), expected: () => [{ code: 'invalid-enum', path: ['flashboot'] }] },
  {
    where: 'the scaler type',
    compute: 'cpu',
    patch: (n) => ({ scaling: { type: n } }),
    expected: () => [{ code: 'invalid-enum', path: ['scaling', 'type'] }],
  },
  {
    where: 'a twice excluded GPU type',
    compute: 'gpu',
    patch: (n) => ({ gpu: { pools: ['ADA_24'], excludedTypes: [n, n] } }),
    expected: () => [{ code: 'duplicate-item', path: ['gpu', 'excludedTypes', 1] }],
  },
];

export const createBody = (placement: Placement, name: string): Spec => ({ ...BASE[placement.compute], ...placement.patch(name) });
export const textOf = (spec: Spec, format: Format): string => (format === 'json' ? JSON.stringify(spec) : YAML.stringify(spec));
export const reported = (diagnostics: readonly SpecDiagnostic[]): Reported[] =>
  diagnostics.map((d) => ({ code: d.code, path: formatJsonPath(d.path), message: d.message }));
/** What leaks when Object.prototype's members are read as data: their source text or a default stringification. */
export const LEAK = /native code|\[object |function /;

export function assertOrdinary(diagnostics: readonly Reported[], expected: readonly Expected[], what: string): void {
  const listed = diagnostics.map((d) => `${d.code}@${d.path}: ${d.message}`).join('\n');
  for (const { code, path } of expected)
    assert.ok(
      diagnostics.some((d) => d.code === code && d.path === formatJsonPath(path)),
      `${what}: no ${code} at ${formatJsonPath(path)}\n${listed}`,
    );
  assert.ok(!diagnostics.some((d) => d.code === 'legacy-field' || LEAK.test(d.message)), `${what}:\n${listed}`);
}

const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();
export function assertPrototypeIntact(): void {
  assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).sort(), prototypeBefore);
  assert.equal(Object.getPrototypeOf({}), Object.prototype);
  assert.equal(({} as Spec).polluted, undefined);
}

/** Keys for random specs: mostly member names, then field names, then anything. */
const keyName = fc.oneof(
  { arbitrary: fc.constantFrom(...PROTOTYPE_KEYS), weight: 3 },
  { arbitrary: fc.constantFrom('name', 'type', 'image', 'cpu', 'gpu', 'env', 'scaling', 'workers', 'id', 'vcpuCount', 'min'), weight: 1 },
  { arbitrary: fc.string({ maxLength: 8 }), weight: 1 },
);
const hostileMapping = fc.dictionary(keyName, fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(...PROTOTYPE_KEYS)), { maxKeys: 4 });
/** A CPU spec with random keys at the top, in scaling, workers, env and each cpu item. */
export const hostileSpec = fc
  .record({
    top: hostileMapping,
    scaling: hostileMapping,
    workers: hostileMapping,
    env: hostileMapping,
    items: fc.array(hostileMapping, { minLength: 1, maxLength: 3 }),
  })
  .map(({ top, scaling, workers, env, items }): Spec => ({
    ...BASE.cpu,
    scaling: { ...SCALING, ...scaling },
    workers: { min: 0, ...workers },
    env,
    cpu: items.map((item) => ({ id: 'cpu3c', vcpuCount: 2, ...item })),
    ...top,
  }));

/** The spots where a member name must be reported as unknown: top-level keys and keys of cpu items. */
export function memberKeySpots(spec: Spec): JsonPath[] {
  const isMember = (key: string): boolean => PROTOTYPE_KEYS.includes(key);
  const spots: JsonPath[] = Object.keys(spec)
    .filter(isMember)
    .map((key) => [key]);
  if (Array.isArray(spec.cpu))
    spec.cpu.forEach((item: unknown, index) => {
      if (typeof item === 'object' && item !== null && !Array.isArray(item))
        for (const key of Object.keys(item).filter(isMember)) spots.push(['cpu', index, key]);
    });
  return spots;
}

/** A v1 body is answered with the conversion alone; random keys rarely make one, but a seed could. */
export const isLegacy = (spec: Spec): boolean => Object.keys(spec).some((key) => Object.hasOwn(LEGACY_FIELDS, key));
