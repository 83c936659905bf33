/**
 * A missing required property is named as data on its problem (`missingProperty`, beside the parent's path), so
 * whatever reads it, such as an overlay that removed the property, never parses it back out of the message.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkOverlay } from '../../../core/endpointSpec/overlay';
import { validateAgainstSchema } from '../../../core/endpointSpec/schemaValidation';

const BASE = `name: worker
type: QUEUE
image: myorg/worker:1.0
gpu:
  pools: [ADA_24]
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;

describe('a missing required property', () => {
  it('is named on its problem, at the root, in a mapping and in the scaling its type needs', () => {
    const missing = (data: unknown) =>
      validateAgainstSchema(data, 'create')
        .filter((problem) => problem.code === 'missing-property')
        .map((problem) => [problem.path.join('.'), problem.missingProperty]);
    const spec = { name: 'w', type: 'QUEUE', image: 'i', gpu: { pools: ['ADA_24'] }, scaling: { type: 'QUEUE_DELAY', queueDelay: 4 } };
    assert.deepEqual(missing({ ...spec, type: undefined }), [['', 'type']]);
    assert.deepEqual(missing({ ...spec, gpu: {} }), [['gpu', 'pools']]);
    assert.deepEqual(missing({ ...spec, scaling: { type: 'QUEUE_DELAY' } }), [['scaling', 'queueDelay']]);
    for (const problem of validateAgainstSchema({ name: 'w' }, 'create'))
      assert.equal(problem.missingProperty !== undefined, problem.code === 'missing-property', problem.message);
  });

  it('removed by an overlay is put on the overlay’s empty key, at any depth', () => {
    const check = (text: string) =>
      checkOverlay(
        { text, format: 'yaml', name: 'worker.prod.endpoint.yaml', environment: 'prod' },
        { text: BASE, format: 'yaml', name: 'worker.endpoint.yaml' },
      ).overlay.map((d) => [d.code, d.range.start.line, d.range.start.character, /this overlay removes it/.test(d.message)]);
    assert.deepEqual(check('extends: ./worker.endpoint.yaml\nname: worker-prod\ntype:\n'), [['missing-property', 2, 0, true]]);
    assert.deepEqual(check('extends: ./worker.endpoint.yaml\nname: worker-prod\nscaling:\n  queueDelay: null\n'), [
      ['missing-property', 3, 2, true],
    ]);
  });
});
