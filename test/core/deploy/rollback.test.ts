/**
 * Working out an earlier configuration from the endpoint and its release diffs: each kind of field
 * undone (image, command, scaling switched both ways, GPU pools with their exclusions, env added,
 * changed and removed, CPU flavors, CUDA floor), diffs under the service's names and the spec's,
 * fields this client does not know reported, and every case where the answer would be a guess
 * refused. Then one rollback planned, applied and read back against the emulator.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Endpoint, Release, ReleaseDiffEntry } from '../../../core/api';
import { configurationAt, driftBetween, liveAsSpec, planDeployment, type Spec } from '../../../core/deploy';
import { applyDeploy, planRollback, readRollout } from '../../../core/operations';
import { eventually, gpuEndpoint, withEmulator } from '../api/support';
import { liveEndpoint } from './liveEndpoint';

const change = (field: string, old: unknown, next: unknown): ReleaseDiffEntry => ({ field, old, new: next });
const release = (version: number, ...diff: ReleaseDiffEntry[]): Release => ({ version, diff });
const initial = (version = 1): Release => release(version);

function specAt(current: Endpoint, releases: Release[], version: number): { spec: Spec; unknownFields: readonly string[] } {
  const result = configurationAt(current, releases, version);
  assert.ok(result.ok, result.ok ? '' : result.reason);
  return result;
}

function refusal(current: Endpoint, releases: Release[], version: number): string {
  const result = configurationAt(current, releases, version);
  assert.equal(result.ok, false);
  return result.reason;
}

describe('configurationAt', () => {
  it('undoes every newer release, newest first', () => {
    const releases = [
      release(3, change('template.imageName', 'example/worker:2.0', 'example/worker:3.0')),
      release(2, change('template.imageName', 'example/worker:1.0', 'example/worker:2.0')),
      initial(),
    ];
    assert.equal(specAt(liveEndpoint(), releases, 1).spec.image, 'example/worker:1.0');
    assert.equal(specAt(liveEndpoint(), releases, 2).spec.image, 'example/worker:2.0');
  });

  it('gives the endpoint as a create body, in spec field names', () => {
    const { spec, unknownFields } = specAt(
      liveEndpoint(),
      [release(2, change('gpuCount', 2, 1), change('workersMax', 5, 3), change('locations', ['US-TX-3'], [])), initial()],
      1,
    );
    assert.deepEqual(spec, {
      name: 'sdxl',
      type: 'QUEUE',
      image: 'example/worker:3.0',
      disk: 20,
      gpu: { pools: ['ADA_24'], count: 2 },
      workers: { min: 0, max: 5, idleTimeout: 10 },
      scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
      dataCenterIds: ['US-TX-3'],
      timeout: 300000,
      flashboot: 'OFF',
    });
    assert.deepEqual(unknownFields, []);
  });

  it('reads a scaler value in the type it belonged to, whatever the order of the diff', () => {
    const current = liveEndpoint({ scaling: { type: 'REQUEST_COUNT', requestCount: 2 }, workers: { min: 0, max: 3 } });
    const switched = release(
      2,
      change('scalerValue', 4, 2),
      change('idleTimeout', 30, null),
      change('scalerType', 'QUEUE_DELAY', 'REQUEST_COUNT'),
    );
    const { spec } = specAt(current, [switched, initial()], 1);
    assert.deepEqual(spec.scaling, { type: 'QUEUE_DELAY', queueDelay: 4 });
    assert.deepEqual(spec.workers, { min: 0, max: 3, idleTimeout: 30 });
  });

  it('undoes a scaler value alone, and moves the value when only the type switched', () => {
    const valueOnly = specAt(
      liveEndpoint({ scaling: { type: 'QUEUE_DELAY', queueDelay: 6 } }),
      [release(2, change('scalerValue', 4, 6)), initial()],
      1,
    );
    assert.deepEqual(valueOnly.spec.scaling, { type: 'QUEUE_DELAY', queueDelay: 4 });
    const typeOnly = specAt(
      liveEndpoint({ scaling: { type: 'QUEUE_DELAY', queueDelay: 3 } }),
      [release(2, change('scalerType', 'REQUEST_COUNT', 'QUEUE_DELAY')), initial()],
      1,
    );
    assert.deepEqual(typeOnly.spec.scaling, { type: 'REQUEST_COUNT', requestCount: 3 });
    // A QUEUE endpoint scaling on REQUEST_COUNT has no idleTimeout.
    assert.deepEqual(typeOnly.spec.workers, { min: 0, max: 3 });
  });

  it('reports a scaler value whose type is unknown instead of guessing it', () => {
    const current = liveEndpoint({ scaling: { type: 'SOMETHING_NEW' } as unknown as Endpoint['scaling'] });
    const { unknownFields } = specAt(current, [release(2, change('scalerValue', 4, 6)), initial()], 1);
    assert.deepEqual(unknownFields, ['scalerValue']);
  });

  it('restores GPU pools with their exclusions, and the plan sends both', () => {
    const current = liveEndpoint({
      gpu: { pools: ['ADA_24'], excludedTypes: [], count: 1, allowedCudaVersions: [], minCudaVersion: null },
    });
    const releases = [
      release(2, change('gpuIds', ['ADA_24', 'AMPERE_24'], ['ADA_24']), change('excludedGpuTypeIds', ['NVIDIA L4'], [])),
      initial(),
    ];
    const { spec } = specAt(current, releases, 1);
    assert.deepEqual(spec.gpu, { pools: ['ADA_24', 'AMPERE_24'], excludedTypes: ['NVIDIA L4'], count: 1 });
    const plan = planDeployment(spec, current);
    assert.equal(plan.kind, 'update');
    assert.deepEqual(plan.patch, { gpu: { pools: ['ADA_24', 'AMPERE_24'], excludedTypes: ['NVIDIA L4'] } });
  });

  it('restores exclusions alone by sending the pools beside them', () => {
    const current = liveEndpoint({
      gpu: { pools: ['ADA_24', 'AMPERE_24'], excludedTypes: [], count: 1, allowedCudaVersions: [], minCudaVersion: null },
    });
    const { spec } = specAt(current, [release(2, change('excludedGpuTypeIds', ['NVIDIA RTX A5000'], [])), initial()], 1);
    const plan = planDeployment(spec, current);
    assert.equal(plan.kind, 'update');
    assert.deepEqual(plan.patch, { gpu: { pools: ['ADA_24', 'AMPERE_24'], excludedTypes: ['NVIDIA RTX A5000'] } });
  });

  it('removes env that a release added, and restores env it changed', () => {
    const added = specAt(liveEndpoint({ env: { DEBUG: '1' } }), [release(2, change('template.env', null, { DEBUG: '1' })), initial()], 1);
    assert.equal(added.spec.env, undefined);
    const plan = planDeployment(added.spec, liveEndpoint({ env: { DEBUG: '1' } }));
    assert.equal(plan.kind, 'update');
    assert.deepEqual(plan.patch, { env: {} });
    const changed = specAt(
      liveEndpoint({ env: { A: '2', B: 'x' } }),
      [release(2, change('template.env', { A: '1' }, { A: '2', B: 'x' })), initial()],
      1,
    );
    assert.deepEqual(changed.spec.env, { A: '1' });
  });

  it('restores the command as args, not as the decoded copy of the newer one', () => {
    const current = liveEndpoint({ args: 'python new.py', cmd: ['python', 'new.py'] });
    const { spec } = specAt(current, [release(2, change('template.dockerArgs', 'python old.py', 'python new.py')), initial()], 1);
    assert.equal(spec.args, 'python old.py');
    assert.equal(spec.cmd, undefined);
    const cleared = specAt(current, [release(2, change('template.dockerArgs', '', 'python new.py')), initial()], 1);
    assert.equal(cleared.spec.args, undefined);
    const plan = planDeployment(cleared.spec, current);
    assert.equal(plan.kind, 'update');
    assert.deepEqual(plan.patch, { args: '' });
  });

  it('restores CPU flavors without the memory the service derives', () => {
    const current = liveEndpoint({ gpu: null, cpu: [{ id: 'cpu3c', vcpuCount: 2, memory: 4 }] });
    const { spec } = specAt(
      current,
      [release(2, change('instanceIds', [{ id: 'cpu5c', vcpuCount: 4, memory: 8 }], [{ id: 'cpu3c', vcpuCount: 2 }])), initial()],
      1,
    );
    assert.deepEqual(spec.cpu, [{ id: 'cpu5c', vcpuCount: 4 }]);
    assert.equal(spec.gpu, undefined);
  });

  it('removes a CUDA floor a release added, which the plan then refuses to send', () => {
    const current = liveEndpoint({
      gpu: { pools: ['ADA_24'], excludedTypes: [], count: 1, allowedCudaVersions: [], minCudaVersion: '12.4' },
    });
    const { spec } = specAt(current, [release(2, change('minCudaVersion', null, '12.4')), initial()], 1);
    assert.deepEqual(spec.gpu, { pools: ['ADA_24'], count: 1 });
    const plan = planDeployment(spec, current);
    assert.equal(plan.kind, 'refused');
    assert.match(plan.problems[0].message, /cannot remove a CUDA floor/);
  });

  it('reads diffs that already use the spec names', () => {
    const { spec } = specAt(
      liveEndpoint(),
      [
        release(
          2,
          change('image', 'example/worker:1.0', 'example/worker:3.0'),
          change('gpu.count', 2, 1),
          change('scaling.queueDelay', 8, 4),
        ),
        initial(),
      ],
      1,
    );
    assert.equal(spec.image, 'example/worker:1.0');
    assert.equal((spec.gpu as Spec).count, 2);
    assert.deepEqual(spec.scaling, { type: 'QUEUE_DELAY', queueDelay: 8 });
  });

  it('names the fields it cannot revert and undoes the rest', () => {
    const { spec, unknownFields } = specAt(
      liveEndpoint(),
      [
        release(3, change('quantumFlux', 1, 2), change('template.imageName', 'example/worker:2.0', 'example/worker:3.0')),
        release(2, change('templateId', null, 'tpl1'), change('quantumFlux', 0, 1)),
        initial(),
      ],
      1,
    );
    assert.equal(spec.image, 'example/worker:2.0');
    assert.deepEqual(unknownFields, ['quantumFlux', 'templateId']);
    assert.equal(spec.templateId, undefined);
  });

  it('refuses a version that is not listed, the current one, or no version at all', () => {
    const releases = [release(3, change('workersMax', 2, 3)), release(2, change('workersMax', 1, 2)), initial()];
    assert.equal(refusal(liveEndpoint(), releases, 7), "version 7 is not among the endpoint's releases (listed: 3, 2, 1)");
    assert.equal(refusal(liveEndpoint(), [], 1), "version 1 is not among the endpoint's releases (none listed)");
    assert.equal(refusal(liveEndpoint(), releases, 3), 'version 3 is already the current configuration');
    assert.equal(refusal(liveEndpoint(), releases, 0), '0 is not a release version (1, 2, 3, …)');
    assert.equal(refusal(liveEndpoint(), releases, 1.5), '1.5 is not a release version (1, 2, 3, …)');
  });

  it('refuses when releases between now and the version are missing or listed twice', () => {
    const gapped = [release(5, change('workersMax', 2, 3)), release(3, change('workersMax', 1, 2)), initial()];
    assert.equal(refusal(liveEndpoint(), gapped, 1), 'releases 2, 4 are missing from the list, so version 1 cannot be worked out');
    assert.equal(refusal(liveEndpoint(), gapped, 3), 'release 4 is missing from the list, so version 3 cannot be worked out');
    const twice = [release(2, change('workersMax', 2, 3)), release(2, change('workersMax', 1, 3)), initial()];
    assert.equal(refusal(liveEndpoint(), twice, 1), 'release 2 is listed 2 times, so it is not certain what it changed');
  });

  it('refuses a change that does not say what it replaced', () => {
    const releases = [release(2, { field: 'template.imageName', old: undefined, new: 'example/worker:3.0' }), initial()];
    assert.equal(
      refusal(liveEndpoint(), releases, 1),
      'release 2 does not say what template.imageName was before it, so version 1 cannot be worked out',
    );
  });

  it('ignores a release without a version once the ones needed are all there, and leaves the inputs alone', () => {
    const releases = [release(2, change('gpuIds', ['AMPERE_24'], ['ADA_24'])), { diff: [change('x', 1, 2)] }, initial()];
    const current = liveEndpoint();
    const copy = structuredClone({ current, releases });
    const { spec } = specAt(current, releases, 1);
    (spec.gpu as Spec).pools = ['changed'];
    assert.deepEqual({ current, releases }, copy);
    assert.deepEqual(specAt(current, releases, 1).spec.gpu, { pools: ['AMPERE_24'], count: 1 });
  });

  it('is the live endpoint itself when the releases since cancel out', () => {
    const current = liveEndpoint();
    const releases = [
      release(3, change('template.imageName', 'example/worker:2.0', 'example/worker:3.0')),
      release(2, change('template.imageName', 'example/worker:3.0', 'example/worker:2.0')),
      initial(),
    ];
    assert.equal(planDeployment(specAt(current, releases, 1).spec, current).kind, 'unchanged');
    assert.deepEqual(specAt(current, releases, 1).spec, liveAsSpec(current));
  });
});

describe('planRollback against the emulator', () => {
  it('rolls an image and a GPU selection back to version 1 and reads back that version', async () => {
    await withEmulator({}, async (_emu, api) => {
      const client = api();
      const first = await client.serverless.create(
        gpuEndpoint({ gpu: { pools: ['ADA_24', 'AMPERE_24'], excludedTypes: ['NVIDIA L4'] }, workers: { min: 0, max: 2 } }),
      );
      await client.serverless.update(first.id, { image: 'example/worker:2.0' });
      // Pools sent alone clear the exclusions.
      await client.serverless.update(first.id, { gpu: { pools: ['ADA_24'] }, env: { MODE: 'fast' } });
      const changed = await client.serverless.get(first.id);
      assert.deepEqual(changed.gpu?.excludedTypes, []);

      const planned = await planRollback({ client, endpointId: first.id, toVersion: 1 });
      assert.ok(planned.ok, planned.ok ? '' : planned.message);
      assert.equal(planned.fromVersion, 3);
      assert.equal(planned.toVersion, 1);
      assert.deepEqual(planned.target, { kind: 'adopted', endpointId: first.id });
      assert.equal(planned.plan.kind, 'update');
      assert.deepEqual(planned.unknownFields, []);

      const applied = await applyDeploy({ client, plan: planned.plan, target: planned.target });
      assert.ok(applied.ok);
      assert.equal(applied.binding, undefined);
      const now = await client.serverless.get(first.id);
      assert.deepEqual(driftBetween(liveAsSpec(first), now), []);
      assert.equal(now.image, 'example/worker:1.0');
      assert.deepEqual(now.gpu?.excludedTypes, ['NVIDIA L4']);
      const releases = await client.serverless.releases(first.id);
      assert.equal(releases.endpointVersion, 4);
      await eventually(async () => ((await readRollout(client, first.id)).done ? true : undefined));

      // A scaler switch is one scalerValue entry in the service's diff: read back in the type it belonged to.
      await client.serverless.update(first.id, { scaling: { type: 'REQUEST_COUNT', requestCount: 3 } });
      const switched = await planRollback({ client, endpointId: first.id, toVersion: 4 });
      assert.ok(switched.ok, switched.ok ? '' : switched.message);
      assert.ok((await applyDeploy({ client, plan: switched.plan, target: switched.target })).ok);
      const back = await client.serverless.get(first.id);
      assert.deepEqual(back.scaling, { type: 'QUEUE_DELAY', queueDelay: 4 });
      assert.deepEqual(driftBetween(liveAsSpec(now), back), []);

      const again = await planRollback({ client, endpointId: first.id, toVersion: 6 });
      assert.deepEqual(again, {
        ok: false,
        message: `cannot roll endpoint ${first.id} back: version 6 is already the current configuration`,
      });
      const missing = await planRollback({ client, endpointId: 'nosuchendpoint', toVersion: 1 });
      assert.deepEqual(missing, { ok: false, message: 'endpoint nosuchendpoint was not found' });
    });
  });
});
