/**
 * Plans against endpoints the emulator really made: a PATCH body holds only what changed, in the
 * contract's update semantics (the GPU selection goes as pools plus exclusions), removals send
 * the clearing value, and what no update can do is refused. Drift is the same comparison.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { driftBetween, planDeployment, renderPlan, type DeploymentPlan, type Spec } from '../../../core/deploy';
import type { ApiClient, CreateEndpointRequest, Endpoint } from '../../../core/api';
import { cpuSpec, gpuQueueSpec, loadBalancerSpec, templateSpec, withEmulator } from './support';

async function deployed(api: ApiClient, spec: Spec): Promise<Endpoint> {
  const { $schema: _schema, ...body } = spec;
  return api.serverless.get((await api.serverless.create(body as unknown as CreateEndpointRequest)).id);
}

function expectKind<K extends DeploymentPlan['kind']>(plan: DeploymentPlan, kind: K): Extract<DeploymentPlan, { kind: K }> {
  assert.equal(plan.kind, kind, renderPlan(plan));
  return plan as Extract<DeploymentPlan, { kind: K }>;
}

describe('planDeployment', () => {
  it('creates a spec that was never deployed, without editor-only keys', () => {
    const plan = expectKind(planDeployment(gpuQueueSpec(), undefined), 'create');
    assert.ok(!('$schema' in plan.body));
    assert.equal(plan.body.name, 'sdxl-worker');
    assert.match(renderPlan(plan), /^create a new endpoint "sdxl-worker" \(QUEUE on GPU\)\n/);
    assert.match(renderPlan(plan), /\+ workers\.max: 5/);
  });

  it('leaves an endpoint that matches its spec alone', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      for (const make of [gpuQueueSpec, loadBalancerSpec, cpuSpec, templateSpec]) {
        const live = await deployed(api, make());
        const plan = expectKind(planDeployment(make(), live), 'unchanged');
        assert.equal(plan.endpointId, live.id);
      }
    });
  });

  it('patches only what changed, and says so as a readable diff', async () => {
    await withEmulator({}, async (_emu, client) => {
      const live = await deployed(client(), gpuQueueSpec());
      const spec = gpuQueueSpec({ workers: { min: 1, max: 8, idleTimeout: 30 }, env: { DEBUG: '1' }, dataCenterIds: undefined });
      const plan = expectKind(planDeployment(spec, live), 'update');
      assert.deepEqual(plan.patch, { env: { DEBUG: '1' }, workers: { min: 1, max: 8, idleTimeout: 30 }, dataCenterIds: [] });
      assert.deepEqual(
        plan.changes.map((c) => [c.path, c.before, c.after]),
        [
          ['env.DEBUG', undefined, '1'],
          ['workers.max', 5, 8],
          ['dataCenterIds', ['US-TX-3', 'EU-RO-1'], []],
        ],
      );
      const text = renderPlan(plan);
      assert.match(text, new RegExp(`^update endpoint ${live.id} "sdxl-worker": 3 changes\n`));
      assert.match(text, /\+ env\.DEBUG: "1"/);
      assert.match(text, /~ workers\.max: 5 → 8/);
      assert.match(text, /~ dataCenterIds: \["US-TX-3","EU-RO-1"\] → \[\]/);
    });
  });

  it('sends pools and exclusions together when either changes, and neither when only count does', async () => {
    await withEmulator({}, async (_emu, client) => {
      const live = await deployed(client(), gpuQueueSpec());
      const base = gpuQueueSpec().gpu as Spec;
      const morePools = expectKind(
        planDeployment(gpuQueueSpec({ gpu: { ...base, pools: ['ADA_24', 'AMPERE_24', 'AMPERE_16'] } }), live),
        'update',
      );
      assert.deepEqual(morePools.patch, { gpu: { pools: ['ADA_24', 'AMPERE_24', 'AMPERE_16'], excludedTypes: [' NVIDIA L4'] } });

      const { excludedTypes: _dropped, ...withoutExclusions } = base;
      const noExclusions = expectKind(planDeployment(gpuQueueSpec({ gpu: withoutExclusions }), live), 'update');
      assert.deepEqual(noExclusions.patch, { gpu: { pools: ['ADA_24', 'AMPERE_24'], excludedTypes: [] } });
      assert.deepEqual(
        noExclusions.changes.map((c) => c.path),
        ['gpu.excludedTypes'],
      );

      const count = expectKind(planDeployment(gpuQueueSpec({ gpu: { ...base, count: 4 } }), live), 'update');
      assert.deepEqual(count.patch, { gpu: { count: 4 } });

      // Order and whitespace are not differences: the selection is a set of trimmed ids.
      expectKind(
        planDeployment(gpuQueueSpec({ gpu: { ...base, pools: ['AMPERE_24', 'ADA_24'], excludedTypes: ['NVIDIA L4 '] } }), live),
        'unchanged',
      );
    });
  });

  it('sends the clearing value for a removed field', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const gpuLive = await deployed(api, gpuQueueSpec());
      const { args: _args, flashboot: _flashboot, ...bare } = gpuQueueSpec();
      const cleared = expectKind(planDeployment(bare, gpuLive), 'update');
      assert.deepEqual(cleared.patch, { args: '', flashboot: 'OFF' });

      const lbLive = await deployed(api, loadBalancerSpec());
      const { env: _env, ports: _ports, ...noEnv } = loadBalancerSpec();
      const plan = expectKind(planDeployment(noEnv, lbLive), 'update');
      assert.deepEqual(plan.patch, { ports: [], env: {} });
      assert.ok(renderPlan(plan).includes('- env.LOG_LEVEL: "debug"'));
    });
  });

  it('spells the command the way the spec does, with both halves', async () => {
    await withEmulator({}, async (_emu, client) => {
      const live = await deployed(client(), gpuQueueSpec());
      const { args: _args, ...rest } = gpuQueueSpec();
      const plan = expectKind(planDeployment({ ...rest, cmd: ['python', 'serve.py'] }, live), 'update');
      assert.deepEqual(plan.patch, { entrypoint: [], cmd: ['python', 'serve.py'] });
      assert.deepEqual(
        plan.changes.map((c) => c.path),
        ['cmd'],
      );
    });
  });

  it('keeps the env keys a template gave when the spec changes its own', async () => {
    await withEmulator({}, async (_emu, client) => {
      const live = await deployed(client(), templateSpec());
      assert.equal(live.env?.MODEL_NAME, 'Qwen/Qwen2.5-7B-Instruct', 'the template env was merged');
      const plan = expectKind(planDeployment(templateSpec({ env: { MAX_MODEL_LEN: '2048', HF_HUB_OFFLINE: '1' } }), live), 'update');
      assert.deepEqual(
        plan.changes.map((c) => c.path),
        ['env.MAX_MODEL_LEN'],
      );
      assert.deepEqual(plan.patch.env, { ...live.env, MAX_MODEL_LEN: '2048' });
    });
  });

  it('drops idleTimeout when the scaler switches to REQUEST_COUNT on a queue', async () => {
    await withEmulator({}, async (_emu, client) => {
      const live = await deployed(client(), gpuQueueSpec());
      const plan = expectKind(
        planDeployment(gpuQueueSpec({ scaling: { type: 'REQUEST_COUNT', requestCount: 3 }, workers: { min: 1, max: 5 } }), live),
        'update',
      );
      assert.deepEqual(plan.patch, { workers: { min: 1, max: 5 }, scaling: { type: 'REQUEST_COUNT', requestCount: 3 } });
    });
  });

  it('refuses what no update can do: type, compute kind, removing a CUDA floor', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const live = await deployed(api, gpuQueueSpec());
      const typeChange = expectKind(
        planDeployment(gpuQueueSpec({ type: 'LOAD_BALANCER', scaling: { type: 'REQUEST_COUNT', requestCount: 2 } }), live),
        'refused',
      );
      assert.deepEqual(
        typeChange.problems.map((p) => p.path),
        ['type'],
      );
      assert.match(typeChange.problems[0].message, /cannot change.*delete the endpoint/);
      assert.match(renderPlan(typeChange), /^cannot update endpoint/);

      const { gpu: _gpu, ...noGpu } = gpuQueueSpec();
      const computeChange = expectKind(planDeployment({ ...noGpu, cpu: [{ id: 'cpu5c', vcpuCount: 4 }] }, live), 'refused');
      assert.deepEqual(
        computeChange.problems.map((p) => p.segments),
        [['cpu']],
      );

      const { minCudaVersion: _floor, ...noFloor } = gpuQueueSpec().gpu as Spec;
      const floorRemoved = expectKind(planDeployment(gpuQueueSpec({ gpu: noFloor }), live), 'refused');
      assert.deepEqual(
        floorRemoved.problems.map((p) => p.path),
        ['gpu.minCudaVersion'],
      );
    });
  });
});

describe('driftBetween', () => {
  it('lists what was changed on the endpoint directly, live value first', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const live = await deployed(api, loadBalancerSpec());
      assert.deepEqual(driftBetween(loadBalancerSpec(), live), []);
      await api.serverless.update(live.id, { workers: { max: 9 }, env: { ...live.env, EXTRA: 'x' }, flashboot: 'PRIORITY_FLASHBOOT' });
      const drift = driftBetween(loadBalancerSpec(), await api.serverless.get(live.id));
      assert.deepEqual(
        drift.map((c) => [c.path, c.before, c.after]),
        [
          ['env.EXTRA', 'x', undefined],
          ['workers.max', 9, 2],
          ['flashboot', 'PRIORITY_FLASHBOOT', 'OFF'],
        ],
      );
      const plan = expectKind(planDeployment(loadBalancerSpec(), await api.serverless.get(live.id)), 'update');
      assert.deepEqual(plan.changes, drift, 'a plan pushes exactly the drift back');
    });
  });
});
