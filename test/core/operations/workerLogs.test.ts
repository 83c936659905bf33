/**
 * `readWorkerLogs` and `followWorkerLogs` against the emulator over HTTP: a bounded snapshot of one
 * worker and of an endpoint's workers merged (the newest N lines, whether older ones exist), the
 * source filter, refusals as results; live following with new lines, statuses, and a resume from
 * the cursors of an earlier follow that neither loses nor repeats a line.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiClient } from '../../../core/api';
import { followWorkerLogs, readWorkerLogs, type FollowStatus, type WorkerLogLine } from '../../../core/operations';
import { eventually, gpuEndpoint, withEmulator } from '../api/support';

async function idleWorkers(api: ApiClient, endpointId: string, count: number): Promise<string[]> {
  return eventually(async () => {
    const idle = (await api.serverless.workers(endpointId)).workers.filter((w) => w.status === 'IDLE');
    return idle.length >= count ? idle.map((w) => w.id) : undefined;
  });
}

const texts = (lines: readonly WorkerLogLine[]): string[] => lines.map((l) => l.line);
/** The lines the test's own jobs wrote, leaving out the worker's own (`job … started` and the like). */
const written = (lines: readonly WorkerLogLine[]): string[] => texts(lines).filter((t) => /^(live-\d|while-away)$/.test(t));

describe('readWorkerLogs', () => {
  it('one worker: the last N lines in order, said to be cut when older ones exist, and the whole log when it fits', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const endpoint = await api.serverless.create(gpuEndpoint({ workers: { min: 1, max: 1 } }));
      const [worker] = await idleWorkers(api, endpoint.id, 1);
      await api.jobs.runSync(endpoint.id, { input: { log: ['one', 'two', 'three', 'four'] } });
      const last = await readWorkerLogs(api, { endpointId: endpoint.id, workerId: worker, lines: 3, source: 'container' });
      assert.ok(last.ok, JSON.stringify(last));
      assert.deepEqual(last.workers, [worker]);
      assert.equal(last.lines.length, 3);
      assert.ok(last.truncated, 'older lines exist');
      assert.ok(last.lines.every((l) => l.workerId === worker && l.source === 'container' && l.id !== ''));
      const whole = await readWorkerLogs(api, { endpointId: endpoint.id, workerId: worker, lines: 5000 });
      assert.ok(whole.ok);
      assert.equal(whole.truncated, false, 'everything fits');
      assert.deepEqual(texts(last.lines), texts(whole.lines.filter((l) => l.source === 'container')).slice(-3));
      assert.ok(texts(whole.lines).includes('one') && texts(whole.lines).includes('four'));
      assert.ok(
        whole.lines.some((l) => l.source === 'system'),
        'both sources without a filter',
      );
      const ids = whole.lines.map((l) => l.id);
      assert.deepEqual(ids, [...ids].sort(), 'oldest first');
    });
  });

  it('an endpoint: every worker read and merged in time order, cut to the newest N', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const endpoint = await api.serverless.create(gpuEndpoint({ workers: { min: 2, max: 2 } }));
      const workers = await idleWorkers(api, endpoint.id, 2);
      const all = await readWorkerLogs(api, { endpointId: endpoint.id, lines: 5000 });
      assert.ok(all.ok, JSON.stringify(all));
      assert.deepEqual([...all.workers].sort(), [...workers].sort());
      assert.deepEqual(all.failures, []);
      for (const w of workers)
        assert.ok(
          all.lines.some((l) => l.workerId === w && l.line === 'Worker ready.'),
          w,
        );
      const times = all.lines.map((l) => l.ts);
      assert.deepEqual(times, [...times].sort(), 'one time order across workers');
      const few = await readWorkerLogs(api, { endpointId: endpoint.id, lines: 2 });
      assert.ok(few.ok);
      assert.equal(few.lines.length, 2);
      assert.ok(few.truncated);
      assert.deepEqual(
        few.lines.map((l) => l.id),
        all.lines.slice(-2).map((l) => l.id),
      );
    });
  });

  it('refusals come back as results: an unknown worker or endpoint, a line count out of range', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const endpoint = await api.serverless.create(gpuEndpoint({ workers: { min: 0, max: 0 } }));
      const noWorker = await readWorkerLogs(api, { endpointId: endpoint.id, workerId: 'nosuch', lines: 10 });
      assert.ok(!noWorker.ok);
      assert.equal(noWorker.notFound, true);
      const noEndpoint = await readWorkerLogs(api, { endpointId: 'nosuch', lines: 10 });
      assert.ok(!noEndpoint.ok);
      assert.equal(noEndpoint.notFound, true);
      const tooMany = await readWorkerLogs(api, { endpointId: endpoint.id, lines: 5001 });
      assert.ok(!tooMany.ok);
      assert.match(tooMany.message, /lines must be a whole number from 1 to 5000/);
      const none = await readWorkerLogs(api, { endpointId: endpoint.id, lines: 10 });
      assert.ok(none.ok);
      assert.deepEqual(none.workers, []);
      assert.deepEqual(none.lines, []);
      assert.equal(none.truncated, false);
    });
  });
});

describe('followWorkerLogs', () => {
  it('delivers new lines as they are written, and a second follow with the same cursors resumes after the last one', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const endpoint = await api.serverless.create(gpuEndpoint({ workers: { min: 1, max: 1 } }));
      const [worker] = await idleWorkers(api, endpoint.id, 1);
      const cursors = new Map<string, string>();
      const lines: WorkerLogLine[] = [];
      const statuses: FollowStatus[] = [];
      const first = new AbortController();
      const done = followWorkerLogs(
        api,
        { endpointId: endpoint.id, source: 'container', tail: 0, cursors, workerPollMs: 100 },
        { signal: first.signal, onLines: (l) => lines.push(...l), onStatus: (s) => statuses.push(s) },
      );
      await eventually(() => (statuses.some((s) => s.kind === 'following' && s.workerId === worker) ? true : undefined));
      await api.jobs.runSync(endpoint.id, { input: { log: ['live-1', 'live-2'] } });
      await eventually(() => (texts(lines).includes('live-2') ? true : undefined));
      first.abort();
      await done;
      assert.deepEqual(written(lines), ['live-1', 'live-2']);
      assert.ok(!texts(lines).includes('Worker ready.'), 'tail 0: nothing written before the follow');
      assert.equal(cursors.get(worker), lines.at(-1)?.id);

      await api.jobs.runSync(endpoint.id, { input: { log: ['while-away'] } });
      const second = new AbortController();
      const resumed = followWorkerLogs(
        api,
        { endpointId: endpoint.id, workerId: worker, source: 'container', tail: 5000, cursors },
        { signal: second.signal, onLines: (l) => lines.push(...l) },
      );
      await eventually(() => (texts(lines).includes('while-away') ? true : undefined));
      second.abort();
      await resumed;
      assert.deepEqual(written(lines), ['live-1', 'live-2', 'while-away'], 'nothing lost or repeated, despite tail 5000');
      const ids = lines.map((l) => l.id);
      assert.equal(new Set(ids).size, ids.length, 'no line delivered twice');
      assert.ok(!texts(lines).includes('Worker ready.'), 'the resume started after the cursor, not from the backfill');
    });
  });

  it('an endpoint without workers says it waits, then follows the worker that starts', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const endpoint = await api.serverless.create(gpuEndpoint({ workers: { min: 0, max: 1 } }));
      const statuses: FollowStatus[] = [];
      const lines: WorkerLogLine[] = [];
      const controller = new AbortController();
      const done = followWorkerLogs(
        api,
        { endpointId: endpoint.id, workerPollMs: 100 },
        { signal: controller.signal, onLines: (l) => lines.push(...l), onStatus: (s) => statuses.push(s) },
      );
      try {
        await eventually(() => (statuses.some((s) => s.kind === 'waiting') ? true : undefined));
        await api.serverless.update(endpoint.id, { workers: { min: 1, max: 1 } });
        const [worker] = await idleWorkers(api, endpoint.id, 1);
        await eventually(() => (lines.some((l) => l.workerId === worker && l.line === 'Worker ready.') ? true : undefined));
      } finally {
        controller.abort();
        await done;
      }
    });
  });

  it('a single unknown worker ends with a status and the follow resolves', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const endpoint = await api.serverless.create(gpuEndpoint({ workers: { min: 0, max: 0 } }));
      const statuses: FollowStatus[] = [];
      await followWorkerLogs(
        api,
        { endpointId: endpoint.id, workerId: 'nosuch' },
        { signal: new AbortController().signal, onLines: () => undefined, onStatus: (s) => statuses.push(s) },
      );
      const ended = statuses.find((s): s is Extract<FollowStatus, { kind: 'ended' }> => s.kind === 'ended');
      assert.ok(ended);
      assert.equal(ended.workerId, 'nosuch');
      assert.match(ended.message, /^stream ended: /);
    });
  });
});
