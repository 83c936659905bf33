/**
 * The validators in core/endpointSpec/generated are compiled from schemas/ by `npm run generate`. The build
 * only checks them, so the file in the working tree is what was generated (and will be committed), and this
 * test fails whenever a schema changed without regenerating.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { ErrorObject } from 'ajv/dist/2020';
import * as compiled from '../../../core/endpointSpec/generated/validators';
import { validateAgainstSchema } from '../../../core/endpointSpec/schemaValidation';
import { rootSchemaView } from '../../../core/endpointSpec/schemas';

test('the validators in the working tree are the ones the schemas compile to now', async () => {
  // The generator is an ES module script; a CommonJS test file can only load it dynamically.
  const { generateValidators, OUTPUT } = await import('../../../scripts/generate-validators.mjs');
  assert.ok(OUTPUT.endsWith(join('core', 'endpointSpec', 'generated', 'validators.js')));
  const onDisk = readFileSync(OUTPUT, 'utf8').split('\n');
  // Compared in memory: nothing here (nor the build) writes the file, so a stale one cannot pass.
  const fresh = generateValidators().split('\n');
  const line = fresh.findIndex((text, i) => text !== onDisk[i]);
  const firstDifference = line < 0 && onDisk.length === fresh.length ? undefined : Math.max(line, Math.min(fresh.length, onDisk.length));
  assert.equal(
    firstDifference,
    undefined,
    `generated validators are out of date: run \`npm run generate\` (first difference on line ${(firstDifference ?? 0) + 1})`,
  );
});

test('the compiled validators report unknown properties and wrong types', () => {
  const problems = validateAgainstSchema(
    {
      name: 'x',
      type: 'QUEUE',
      scaling: { type: 'QUEUE_DELAY', queueDelay: 'soon' },
      imageName: 'a:b',
      gpu: { pools: ['ADA_24'] },
      colour: 'red',
    },
    'create',
  );
  const codes = problems.map((p) => `${p.code}@${p.path.join('.')}`).sort();
  assert.ok(codes.includes('unknown-property@colour'), codes.join(', '));
  assert.ok(
    codes.some((c) => c.startsWith('wrong-type@scaling.queueDelay')),
    codes.join(', '),
  );
});

test("each top-level field's own validator finds, inside the field, what the root validator finds there", () => {
  const spec = {
    name: '',
    type: 'QUEUE',
    scaling: { type: 'QUEUE_DELAY', queueDelay: 0 },
    image: 'a:b',
    gpu: { pools: ['ADA_24', 'ADA_24'], count: 'one' },
    env: { A: 1 },
    workers: { min: -1 },
  };
  for (const mode of ['create', 'update'] as const) {
    const root = compiled[mode];
    root(spec);
    const fromRoot = (root.errors ?? []).filter((e) => e.instancePath !== '');
    assert.ok(fromRoot.length > 0);
    const fromFields = Object.entries(spec).flatMap(([field, value]) => {
      const validate = compiled.fields[mode][field];
      if (!validate) return [];
      validate(value);
      return (validate.errors ?? []).map((e) => ({ ...e, instancePath: `/${field}${e.instancePath}` }));
    });
    const summary = (errors: readonly ErrorObject[]): string[] => errors.map((e) => `${e.instancePath} ${e.keyword} ${e.message}`).sort();
    assert.deepEqual(summary(fromFields), summary(fromRoot), mode);
  }
  // Every field either mode's root schema names has one.
  for (const mode of ['create', 'update'] as const)
    for (const field of rootSchemaView(mode).properties.keys())
      assert.equal(typeof compiled.fields[mode][field], 'function', `${mode}: ${field}`);
});
