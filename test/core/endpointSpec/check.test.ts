/** The engine's building blocks, checked directly on data. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Ajv2020 from 'ajv/dist/2020';
import { decodeArgs, splitShellWords } from '../../../core/endpointSpec/args';
import { checkSpecText } from '../../../core/endpointSpec/check';
import { SPEC_STARTERS, starterText } from '../../../core/endpointSpec/starters';
import { SCHEMAS } from '../../../core/endpointSpec/schemas';
import { validateSpecData, toServiceBody } from '../../../core/endpointSpec/validate';
import { formatJsonPath } from '../../../core/endpointSpec/tree';
import { closestMatch } from '../../../core/endpointSpec/suggest';

describe('schemas', () => {
  it('are valid JSON Schema 2020-12 documents', () => {
    const ajv = new Ajv2020({ strict: false });
    for (const schema of SCHEMAS) assert.equal(ajv.validateSchema(schema), true, JSON.stringify(ajv.errors));
  });

  it('describe every property, so hovers always have something to say', () => {
    const missing: string[] = [];
    const walk = (node: unknown, where: string): void => {
      if (!node || typeof node !== 'object') return;
      const record = node as Record<string, unknown>;
      if (record.properties && typeof record.properties === 'object') {
        for (const [name, property] of Object.entries(record.properties as Record<string, Record<string, unknown>>)) {
          if (!property.description && !property.$ref) missing.push(`${where}.${name}`);
        }
      }
      for (const [key, value] of Object.entries(record)) if (key !== 'examples') walk(value, `${where}/${key}`);
    };
    SCHEMAS.forEach((s) => {
      walk(s, String(s.$id));
    });
    assert.deepEqual(missing, []);
  });
});

describe('starters', () => {
  for (const starter of SPEC_STARTERS) {
    it(`${starter.id} is a clean spec`, () => {
      assert.deepEqual(checkSpecText(starterText(starter, 'probe'), 'yaml').diagnostics, []);
    });
  }
  it('quotes a name YAML would misread', () => {
    assert.match(starterText(SPEC_STARTERS[0], 'a: b'), /^name: "a: b"$/m);
  });
});

describe('args decoding', () => {
  it('splits shell words with quotes and escapes', () => {
    assert.deepEqual(splitShellWords(`python -c 'print("hi")' a\\ b "x \\"y\\""`), {
      ok: true,
      words: ['python', '-c', 'print("hi")', 'a b', 'x "y"'],
    });
  });
  it('reads the JSON object form', () => {
    assert.deepEqual(decodeArgs('{"cmd": ["serve"]}'), { ok: true, command: { entrypoint: [], cmd: ['serve'] } });
  });
  it('treats an empty string as clearing both', () => {
    assert.deepEqual(decodeArgs('  '), { ok: true, command: { entrypoint: [], cmd: [] } });
  });
  it('rejects JSON with other keys', () => {
    assert.equal(decodeArgs('{"command": []}').ok, false);
  });
});

describe('validateSpecData', () => {
  const valid = { name: 'x', type: 'QUEUE', image: 'i', gpu: { pools: ['ADA_24'] }, scaling: { type: 'QUEUE_DELAY', queueDelay: 1 } };

  it('accepts a minimal spec and ignores $schema', () => {
    assert.deepEqual(validateSpecData({ $schema: 'x', ...valid }), []);
    assert.equal('$schema' in toServiceBody({ $schema: 'x', ...valid }), false);
  });

  it('marks each error with the status the service answers', () => {
    const problems = validateSpecData({ ...valid, cpu: [{ id: 'cpu3c', vcpuCount: 4 }], bogus: 1 });
    assert.deepEqual(problems.map((p) => [p.code, p.status]).sort(), [
      ['compute-choice', 400],
      ['compute-choice', 400],
      ['unknown-property', 422],
    ]);
  });

  it('validates update bodies: gpu without pools keeps the selection', () => {
    assert.deepEqual(validateSpecData({ gpu: { count: 2 } }, 'update'), []);
    assert.deepEqual(
      validateSpecData({ type: 'QUEUE' }, 'update').map((p) => p.code),
      ['unknown-property'],
    );
  });

  it('never throws on any JSON value', () => {
    for (const value of [
      null,
      undefined,
      0,
      'x',
      [],
      [1],
      { gpu: null, cpu: 'x', workers: [], scaling: { type: 5 }, env: 'x', ports: {} },
    ]) {
      assert.ok(Array.isArray(validateSpecData(value)));
    }
  });
});

describe('helpers', () => {
  it('formats JSON paths as the service does', () => {
    assert.equal(formatJsonPath(['gpu', 'excludedTypes', 0]), '$.gpu.excludedTypes[0]');
    assert.equal(formatJsonPath(['env', 'MY-VAR']), '$.env["MY-VAR"]');
    assert.equal(formatJsonPath([]), '$');
  });
  it('suggests close names only', () => {
    assert.equal(closestMatch('imge', ['image', 'name']), 'image');
    assert.equal(closestMatch('zzzzzz', ['image', 'name']), undefined);
  });
});
