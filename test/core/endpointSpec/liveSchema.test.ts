/** A service newer than the extension: its OpenAPI document turns unknown-property errors into update warnings. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createBodyPropertyPaths } from '../../../core/endpointSpec/liveSchema';
import { validateSpecData } from '../../../core/endpointSpec/validate';
import { startEmulator, DEFAULT_DEV_API_KEY, type RunningEmulator } from '../../../emulator/index';

const SPEC = {
  name: 'n',
  type: 'QUEUE',
  image: 'x',
  gpu: { pools: ['ADA_24'] },
  scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
  gpuPriority: 'cost',
};

describe('live schema', () => {
  let emulator: RunningEmulator;
  let live: Set<string>;
  before(async () => {
    emulator = await startEmulator({
      port: 0,
      jobsPort: 0,
      newerServiceFields: { gpuPriority: { type: 'string', enum: ['cost', 'speed'] } },
    });
    const response = await fetch(`${emulator.restUrl}/v2/openapi.json`, { headers: { Authorization: `Bearer ${DEFAULT_DEV_API_KEY}` } });
    live = createBodyPropertyPaths(await response.json());
  });
  after(() => emulator.close());

  it("reads the create body's property paths from the served OpenAPI document", () => {
    for (const path of [
      'name',
      'gpu.pools',
      'gpu.excludedTypes',
      'cpu[].vcpuCount',
      'scaling.queueDelay',
      'scaling.requestCount',
      'workers.idleTimeout',
      'env',
      'gpuPriority',
    ]) {
      assert.ok(live.has(path), `missing ${path}`);
    }
    assert.ok(!live.has('bogus'));
  });

  it('a field only the service knows is a warning to update, and the service accepts it', async () => {
    assert.deepEqual(
      validateSpecData(SPEC).map((p) => [p.code, p.severity]),
      [['unknown-property', 'error']],
    );
    const problems = validateSpecData(SPEC, 'create', { liveProperties: live });
    assert.deepEqual(
      problems.map((p) => [p.code, p.severity]),
      [['newer-service-property', 'warning']],
    );
    assert.match(problems[0].message, /accepted by the service but unknown to this version of Endpoint Studio/);
    const created = await fetch(`${emulator.restUrl}/v2/serverless`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${DEFAULT_DEV_API_KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(SPEC),
    });
    assert.equal(created.status, 201);
  });

  it('a field neither knows stays an error', () => {
    assert.deepEqual(
      validateSpecData({ ...SPEC, bogus: 1 }, 'create', { liveProperties: live })
        .map((p) => p.code)
        .sort(),
      ['newer-service-property', 'unknown-property'],
    );
  });
});
