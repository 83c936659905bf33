/**
 * Applying plans through the API client against the emulator: the PATCH body on the wire and the
 * release the emulator recorded for it, read-back verification, a lost create that must not
 * become two endpoints, and service problems placed on spec paths.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyPlan, planDeployment, type ApplyResult, type Spec } from '../../../core/deploy';
import type { ApiClient, CreateEndpointRequest, Endpoint } from '../../../core/api';
import { losingProxy } from '../api/support';
import { gpuQueueSpec, templateSpec, withEmulator } from './support';

interface SentRequest {
  method: string;
  path: string;
  body: unknown;
}

/** `fetch` that remembers what went over the wire, so a test can check the exact PATCH body. */
function recordingFetch(sent: SentRequest[]): typeof fetch {
  return async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    sent.push({
      method: init?.method ?? 'GET',
      path: url.pathname,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    });
    return fetch(input, init);
  };
}

async function deployed(api: ApiClient, spec: Spec): Promise<Endpoint> {
  const { $schema: _schema, ...body } = spec;
  return api.serverless.create(body as unknown as CreateEndpointRequest);
}

function expectOk(result: ApplyResult): Extract<ApplyResult, { ok: true }> {
  assert.ok(result.ok, result.ok ? '' : JSON.stringify(result.failure));
  return result;
}

describe('applyPlan', () => {
  it('creates, reads back and verifies', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const steps: string[] = [];
      const result = expectOk(await applyPlan(api, planDeployment(gpuQueueSpec(), undefined), { onProgress: (step) => steps.push(step) }));
      assert.equal(result.action, 'created');
      assert.equal(result.attempts, 1);
      assert.ok(result.verified);
      assert.deepEqual(result.differences, []);
      assert.deepEqual(steps, ['listing', 'creating', 'reading-back', 'verifying']);
      assert.deepEqual(
        (await api.serverless.list()).map((e) => e.id),
        [result.endpoint.id],
      );
    });
  });

  it('sends only the changes, which is what the emulator records as the release diff', async () => {
    await withEmulator({}, async (_emu, client) => {
      const sent: SentRequest[] = [];
      const api = client({ fetch: recordingFetch(sent) });
      const live = await deployed(api, gpuQueueSpec());
      const base = gpuQueueSpec().gpu as Spec;
      const spec = gpuQueueSpec({
        workers: { min: 1, max: 8, idleTimeout: 30 },
        gpu: { ...base, pools: ['ADA_24', 'AMPERE_24', 'AMPERE_16'] },
      });
      const plan = planDeployment(spec, await api.serverless.get(live.id));
      const result = expectOk(await applyPlan(api, plan));
      assert.equal(result.action, 'updated');
      assert.ok(result.verified, JSON.stringify(result.differences));

      const patches = sent.filter((r) => r.method === 'PATCH');
      assert.deepEqual(patches, [
        {
          method: 'PATCH',
          path: `/v2/serverless/${live.id}`,
          body: {
            gpu: { pools: ['ADA_24', 'AMPERE_24', 'AMPERE_16'], excludedTypes: [' NVIDIA L4'] },
            workers: { min: 1, max: 8, idleTimeout: 30 },
          },
        },
      ]);
      assert.equal(sent[sent.length - 1].method, 'GET', 'read back after the write');

      const [latest] = (await api.serverless.releases(live.id)).releases;
      assert.deepEqual(
        latest.diff.map((d) => d.field).sort(),
        ['gpuIds', 'workersMax'],
        'the exclusions were kept: sent with the pools, unchanged on the service',
      );
      assert.deepEqual((await api.serverless.get(live.id)).gpu?.excludedTypes, ['NVIDIA L4']);
    });
  });

  it('keeps a template env on update and verifies', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const live = await deployed(api, templateSpec());
      const result = expectOk(
        await applyPlan(api, planDeployment(templateSpec({ env: { MAX_MODEL_LEN: '2048', HF_HUB_OFFLINE: '1' } }), live)),
      );
      assert.ok(result.verified);
      assert.equal(result.endpoint.env?.MODEL_NAME, 'Qwen/Qwen2.5-7B-Instruct');
      const [latest] = (await api.serverless.releases(live.id)).releases;
      assert.deepEqual(latest.diff, [{ field: 'template.env', old: live.env, new: { ...live.env, MAX_MODEL_LEN: '2048' } }]);
    });
  });

  it('reports what still differs after a write the service did not fully take', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const live = await deployed(api, gpuQueueSpec());
      const plan = planDeployment(gpuQueueSpec({ workers: { min: 1, max: 8, idleTimeout: 30 } }), live);
      assert.equal(plan.kind, 'update');
      // The same plan with a PATCH that forgets a field stands in for a service that ignored it.
      const partial = { ...plan, patch: {} };
      const result = expectOk(await applyPlan(api, partial));
      assert.equal(result.verified, false);
      assert.deepEqual(
        result.differences.map((c) => [c.path, c.before, c.after]),
        [['workers.max', 5, 8]],
      );
    });
  });

  it('re-sends a create that was dropped before the service handled it, making one endpoint', async () => {
    await withEmulator({}, async (emu, client) => {
      const api = client();
      const existingIds = (await api.serverless.list()).map((e) => e.id);
      emu.setFaults({ dropConnection: true, paths: ['/v2/serverless'], count: 1 });
      const result = expectOk(
        await applyPlan(api, planDeployment(gpuQueueSpec(), undefined), { existingIds, reconcile: { reconcileIntervalMs: 20 } }),
      );
      assert.equal(result.action, 'created');
      assert.equal(result.attempts, 2);
      assert.ok(result.verified);
      assert.equal((await api.serverless.list()).length, 1);
    });
  });

  it('finds the endpoint a create made when its answer was lost, never taking an older namesake', async () => {
    await withEmulator({}, async (emu, client) => {
      const older = await deployed(client(), gpuQueueSpec());
      const proxy = await losingProxy(emu.restUrl);
      try {
        const api = client({ apiUrl: proxy.url });
        proxy.loseAnswers('POST', 1);
        const result = expectOk(
          await applyPlan(api, planDeployment(gpuQueueSpec(), undefined), { reconcile: { reconcileIntervalMs: 20 } }),
        );
        assert.equal(result.action, 'reconciled');
        assert.equal(result.attempts, 1);
        assert.notEqual(result.endpoint.id, older.id);
        assert.ok(result.verified);
        const all = await api.serverless.list();
        assert.deepEqual(all.map((e) => e.id).sort(), [older.id, result.endpoint.id].sort(), 'no duplicate');
      } finally {
        await proxy.close();
      }
    });
  });

  it('says nothing was created when the create is lost and retries are spent', async () => {
    await withEmulator({}, async (emu, client) => {
      const api = client();
      emu.setFaults({ dropConnection: true, paths: ['/v2/serverless'], count: 2 });
      const result = await applyPlan(api, planDeployment(gpuQueueSpec(), undefined), {
        existingIds: [],
        reconcile: { retries: 0, reconcileChecks: 1 },
      });
      assert.ok(!result.ok);
      assert.equal(result.failure.kind, 'notCreated');
      assert.equal(result.failure.outcomeUnknown, false);
      assert.equal((await api.serverless.list()).length, 0);
    });
  });

  it('places a 400 for an excluded type outside the pools on gpu.excludedTypes[0]', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const spec = gpuQueueSpec({ gpu: { pools: ['ADA_24'], excludedTypes: ['NVIDIA A40'] } });
      const created = await applyPlan(api, planDeployment(spec, undefined));
      assert.ok(!created.ok);
      assert.equal(created.action, 'create');
      assert.equal(created.failure.status, 400);
      assert.deepEqual(created.failure.problems[0].segments, ['gpu', 'excludedTypes', 0]);
      assert.equal(created.failure.problems[0].path, 'gpu.excludedTypes[0]');
      assert.equal((await api.serverless.list()).length, 0);

      const live = await deployed(api, gpuQueueSpec());
      const updated = await applyPlan(
        api,
        planDeployment(gpuQueueSpec({ gpu: { ...(gpuQueueSpec().gpu as Spec), excludedTypes: ['NVIDIA A40'] } }), live),
      );
      assert.ok(!updated.ok);
      assert.equal(updated.action, 'update');
      assert.deepEqual(
        updated.failure.problems.map((p) => p.path),
        ['gpu.excludedTypes[0]'],
      );
    });
  });

  it('tells a caller the bound endpoint is gone when it was deleted after planning', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const live = await deployed(api, gpuQueueSpec());
      const plan = planDeployment(gpuQueueSpec({ timeout: 1000 }), live);
      await api.serverless.delete(live.id);
      const result = await applyPlan(api, plan);
      assert.ok(!result.ok);
      assert.ok(result.failure.endpointGone);
    });
  });

  it('refuses a refused plan without sending anything', async () => {
    await withEmulator({}, async (_emu, client) => {
      const sent: SentRequest[] = [];
      const api = client({ fetch: recordingFetch(sent) });
      const live = await deployed(api, gpuQueueSpec());
      sent.length = 0;
      const result = await applyPlan(api, planDeployment(gpuQueueSpec({ type: 'LOAD_BALANCER' }), live));
      assert.ok(!result.ok);
      assert.deepEqual(
        result.failure.problems.map((p) => p.path),
        ['type'],
      );
      assert.deepEqual(sent, []);
    });
  });
});
