/** Every resource module against the emulator over real HTTP: shapes in, shapes out. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../../core/api';
import { eventually, gpuEndpoint, withEmulator } from './support';

describe('serverless endpoints', () => {
  it('create, get, list, update, workers, releases and delete round-trip', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const created = await api.serverless.create(gpuEndpoint({ name: 'round-trip', workers: { min: 0, max: 2 } }));
      assert.equal(created.name, 'round-trip');
      assert.equal(created.type, 'QUEUE');
      assert.deepEqual(created.gpu?.pools, ['ADA_24']);
      assert.equal(created.workers.idleTimeout, 10);
      assert.ok(created.requestUrls && 'runSync' in created.requestUrls && created.requestUrls.runSync.startsWith(api.jobsUrl));

      assert.deepEqual(await api.serverless.get(created.id), created);
      assert.deepEqual(
        (await api.serverless.list()).map((e) => e.id),
        [created.id],
      );

      const updated = await api.serverless.update(created.id, { workers: { max: 5 } });
      assert.equal(updated.workers.max, 5);
      assert.equal(updated.workers.min, 0);
      const releases = await api.serverless.releases(created.id);
      assert.deepEqual(releases.releases[0].diff, [{ field: 'workersMax', old: 2, new: 5 }]);
      assert.equal(typeof releases.rollout?.percentOnLatest, 'number');

      const workers = await api.serverless.workers(created.id);
      assert.equal(workers.summary.total, workers.workers.length);

      await api.serverless.delete(created.id);
      await assert.rejects(api.serverless.get(created.id), (e: unknown) => e instanceof ApiError && e.notFound && e.status === 404);
      assert.deepEqual(await api.serverless.list(), []);
    });
  });

  it('encodes identifiers so they cannot add path segments', async () => {
    await withEmulator({}, async (_emu, client) => {
      await assert.rejects(
        client().serverless.get('../catalog/gpus'),
        (e: unknown) => e instanceof ApiError && e.notFound && (e.path ?? '').includes('..%2Fcatalog%2Fgpus'),
      );
    });
  });
});

describe('catalog', () => {
  it('asks for serverless availability and GPU stock per data center by default', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const gpus = await api.catalog.gpus();
      const rtx4090 = gpus.find((g) => g.id === 'NVIDIA GeForce RTX 4090');
      assert.equal(rtx4090?.pool, 'ADA_24');
      assert.ok(rtx4090.availability);
      assert.ok(Array.isArray(rtx4090.cudaVersions));
      assert.ok(gpus.some((g) => g.pool === null));
      assert.equal((await api.catalog.gpu('NVIDIA GeForce RTX 4090')).id, 'NVIDIA GeForce RTX 4090');
      assert.equal((await api.catalog.gpus({ availability: false }))[0].availability, undefined);

      const cpus = await api.catalog.cpus();
      assert.ok(cpus.length > 0 && cpus.every((c) => c.vcpu.min >= 2 && c.ramGbPerVcpu > 0));
      assert.equal((await api.catalog.cpu(cpus[0].id)).id, cpus[0].id);

      const dataCenters = await api.catalog.dataCenters();
      assert.ok(dataCenters.every((d) => Array.isArray(d.gpuAvailability)));
      assert.equal((await api.catalog.dataCenters({ include: [] }))[0].gpuAvailability, undefined);
      assert.equal((await api.catalog.dataCenter(dataCenters[0].id)).id, dataCenters[0].id);

      const templates = await api.catalog.templates();
      assert.ok(templates.some((t) => t.serverless) && templates.some((t) => !t.serverless));
      await assert.rejects(api.catalog.gpu('no such gpu'), (e: unknown) => e instanceof ApiError && e.notFound);
    });
  });
});

describe('templates, network volumes and registries', () => {
  it("manage the caller's own records", async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const template = await api.templates.create({ name: 'mine', image: 'example/worker:2', serverless: true, env: { A: '1' } });
      assert.equal((await api.templates.get(template.id)).name, 'mine');
      assert.equal((await api.templates.update(template.id, { name: 'renamed' })).name, 'renamed');
      assert.deepEqual(
        (await api.templates.list()).map((t) => t.id),
        [template.id],
      );
      await api.templates.delete(template.id);
      assert.deepEqual(await api.templates.list(), []);

      const volume = await api.networkVolumes.create({ name: 'data', size: 20, dataCenter: 'EU-RO-1' });
      assert.equal(volume.size, 20);
      assert.equal((await api.networkVolumes.update(volume.id, { size: 40 })).size, 40);
      assert.equal((await api.networkVolumes.get(volume.id)).dataCenter, 'EU-RO-1');
      assert.equal((await api.networkVolumes.list()).length, 1);
      await api.networkVolumes.delete(volume.id);

      const password = 'hunter2-very-secret';
      const registry = await api.registries.create({ name: 'private', username: 'me', password });
      assert.equal(JSON.stringify(registry).includes(password), false);
      assert.equal((await api.registries.get(registry.id)).name, 'private');
      assert.equal((await api.registries.list()).length, 1);
      await api.registries.delete(registry.id);
      assert.deepEqual(await api.registries.list(), []);
    });
  });
});

describe('billing', () => {
  it('sends bucket size, window or lastN, grouping and filters, and reads aligned records', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const all = await api.billing.all({ bucketSize: 'hour', lastN: 3 });
      assert.equal(all.records.length, 3);
      assert.equal(all.metadata.query.bucketSize, 'hour');
      assert.match(all.metadata.query.startTime, /T\d\d:00:00/);

      const endpoint = await api.serverless.create(gpuEndpoint());
      const serverless = await api.billing.serverless({
        bucketSize: 'day',
        startTime: new Date(Date.UTC(2026, 0, 1, 13)),
        endTime: '2026-01-03T00:00:00Z',
        endpointId: endpoint.id,
        grouping: 'gpuId',
      });
      assert.equal(serverless.metadata.query.startTime, '2026-01-01T00:00:00Z');
      assert.equal(serverless.metadata.query.serverlessId, endpoint.id);
      assert.equal(serverless.metadata.query.grouping, 'gpuId');

      assert.equal(typeof (await api.billing.pods({ lastN: 1, grouping: 'podId' })).metadata.uniquePodCount, 'number');
      assert.equal(typeof (await api.billing.networkVolumes({ lastN: 1 })).metadata.uniqueNetworkVolumeCount, 'number');
      assert.equal((await api.billing.publicEndpoints({ lastN: 2 })).records.length, 2);
      assert.throws(() => api.billing.all({ lastN: 2, startTime: '2026-01-01T00:00:00Z' } as never), TypeError);
      await assert.rejects(
        api.billing.all({ bucketSize: 'fortnight' as never }),
        (e: unknown) => e instanceof ApiError && e.status === 400,
      );
    });
  });
});

describe('jobs', () => {
  it('run, status, runsync with wait, stream, cancel, retry, purge-queue and health on the jobs host', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const endpoint = await api.serverless.create(gpuEndpoint({ workers: { min: 1, max: 1 } }));

      const queued = await api.jobs.run(endpoint.id, { input: { output: 42 } });
      assert.equal(queued.status, 'IN_QUEUE');
      const done = await eventually(async () => {
        const job = await api.jobs.status(endpoint.id, queued.id);
        return job.status === 'COMPLETED' ? job : undefined;
      });
      assert.equal(done.output, 42);

      const sync = await api.jobs.runSync(endpoint.id, { input: { output: 'hi' } }, { waitMs: 20_000 });
      assert.equal(sync.status, 'COMPLETED');
      assert.equal(sync.output, 'hi');

      const streaming = await api.jobs.run(endpoint.id, { input: { stream: ['a', 'b', 'c'] } });
      const chunks: unknown[] = [];
      await eventually(async () => {
        const part = await api.jobs.stream(endpoint.id, streaming.id);
        chunks.push(...part.stream.map((s) => s.output));
        return part.status === 'COMPLETED' ? true : undefined;
      });
      assert.deepEqual(chunks, ['a', 'b', 'c']);

      const failed = await api.jobs.runSync(endpoint.id, { input: { fail: 'boom' } });
      assert.equal(failed.status, 'FAILED');
      assert.equal((await api.jobs.retry(endpoint.id, failed.id)).id, failed.id);

      const long = await api.jobs.run(endpoint.id, { input: { sleepMs: 600_000 } });
      const cancelled = await api.jobs.cancel(endpoint.id, long.id);
      assert.equal(cancelled.id, long.id);
      assert.equal((await api.jobs.status(endpoint.id, long.id)).status, 'CANCELLED');

      assert.equal(typeof (await api.jobs.purgeQueue(endpoint.id)).removed, 'number');
      const health = await api.jobs.health(endpoint.id);
      assert.ok(health.jobs.completed >= 2);
      assert.equal(typeof health.workers.idle, 'number');

      await assert.rejects(api.jobs.status(endpoint.id, 'no-such-job'), (e: unknown) => e instanceof ApiError && e.notFound);
      await assert.rejects(
        api.jobs.run(endpoint.id, { input: null }),
        (e: unknown) => e instanceof ApiError && e.status === 400 && e.errors[0]?.pathSegments[0] === 'input',
      );
    });
  });
});
