/**
 * The demo state (`demo: true`): every view has something true to show. A month of billing that the
 * emulator's engine simulated (so it has a weekly rhythm, not a flat line), a worker writing log
 * lines, a completed and a failed job, two releases of the queue endpoint, and six of its prod environment.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ServerlessBillingRecord } from '../../core/api/billing';
import { HISTORY_DAYS } from '../../emulator/demo/index';
import { DEMO_ENDPOINTS, HTTP_SERVICE, SDXL_WORKER, SDXL_WORKER_PROD } from '../../emulator/demo/endpoints';
import type { RunningEmulator } from '../../emulator/index';
import { apiOf, create, eventually, gpuSpec, loadBalancerUrls, logLines, withEmulator } from './helpers';

const DAY = 86_400_000;

function demoOf(e: RunningEmulator): NonNullable<RunningEmulator['demo']> {
  assert.ok(e.demo, 'the emulator reports what it seeded');
  return e.demo;
}

/** The text of a worker's log lines, read until `enough` says so. */
async function lineTexts(
  e: RunningEmulator,
  endpointId: string,
  workerId: string,
  enough: (lines: string[]) => boolean,
): Promise<string[]> {
  const events = await logLines(e, endpointId, workerId, (seen) => enough(seen.map((l) => l.line)));
  return events.map((l) => l.line);
}

const mean = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / values.length;

describe('the demo state', () => {
  it('has 30 whole days of serverless billing on every demo endpoint, with a weekly rhythm and growth', async () => {
    await withEmulator({ demo: true }, async (e) => {
      const { endpoints } = demoOf(e);
      const today = Math.floor(Date.now() / DAY) * DAY;
      const billing = await apiOf(e).billing.serverless({
        bucketSize: 'day',
        startTime: new Date(today - HISTORY_DAYS * DAY).toISOString(),
        endTime: new Date(today).toISOString(),
      });
      const records: readonly ServerlessBillingRecord[] = billing.records;
      const perDay = new Map<string, number>();
      for (const record of records) perDay.set(record.startTime, (perDay.get(record.startTime) ?? 0) + record.totalAmount);
      assert.equal(perDay.size, HISTORY_DAYS);
      for (const [day, amount] of perDay) assert.ok(amount > 0, `spend on ${day}`);
      const days = [...perDay].sort(([a], [b]) => Date.parse(a) - Date.parse(b));
      const isWeekend = (day: string): boolean => [0, 6].includes(new Date(day).getUTCDay());
      const weekday = mean(days.filter(([d]) => !isWeekend(d)).map(([, v]) => v));
      const weekend = mean(days.filter(([d]) => isWeekend(d)).map(([, v]) => v));
      assert.ok(weekday > weekend * 1.5, `weekday mean ${weekday} against weekend mean ${weekend}`);
      const first = mean(days.slice(0, 14).map(([, v]) => v));
      const last = mean(days.slice(-14).map(([, v]) => v));
      assert.ok(last > first, `the last two weeks (${last}) cost more than the first two (${first})`);
      const sum = records.reduce((n, r) => n + r.totalAmount, 0);
      assert.ok(Math.abs(billing.metadata.totals.totalAmount - sum) < 1e-5 * records.length, 'totals are the sum of the rows');
      const billed = new Set(records.filter((r) => r.totalAmount > 0).map((r) => r.serverlessId));
      assert.deepEqual([...billed].sort(), DEMO_ENDPOINTS.map((demo) => endpoints[demo.file]).sort());
    });
  });

  it('has a worker up with recent log lines, a completed and a failed job', async () => {
    await withEmulator({ demo: true }, async (e) => {
      const { jobs } = demoOf(e);
      assert.ok(jobs, 'the demo ran its jobs');
      const api = apiOf(e);
      const completed = await api.jobs.status(jobs.endpointId, jobs.completed);
      assert.equal(completed.status, 'COMPLETED');
      assert.ok(completed.output !== undefined);
      const failed = await api.jobs.status(jobs.endpointId, jobs.failed);
      assert.equal(failed.status, 'FAILED');
      assert.match(String(failed.error), /out of memory/);
      const { workers } = await api.serverless.workers(jobs.endpointId);
      const worker = workers.find((w) => w.status === 'IDLE' || w.status === 'RUNNING');
      assert.ok(worker, `a worker up among ${JSON.stringify(workers)}`);
      const upLines = await lineTexts(e, jobs.endpointId, worker.id, (lines) => lines.some((l) => l.includes('batch')));
      assert.ok(upLines.includes('Worker ready.'), upLines.join('\n'));
      assert.ok(
        upLines.some((l) => l.includes('batch')),
        upLines.join('\n'),
      );
      for (const [job, expected] of [
        [completed, `job ${jobs.completed} completed`],
        [failed, `job ${jobs.failed} failed`],
      ] as const) {
        assert.ok(job.workerId, `the worker of ${job.id}`);
        const lines = await lineTexts(e, jobs.endpointId, job.workerId, (seen) => seen.some((l) => l.includes(expected)));
        assert.ok(
          lines.some((l) => l.includes(expected)),
          `${expected} in:\n${lines.join('\n')}`,
        );
      }
    });
  });

  it('has two releases of the queue endpoint: created a month ago, its image updated since', async () => {
    await withEmulator({ demo: true }, async (e) => {
      const { endpoints } = demoOf(e);
      const api = apiOf(e);
      const releases = await api.serverless.releases(endpoints[SDXL_WORKER.file]);
      assert.equal(releases.endpointVersion, 2);
      assert.equal(releases.releases.length, 2);
      const [latest, first] = releases.releases;
      assert.deepEqual(latest.diff, [{ field: 'template.imageName', old: 'myorg/sdxl-worker:1.4.1', new: 'myorg/sdxl-worker:1.4.2' }]);
      assert.ok(Date.parse(String(first.createdAt)) < Date.parse(String(latest.createdAt)));
      assert.ok(Date.now() - Date.parse(String(first.createdAt)) > HISTORY_DAYS * DAY, 'created before the billing history starts');
      const endpoint = await api.serverless.get(endpoints[SDXL_WORKER.file]);
      assert.equal(endpoint.image, SDXL_WORKER.spec.image);
      const lb = await api.serverless.get(endpoints[HTTP_SERVICE.file]);
      assert.equal(loadBalancerUrls(lb).base, `http://${lb.id}.localhost:${new URL(e.jobsUrl).port}`);
    });
  });

  it('has the prod environment released six times, a rollout, a stall and a rollback among them, with a worker up', async () => {
    await withEmulator({ demo: true }, async (e) => {
      const { endpoints } = demoOf(e);
      const api = apiOf(e);
      const prodId = endpoints[SDXL_WORKER_PROD.file];
      const list = await api.serverless.releases(prodId);
      assert.equal(list.endpointVersion, 6);
      assert.deepEqual(
        list.releases.map((r) => [r.version, r.diff.map((d) => d.field).sort()]),
        [
          [6, ['template.imageName']],
          [5, ['template.imageName']],
          [4, ['gpuIds']],
          [3, ['template.imageName']],
          [2, ['scalerValue', 'workersMax']],
          [1, []],
        ],
      );
      const [rollback, stall, pools, rollout, headroom] = list.releases;
      assert.deepEqual(stall.diff, [
        { field: 'template.imageName', old: 'myorg/sdxl-worker:1.4.2', new: 'myorg/sdxl-worker:1.5.0-crashloop' },
      ]);
      assert.deepEqual(rollback.diff, [
        { field: 'template.imageName', old: 'myorg/sdxl-worker:1.5.0-crashloop', new: 'myorg/sdxl-worker:1.4.2' },
      ]);
      assert.deepEqual(rollout.diff, [{ field: 'template.imageName', old: 'myorg/sdxl-worker:1.4.1', new: 'myorg/sdxl-worker:1.4.2' }]);
      assert.deepEqual(pools.diff, [{ field: 'gpuIds', old: ['ADA_24', 'AMPERE_24'], new: ['ADA_24'] }]);
      assert.deepEqual(
        [...headroom.diff].sort((a, b) => a.field.localeCompare(b.field)),
        [
          { field: 'scalerValue', old: 4, new: 2 },
          { field: 'workersMax', old: 4, new: 8 },
        ],
      );
      const times = list.releases.map((r) => Date.parse(r.createdAt ?? ''));
      assert.deepEqual(
        times,
        [...times].sort((a, b) => b - a),
        'newest first',
      );
      assert.ok(Math.abs(times[0] - times[1] - 30 * 60_000) < 2000, 'rolled back half an hour after the stall');
      assert.equal((await api.serverless.get(prodId)).image, SDXL_WORKER_PROD.spec.image);
      const worker = await eventually(async () => {
        const { workers } = await api.serverless.workers(prodId);
        return workers.find((w) => w.status === 'IDLE' || w.status === 'RUNNING');
      });
      assert.deepEqual([worker.version, worker.isStale, worker.image], [6, false, 'myorg/sdxl-worker:1.4.2']);
    });
  });

  it('starts on a kept state whose namesake of the queue endpoint is a load balancer, without the jobs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'es-demo-namesake-'));
    const statePath = join(dir, 'state.json');
    try {
      const namesake = await withEmulator({ statePath }, (e) =>
        create(e, gpuSpec({ name: SDXL_WORKER.spec.name, type: 'LOAD_BALANCER', scaling: { type: 'REQUEST_COUNT', requestCount: 1 } })),
      );
      await withEmulator({ demo: true, statePath }, (e) => {
        const demo = demoOf(e);
        assert.equal(demo.endpoints[SDXL_WORKER.file], namesake.id);
        assert.equal(demo.jobs, undefined);
        assert.ok(demo.endpoints[HTTP_SERVICE.file]);
        return Promise.resolve();
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
