/**
 * Naming why workers are not serving: the cause from worker records (pure, over records as core/api reads them:
 * crash-looping before no capacity before still starting, a serving endpoint has none, how long from the
 * workers' own start or else the caller's), and against the emulator over HTTP: a crash loop's cause carries
 * the line its container died on and a few log lines, read within a short budget; a job IN_QUEUE behind it
 * says why it waits, once read and while it is followed, and a job behind a starting worker does not; a slow
 * boot is timed from the worker's own start.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readWorkerList } from '../../../core/api/records';
import type { Endpoint } from '../../../core/api';
import { endpointNotServing, notServingCause, runJob, whyJobWaits, type JobProgress } from '../../../core/operations';
import { eventually, gpuEndpoint, withEmulator } from '../api/support';

const workers = (list: { id: string; status: string; version?: number; startedAt?: string }[]) => readWorkerList({ workers: list }).workers;
const NOW = Date.parse('2026-05-20T10:00:00Z');
const endpoint = { gpu: { pools: ['ADA_24', 'AMPERE_24'] }, dataCenterIds: ['EU-RO-1'] } as unknown as Endpoint;

describe('notServingCause', () => {
  it('calls a release with an unhealthy worker crash-looping, whatever else its workers do', () => {
    const cause = notServingCause({
      scope: 'release',
      version: 3,
      workers: workers([
        { id: 'a', status: 'INITIALIZING' },
        { id: 'b', status: 'UNHEALTHY' },
        { id: 'c', status: 'THROTTLED' },
      ]),
      now: NOW,
    });
    assert.ok(cause?.kind === 'crash-looping');
    assert.deepEqual([cause.workerId, cause.workers, cause.logs], ['b', ['b'], []]);
    assert.equal(cause.message, 'the workers of release 3 are crash-looping (UNHEALTHY): worker b');
  });

  it('calls workers all THROTTLED no capacity, naming the pools and data centers they wait for', () => {
    const cause = notServingCause({ scope: 'endpoint', workers: workers([{ id: 'a', status: 'THROTTLED' }]), endpoint, now: NOW });
    assert.ok(cause?.kind === 'no-capacity');
    assert.equal(
      cause.message,
      "the endpoint's workers have no capacity: 1 waiting THROTTLED for stock of GPU pools ADA_24, AMPERE_24 in EU-RO-1",
    );
  });

  it('calls workers starting still starting, for how long from their own start, else from the caller’s', () => {
    const starting = workers([
      { id: 'a', status: 'INITIALIZING', startedAt: '2026-05-20T09:58:00Z' },
      { id: 'b', status: 'THROTTLED' },
    ]);
    const own = notServingCause({ scope: 'release', version: 2, workers: starting, startedAt: NOW - 5000, now: NOW });
    assert.ok(own?.kind === 'starting');
    assert.deepEqual([own.startingForMs, own.workers], [120_000, ['a', 'b']]);
    assert.equal(own.message, 'the workers of release 2 are still starting (image pull or boot): 2 min 0 s so far');
    const unknown = notServingCause({
      scope: 'release',
      version: 2,
      workers: workers([{ id: 'a', status: 'INITIALIZING' }]),
      startedAt: NOW - 5000,
      now: NOW,
    });
    assert.equal(unknown?.message, 'the workers of release 2 are still starting (image pull or boot): 5.0 s so far');
    const none = notServingCause({ scope: 'release', version: 2, workers: [], yetToStart: 2, now: NOW });
    assert.equal(none?.message, 'the workers of release 2 are still starting (image pull or boot), 2 yet to be created');
  });

  it('names none for an endpoint with a worker that serves, or a release with nothing to wait for', () => {
    const mixed = workers([
      { id: 'a', status: 'IDLE' },
      { id: 'b', status: 'UNHEALTHY' },
    ]);
    assert.equal(notServingCause({ scope: 'endpoint', workers: mixed, now: NOW }), undefined);
    assert.equal(notServingCause({ scope: 'release', workers: workers([{ id: 'a', status: 'IDLE' }]), now: NOW }), undefined);
    assert.equal(notServingCause({ scope: 'release', workers: [], now: NOW }), undefined);
  });
});

describe('a crash loop against the emulator', { timeout: 60_000 }, () => {
  it('names the line its container died on and a few log lines; a queued job says it waits for it, read and followed', async () => {
    await withEmulator({}, async (_emu, api) => {
      const client = api();
      const crashing = await client.serverless.create(
        gpuEndpoint({ image: 'example/crashloop:1.0', workers: { min: 1, max: 1, idleTimeout: 600 } }),
      );
      await eventually(async () =>
        (await client.serverless.workers(crashing.id)).workers.some((w) => w.status === 'UNHEALTHY') ? true : undefined,
      );
      const started = Date.now();
      const cause = await endpointNotServing(client, crashing.id);
      assert.ok(Date.now() - started < 5000, 'within the log read’s budget');
      assert.ok(cause?.kind === 'crash-looping');
      assert.equal(cause.lastLine, "ModuleNotFoundError: No module named 'torch'");
      assert.ok(cause.logs.length > 0 && cause.logs.length <= 5);
      assert.equal(cause.message, "the endpoint's workers are crash-looping: ModuleNotFoundError: No module named 'torch'");

      const queued = await client.jobs.run(crashing.id, { input: { prompt: 'x' } });
      assert.equal((await whyJobWaits(client, { endpointId: crashing.id, status: queued.status }))?.kind, 'crash-looping');
      assert.equal(await whyJobWaits(client, { endpointId: crashing.id, status: 'IN_PROGRESS' }), undefined, 'only a queued job waits');
      assert.equal(
        await whyJobWaits({ jobs: client.jobs }, { endpointId: crashing.id, status: 'IN_QUEUE' }),
        undefined,
        'needs the workers',
      );

      const stop = new AbortController();
      const seen: JobProgress[] = [];
      const followed = runJob(
        client,
        { endpointId: crashing.id, input: { prompt: 'y' }, pollIntervalMs: 50 },
        {
          signal: stop.signal,
          onStatus: (progress) => {
            seen.push(progress);
            if (progress.waiting) stop.abort();
          },
        },
      );
      const result = await followed;
      assert.equal(result.status, 'CANCELLED');
      assert.equal(seen.find((p) => p.waiting)?.waiting?.kind, 'crash-looping');
      assert.equal(result.waited?.kind, 'crash-looping', 'the result keeps why it waited');
    });
  });

  it('times a slow boot from the worker’s own start, not from the endpoint’s creation', async () => {
    await withEmulator({}, async (_emu, api) => {
      const client = api();
      const created = Date.now();
      const booting = await client.serverless.create(
        gpuEndpoint({ image: 'example/worker-slowboot-10m:1.0', workers: { min: 1, max: 1, idleTimeout: 600 } }),
      );
      const started = await eventually(async () =>
        (await client.serverless.workers(booting.id)).workers.find((w) => w.status === 'INITIALIZING' && w.startedAt),
      );
      // Let the endpoint's age and the worker's own start a measurable time apart.
      await eventually(() => (Date.now() - Date.parse(started.startedAt ?? '') >= 300 ? true : undefined));
      const cause = await endpointNotServing(client, booting.id);
      assert.ok(cause?.kind === 'starting', JSON.stringify(cause));
      const sinceStart = Date.now() - Date.parse(started.startedAt ?? '');
      assert.ok(cause.startingForMs !== undefined && cause.startingForMs <= sinceStart, JSON.stringify(cause));
      assert.ok(cause.startingForMs >= 300, 'counted from the worker’s start, which the record gives');
      assert.ok(Date.parse(started.startedAt ?? '') > created, 'the worker started after the endpoint was made');
    });
  });

  it('says nothing more of a job behind a worker still starting: a cold start', async () => {
    await withEmulator({ timeScale: 0.01 }, async (_emu, api) => {
      const client = api();
      const booting = await client.serverless.create(gpuEndpoint({ workers: { min: 1, max: 1, idleTimeout: 600 } }));
      await eventually(async () =>
        (await client.serverless.workers(booting.id)).workers.some((w) => w.status === 'INITIALIZING') ? true : undefined,
      );
      assert.equal(await whyJobWaits(client, { endpointId: booting.id, status: 'IN_QUEUE' }), undefined);
      assert.equal((await endpointNotServing(client, booting.id))?.kind, 'starting');
    });
  });
});
