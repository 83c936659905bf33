import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Endpoint, ReleaseList } from '../../core/api/types';
import type { ProblemBody } from '../../emulator/http/problems';
import { call, create, eventually, gpuSpec, withEmulator, workers } from './helpers';

test('PATCH changes only what is sent and records a release with a field diff', async () => {
  await withEmulator({}, async (e) => {
    const ep = await create(e, gpuSpec());
    const patched = await call<Endpoint>(e.restUrl, 'PATCH', `/v2/serverless/${ep.id}`, { workers: { max: 10 }, name: 'renamed' });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.name, 'renamed');
    assert.deepEqual(patched.body.workers, { min: 0, max: 10, idleTimeout: 10 });
    assert.equal(patched.body.image, ep.image);
    const releases = (await call<ReleaseList>(e.restUrl, 'GET', `/v2/serverless/${ep.id}/releases`)).body;
    assert.equal(releases.endpointVersion, 2);
    assert.equal(releases.releases.length, 2);
    assert.equal(releases.releases[0].version, 2);
    assert.equal(releases.releases[0].source, 'MANUAL');
    assert.deepEqual(
      [...releases.releases[0].diff].sort((a, b) => a.field.localeCompare(b.field)),
      [
        { field: 'name', old: 'sdxl', new: 'renamed' },
        { field: 'workersMax', old: 3, new: 10 },
      ],
    );
    assert.deepEqual(releases.rollout, { inProgress: false, workersOnLatest: 0, workersTotal: 0, percentOnLatest: 0 });
    // A PATCH that changes nothing makes no release.
    await call(e.restUrl, 'PATCH', `/v2/serverless/${ep.id}`, { name: 'renamed' });
    assert.equal((await call<ReleaseList>(e.restUrl, 'GET', `/v2/serverless/${ep.id}/releases`)).body.releases.length, 2);
  });
});

test('GPU selection: pools without excludedTypes clear exclusions; a gpu update without pools keeps them', async () => {
  await withEmulator({}, async (e) => {
    const ep = await create(e, gpuSpec({ gpu: { pools: ['AMPERE_24'], excludedTypes: ['NVIDIA L4'] } }));
    const countOnly = await call<Endpoint>(e.restUrl, 'PATCH', `/v2/serverless/${ep.id}`, { gpu: { count: 2 } });
    assert.deepEqual(countOnly.body.gpu?.pools, ['AMPERE_24']);
    assert.deepEqual(countOnly.body.gpu.excludedTypes, ['NVIDIA L4']);
    assert.equal(countOnly.body.gpu.count, 2);
    const both = await call<Endpoint>(e.restUrl, 'PATCH', `/v2/serverless/${ep.id}`, {
      gpu: { pools: ['AMPERE_24', 'ADA_24'], excludedTypes: ['NVIDIA L4'] },
    });
    assert.deepEqual(both.body.gpu?.excludedTypes, ['NVIDIA L4']);
    const poolsOnly = await call<Endpoint>(e.restUrl, 'PATCH', `/v2/serverless/${ep.id}`, { gpu: { pools: ['ADA_24'] } });
    assert.deepEqual(poolsOnly.body.gpu?.excludedTypes, []);
    assert.equal(poolsOnly.body.gpu.count, 2);
    // GPU rule 4: a gpu update that omits pools leaves pools and exclusions unchanged, even exclusions sent alone.
    const alone = await call<Endpoint>(e.restUrl, 'PATCH', `/v2/serverless/${ep.id}`, { gpu: { excludedTypes: ['NVIDIA RTX A5000'] } });
    assert.equal(alone.status, 200);
    assert.deepEqual(alone.body.gpu?.pools, poolsOnly.body.gpu.pools);
    assert.deepEqual(alone.body.gpu.excludedTypes, []);
  });
});

test('scaler switch: a LOAD_BALANCER cannot switch to QUEUE_DELAY; a QUEUE can switch both ways', async () => {
  await withEmulator({}, async (e) => {
    const lb = await create(e, gpuSpec({ type: 'LOAD_BALANCER', scaling: { type: 'REQUEST_COUNT', requestCount: 2 } }));
    const bad = await call<ProblemBody>(e.restUrl, 'PATCH', `/v2/serverless/${lb.id}`, { scaling: { type: 'QUEUE_DELAY', queueDelay: 2 } });
    assert.equal(bad.status, 422);
    assert.ok(bad.body.errors?.some((x) => x.startsWith('$.scaling.type:')));
    const q = await create(e, gpuSpec());
    const toCount = await call<Endpoint>(e.restUrl, 'PATCH', `/v2/serverless/${q.id}`, {
      scaling: { type: 'REQUEST_COUNT', requestCount: 3 },
    });
    assert.equal(toCount.status, 200);
    assert.deepEqual(toCount.body.workers, { min: 0, max: 3 }, 'idleTimeout no longer applies');
    const idle = await call<ProblemBody>(e.restUrl, 'PATCH', `/v2/serverless/${q.id}`, { workers: { idleTimeout: 20 } });
    assert.equal(idle.status, 400);
    assert.ok(idle.body.errors?.some((x) => x.startsWith('$.workers.idleTimeout:')));
    const back = await call<Endpoint>(e.restUrl, 'PATCH', `/v2/serverless/${q.id}`, {
      scaling: { type: 'QUEUE_DELAY', queueDelay: 1 },
      workers: { idleTimeout: 20 },
    });
    assert.equal(back.status, 200);
    assert.equal(back.body.workers.idleTimeout, 20);
  });
});

test('PATCH rejects unknown properties, type changes and unknown endpoints', async () => {
  await withEmulator({}, async (e) => {
    const ep = await create(e, gpuSpec());
    assert.equal((await call(e.restUrl, 'PATCH', `/v2/serverless/${ep.id}`, { type: 'LOAD_BALANCER' })).status, 422);
    assert.equal((await call(e.restUrl, 'PATCH', `/v2/serverless/${ep.id}`, { cpu: [{ id: 'cpu3c', vcpuCount: 2 }] })).status, 400);
    assert.equal((await call(e.restUrl, 'PATCH', '/v2/serverless/nosuchendpoint', { name: 'x' })).status, 404);
    const cmd = await call<Endpoint>(e.restUrl, 'PATCH', `/v2/serverless/${ep.id}`, { cmd: ['python', 'x.py'] });
    assert.deepEqual(cmd.body.cmd, ['python', 'x.py']);
    const cleared = await call<Endpoint>(e.restUrl, 'PATCH', `/v2/serverless/${ep.id}`, { args: '' });
    assert.equal(cleared.body.args, '');
  });
});

test('a container change leaves running workers stale until replacements are ready', async () => {
  await withEmulator({ timeScale: 50 }, async (e) => {
    const ep = await create(e, gpuSpec({ workers: { min: 1, max: 2 } }));
    const first = await eventually(
      async () => {
        const w = await workers(e, ep.id);
        return w.workers.length === 1 && w.workers[0].status === 'IDLE' ? w.workers[0] : undefined;
      },
      5000,
      'a ready worker',
    );
    assert.equal(first.isStale, false);
    assert.equal(first.gpuTypeId, 'NVIDIA GeForce RTX 4090');
    await call(e.restUrl, 'PATCH', `/v2/serverless/${ep.id}`, { image: 'example/worker:2.0' });
    const during = await workers(e, ep.id);
    assert.equal(during.endpointVersion, 2);
    const old = during.workers.find((w) => w.id === first.id);
    assert.equal(old?.isStale, true);
    const rollout = (await call<ReleaseList>(e.restUrl, 'GET', `/v2/serverless/${ep.id}/releases`)).body.rollout;
    assert.equal(rollout?.inProgress, true);
    const after = await eventually(
      async () => {
        const w = await workers(e, ep.id);
        return w.workers.length === 1 && w.workers[0].id !== first.id && w.workers[0].status === 'IDLE' ? w.workers[0] : undefined;
      },
      5000,
      'the replacement',
    );
    assert.equal(after.isStale, false);
    assert.equal(after.image, 'example/worker:2.0');
    // A scaling change reaches running workers in place.
    await call(e.restUrl, 'PATCH', `/v2/serverless/${ep.id}`, { workers: { max: 3 } });
    const inPlace = await workers(e, ep.id);
    assert.equal(inPlace.workers[0].isStale, false);
    assert.equal(inPlace.workers[0].version, 3);
  });
});
