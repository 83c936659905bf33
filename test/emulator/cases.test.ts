/**
 * The cases a deploy meets on the service, caused on purpose over HTTP: a GPU pool and a CPU
 * flavor without serverless stock (workers wait THROTTLED, and the catalog's three stock answers
 * say so), a pool the emulator's own workers fill, an image that boots slowly and one that
 * crash-loops. The boot and crash timelines run on a clock the test moves, so every time is known.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CpuType, DataCenter, GpuType, Job, WorkerLogEvent, WorkerSummary } from '../../core/api/types';
import type { RunningEmulator } from '../../emulator/index';
import { slowBootMs } from '../../emulator/simulation/slowBoot';
import { call, cpuSpec, create, eventually, gpuSpec, logLines, withEmulator } from './helpers';

async function gpuStock(e: RunningEmulator): Promise<GpuType[]> {
  return (await call<{ gpus: GpuType[] }>(e.restUrl, 'GET', '/v2/catalog/gpus?include=AVAILABILITY&product=SERVERLESS')).body.gpus;
}

async function cpuStock(e: RunningEmulator): Promise<CpuType[]> {
  return (await call<{ cpus: CpuType[] }>(e.restUrl, 'GET', '/v2/catalog/cpus?include=AVAILABILITY&product=SERVERLESS')).body.cpus;
}

async function dataCenters(e: RunningEmulator): Promise<DataCenter[]> {
  const path = '/v2/catalog/datacenters?include=GPU_AVAILABILITY,CPU_AVAILABILITY';
  return (await call<{ dataCenters: DataCenter[] }>(e.restUrl, 'GET', path)).body.dataCenters;
}

/** A worker record as the OpenAPI snapshot has it: placement and times are null until they happen. */
interface WorkerRecord {
  id: string;
  status: string;
  gpuTypeId: string | null;
  dataCenterId: string | null;
  startedAt: string | null;
  uptimeSeconds: number | null;
}

async function workers(e: RunningEmulator, id: string): Promise<{ workers: WorkerRecord[]; summary: WorkerSummary }> {
  return (await call<{ workers: WorkerRecord[]; summary: WorkerSummary }>(e.restUrl, 'GET', `/v2/serverless/${id}/workers`)).body;
}

/** The endpoint's workers once `check` holds for them. */
async function workersWhen(
  e: RunningEmulator,
  id: string,
  check: (list: WorkerRecord[]) => boolean,
  what: string,
): Promise<WorkerRecord[]> {
  return eventually(
    async () => {
      const list = (await workers(e, id)).workers;
      return check(list) ? list : undefined;
    },
    10_000,
    what,
  );
}

async function linesUntil(e: RunningEmulator, endpointId: string, workerId: string, last: RegExp): Promise<WorkerLogEvent[]> {
  const lines = await logLines(e, endpointId, workerId, (seen) => seen.some((l) => last.test(l.line)));
  assert.ok(
    lines.some((l) => last.test(l.line)),
    `${String(last)} in:\n${lines.map((l) => l.line).join('\n')}`,
  );
  return lines;
}

const tsOf = (lines: readonly WorkerLogEvent[], pattern: RegExp): string | undefined => lines.find((l) => pattern.test(l.line))?.ts;

test('a GPU pool and a CPU flavor without serverless stock: workers wait THROTTLED and every stock answer says none', async () => {
  await withEmulator({}, async (e) => {
    const gpu = await create(e, gpuSpec({ name: 'h200', gpu: { pools: ['HOPPER_141'] }, workers: { min: 2, max: 2 } }));
    const cpu = await create(e, cpuSpec({ name: 'memory', cpu: [{ id: 'cpu5m', vcpuCount: 4 }], workers: { min: 1, max: 1 } }));
    for (const [endpoint, count] of [
      [gpu, 2],
      [cpu, 1],
    ] as const) {
      const waiting = await workersWhen(e, endpoint.id, (list) => list.length === count, `${count} workers of ${endpoint.name}`);
      assert.deepEqual(
        waiting.map((w) => [w.status, w.gpuTypeId, w.dataCenterId, w.startedAt, w.uptimeSeconds]),
        waiting.map(() => ['THROTTLED', null, null, null, null]),
      );
      const lines = await linesUntil(e, endpoint.id, waiting[0].id, /^throttled: /);
      const what = endpoint === gpu ? 'GPU pools HOPPER_141' : 'CPU flavors cpu5m';
      assert.ok(lines.some((l) => l.line === `throttled: no free capacity for ${what} in any data center; waiting`));
    }
    const summary = (await workers(e, gpu.id)).summary;
    assert.deepEqual([summary.throttled, summary.total], [2, 2]);

    const h200 = (await gpuStock(e)).filter((g) => g.pool === 'HOPPER_141');
    assert.deepEqual(
      h200.map((g) => [g.id, g.availability, g.dataCenters]),
      [['NVIDIA H200', 'NONE', []]],
    );
    const flavor = (await cpuStock(e)).find((c) => c.id === 'cpu5m');
    assert.deepEqual([flavor?.availability, flavor?.dataCenters], ['NONE', []]);
    const centers = await dataCenters(e);
    assert.ok(centers.length > 0);
    for (const dc of centers) {
      assert.ok(!(dc.gpuAvailability ?? []).some((g) => g.id === 'NVIDIA H200'), `${dc.id} lists the H200`);
      assert.ok(!(dc.cpuAvailability ?? []).some((c) => c.id === 'cpu5m'), `${dc.id} lists cpu5m`);
    }
    // The others have stock, so the answers above are about these two, not an empty catalog.
    assert.equal((await gpuStock(e)).find((g) => g.id === 'NVIDIA GeForce RTX 4090')?.availability, 'HIGH');
    assert.equal((await cpuStock(e)).find((c) => c.id === 'cpu3c')?.availability, 'HIGH');
  });
});

test('a pool the workers fill stops showing stock, and shows it again when they leave', async () => {
  await withEmulator({}, async (e) => {
    const h100 = 'NVIDIA H100 PCIe';
    const inCalifornia = async (): Promise<[string | undefined, string | undefined]> => [
      (await gpuStock(e)).find((g) => g.id === h100)?.dataCenters?.find((d) => d.id === 'US-CA-2')?.availability,
      (await dataCenters(e)).find((d) => d.id === 'US-CA-2')?.gpuAvailability?.find((g) => g.id === h100)?.availability,
    ];
    assert.deepEqual(await inCalifornia(), ['LOW', 'LOW'], 'two H100 PCIe are free in US-CA-2');
    const ep = await create(e, gpuSpec({ gpu: { pools: ['ADA_80_PRO'] }, dataCenterIds: ['US-CA-2'], workers: { min: 3, max: 3 } }));
    const list = await workersWhen(
      e,
      ep.id,
      (l) => l.length === 3 && l.filter((w) => w.status === 'IDLE').length === 2,
      'two of three ready',
    );
    assert.deepEqual(list.map((w) => w.gpuTypeId).sort(), [h100, h100, null]);
    assert.equal(list.filter((w) => w.status === 'THROTTLED').length, 1);
    assert.deepEqual(await inCalifornia(), [undefined, undefined], 'nothing free in US-CA-2 any more');
    assert.equal((await gpuStock(e)).find((g) => g.id === h100)?.availability, 'NONE');
    assert.equal((await call(e.restUrl, 'DELETE', `/v2/serverless/${ep.id}`)).status, 204);
    assert.deepEqual(await inCalifornia(), ['LOW', 'LOW'], 'free again once the workers left');
  });
});

test('a slow-booting image: pulled, started, INITIALIZING for its boot time, ready, then its first job', async () => {
  const t0 = Date.parse('2026-03-02T10:00:00.000Z');
  let now = t0;
  const iso = (ms: number): string => new Date(t0 + ms).toISOString();
  await withEmulator({ timeScale: 1, clock: () => now }, async (e) => {
    const slow = await create(
      e,
      gpuSpec({ name: 'slow', image: 'example/worker:1.0-slowboot-90s', flashboot: 'OFF', workers: { min: 1, max: 1 } }),
    );
    // A second endpoint ready sooner shows when a tick has run at a given time.
    const sooner = await create(
      e,
      gpuSpec({ name: 'sooner', image: 'example/worker:1.0-slowboot-45s', flashboot: 'OFF', workers: { min: 1, max: 1 } }),
    );
    assert.equal(slow.createdAt, iso(0));
    // Both placed at t0, before the clock moves.
    await workersWhen(e, sooner.id, (l) => l.length === 1, 'a worker of the 45 s image');
    const [pulling] = await workersWhen(e, slow.id, (l) => l.length === 1, 'a worker of the 90 s image');
    assert.deepEqual([pulling.status, pulling.startedAt, pulling.uptimeSeconds], ['INITIALIZING', null, null], 'pulling the image');

    now = t0 + 3000; // the pull without FlashBoot
    const [started] = await workersWhen(e, slow.id, (l) => l[0]?.startedAt !== null, 'the container to start');
    assert.deepEqual([started.status, started.startedAt], ['INITIALIZING', iso(3000)]);

    now = t0 + 3000 + 45_000;
    await workersWhen(e, sooner.id, (l) => l[0]?.status === 'IDLE', 'the 45 s image to be ready');
    const [booting] = (await workers(e, slow.id)).workers;
    assert.deepEqual([booting.status, booting.uptimeSeconds], ['INITIALIZING', 45], 'the 90 s image still boots');

    now = t0 + 3000 + 90_000;
    const [ready] = await workersWhen(e, slow.id, (l) => l[0]?.status === 'IDLE', 'the 90 s image to be ready');
    assert.equal(ready.startedAt, iso(3000));
    const lines = await linesUntil(e, slow.id, ready.id, /^Worker ready\.$/);
    assert.deepEqual(
      [/^placed on /, /^pulling image /, /^container started$/, /^Loading model weights \(about 90 s\)\.\.\.$/, /^Worker ready\.$/].map(
        (p) => tsOf(lines, p),
      ),
      [iso(0), iso(0), iso(3000), iso(3000), iso(93_000)],
    );

    const job = (await call<Job>(e.jobsUrl, 'POST', `/v2/${slow.id}/run`, { input: { output: 'first' } })).body;
    const status = async (): Promise<Job> => (await call<Job>(e.jobsUrl, 'GET', `/v2/${slow.id}/status/${job.id}`)).body;
    await eventually(async () => ((await status()).status === 'IN_PROGRESS' ? true : undefined), 5000, 'the job to start');
    now = t0 + 93_000 + 50;
    const done = await eventually(async () => {
      const s = await status();
      return s.status === 'COMPLETED' ? s : undefined;
    });
    assert.deepEqual([done.output, done.workerId, done.delayTime, done.executionTime], ['first', ready.id, 0, 50]);
  });
});

test('a crash-looping image: each start is a crash in the logs, then a restart after the back-off', async () => {
  const t0 = Date.parse('2026-03-02T10:00:00.000Z');
  let now = t0;
  const iso = (ms: number): string => new Date(t0 + ms).toISOString();
  await withEmulator({ timeScale: 1, clock: () => now }, async (e) => {
    const ep = await create(e, gpuSpec({ image: 'example/worker:1.0-crashloop', flashboot: 'OFF', workers: { min: 1, max: 1 } }));
    await workersWhen(e, ep.id, (l) => l[0]?.status === 'INITIALIZING', 'a worker placed at t0');
    now = t0 + 3000;
    const [first] = await workersWhen(e, ep.id, (l) => l[0]?.status === 'UNHEALTHY', 'the first crash');
    assert.equal(first.startedAt, iso(3000));
    now = t0 + 3000 + 10_000;
    const [again] = await workersWhen(e, ep.id, (l) => l[0]?.startedAt === iso(13_000), 'the restart');
    assert.deepEqual([again.id, again.status], [first.id, 'UNHEALTHY']);
    const lines = await linesUntil(e, ep.id, first.id, /restarting \(attempt 2\)$/);
    const texts = lines.map((l) => `${l.ts} ${l.source}: ${l.line}`);
    for (const expected of [
      `${iso(3000)} system: container started`,
      `${iso(3000)} container: ModuleNotFoundError: No module named 'torch'`,
      `${iso(3000)} system: container exited with code 1; restarting (attempt 1)`,
      `${iso(13_000)} system: container started`,
      `${iso(13_000)} system: container exited with code 1; restarting (attempt 2)`,
    ])
      assert.ok(texts.includes(expected), `${expected} in:\n${texts.join('\n')}`);
    assert.ok(!texts.some((t) => t.endsWith('Worker ready.')));
  });
});

test('the boot time is read from the image name', () => {
  assert.deepEqual(
    [
      'myorg/worker:1.0-slowboot-90s',
      'myorg/worker:1.0-slowboot-2m',
      'myorg/worker:1.0-slowboot-500ms',
      'myorg/worker:1.0-slowboot-45',
      'myorg/slowboot-worker:1.0',
      'myorg/worker:1.0-SLOWBOOT-10S',
      'myorg/worker:1.0-slowboot-5minutes',
      'myorg/worker:1.0',
    ].map(slowBootMs),
    [90_000, 120_000, 500, 45_000, 60_000, 10_000, 60_000, 0],
  );
});
