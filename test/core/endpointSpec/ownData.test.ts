/**
 * Reads by a name that came from a spec see own data only: the helpers themselves, and each place that
 * once read through Object.prototype (the validators' `uniqueItems`, the legacy-field table, migration,
 * schema navigation, the enum descriptions the editor shows, the body sent to the service).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isLegacyBody, migrateLegacyBody } from '../../../core/endpointSpec/migrate';
import { childValue, ownTable, ownValue, sameData, setOwnValue } from '../../../core/endpointSpec/ownData';
import { validateAgainstSchema, valueAt } from '../../../core/endpointSpec/schemaValidation';
import { schemaViewAt } from '../../../core/endpointSpec/schemas';
import { toServiceBody, validateSpecData } from '../../../core/endpointSpec/validate';

const MEMBERS = Object.getOwnPropertyNames(Object.prototype);
/** `{ [key]: value }` written as data, whatever the key (a computed key in a literal is data too). */
const withKey = (key: string, value: unknown): Record<string, unknown> => ({ [key]: value });
const CPU_SPEC = { name: 'x', type: 'QUEUE', image: 'r/w:1', scaling: { type: 'QUEUE_DELAY', queueDelay: 2 } };

describe('own-data helpers', () => {
  it('ownValue and childValue answer for own entries only', () => {
    const table = { gpuCount: 'gpu.count' };
    for (const name of MEMBERS) {
      assert.equal(ownValue(table, name), undefined, name);
      assert.equal(childValue({}, name), undefined, name);
      assert.equal(childValue(withKey(name, 7), name), 7, name);
    }
    assert.equal(ownValue(table, 'gpuCount'), 'gpu.count');
    assert.equal(ownValue(undefined, 'gpuCount'), undefined);
    assert.equal(childValue(['a', 'b'], 1), 'b');
    assert.equal(childValue(['a', 'b'], 'length'), undefined);
    assert.equal(childValue('text', 'length'), undefined);
  });

  it('setOwnValue writes __proto__ as data and leaves the prototype alone', () => {
    const object: Record<string, unknown> = {};
    setOwnValue(object, '__proto__', { polluted: true });
    assert.equal(Object.getPrototypeOf(object), Object.prototype);
    assert.deepEqual(Object.keys(object), ['__proto__']);
    assert.equal((object as { polluted?: unknown }).polluted, undefined);
    assert.equal(JSON.stringify(object), '{"__proto__":{"polluted":true}}');
  });

  it('ownTable has no prototype behind it and cannot be changed', () => {
    const table = ownTable({ OFF: 'no FlashBoot' });
    assert.equal(table.OFF, 'no FlashBoot');
    for (const name of MEMBERS) assert.equal(table[name], undefined, name);
    assert.ok(Object.isFrozen(table));
  });

  it('sameData compares JSON data by own keys, members of Object.prototype included', () => {
    assert.ok(sameData({ toString: 0, a: [1, { valueOf: 'x' }] }, { a: [1, { valueOf: 'x' }], toString: 0 }));
    assert.ok(!sameData({ toString: 0 }, { toString: 1 }));
    assert.ok(!sameData({ constructor: {} }, { constructor: [] }));
    assert.ok(sameData({ constructor: { a: 1 } }, { constructor: { a: 1 } }));
    assert.ok(!sameData({ a: undefined }, { b: undefined }));
    assert.ok(!sameData([1, 2], [1, 2, 3]));
    assert.ok(!sameData([], {}));
    assert.ok(!sameData(null, {}));
    assert.ok(sameData(Number.NaN, Number.NaN));
    assert.ok(!sameData(1, '1'));
    assert.ok(sameData(JSON.parse('{"__proto__": [1]}'), JSON.parse('{"__proto__": [1]}')));
    assert.ok(!sameData(JSON.parse('{"__proto__": [1]}'), JSON.parse('{"__proto__": [2]}')));
  });

  it('sameData walks a list nested 100,000 levels deep without running out of stack', () => {
    const deep = (): unknown => {
      let value: unknown = 'leaf';
      for (let i = 0; i < 100_000; i++) value = [value];
      return value;
    };
    assert.ok(sameData(deep(), deep()));
  });
});

describe('uniqueItems in the generated validators', () => {
  const codesAt = (data: unknown): string[] => validateAgainstSchema(data, 'create').map((p) => `${p.code}@${p.path.join('.')}`);

  it('cpu items with member-named keys: a duplicate when equal, none when not, never a throw', () => {
    for (const name of MEMBERS) {
      const item = (value: unknown) => ({ id: 'cpu3c', vcpuCount: 2, ...withKey(name, value) });
      assert.ok(codesAt({ ...CPU_SPEC, cpu: [item([1]), item([1])] }).includes('duplicate-item@cpu.1'), name);
      assert.ok(!codesAt({ ...CPU_SPEC, cpu: [item(1), item(2)] }).includes('duplicate-item@cpu.1'), name);
      assert.ok(codesAt({ ...CPU_SPEC, cpu: [{}, withKey(name, 0)] }).includes(`unknown-property@cpu.1.${name}`), name);
    }
  });

  it('excludedTypes named after members: repeated is a duplicate, __proto__ included', () => {
    for (const name of MEMBERS) {
      const gpu = (excludedTypes: string[]) => ({ ...CPU_SPEC, gpu: { pools: ['ADA_24'], excludedTypes } });
      assert.ok(codesAt(gpu([name, name])).includes('duplicate-item@gpu.excludedTypes.1'), name);
      assert.ok(!codesAt(gpu([name, 'other'])).some((c) => c.startsWith('duplicate-item')), name);
    }
  });
});

describe('spec reads by a name from the spec', () => {
  it('a member-named root key is an unknown property, not a REST v1 field', () => {
    for (const name of MEMBERS) {
      const body = { ...CPU_SPEC, cpu: [{ id: 'cpu3c', vcpuCount: 2 }], ...withKey(name, 0) };
      assert.equal(isLegacyBody(body), false, name);
      assert.deepEqual(
        validateSpecData(body).map((p) => `${p.code}@${p.path.join('.')}`),
        [`unknown-property@${name}`],
      );
    }
  });

  it('migration carries member-named keys over as data, for the check to name them', () => {
    const body = JSON.parse('{"gpuIds": "ADA_24", "imageName": "a:b", "__proto__": {"x": 1}, "toString": 1, "constructor": "c"}') as Record<
      string,
      unknown
    >;
    const result = migrateLegacyBody(body);
    assert.ok(result.ok);
    const { spec } = result.migration;
    assert.equal(Object.getPrototypeOf(spec), Object.prototype);
    const carried = ['__proto__', 'toString', 'constructor'];
    for (const key of carried) assert.ok(Object.hasOwn(spec, key), key);
    const unknown = validateSpecData(spec).filter((p) => p.code === 'unknown-property');
    assert.deepEqual(unknown.map((p) => String(p.path[0])).sort(), [...carried].sort());
  });

  it('paths through member names lead nowhere: values, schema views and enum descriptions', () => {
    const data = { ...CPU_SPEC, flashboot: 'toString' };
    for (const name of MEMBERS) {
      assert.equal(valueAt(data, [name]), undefined, name);
      assert.equal(valueAt(data, ['scaling', name, 'x']), undefined, name);
      assert.equal(schemaViewAt([name], data), undefined, name);
      const descriptions = schemaViewAt(['flashboot'], data)?.enumDescriptions;
      assert.ok(descriptions);
      assert.equal(descriptions[name], undefined, name);
    }
  });

  it('the body sent to the service keeps a __proto__ key as data and drops $schema', () => {
    const spec = JSON.parse('{"$schema": "x", "name": "n", "__proto__": {"polluted": true}}') as Record<string, unknown>;
    const body = toServiceBody(spec);
    assert.deepEqual(Object.keys(body), ['name', '__proto__']);
    assert.equal(Object.getPrototypeOf(body), Object.prototype);
    assert.equal((body as { polluted?: unknown }).polluted, undefined);
  });
});
