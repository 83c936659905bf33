/**
 * Health, purge and load balancer pings against the emulator: jobs and workers by state as the
 * health document shows them, a purge that removes only queued jobs, a load balancer's health URL
 * answering 503 until a worker is ready and 200 after, and the key never sent off the jobs host
 * nor shown in anything the console writes.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, type LoadBalancerRequestUrls } from '../../../core/api';
import { isOnJobsHost } from '../../../core/api/jobs';
import { formatHealth, formatLoadBalancer, pingSummary } from '../../../client/jobs/format';
import { TEST_KEY, eventually, gpuEndpoint, withEmulator } from '../../core/api/support';

describe('health, purge and pings against the emulator', () => {
  it('health counts jobs and workers by state; the document shows both tables', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const endpoint = await api.serverless.create(gpuEndpoint({ workers: { min: 1, max: 1, idleTimeout: 600 } }));
      await eventually(async () => ((await api.jobs.health(endpoint.id)).workers.idle === 1 ? true : undefined));
      await api.jobs.runSync(endpoint.id, { input: {} });
      await api.jobs.runSync(endpoint.id, { input: { fail: 'x' } });
      const long = await api.jobs.run(endpoint.id, { input: { sleepMs: 3_600_000 } });
      const waiting = await api.jobs.run(endpoint.id, { input: {} });
      const health = await eventually(async () => {
        const h = await api.jobs.health(endpoint.id);
        return h.jobs.inProgress === 1 ? h : undefined;
      });
      assert.deepEqual(health.jobs, { completed: 1, failed: 1, inProgress: 1, inQueue: 1, retried: 0 });
      assert.equal(health.workers.running, 1);
      const text = formatHealth(endpoint, health, new Date('2030-01-01T00:00:00Z'));
      assert.match(text, /^# Health of sdxl\n/);
      assert.match(
        text,
        /## Jobs by state\n\n\| state \| jobs \|\n\|---\|---:\|\n\| completed \| 1 \|\n\| failed \| 1 \|\n\| in progress \| 1 \|\n\| in queue \| 1 \|\n\| retried \| 0 \|/,
      );
      assert.match(text, /## Workers by state[\s\S]*\| running \| 1 \|/);
      await api.jobs.cancel(endpoint.id, long.id);
      await api.jobs.cancel(endpoint.id, waiting.id);
    });
  });

  it('purge removes queued jobs only; a job in progress keeps running', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const endpoint = await api.serverless.create(gpuEndpoint({ workers: { min: 1, max: 1, idleTimeout: 600 } }));
      await eventually(async () => ((await api.jobs.health(endpoint.id)).workers.idle === 1 ? true : undefined));
      const running = await api.jobs.run(endpoint.id, { input: { sleepMs: 3_600_000 } });
      await eventually(async () => ((await api.jobs.status(endpoint.id, running.id)).status === 'IN_PROGRESS' ? true : undefined));
      const queued = await Promise.all([1, 2, 3].map(() => api.jobs.run(endpoint.id, { input: {} })));
      assert.equal((await api.jobs.health(endpoint.id)).jobs.inQueue, 3);
      const purged = await api.jobs.purgeQueue(endpoint.id);
      assert.equal(purged.removed, 3);
      const after = await api.jobs.health(endpoint.id);
      assert.equal(after.jobs.inQueue, 0);
      assert.equal(after.jobs.inProgress, 1);
      for (const job of queued) assert.equal((await api.jobs.status(endpoint.id, job.id)).status, 'CANCELLED');
      assert.equal((await api.jobs.status(endpoint.id, running.id)).status, 'IN_PROGRESS');
      assert.equal((await api.jobs.purgeQueue(endpoint.id)).removed, 0, 'an empty queue purges nothing');
      await api.jobs.cancel(endpoint.id, running.id);
    });
  });

  it("a load balancer's health URL answers 503 with no ready worker and 200 once one is ready, with a latency", async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const cold = await api.serverless.create(
        gpuEndpoint({
          name: 'lb-cold',
          type: 'LOAD_BALANCER',
          scaling: { type: 'REQUEST_COUNT', requestCount: 1 },
          workers: { min: 0, max: 1 },
        }),
      );
      const coldUrls = cold.requestUrls as LoadBalancerRequestUrls;
      assert.ok(coldUrls.base && coldUrls.health.startsWith(coldUrls.base));
      const down = await api.jobs.pingHealth(coldUrls.health);
      assert.equal(down.ok, false);
      assert.equal(down.status, 503);
      assert.ok(down.latencyMs >= 0);
      assert.match(
        pingSummary(down),
        /^503 \(no worker ready for traffic\) in \d+ ms: no ready worker|^503 \(no worker ready for traffic\) in \d+ ms/,
      );
      const warm = await api.serverless.create(
        gpuEndpoint({
          name: 'lb-warm',
          type: 'LOAD_BALANCER',
          scaling: { type: 'REQUEST_COUNT', requestCount: 1 },
          workers: { min: 1, max: 1, idleTimeout: 600 },
        }),
      );
      const warmUrls = warm.requestUrls as LoadBalancerRequestUrls;
      const up = await eventually(async () => {
        const ping = await api.jobs.pingHealth(warmUrls.health);
        return ping.ok ? ping : undefined;
      });
      assert.equal(up.status, 200);
      assert.deepEqual(up.body, { status: 'healthy' });
      assert.match(pingSummary(up), /^200 \(healthy\) in \d+ ms$/);
      const text = formatLoadBalancer(warm, warmUrls, up, new Date());
      assert.ok(text.includes(`- base: ${warmUrls.base}`) && text.includes(`- health: ${warmUrls.health}`));
      assert.match(text, /- answer: 200 \(healthy\) in \d+ ms\n- healthy: yes/);
      assert.ok(!text.includes(TEST_KEY) && !pingSummary(down).includes(TEST_KEY));
    });
  });

  it('the key goes only to the jobs host: a health URL elsewhere is refused before anything is sent', async () => {
    await withEmulator({}, async (emu, client) => {
      const api = client();
      assert.ok(isOnJobsHost(`${emu.jobsUrl}/lb/x/ping`, emu.jobsUrl));
      assert.ok(isOnJobsHost('https://abc123.api.example.ai/ping', 'https://api.example.ai'));
      assert.ok(!isOnJobsHost('https://api.example.ai.evil.test/ping', 'https://api.example.ai'));
      assert.ok(!isOnJobsHost('http://abc123.api.example.ai/ping', 'https://api.example.ai'), 'not downgraded to http');
      assert.ok(!isOnJobsHost('https://user:pw@abc.api.example.ai/ping', 'https://api.example.ai'));
      assert.ok(!isOnJobsHost(`${emu.restUrl}/ping`, emu.jobsUrl), 'the REST port is another origin');
      await assert.rejects(
        api.jobs.pingHealth('https://elsewhere.test/ping'),
        (e: unknown) =>
          e instanceof ApiError && e.kind === 'configuration' && /not on the job host/.test(e.message) && !e.message.includes(TEST_KEY),
      );
    });
  });

  it('a queue endpoint has no load balancer health route, and a load balancer no job queue', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const lb = await api.serverless.create(
        gpuEndpoint({ name: 'lb', type: 'LOAD_BALANCER', scaling: { type: 'REQUEST_COUNT', requestCount: 1 } }),
      );
      await assert.rejects(
        api.jobs.health(lb.id),
        (e: unknown) => e instanceof ApiError && e.status === 404 && /load balancer/.test(e.message),
      );
      await assert.rejects(api.jobs.purgeQueue(lb.id), (e: unknown) => e instanceof ApiError && e.status === 404);
    });
  });
});
