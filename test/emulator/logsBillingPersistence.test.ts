import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  BillingAmounts,
  BillingList,
  BillingRecord,
  NetworkVolumeBillingAmounts,
  NetworkVolumeBillingRecord,
  ServerlessBillingAmounts,
  ServerlessBillingRecord,
} from '../../core/api/billing';
import type { Endpoint, ReleaseList, Template } from '../../core/api/types';
import type { ProblemBody } from '../../emulator/http/problems';
import { call, create, eventually, gpuSpec, queueUrls, withEmulator, workers, KEY } from './helpers';

type AllBilling = BillingList<BillingRecord, BillingAmounts>;
type ServerlessBilling = BillingList<ServerlessBillingRecord, ServerlessBillingAmounts, { uniqueServerlessCount: number }>;
type NetworkVolumeBilling = BillingList<NetworkVolumeBillingRecord, NetworkVolumeBillingAmounts, { uniqueNetworkVolumeCount: number }>;

interface SseEvent {
  id: string;
  data: { ts: string; source: string; line: string };
}

/** Stops a read: after this many events, or once `until` holds for those read so far. */
type Enough = number | ((events: SseEvent[]) => boolean);

/**
 * Opens an SSE stream and resolves once the emulator has answered (it is then subscribed: a line written from here
 * on is sent). `read` takes events until `enough` says so (or none came for `quietMs`), then aborts the connection.
 */
async function openEvents(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ read(enough: Enough, quietMs?: number): Promise<SseEvent[]> }> {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { Authorization: `Bearer ${KEY}`, ...headers }, signal: controller.signal });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
  return { read: (enough, quietMs = 5000) => readOpened(res, controller, enough, quietMs) };
}

async function readOpened(res: Response, controller: AbortController, enough: Enough, quietMs: number): Promise<SseEvent[]> {
  const done = typeof enough === 'number' ? (events: SseEvent[]) => events.length >= enough : enough;
  const events: SseEvent[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  let timer = setTimeout(() => {
    controller.abort();
  }, quietMs);
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0 && !done(events)) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const id = /^id: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (id && data) {
          events.push({ id, data: JSON.parse(data) as SseEvent['data'] });
          clearTimeout(timer);
          timer = setTimeout(() => {
            controller.abort();
          }, quietMs);
        }
      }
      if (done(events)) break;
    }
  } catch (error) {
    if ((error as Error).name !== 'AbortError') throw error;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return events;
}

async function readEvents(url: string, enough: Enough, headers: Record<string, string> = {}): Promise<SseEvent[]> {
  return (await openEvents(url, headers)).read(enough);
}

test('worker logs stream as SSE, resume with Last-Event-ID without loss or repeat, and stay open', async () => {
  await withEmulator({ timeScale: 50 }, async (e) => {
    const ep = await create(e, gpuSpec({ workers: { min: 1, max: 1 } }));
    const worker = await eventually(async () => {
      const w = await workers(e, ep.id);
      return w.summary.idle === 1 ? w.workers[0] : undefined;
    });
    const url = `${e.restUrl}/v2/serverless/${ep.id}/workers/${worker.id}/logs`;
    const backfill = await readEvents(url, 5);
    assert.equal(backfill.length, 5);
    assert.match(backfill[0].id, /^\d{4}-\d\d-\d\dT[^/]+\/\d{12}$/);
    assert.ok(backfill.some((ev) => ev.data.line === 'Worker ready.' && ev.data.source === 'container'));
    // Lines written while disconnected arrive after the resume, each exactly once, in order.
    const job = (await call<{ id: string }>(e.jobsUrl, 'POST', `/v2/${ep.id}/runsync`, { input: { log: ['one', 'two', 'three'] } })).body;
    // The job's last line is the log's last: the worker stays idle after it.
    const isLast = (events: SseEvent[]): boolean => events.some((ev) => ev.data.line.startsWith(`job ${job.id} completed`));
    const total = (await readEvents(`${url}?tail=5000`, isLast)).length;
    const resumed = await readEvents(`${url}?tail=0`, isLast, { 'Last-Event-ID': backfill[1].id });
    assert.equal(resumed.length, total - 2, 'every line after the last one seen');
    const lines = resumed.map((ev) => ev.data.line);
    assert.deepEqual(
      resumed.map((ev) => ev.id),
      [...new Set(resumed.map((ev) => ev.id))],
      'no repeats',
    );
    assert.equal(lines[0], backfill[2].data.line, 'continues right after the last event seen');
    assert.ok(lines.indexOf('one') < lines.indexOf('two') && lines.indexOf('two') < lines.indexOf('three'));
    // The stream stays open and delivers new lines live.
    const live = await openEvents(`${url}?tail=0&source=container`);
    await call(e.jobsUrl, 'POST', `/v2/${ep.id}/runsync`, { input: { log: ['live line'] } });
    const liveEvents = await live.read(2);
    assert.ok(liveEvents.every((ev) => ev.data.source === 'container'));
    assert.ok(liveEvents.some((ev) => ev.data.line === 'live line'));
    const system = await readEvents(`${url}?source=system&tail=2`, 2);
    assert.equal(system.length, 2);
    assert.ok(system.every((ev) => ev.data.source === 'system'));
    assert.equal((await call(e.restUrl, 'GET', `/v2/serverless/${ep.id}/workers/nosuchworker/logs`)).status, 404);
    assert.equal((await call(e.restUrl, 'GET', `/v2/serverless/${ep.id}/workers/${worker.id}/logs?tail=9999`)).status, 400);
  });
});

test('billing windows align to bucket boundaries; lastN ends with the current bucket', async () => {
  // The emulator's time stands still within an hour, so the current bucket is known.
  await withEmulator({ clock: () => Date.parse('2026-05-20T10:30:00Z') }, async (e) => {
    const day = await call<ServerlessBilling>(
      e.restUrl,
      'GET',
      '/v2/billing/serverless?bucketSize=day&startTime=2026-05-03T13:45:00Z&endTime=2026-05-05T01:00:00Z',
    );
    assert.equal(day.status, 200);
    assert.deepEqual(day.body.metadata.query, {
      startTime: '2026-05-03T00:00:00Z',
      endTime: '2026-05-06T00:00:00Z',
      bucketSize: 'day',
      serverlessId: null,
      grouping: 'endpointId',
    });
    const onBoundary = await call<AllBilling>(
      e.restUrl,
      'GET',
      '/v2/billing?bucketSize=day&startTime=2026-05-01T00:00:00Z&endTime=2026-05-03T00:00:00Z',
    );
    assert.equal(onBoundary.body.metadata.query.endTime, '2026-05-03T00:00:00Z');
    assert.equal(onBoundary.body.records.length, 2);
    assert.deepEqual(
      onBoundary.body.records.map((r) => r.startTime),
      ['2026-05-01T00:00:00Z', '2026-05-02T00:00:00Z'],
    );
    const week = await call<AllBilling>(
      e.restUrl,
      'GET',
      '/v2/billing?bucketSize=week&startTime=2026-05-07T10:00:00Z&endTime=2026-05-08T00:00:00Z',
    );
    assert.equal(week.body.metadata.query.startTime, '2026-05-04T00:00:00Z', 'weeks start on Monday');
    assert.equal(week.body.metadata.query.endTime, '2026-05-11T00:00:00Z');
    const month = await call<NetworkVolumeBilling>(
      e.restUrl,
      'GET',
      '/v2/billing/network-volumes?bucketSize=month&startTime=2026-02-10T00:00:00Z&endTime=2026-03-02T00:00:00Z',
    );
    assert.equal(month.body.metadata.query.startTime, '2026-02-01T00:00:00Z');
    assert.equal(month.body.metadata.query.endTime, '2026-04-01T00:00:00Z');
    const lastN = await call<AllBilling>(e.restUrl, 'GET', '/v2/billing?bucketSize=hour&lastN=3');
    assert.equal(lastN.body.records.length, 3);
    assert.deepEqual(
      [lastN.body.metadata.query.startTime, lastN.body.metadata.query.endTime],
      ['2026-05-20T08:00:00Z', '2026-05-20T11:00:00Z'],
    );
    assert.equal((await call(e.restUrl, 'GET', '/v2/billing?lastN=2&startTime=2026-05-01T00:00:00Z')).status, 400);
    assert.equal((await call(e.restUrl, 'GET', '/v2/billing?bucketSize=minute')).status, 400);
    assert.equal((await call(e.restUrl, 'GET', '/v2/billing?startTime=yesterday')).status, 400);
  });
});

test('billing windows hold at most 10000 buckets and answers at most 100000 records, one per bucket and group', async () => {
  await withEmulator({ timeScale: 200 }, async (e) => {
    const detail = async (path: string): Promise<string> => {
      const answer = await call<ProblemBody>(e.restUrl, 'GET', path);
      assert.equal(answer.status, 400, path);
      return answer.body.detail;
    };
    assert.equal((await call(e.restUrl, 'GET', '/v2/billing/pods?bucketSize=hour&lastN=10000')).status, 200, 'lastN at the limit');
    assert.equal(await detail('/v2/billing?bucketSize=hour&lastN=10001'), 'lastN must be an integer from 1 to 10000; got: "10001"');
    assert.equal(
      await detail('/v2/billing/network-volumes?bucketSize=hour&startTime=1970-01-01T00:00:00Z'),
      'the window spans more than 10000 hour buckets; choose a larger bucketSize or a shorter window',
    );
    // Records are buckets times groups: eleven workers with spend make 10000 hourly buckets too many.
    const ep = await create(e, gpuSpec({ workers: { min: 11, max: 11 } }));
    await eventually(async () => {
      const bill = await call<ServerlessBilling>(e.restUrl, 'GET', '/v2/billing/serverless?bucketSize=hour&lastN=1&grouping=podId');
      return bill.body.records.length === 11 ? true : undefined;
    });
    assert.equal(
      await detail('/v2/billing/serverless?bucketSize=hour&lastN=10000&grouping=podId'),
      'the answer would hold 110000 records (10000 hour buckets for each of 11 podIds); the emulator answers at most 100000: choose a larger bucketSize, a shorter window or a filter',
    );
    const byEndpoint = await call<ServerlessBilling>(
      e.restUrl,
      'GET',
      `/v2/billing/serverless?bucketSize=hour&lastN=10000&serverlessId=${ep.id}`,
    );
    assert.equal(byEndpoint.status, 200);
    assert.equal(byEndpoint.body.records.length, 10000);
  });
});

test('billing accrues from worker time and the catalog price', async () => {
  // The emulator's clock moves only when the test moves it, so the worker's billed time is known to the millisecond.
  let clock = Date.now();
  const billedMs = 1500;
  await withEmulator({ timeScale: 200, clock: () => clock }, async (e) => {
    const ep = await create(e, gpuSpec({ workers: { min: 1 } }));
    // Placed (billed from here on) but, with no time passing, not yet booted.
    await eventually(async () => ((await workers(e, ep.id)).workers.some((w) => w.status === 'INITIALIZING') ? true : undefined));
    clock += billedMs;
    // The step that saw the clock move billed it and booted the worker; the clock stands still from here.
    await eventually(async () => ((await workers(e, ep.id)).summary.idle === 1 ? true : undefined));
    const bill = (await call<ServerlessBilling>(e.restUrl, 'GET', `/v2/billing/serverless?bucketSize=hour&lastN=2&serverlessId=${ep.id}`))
      .body;
    const gpu = bill.metadata.totals.gpuAmount;
    // RTX 4090 at 0.69 USD/hour, a worker billed for 1.5 s x 200 = 300 simulated seconds.
    assert.ok(Math.abs(gpu - 0.69 * (((billedMs / 1000) * 200) / 3600)) < 1e-6, `gpu amount ${gpu}`);
    assert.equal(bill.metadata.uniqueServerlessCount, 1);
    assert.ok(bill.records.every((r) => r.serverlessId === ep.id));
    const byGpu = (await call<ServerlessBilling>(e.restUrl, 'GET', '/v2/billing/serverless?bucketSize=day&lastN=1&grouping=gpuId')).body;
    assert.equal(byGpu.records[0].gpuId, 'NVIDIA GeForce RTX 4090');
    const all = (await call<AllBilling>(e.restUrl, 'GET', '/v2/billing?bucketSize=day&lastN=1')).body;
    assert.ok(all.records[0].serverlessGpuAmount > 0);
  });
});

test('state persists across a restart, written atomically', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'es-emulator-'));
  const statePath = join(dir, 'not-yet-created', 'state.json');
  try {
    let id = '';
    await withEmulator({ statePath }, async (e) => {
      id = (await create(e, gpuSpec())).id;
      await call(e.restUrl, 'PATCH', `/v2/serverless/${id}`, { name: 'kept' });
      await call(e.restUrl, 'POST', '/v2/templates', { name: 't', image: 'i:1', serverless: true });
    });
    const saved = JSON.parse(readFileSync(statePath, 'utf8')) as { formatVersion?: unknown };
    assert.equal(saved.formatVersion, 1);
    await withEmulator({ statePath, seed: 8 }, async (e) => {
      const ep = await call<Endpoint>(e.restUrl, 'GET', `/v2/serverless/${id}`);
      assert.equal(ep.status, 200);
      assert.equal(ep.body.name, 'kept');
      assert.ok(queueUrls(ep.body).run.startsWith(e.jobsUrl), 'request URLs follow the new jobs port');
      assert.equal((await call<ReleaseList>(e.restUrl, 'GET', `/v2/serverless/${id}/releases`)).body.endpointVersion, 2);
      assert.equal((await call<{ templates: Template[] }>(e.restUrl, 'GET', '/v2/templates')).body.templates.length, 1);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
