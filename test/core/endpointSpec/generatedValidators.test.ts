import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { validateAgainstSchema } from '../../../core/endpointSpec/schemaValidation';

test('the committed validators are the ones the schemas compile to now', async () => {
  const generator = (await import('../../../scripts/generate-validators.mjs')) as { generateValidators(): string; OUTPUT: string };
  const committed = readFileSync(generator.OUTPUT, 'utf8');
  assert.equal(committed, generator.generateValidators(), 'run `node scripts/generate-validators.mjs` and commit the result');
  assert.ok(generator.OUTPUT.endsWith(join('core', 'endpointSpec', 'generated', 'validators.js')));
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
