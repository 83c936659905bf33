/**
 * The validators in core/endpointSpec/generated are compiled from schemas/ by `npm run generate`. The build
 * only checks them, so the file in the working tree is what was generated (and will be committed), and this
 * test fails whenever a schema changed without regenerating.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { validateAgainstSchema } from '../../../core/endpointSpec/schemaValidation';

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
