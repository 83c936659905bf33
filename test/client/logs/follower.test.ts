/**
 * Following logs against the emulator: one worker, an endpoint's workers merged and tagged, a chosen
 * set of them, the source filter, a stream cut in the middle (a marker row, then the lines after the last one seen,
 * none lost or repeated), and stop/start resuming where it left off.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LogFollower, type FollowOptions, type LogTarget } from '../../../client/logs/follower';
import type { LogRow } from '../../../client/logs/model';
import type { ApiClient } from '../../../core/api';
import { eventually, gpuEndpoint, withEmulator } from '../../core/api/support';
import { startDropProxy } from './dropProxy';

function follow(api: ApiClient, target: LogTarget, options: Partial<FollowOptions> = {}): { follower: LogFollower; rows: LogRow[] } {
  const rows: LogRow[] = [];
  const follower = new LogFollower(
    api.serverless,
    target,
    { source: 'all', tail: 5000, workerPollMs: 200, reconnectDelayMs: 20, ...options },
    { onRow: (r) => rows.push(r) },
  );
  follower.start();
  return { follower, rows };
}

const texts = (rows: LogRow[]): string[] => rows.filter((r) => r.source !== 'marker').map((r) => r.text);

async function idleWorkers(api: ApiClient, endpointId: string, count: number): Promise<string[]> {
  return eventually(async () => {
    const idle = (await api.serverless.workers(endpointId)).workers.filter((w) => w.status === 'IDLE');
    return idle.length >= count ? idle.map((w) => w.id) : undefined;
  });
}

describe('LogFollower against the emulator', () => {
  it('merges all workers of an endpoint, each row tagged with its worker and source', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const endpoint = await api.serverless.create(gpuEndpoint({ workers: { min: 2, max: 2 } }));
      const workers = await idleWorkers(api, endpoint.id, 2);
      const { follower, rows } = follow(api, { endpointId: endpoint.id, endpointName: endpoint.name });
      try {
        await eventually(() => (workers.every((w) => rows.some((r) => r.worker === w && r.text === 'Worker ready.')) ? true : undefined));
        assert.ok(rows.some((r) => r.source === 'system') && rows.some((r) => r.source === 'container'));
        assert.deepEqual(
          rows.map((r) => r.seq),
          rows.map((_, i) => i + 1),
          'one order across workers',
        );
      } finally {
        follower.stop();
      }
    });
  });

  it('with a source filter, only that source; a single worker target, only that worker', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const endpoint = await api.serverless.create(gpuEndpoint({ workers: { min: 2, max: 2 } }));
      const [first] = await idleWorkers(api, endpoint.id, 2);
      const { follower, rows } = follow(
        api,
        { endpointId: endpoint.id, endpointName: endpoint.name, workerId: first },
        { source: 'system' },
      );
      try {
        await eventually(() => (rows.some((r) => r.text.startsWith('container started')) ? true : undefined));
        assert.ok(rows.every((r) => r.source === 'system' && r.worker === first));
      } finally {
        follower.stop();
      }
    });
  });

  it('a chosen set of workers: theirs merged and tagged, none of the others', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const endpoint = await api.serverless.create(gpuEndpoint({ workers: { min: 3, max: 3 } }));
      const [first, second, other] = await idleWorkers(api, endpoint.id, 3);
      const { follower, rows } = follow(api, { endpointId: endpoint.id, endpointName: endpoint.name, workerIds: [first, second] });
      try {
        await eventually(() =>
          [first, second].every((w) => rows.some((r) => r.worker === w && r.text === 'Worker ready.')) ? true : undefined,
        );
        assert.ok(!rows.some((r) => r.worker === other), 'no line of a worker not chosen');
      } finally {
        follower.stop();
      }
    });
  });

  it('after a stream is cut mid-way: a marker, then the rest with no line lost or repeated', async () => {
    await withEmulator({}, async (emu, client) => {
      const proxy = await startDropProxy(emu.restUrl);
      try {
        const api = client({ apiUrl: proxy.url });
        const endpoint = await api.serverless.create(gpuEndpoint({ workers: { min: 1, max: 1 } }));
        await idleWorkers(api, endpoint.id, 1);
        await api.jobs.runSync(endpoint.id, { input: { log: ['before-1', 'before-2'] } });
        const { follower, rows } = follow(api, { endpointId: endpoint.id, endpointName: endpoint.name });
        try {
          await eventually(() => (texts(rows).includes('before-2') ? true : undefined));
          assert.ok(proxy.dropAll() > 0);
          // Written while the stream is down: the resume must bring it.
          await client().jobs.runSync(endpoint.id, { input: { log: ['during-drop'] } });
          await eventually(() => (texts(rows).includes('during-drop') ? true : undefined));
          await api.jobs.runSync(endpoint.id, { input: { log: ['after-1'] } });
          await eventually(() => (texts(rows).includes('after-1') ? true : undefined));
          const markers = rows.filter((r) => r.source === 'marker');
          assert.ok(
            markers.some((m) => /stream dropped .*resuming after /.test(m.text)),
            markers.map((m) => m.text).join('\n'),
          );
          assert.ok(follower.reconnects >= 1);
          const ids = rows.filter((r) => r.source !== 'marker').map((r) => r.id);
          assert.equal(new Set(ids).size, ids.length, 'no line repeated');
          const whole = (await collectAll(client(), endpoint.id)).map((r) => r.id);
          assert.deepEqual(ids, whole.slice(0, ids.length), 'exactly the log, in order: nothing lost');
        } finally {
          follower.stop();
        }
      } finally {
        await proxy.close();
      }
    });
  });

  it('stop then start resumes after the last line delivered', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const endpoint = await api.serverless.create(gpuEndpoint({ workers: { min: 1, max: 1 } }));
      const [worker] = await idleWorkers(api, endpoint.id, 1);
      await api.jobs.runSync(endpoint.id, { input: { log: ['one'] } });
      const { follower, rows } = follow(api, { endpointId: endpoint.id, endpointName: endpoint.name, workerId: worker });
      await eventually(() => (texts(rows).includes('one') ? true : undefined));
      follower.stop();
      await api.jobs.runSync(endpoint.id, { input: { log: ['two'] } });
      follower.start();
      await eventually(() => (texts(rows).includes('two') ? true : undefined));
      follower.stop();
      const ids = rows.map((r) => r.id);
      assert.equal(new Set(ids).size, ids.length, 'nothing delivered twice');
      assert.equal(texts(rows).filter((t) => t === 'one').length, 1);
    });
  });
});

/** The whole log of the endpoint's single worker, read fresh. */
async function collectAll(api: ApiClient, endpointId: string): Promise<LogRow[]> {
  const [worker] = (await api.serverless.workers(endpointId)).workers;
  const rows: LogRow[] = [];
  const follower = new LogFollower(
    api.serverless,
    { endpointId, endpointName: '', workerId: worker.id },
    { source: 'all', tail: 5000 },
    { onRow: (r) => rows.push(r) },
  );
  follower.start();
  await eventually(() => (rows.some((r) => r.text === 'after-1') ? true : undefined));
  follower.stop();
  return rows;
}
