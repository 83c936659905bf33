/**
 * Watching a rollout: progress from one read (pure, over records as core/api reads them), the quota
 * budget between polls, and the whole watch against the emulator over HTTP: an image change rolls
 * out to done, a crash-looping image fails naming its workers, a GPU pool with no stock stalls naming
 * the throttled workers, an aborted watch is dismissed, a deleted endpoint fails, and a key near its
 * quota makes the watch wait for the window instead of polling on.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readReleaseList, readWorkerList } from '../../../core/api/records';
import type { ApiClient, Endpoint, RateLimitSnapshot } from '../../../core/api';
import { budgetDelayMs, readRollout, rolloutProgress, watchRollout, type RolloutProgress } from '../../../core/operations';
import { eventually, gpuEndpoint, withEmulator } from '../api/support';

const list = (workers: unknown[], endpointVersion?: number): ReturnType<typeof readWorkerList> =>
  readWorkerList({ workers, ...(endpointVersion !== undefined ? { endpointVersion } : {}) });
const releases = (endpointVersion?: number, versions: number[] = []): ReturnType<typeof readReleaseList> =>
  readReleaseList({
    ...(endpointVersion !== undefined ? { endpointVersion } : {}),
    releases: versions.map((version) => ({ version, diff: [] })),
  });

describe('rolloutProgress', () => {
  it('counts the latest release ready, starting, unhealthy and the older ones draining', () => {
    const p = rolloutProgress(
      'ep1',
      releases(7, [7, 6]),
      list([
        { id: 'a', status: 'IDLE', version: 7 },
        { id: 'b', status: 'RUNNING', version: 7 },
        { id: 'c', status: 'RUNNING', version: 7 },
        { id: 'd', status: 'RUNNING', version: 6 },
        { id: 'e', status: 'RUNNING', version: 6 },
      ]),
    );
    assert.equal(p.text, 'release 7: 3 of 5 workers on it, 2 draining');
    assert.deepEqual([p.version, p.ready, p.starting, p.stale, p.draining, p.total, p.done], [7, 3, 0, 2, 2, 5, false]);
  });

  it('names unhealthy and starting workers and older ones not busy', () => {
    const p = rolloutProgress(
      'ep1',
      releases(3),
      list([
        { id: 'a', status: 'UNHEALTHY', version: 3 },
        { id: 'b', status: 'INITIALIZING', version: 3 },
        { id: 'c', status: 'THROTTLED', version: 3 },
        { id: 'd', status: 'IDLE', version: 2 },
      ]),
    );
    assert.equal(p.text, 'release 3: 0 of 4 workers on it, 1 on an older release, 1 unhealthy, 2 starting');
    assert.deepEqual(
      p.unhealthy.map((w) => w.id),
      ['a'],
    );
    assert.equal(p.done, false);
  });

  it('is done at once with no workers at all', () => {
    const p = rolloutProgress('ep1', releases(4), list([]));
    assert.equal(p.done, true);
    assert.equal(p.text, 'release 4: no workers (none needed)');
  });

  it('is not done while workers the endpoint keeps running are yet to start', () => {
    const none = rolloutProgress('ep1', releases(1), list([]), 2);
    assert.equal(none.done, false);
    assert.equal(none.text, 'release 1: no workers yet (2 wanted)');
    const one = rolloutProgress(
      'ep1',
      releases(2),
      list([
        { id: 'a', status: 'IDLE', version: 2 },
        { id: 'b', status: 'IDLE', version: 1 },
      ]),
      2,
    );
    assert.equal(one.done, false);
    assert.equal(one.text, 'release 2: 1 of 2 workers on it, 1 on an older release, 1 yet to start');
  });

  it('is done when every worker is on the latest release and ready', () => {
    const p = rolloutProgress('ep1', releases(2), list([{ id: 'a', status: 'IDLE', version: 2 }]));
    assert.equal(p.done, true);
    assert.equal(p.text, 'release 2: 1 of 1 worker on it');
  });

  it('never counts a worker of unknown release or state as on the latest and ready', () => {
    const p = rolloutProgress(
      'ep1',
      releases(),
      list([
        { id: 'a', status: 'IDLE' },
        { id: 'b', status: 'SLEEPING', isStale: false },
      ]),
    );
    assert.equal(p.version, undefined);
    assert.equal(p.ready, 0);
    assert.equal(p.done, false);
    assert.equal(p.text, 'release ?: 0 of 2 workers on it, 1 in an unknown state, 1 on an unknown release');
  });

  it('takes the service isStale when versions are unknown, and the later of two versions read', () => {
    const byFlag = rolloutProgress(
      'ep1',
      releases(),
      list([
        { id: 'a', status: 'RUNNING', isStale: true },
        { id: 'b', status: 'IDLE', isStale: false },
      ]),
    );
    assert.deepEqual([byFlag.ready, byFlag.stale, byFlag.draining], [1, 1, 1]);
    const later = rolloutProgress('ep1', releases(5), list([{ id: 'a', status: 'IDLE', version: 5 }], 6));
    assert.equal(later.version, 6);
    assert.equal(later.stale, 1);
    const listed = rolloutProgress('ep1', releases(undefined, [9, 8]), list([{ id: 'a', status: 'IDLE', version: 9 }]));
    assert.equal(listed.version, 9);
  });
});

describe('budgetDelayMs', () => {
  const snapshot = (remaining: number, quota: number, resetSeconds: number): RateLimitSnapshot => ({
    windows: [{ name: 'minute', remaining, quota, resetSeconds, windowSeconds: 60 }],
    observedAt: 1000,
  });

  it('polls freely without quota headers or with a wide budget', () => {
    assert.equal(budgetDelayMs(undefined, 1000), 0);
    assert.equal(budgetDelayMs(snapshot(590, 600, 30), 1000), Math.ceil(30_000 / 265));
  });

  it('waits for the reset when the remaining quota is within the reserve', () => {
    assert.equal(budgetDelayMs(snapshot(3, 600, 20), 1000), 20_000);
    assert.equal(budgetDelayMs(snapshot(59, 600, 20), 6000), 15_000);
  });

  it('waits nothing once the window has reset, and the longest poll without a reset time', () => {
    assert.equal(budgetDelayMs(snapshot(0, 600, 2), 4000), 0);
    assert.equal(budgetDelayMs({ windows: [{ name: 'day', remaining: 1 }], observedAt: 0 }, 0), 15_000);
  });
});

async function readyEndpoint(api: ApiClient, extra: Parameters<typeof gpuEndpoint>[0] = {}): Promise<Endpoint> {
  const endpoint = await api.serverless.create(gpuEndpoint({ workers: { min: 2, max: 2, idleTimeout: 600 }, ...extra }));
  await eventually(async () => ((await readRollout(api, endpoint.id)).done ? true : undefined));
  return endpoint;
}

describe('watchRollout against the emulator', () => {
  it('follows an image change to done, reporting rising numbers', async () => {
    await withEmulator({}, async (_emu, api) => {
      const client = api();
      const endpoint = await readyEndpoint(client);
      await client.serverless.update(endpoint.id, { image: 'example/worker:2.0' });
      const seen: RolloutProgress[] = [];
      const outcome = await watchRollout({ client, endpointId: endpoint.id, pollMs: 20, onProgress: (p) => seen.push(p) });
      assert.equal(outcome.kind, 'done', JSON.stringify(outcome));
      assert.equal(outcome.progress.version, 2);
      assert.equal(outcome.progress.ready, 2);
      assert.match(outcome.progress.text, /^release 2: 2 of 2 workers on it$/);
      assert.ok(seen.length >= 2, 'progress reported more than once');
      assert.equal(seen[0].ready, 0, 'no worker of the new release is ready at first');
      for (let i = 1; i < seen.length; i++) assert.ok(seen[i].ready >= seen[i - 1].ready, 'ready never goes down');
      const workers = await client.serverless.workers(endpoint.id);
      assert.ok(workers.workers.every((w) => w.image === 'example/worker:2.0'));
    });
  });

  it('fails a crash-looping image, naming its unhealthy workers', async () => {
    await withEmulator({}, async (_emu, api) => {
      const client = api();
      const endpoint = await readyEndpoint(client);
      await client.serverless.update(endpoint.id, { image: 'example/crashloop:2.0' });
      const outcome = await watchRollout({ client, endpointId: endpoint.id, pollMs: 20, failAfterMs: 300, stallAfterMs: 60_000 });
      assert.equal(outcome.kind, 'failed', JSON.stringify(outcome));
      assert.ok(outcome.culprits.length > 0);
      assert.ok(outcome.culprits.every((w) => w.status === 'UNHEALTHY' && w.version === 2));
      for (const worker of outcome.culprits) assert.ok(outcome.message.includes(worker.id), outcome.message);
      assert.match(outcome.message, /every worker on release 2 has been unhealthy/);
    });
  });

  it('stalls on a GPU pool with no stock, naming the throttled workers', async () => {
    await withEmulator({}, async (_emu, api) => {
      const client = api();
      const endpoint = await readyEndpoint(client);
      await client.serverless.update(endpoint.id, { gpu: { pools: ['HOPPER_141'] } });
      const outcome = await watchRollout({ client, endpointId: endpoint.id, pollMs: 20, stallAfterMs: 400 });
      assert.equal(outcome.kind, 'stalled', JSON.stringify(outcome));
      assert.equal(outcome.culprits.length, 2);
      assert.ok(outcome.culprits.every((w) => w.status === 'THROTTLED'));
      // The old release's workers stand in meanwhile; how many the service keeps is its own affair.
      assert.match(outcome.message, /^no progress for [\d.]+ s \(release 2: 0 of \d workers on it, (.+, )?2 starting\); held up by /);
      assert.ok(outcome.elapsedMs >= 400);
    });
  });

  it('is dismissed when the signal fires, and fails when the endpoint is deleted', async () => {
    await withEmulator({}, async (_emu, api) => {
      const client = api();
      const endpoint = await client.serverless.create(gpuEndpoint({ gpu: { pools: ['HOPPER_141'] }, workers: { min: 1, max: 1 } }));
      const controller = new AbortController();
      setTimeout(() => {
        controller.abort();
      }, 150);
      const dismissed = await watchRollout({ client, endpointId: endpoint.id, pollMs: 20, signal: controller.signal });
      assert.equal(dismissed.kind, 'dismissed');
      assert.ok(dismissed.elapsedMs < 2000);
      const already = await watchRollout({ client, endpointId: endpoint.id, signal: controller.signal });
      assert.deepEqual(already, { kind: 'dismissed', elapsedMs: already.elapsedMs });

      await client.serverless.delete(endpoint.id);
      const gone = await watchRollout({ client, endpointId: endpoint.id, pollMs: 20 });
      assert.equal(gone.kind, 'failed');
      assert.equal(gone.message, `endpoint ${endpoint.id} no longer exists`);
    });
  });

  it('waits for the quota window instead of polling on when the budget is spent', async () => {
    await withEmulator({ rateLimits: { minute: 14, hour: 1000, day: 10_000 } }, async (_emu, api) => {
      const requests: string[] = [];
      const client = api({ log: (entry) => requests.push(`${entry.method} ${entry.url}`) });
      const endpoint = await client.serverless.create(gpuEndpoint({ gpu: { pools: ['HOPPER_141'] }, workers: { min: 1, max: 1 } }));
      const before = requests.length;
      const controller = new AbortController();
      setTimeout(() => {
        controller.abort();
      }, 800);
      const outcome = await watchRollout({ client, endpointId: endpoint.id, pollMs: 10, signal: controller.signal });
      assert.equal(outcome.kind, 'dismissed');
      const polled = requests.length - before;
      // 14 a minute, one used by the create, 4 kept in reserve: at most 4 polls of two reads.
      assert.ok(polled <= 10, `${polled} requests in 800 ms`);
      assert.ok(polled >= 2);
      const remaining = client.rateLimit?.windows.find((w) => w.name === 'minute')?.remaining ?? 0;
      assert.ok(remaining >= 3, `left ${remaining} of the minute's quota`);
    });
  });
});
