import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { EndpointHealth, Job, JobStreamChunk } from '../../core/api/types';
import { call, cpuSpec, create, eventually, gpuSpec, loadBalancerUrls, withEmulator, workers } from './helpers';

/** What the emulated load-balanced worker echoes back for a request. */
interface EchoedRequest {
  path: string;
  body: unknown;
}

test('run, status, runsync with wait, failures and timeouts', async () => {
  await withEmulator({ timeScale: 50 }, async (e) => {
    const ep = await create(e, gpuSpec({ timeout: 2000 }));
    const run = await call<Job>(e.jobsUrl, 'POST', `/v2/${ep.id}/run`, { input: { prompt: 'hi' } });
    assert.equal(run.status, 200);
    assert.equal(run.body.status, 'IN_QUEUE');
    const done = await eventually(
      async () => {
        const s = await call<Job>(e.jobsUrl, 'GET', `/v2/${ep.id}/status/${run.body.id}`);
        return s.body.status === 'COMPLETED' ? s.body : undefined;
      },
      5000,
      'completion',
    );
    assert.deepEqual(done.output, { echo: { prompt: 'hi' } });
    const { delayTime, executionTime } = done;
    assert.ok(delayTime !== undefined && delayTime >= 0 && executionTime !== undefined && executionTime >= 0);
    const sync = await call<Job>(e.jobsUrl, 'POST', `/v2/${ep.id}/runsync`, { input: { output: 42 } });
    assert.equal(sync.body.status, 'COMPLETED');
    assert.equal(sync.body.output, 42);
    const failed = await call<Job>(e.jobsUrl, 'POST', `/v2/${ep.id}/runsync`, { input: { fail: 'boom' } });
    assert.equal(failed.body.status, 'FAILED');
    assert.equal(failed.body.error, 'boom');
    const timedOut = await call<Job>(e.jobsUrl, 'POST', `/v2/${ep.id}/runsync`, { input: { sleepMs: 60000 } });
    assert.equal(timedOut.body.status, 'TIMED_OUT');
    assert.equal(timedOut.body.executionTime, 2000);
    // A job still running when the wait ends; the default timeout (6 s here) outlasts any stall of a loaded machine.
    const slow = await create(e, gpuSpec({ name: 'slow-jobs' }));
    const short = await call<Job>(e.jobsUrl, 'POST', `/v2/${slow.id}/runsync?wait=50`, { input: { sleepMs: 100000 } });
    assert.ok(['IN_QUEUE', 'IN_PROGRESS'].includes(short.body.status), short.body.status);
    assert.equal((await call(e.jobsUrl, 'POST', `/v2/${ep.id}/runsync?wait=abc`, { input: {} })).status, 400);
    assert.equal((await call(e.jobsUrl, 'POST', `/v2/${ep.id}/run`, { nope: 1 })).status, 400);
    assert.equal((await call(e.jobsUrl, 'GET', `/v2/${ep.id}/status/nosuchjob`)).status, 404);
  });
});

test('retry requeues failed jobs only; cancel and purge-queue; health counts', async () => {
  await withEmulator({ timeScale: 50 }, async (e) => {
    const ep = await create(e, gpuSpec({ workers: { max: 1 } }));
    const failed = await call<Job>(e.jobsUrl, 'POST', `/v2/${ep.id}/runsync`, { input: { fail: 'x' } });
    const retry = await call<Job>(e.jobsUrl, 'POST', `/v2/${ep.id}/retry/${failed.body.id}`);
    assert.deepEqual(retry.body, { id: failed.body.id, status: 'IN_QUEUE' });
    const ok = await call<Job>(e.jobsUrl, 'POST', `/v2/${ep.id}/runsync`, { input: {} });
    assert.equal((await call(e.jobsUrl, 'POST', `/v2/${ep.id}/retry/${ok.body.id}`)).status, 400);
    // One worker: a long job blocks the rest in the queue.
    const long = await call<Job>(e.jobsUrl, 'POST', `/v2/${ep.id}/run`, { input: { sleepMs: 1e6 } });
    await eventually(async () =>
      (await call<Job>(e.jobsUrl, 'GET', `/v2/${ep.id}/status/${long.body.id}`)).body.status === 'IN_PROGRESS' ? true : undefined,
    );
    const queued: string[] = [];
    for (let i = 0; i < 3; i++) queued.push((await call<Job>(e.jobsUrl, 'POST', `/v2/${ep.id}/run`, { input: { i } })).body.id);
    const cancelled = await call<Job>(e.jobsUrl, 'POST', `/v2/${ep.id}/cancel/${queued[0]}`);
    assert.equal(cancelled.body.status, 'CANCELLED');
    const health = (await call<EndpointHealth>(e.jobsUrl, 'GET', `/v2/${ep.id}/health`)).body;
    assert.equal(health.jobs.inQueue, 2);
    assert.equal(health.jobs.inProgress, 1);
    assert.equal(health.jobs.retried, 1);
    assert.ok(health.jobs.failed >= 1 && health.jobs.completed >= 1);
    assert.equal(health.workers.running, 1);
    const purge = await call<{ removed: number }>(e.jobsUrl, 'POST', `/v2/${ep.id}/purge-queue`);
    assert.equal(purge.body.removed, 2);
    assert.equal(
      (await call<Job>(e.jobsUrl, 'GET', `/v2/${ep.id}/status/${long.body.id}`)).body.status,
      'IN_PROGRESS',
      'in-progress jobs survive a purge',
    );
    assert.equal((await call<Job>(e.jobsUrl, 'POST', `/v2/${ep.id}/cancel/${long.body.id}`)).body.status, 'CANCELLED');
  });
});

test('stream hands out chunks since the last call', async () => {
  await withEmulator({ timeScale: 10 }, async (e) => {
    const ep = await create(e, gpuSpec({ workers: { min: 1 } }));
    const run = await call<Job>(e.jobsUrl, 'POST', `/v2/${ep.id}/run`, { input: { stream: ['a', 'b', 'c', 'd'], sleepMs: 2000 } });
    const seen: unknown[] = [];
    let status = '';
    while (status !== 'COMPLETED') {
      const s = await call<JobStreamChunk>(e.jobsUrl, 'GET', `/v2/${ep.id}/stream/${run.body.id}`);
      status = s.body.status;
      seen.push(...s.body.stream.map((c) => c.output));
    }
    assert.deepEqual(seen, ['a', 'b', 'c', 'd']);
  });
});

test('workers start INITIALIZING, serve, scale to max and leave after idleTimeout', async () => {
  // 20x: a boot is 150 ms of real time, long enough for the first read to find it under load.
  await withEmulator({ timeScale: 20 }, async (e) => {
    const ep = await create(e, gpuSpec({ workers: { min: 0, max: 2, idleTimeout: 5 }, scaling: { type: 'QUEUE_DELAY', queueDelay: 1 } }));
    assert.equal((await workers(e, ep.id)).summary.total, 0, 'no workers without jobs and min 0');
    for (let i = 0; i < 4; i++) await call(e.jobsUrl, 'POST', `/v2/${ep.id}/run`, { input: { sleepMs: 3000 } });
    const first = await workers(e, ep.id);
    assert.ok(first.workers.every((w) => w.status === 'INITIALIZING'));
    await eventually(async () => ((await workers(e, ep.id)).summary.total === 2 ? true : undefined), 5000, 'scale to max');
    await eventually(async () => ((await workers(e, ep.id)).summary.running === 2 ? true : undefined), 5000, 'two running');
    await eventually(
      async () => ((await workers(e, ep.id)).summary.total === 0 ? true : undefined),
      8000,
      'scale to zero after idle timeout',
    );
  });
});

test('workers sit THROTTLED when the chosen pools have no stock; CPU endpoints place on a flavor', async () => {
  await withEmulator({ timeScale: 50 }, async (e) => {
    const h200 = await create(e, gpuSpec({ gpu: { pools: ['HOPPER_141'] }, workers: { min: 1 } }));
    const throttled = await eventually(async () => {
      const w = await workers(e, h200.id);
      return w.summary.throttled === 1 ? w.workers[0] : undefined;
    });
    assert.equal(throttled.gpuTypeId, null);
    assert.equal(throttled.dataCenterId, null);
    const cpu = await create(e, cpuSpec({ workers: { min: 1 }, dataCenterIds: ['EU-SE-1'] }));
    const placed = await eventually(async () => {
      const w = await workers(e, cpu.id);
      return w.summary.idle === 1 ? w.workers[0] : undefined;
    });
    assert.equal(placed.dataCenterId, 'EU-SE-1');
    assert.equal(placed.gpuCount, 0);
  });
});

test('load balancer: health reflects ready workers and requests cold-start a worker', async () => {
  await withEmulator({ timeScale: 50 }, async (e) => {
    const lb = await create(
      e,
      gpuSpec({ type: 'LOAD_BALANCER', scaling: { type: 'REQUEST_COUNT', requestCount: 1 }, env: { HEALTH_CHECK_PATH: '/healthz' } }),
    );
    const urls = loadBalancerUrls(lb);
    assert.equal((await call(urls.health, 'GET', '')).status, 503);
    const answer = await call<EchoedRequest>(urls.base, 'POST', '/generate', { prompt: 'x' });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.path, '/generate');
    assert.deepEqual(answer.body.body, { prompt: 'x' });
    assert.equal((await call(urls.health, 'GET', '')).status, 200);
  });
});
