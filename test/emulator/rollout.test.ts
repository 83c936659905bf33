/**
 * Rolling releases over HTTP, as the service runs them: a configuration change is a new release;
 * idle workers of the old version are replaced, busy ones after their current job, and new jobs go
 * to the new version first. An image that crash-loops leaves its workers UNHEALTHY, with the crash
 * in their logs, while the old version keeps serving, until a later release replaces them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EndpointHealth, Job, ReleaseList, Worker, WorkerLogEvent } from '../../core/api/types';
import type { RunningEmulator } from '../../emulator/index';
import { call, create, eventually, gpuSpec, logLines, withEmulator, workers } from './helpers';

const TIME_SCALE = 50;

async function releases(e: RunningEmulator, id: string): Promise<ReleaseList> {
  return (await call<ReleaseList>(e.restUrl, 'GET', `/v2/serverless/${id}/releases`)).body;
}

async function patch(e: RunningEmulator, id: string, body: Record<string, unknown>): Promise<void> {
  const answer = await call(e.restUrl, 'PATCH', `/v2/serverless/${id}`, body);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
}

async function run(e: RunningEmulator, id: string, input: Record<string, unknown>): Promise<Job> {
  return (await call<Job>(e.jobsUrl, 'POST', `/v2/${id}/run`, { input })).body;
}

async function runSync(e: RunningEmulator, id: string, input: Record<string, unknown>): Promise<Job> {
  return (await call<Job>(e.jobsUrl, 'POST', `/v2/${id}/runsync`, { input })).body;
}

async function status(e: RunningEmulator, id: string, jobId: string): Promise<Job> {
  return (await call<Job>(e.jobsUrl, 'GET', `/v2/${id}/status/${jobId}`)).body;
}

/** The workers once `check` holds for them. */
async function workersWhen(e: RunningEmulator, id: string, check: (list: Worker[]) => boolean, what: string): Promise<Worker[]> {
  return eventually(
    async () => {
      const list = (await workers(e, id)).workers;
      return check(list) ? list : undefined;
    },
    10_000,
    what,
  );
}

/** A worker's log lines up to the first that matches `last`. */
async function linesUntil(e: RunningEmulator, id: string, workerId: string, last: RegExp): Promise<WorkerLogEvent[]> {
  const lines = await logLines(e, id, workerId, (seen) => seen.some((l) => last.test(l.line)));
  assert.ok(
    lines.some((l) => last.test(l.line)),
    `${String(last)} in:\n${lines.map((l) => l.line).join('\n')}`,
  );
  return lines;
}

const at = (lines: readonly WorkerLogEvent[], pattern: RegExp): number => lines.findIndex((l) => pattern.test(l.line));
const tsOf = (lines: readonly WorkerLogEvent[], pattern: RegExp): number => Date.parse(lines[at(lines, pattern)].ts);
const ready = (w: Worker): boolean => w.status === 'IDLE' || w.status === 'RUNNING';

test('an image change is a new release: idle workers are replaced once new ones are ready, and the rollout reaches 100%', async () => {
  await withEmulator({ timeScale: TIME_SCALE }, async (e) => {
    const ep = await create(e, gpuSpec({ workers: { min: 2, max: 3 } }));
    const old = await workersWhen(e, ep.id, (list) => list.length === 2 && list.every((w) => w.status === 'IDLE'), 'two idle workers');
    await patch(e, ep.id, { image: 'example/worker:2.0' });
    const during = await releases(e, ep.id);
    assert.equal(during.endpointVersion, 2);
    assert.equal(during.releases[0].version, 2);
    assert.equal(during.rollout?.inProgress, true);
    const stale = (await workers(e, ep.id)).workers.filter((w) => old.some((o) => o.id === w.id));
    assert.deepEqual(
      stale.map((w) => [w.isStale, w.version]),
      [
        [true, 1],
        [true, 1],
      ],
    );
    const fresh = await workersWhen(
      e,
      ep.id,
      (list) => list.length === 2 && list.every((w) => w.status === 'IDLE' && w.version === 2),
      'two idle workers of version 2',
    );
    assert.ok(fresh.every((w) => !w.isStale && w.image === 'example/worker:2.0' && !old.some((o) => o.id === w.id)));
    const after = await releases(e, ep.id);
    assert.deepEqual(after.rollout, { inProgress: false, workersOnLatest: 2, workersTotal: 2, percentOnLatest: 100 });
    assert.deepEqual(
      after.releases.map((r) => [r.version, r.workerCount]),
      [
        [2, 2],
        [1, 0],
      ],
    );
    // Each old worker left only when a new one was ready to take its place.
    const firstReady = Math.min(
      ...(await Promise.all(fresh.map(async (w) => tsOf(await linesUntil(e, ep.id, w.id, /^Worker ready\.$/), /^Worker ready\.$/)))),
    );
    for (const w of old) {
      const lines = await linesUntil(e, ep.id, w.id, /^worker stopped: replaced by release version 2$/);
      assert.ok(tsOf(lines, /^worker stopped/) >= firstReady, `${w.id} stopped before a new worker was ready`);
    }
  });
});

test('a busy worker finishes its job on the old version, then is replaced; new jobs go to the new version', async () => {
  await withEmulator({ timeScale: TIME_SCALE }, async (e) => {
    const ep = await create(e, gpuSpec({ workers: { min: 1, max: 2 } }));
    const [old] = await workersWhen(e, ep.id, (list) => list.length === 1 && list[0].status === 'IDLE', 'an idle worker');
    const long = await run(e, ep.id, { sleepMs: 60_000, output: 'old version' });
    await eventually(async () => ((await status(e, ep.id, long.id)).status === 'IN_PROGRESS' ? true : undefined), 5000, 'the job to start');
    await patch(e, ep.id, { image: 'example/worker:2.0' });
    // The new worker is ready while the old one still runs its job, stale.
    const mid = await workersWhen(
      e,
      ep.id,
      (list) => list.some((w) => w.version === 2 && w.status === 'IDLE') && list.some((w) => w.id === old.id),
      'a ready new worker beside the busy old one',
    );
    const busy = mid.find((w) => w.id === old.id);
    assert.deepEqual([busy?.status, busy?.isStale, busy?.version], ['RUNNING', true, 1]);
    const next = await runSync(e, ep.id, { output: 'new version' });
    const fresh = mid.find((w) => w.version === 2);
    assert.equal(next.workerId, fresh?.id, 'a new job goes to the new version while the old worker is busy');
    const done = await eventually(
      async () => {
        const s = await status(e, ep.id, long.id);
        return s.status === 'COMPLETED' ? s : undefined;
      },
      10_000,
      'the long job to complete',
    );
    assert.equal(done.workerId, old.id);
    assert.equal(done.output, 'old version');
    await workersWhen(e, ep.id, (list) => !list.some((w) => w.id === old.id), 'the old worker to leave');
    const lines = await linesUntil(e, ep.id, old.id, /^worker stopped: /);
    assert.match(lines[0].line, /\(version 1\)$/);
    assert.ok(
      at(lines, new RegExp(`^job ${long.id} completed`)) < at(lines, /^worker stopped: replaced by release version 2$/),
      'job first',
    );
  });
});

test('a crash-looping image leaves its workers UNHEALTHY with the crash in their logs, and the old version serving', async () => {
  await withEmulator({ timeScale: TIME_SCALE }, async (e) => {
    const ep = await create(e, gpuSpec({ workers: { min: 1, max: 2 } }));
    const [old] = await workersWhen(e, ep.id, (list) => list.length === 1 && list[0].status === 'IDLE', 'an idle worker');
    await patch(e, ep.id, { image: 'example/worker:2.0-crashloop' });
    const stalled = await workersWhen(e, ep.id, (list) => list.some((w) => w.status === 'UNHEALTHY'), 'an unhealthy worker');
    const crashing = stalled.filter((w) => w.status === 'UNHEALTHY');
    assert.ok(crashing.every((w) => w.version === 2 && !w.isStale && w.image === 'example/worker:2.0-crashloop'));
    assert.equal(typeof crashing[0].startedAt, 'string', 'a crash-looping worker has started');
    const lines = await linesUntil(e, ep.id, crashing[0].id, /restarting \(attempt 2\)$/);
    const texts = lines.map((l) => `${l.source}: ${l.line}`);
    for (const expected of [
      'system: container started',
      'container: Traceback (most recent call last):',
      "container: ModuleNotFoundError: No module named 'torch'",
      'system: container exited with code 1; restarting (attempt 1)',
      'system: container exited with code 1; restarting (attempt 2)',
    ])
      assert.ok(texts.includes(expected), `${expected} in:\n${texts.join('\n')}`);
    assert.ok(!texts.includes('container: Worker ready.'));
    // Restarts back off: 10 s of simulated time before the first.
    const backoff = tsOf(lines, /attempt 2\)$/) - tsOf(lines, /attempt 1\)$/);
    assert.ok(backoff >= 10_000 / TIME_SCALE, `restarted after ${backoff} ms`);

    // The old worker stays and serves every job; the unhealthy ones take none.
    for (let i = 0; i < 3; i++) {
      const job = await runSync(e, ep.id, { output: i });
      assert.equal(job.status, 'COMPLETED');
      assert.equal(job.workerId, old.id);
    }
    const list = await workers(e, ep.id);
    const stillOld = list.workers.find((w) => w.id === old.id);
    assert.ok(stillOld && ready(stillOld) && stillOld.isStale === true);
    assert.ok(list.summary.unhealthy >= 1);
    assert.equal(list.summary.unhealthy, list.workers.filter((w) => w.status === 'UNHEALTHY').length);
    const health = (await call<EndpointHealth>(e.jobsUrl, 'GET', `/v2/${ep.id}/health`)).body;
    assert.equal(health.workers.unhealthy, list.summary.unhealthy);
    const { rollout } = await releases(e, ep.id);
    assert.equal(rollout?.inProgress, true);
    assert.equal(rollout.workersOnLatest, list.workers.filter((w) => w.version === 2).length);
    assert.equal(rollout.workersTotal, list.workers.length);
    assert.ok(rollout.percentOnLatest !== undefined && rollout.percentOnLatest < 100, `${rollout.percentOnLatest} % on latest`);

    // A change that needs no restart reaches the new version's workers in place, not the old one.
    await patch(e, ep.id, { workers: { max: 3 } });
    const inPlace = await workers(e, ep.id);
    assert.equal(inPlace.workers.find((w) => w.id === old.id)?.version, 1);
    assert.ok(inPlace.workers.filter((w) => w.status === 'UNHEALTHY').every((w) => w.version === 3));

    // The rollback to a good image replaces the crash-looping workers and then the old one.
    await patch(e, ep.id, { image: 'example/worker:1.0' });
    const rolledBack = await workersWhen(
      e,
      ep.id,
      (now) => now.length === 1 && now[0].version === 4 && now[0].status === 'IDLE',
      'one idle worker of the rollback',
    );
    assert.equal(rolledBack[0].image, 'example/worker:1.0');
    await linesUntil(e, ep.id, crashing[0].id, /^worker stopped: replaced by release version 4 before it was ready$/);
    await linesUntil(e, ep.id, old.id, /^worker stopped: replaced by release version 4$/);
    assert.deepEqual((await releases(e, ep.id)).rollout, { inProgress: false, workersOnLatest: 1, workersTotal: 1, percentOnLatest: 100 });
  });
});

test('a crash-looping image with no older worker serves nothing: its jobs wait in the queue', async () => {
  await withEmulator({ timeScale: TIME_SCALE }, async (e) => {
    const ep = await create(e, gpuSpec({ image: 'example/worker:crashloop', workers: { min: 0, max: 1 } }));
    const job = await run(e, ep.id, { output: 1 });
    const [worker] = await workersWhen(e, ep.id, (list) => list.length === 1 && list[0].status === 'UNHEALTHY', 'an unhealthy worker');
    // It has started again since the job was queued, and crashed again, without taking the job.
    await linesUntil(e, ep.id, worker.id, /restarting \(attempt 2\)$/);
    assert.equal((await status(e, ep.id, job.id)).status, 'IN_QUEUE');
    const health = (await call<EndpointHealth>(e.jobsUrl, 'GET', `/v2/${ep.id}/health`)).body;
    assert.deepEqual([health.jobs.inQueue, health.workers.unhealthy, health.workers.idle], [1, 1, 0]);
  });
});

test('release diffs name fields as the service does (template.imageName, gpuCount, locations), with raw JSON values', async () => {
  await withEmulator({ timeScale: TIME_SCALE }, async (e) => {
    const ep = await create(e, gpuSpec({ env: { LOG_LEVEL: 'info' } }));
    await patch(e, ep.id, {
      image: 'example/worker:2.0',
      gpu: { count: 2 },
      dataCenterIds: ['EU-RO-1', 'US-TX-3'],
      workers: { max: 5 },
      env: { LOG_LEVEL: 'debug' },
      timeout: 60_000,
    });
    const [latest, first] = (await releases(e, ep.id)).releases;
    assert.deepEqual(first.diff, [], 'the first release has nothing to compare with');
    const byField = (diff: typeof latest.diff): typeof diff => [...diff].sort((a, b) => a.field.localeCompare(b.field));
    assert.deepEqual(
      byField(latest.diff),
      byField([
        { field: 'template.imageName', old: 'example/worker:1.0', new: 'example/worker:2.0' },
        { field: 'gpuCount', old: 1, new: 2 },
        { field: 'locations', old: [], new: ['EU-RO-1', 'US-TX-3'] },
        { field: 'workersMax', old: 3, new: 5 },
        { field: 'template.env', old: { LOG_LEVEL: 'info' }, new: { LOG_LEVEL: 'debug' } },
        { field: 'executionTimeoutMs', old: 300_000, new: 60_000 },
      ]),
    );
    // A scaler switch is one scalerValue entry, from the queue delay to the request count.
    await patch(e, ep.id, { scaling: { type: 'REQUEST_COUNT', requestCount: 3 } });
    const [switched] = (await releases(e, ep.id)).releases;
    assert.deepEqual(
      byField(switched.diff),
      byField([
        { field: 'scalerType', old: 'QUEUE_DELAY', new: 'REQUEST_COUNT' },
        { field: 'scalerValue', old: 4, new: 3 },
        { field: 'idleTimeout', old: 10, new: null },
      ]),
    );
  });
});
