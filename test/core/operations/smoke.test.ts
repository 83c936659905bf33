/**
 * The smoke check against the emulator over HTTP: a job that completes on the current release
 * passes; one that fails does not and carries the handler's error; one answered by a worker of an
 * older release (the new one cannot start) does not pass and says so; a job that outlives its time
 * is cancelled; a load balancer and an unknown endpoint are refused before anything runs.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiClient, Endpoint } from '../../../core/api';
import { readRollout, smokeCheck } from '../../../core/operations';
import { eventually, gpuEndpoint, withEmulator } from '../api/support';

async function readyEndpoint(client: ApiClient): Promise<Endpoint> {
  const endpoint = await client.serverless.create(gpuEndpoint({ workers: { min: 1, max: 1, idleTimeout: 600 } }));
  await eventually(async () => ((await readRollout(client, endpoint.id)).done ? true : undefined));
  return endpoint;
}

describe('smokeCheck against the emulator', () => {
  it('passes a job that completes on the current release', async () => {
    await withEmulator({}, async (_emu, api) => {
      const client = api();
      const endpoint = await readyEndpoint(client);
      const outcome = await smokeCheck({ client, endpointId: endpoint.id, request: { input: { output: { ok: true } } } });
      assert.equal(outcome.passed, true, outcome.message);
      assert.match(outcome.message, /^smoke job \S+ COMPLETED on release 1 in [\d.]+ s$/);
      assert.equal(outcome.workerVersion, 1);
      assert.equal(outcome.endpointVersion, 1);
      assert.deepEqual(outcome.job?.output, { ok: true });
    });
  });

  it('does not pass a job that fails, and gives its error', async () => {
    await withEmulator({}, async (_emu, api) => {
      const client = api();
      const endpoint = await readyEndpoint(client);
      const outcome = await smokeCheck({ client, endpointId: endpoint.id, request: { input: { fail: 'model weights not found' } } });
      assert.equal(outcome.passed, false);
      assert.equal(outcome.job?.status, 'FAILED');
      assert.equal(outcome.message, `smoke job ${outcome.job.jobId} FAILED: model weights not found`);
    });
  });

  it('does not pass a job that a worker of an older release ran', async () => {
    await withEmulator({}, async (_emu, api) => {
      const client = api();
      const endpoint = await readyEndpoint(client);
      // The new release cannot place a worker, so the old one goes on serving.
      await client.serverless.update(endpoint.id, { gpu: { pools: ['HOPPER_141'] } });
      const outcome = await smokeCheck({ client, endpointId: endpoint.id, request: { input: { prompt: 'hello' } }, timeoutMs: 30_000 });
      assert.equal(outcome.passed, false, outcome.message);
      const workers = await client.serverless.workers(endpoint.id);
      assert.equal(outcome.job?.status, 'COMPLETED', `${outcome.message}; workers ${JSON.stringify(workers.workers)}`);
      assert.equal(outcome.workerVersion, 1);
      assert.equal(outcome.endpointVersion, 2);
      assert.match(
        outcome.message,
        /^smoke job \S+ COMPLETED on release 1, not on the endpoint's release 2: a worker of an older release ran it$/,
      );
    });
  });

  it('cancels a job that outlives its time, and one the caller stops', async () => {
    await withEmulator({}, async (_emu, api) => {
      const client = api();
      const endpoint = await readyEndpoint(client);
      const slow = await smokeCheck({ client, endpointId: endpoint.id, request: { input: { sleepMs: 3_600_000 } }, timeoutMs: 300 });
      assert.equal(slow.passed, false);
      assert.equal(slow.job?.cancelledByUser, true);
      assert.match(slow.message, /^smoke job \S+ CANCELLED: cancelled, since it did not finish within 0\.3 s$/);

      const controller = new AbortController();
      setTimeout(() => {
        controller.abort();
      }, 300);
      const stopped = await smokeCheck({
        client,
        endpointId: endpoint.id,
        request: { input: { sleepMs: 3_600_000 } },
        signal: controller.signal,
      });
      assert.equal(stopped.passed, false);
      assert.match(stopped.message, /cancelled, since the smoke check was stopped$/);
    });
  });

  it('refuses a load balancer and an unknown endpoint without running anything', async () => {
    await withEmulator({}, async (_emu, api) => {
      const client = api();
      const balancer = await client.serverless.create(
        gpuEndpoint({ name: 'gateway', type: 'LOAD_BALANCER', scaling: { type: 'REQUEST_COUNT', requestCount: 4 } }),
      );
      const refused = await smokeCheck({ client, endpointId: balancer.id, request: { input: {} } });
      assert.deepEqual(refused, {
        passed: false,
        message: `endpoint ${balancer.id} is a LOAD_BALANCER endpoint, which has no job API to run a smoke job through`,
      });
      const missing = await smokeCheck({ client, endpointId: 'nosuchendpoint', request: { input: {} } });
      assert.deepEqual(missing, { passed: false, message: 'endpoint nosuchendpoint was not found' });
    });
  });
});
