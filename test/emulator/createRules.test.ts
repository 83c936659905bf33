import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Endpoint } from '../../core/api/types';
import type { ProblemBody } from '../../emulator/http/problems';
import { PUBLIC_TEMPLATE_IDS } from '../../emulator/index';
import { call, cpuSpec, gpuSpec, withEmulator } from './helpers';

/** Posts a spec and asserts the status, the problem shape and that some `errors` entry starts with `path`. */
async function rejects(spec: unknown, status: number, path: string): Promise<void> {
  await withEmulator({}, async (e) => {
    const answer = await call<ProblemBody>(e.restUrl, 'POST', '/v2/serverless', spec);
    assert.equal(answer.status, status, JSON.stringify(answer.body));
    assert.match(answer.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.equal(answer.body.status, status);
    assert.equal(typeof answer.body.title, 'string');
    assert.equal(typeof answer.body.detail, 'string');
    assert.ok(Array.isArray(answer.body.errors), 'errors array');
    assert.ok(
      answer.body.errors.some((entry) => entry.startsWith(`${path}:`)),
      `an error at ${path}: ${JSON.stringify(answer.body.errors)}`,
    );
    const list = await call<{ endpoints: Endpoint[] }>(e.restUrl, 'GET', '/v2/serverless');
    assert.equal(list.body.endpoints.length, 0, 'nothing was created');
  });
}

test('rule 1: neither gpu nor cpu is 400', () => rejects({ ...gpuSpec(), gpu: undefined }, 400, '$'));
test('rule 1: both gpu and cpu is 400', () => rejects(gpuSpec({ cpu: [{ id: 'cpu3c', vcpuCount: 4 }] }), 400, '$.gpu'));
test('image is required without templateId (422)', () => rejects({ ...gpuSpec(), image: undefined }, 422, '$'));
test('unknown property is rejected with its path', () => rejects(gpuSpec({ bogus: 1 }), 422, '$.bogus'));
test('LOAD_BALANCER with QUEUE_DELAY is rejected', () => rejects(gpuSpec({ type: 'LOAD_BALANCER' }), 422, '$.scaling.type'));
test('idleTimeout with QUEUE + REQUEST_COUNT is 400', () =>
  rejects(gpuSpec({ scaling: { type: 'REQUEST_COUNT', requestCount: 2 }, workers: { idleTimeout: 30 } }), 400, '$.workers.idleTimeout'));
test('GPU rule 1: non-empty allowedCudaVersions with minCudaVersion is 400', () =>
  rejects(gpuSpec({ gpu: { pools: ['ADA_24'], allowedCudaVersions: ['12.4'], minCudaVersion: '12.1' } }), 400, '$.gpu.minCudaVersion'));
test('GPU rule 1: an empty allowedCudaVersions may accompany a floor', async () => {
  await withEmulator({}, async (e) => {
    const answer = await call<Endpoint>(
      e.restUrl,
      'POST',
      '/v2/serverless',
      gpuSpec({ gpu: { pools: ['ADA_24'], allowedCudaVersions: [], minCudaVersion: '12.1' } }),
    );
    assert.equal(answer.status, 201);
    assert.equal(answer.body.gpu?.minCudaVersion, '12.1');
  });
});
test('GPU rule 2: excludedTypes outside the chosen pools is 400', () =>
  rejects(gpuSpec({ gpu: { pools: ['ADA_24'], excludedTypes: ['NVIDIA L40S'] } }), 400, '$.gpu.excludedTypes[0]'));
test('GPU rule 2: an unknown GPU type in excludedTypes is 400', () =>
  rejects(gpuSpec({ gpu: { pools: ['AMPERE_24'], excludedTypes: ['NVIDIA RTX A5000', 'Nope'] } }), 400, '$.gpu.excludedTypes[1]'));
test('GPU rule 2: at least one GPU type must remain', () =>
  rejects(gpuSpec({ gpu: { pools: ['ADA_24'], excludedTypes: ['NVIDIA GeForce RTX 4090'] } }), 400, '$.gpu.excludedTypes'));
test('excludedTypes items may not start with a hyphen', () =>
  rejects(gpuSpec({ gpu: { pools: ['ADA_24'], excludedTypes: ['-x'] } }), 422, '$.gpu.excludedTypes[0]'));
test('an unknown pool is 422 at its index', () =>
  rejects(gpuSpec({ gpu: { pools: ['ADA_24', 'NVIDIA GeForce RTX 4090'] } }), 422, '$.gpu.pools[1]'));
test('gpu without pools is 422', () => rejects(gpuSpec({ gpu: { count: 1 } }), 422, '$.gpu'));
test('rule 6: CUDA constraints on a CPU create are 422', () =>
  rejects(cpuSpec({ allowedCudaVersions: ['12.4'] }), 422, '$.allowedCudaVersions'));
test('CPU: vcpuCount must be a power of two', () => rejects(cpuSpec({ cpu: [{ id: 'cpu3g', vcpuCount: 6 }] }), 422, '$.cpu[0].vcpuCount'));
test('CPU: unknown flavor is 422', () => rejects(cpuSpec({ cpu: [{ id: 'cpu9x', vcpuCount: 4 }] }), 422, '$.cpu[0].id'));
test('CPU: vcpuCount outside the flavor range is 422', () =>
  rejects(cpuSpec({ cpu: [{ id: 'cpu3c', vcpuCount: 16 }] }), 422, '$.cpu[0].vcpuCount'));
test('CPU: exact duplicates are rejected', () =>
  rejects(
    cpuSpec({
      cpu: [
        { id: 'cpu3c', vcpuCount: 4 },
        { id: 'cpu3c', vcpuCount: 4 },
      ],
    }),
    422,
    '$.cpu[1]',
  ));
test('CPU: memory is response-only', () => rejects(cpuSpec({ cpu: [{ id: 'cpu3c', vcpuCount: 4, memory: 8 }] }), 422, '$.cpu[0].memory'));
test('rule 4: unknown templateId is 404', () =>
  rejects({ ...gpuSpec(), image: undefined, templateId: 'nosuchtemplate' }, 404, '$.templateId'));
test('rule 4: a pod template is 422', () =>
  rejects({ ...gpuSpec(), image: undefined, templateId: PUBLIC_TEMPLATE_IDS.podPytorch }, 422, '$.templateId'));
test('args that disagree with cmd are 400', () => rejects(gpuSpec({ args: 'python a.py', cmd: ['python', 'b.py'] }), 400, '$.cmd'));
test('unknown data center is 422', () => rejects(gpuSpec({ dataCenterIds: ['US-TX-3', 'MARS-1'] }), 422, '$.dataCenterIds[1]'));
test('unknown network volume is 422', () => rejects(gpuSpec({ networkVolumes: ['nosuchvolume'] }), 422, '$.networkVolumes[0]'));
test('idleTimeout out of range is 422', () => rejects(gpuSpec({ workers: { idleTimeout: 0 } }), 422, '$.workers.idleTimeout'));
test('queueDelay below 0.5 is 422', () =>
  rejects(gpuSpec({ scaling: { type: 'QUEUE_DELAY', queueDelay: 0.1 } }), 422, '$.scaling.queueDelay'));
test('type is required', () => rejects({ ...gpuSpec(), type: undefined }, 422, '$'));
test('a list body is 400', () => rejects([], 400, '$'));

test('400 wins over 422 when both occur, and every error is listed', async () => {
  await withEmulator({}, async (e) => {
    const answer = await call<ProblemBody>(
      e.restUrl,
      'POST',
      '/v2/serverless',
      gpuSpec({ bogus: true, gpu: { pools: ['ADA_24'], allowedCudaVersions: ['12.4'], minCudaVersion: '12.1' } }),
    );
    assert.equal(answer.status, 400);
    assert.ok(answer.body.errors?.some((x) => x.startsWith('$.bogus:')));
    assert.ok(answer.body.errors?.some((x) => x.startsWith('$.gpu.minCudaVersion:')));
  });
});

test('warnings never reject (timeout under a second, workers.max 0)', async () => {
  await withEmulator({}, async (e) => {
    const answer = await call(e.restUrl, 'POST', '/v2/serverless', gpuSpec({ timeout: 30, workers: { max: 0 } }));
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
  });
});
