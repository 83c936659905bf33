import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CpuType, DataCenter, Endpoint, GpuType, NetworkVolume, Registry, Template } from '../../core/api/types';
import { PUBLIC_TEMPLATE_IDS } from '../../emulator/index';
import { call, cpuSpec, create, gpuSpec, loadBalancerUrls, withEmulator } from './helpers';

/** The parts of `/v2/openapi.json` these tests read. */
interface OpenApiDocument {
  openapi: string;
  paths: Partial<Record<string, Record<string, unknown>>>;
}

test('a GPU create answers 201 with the defaults applied', async () => {
  await withEmulator({}, async (e) => {
    const ep = await create(e, gpuSpec({ gpu: { pools: ['AMPERE_24', 'ADA_24'], excludedTypes: ['  NVIDIA L4 '] } }));
    assert.match(ep.id, /^[a-z0-9]{14}$/);
    assert.deepEqual(ep.workers, { min: 0, max: 3, idleTimeout: 10 });
    assert.equal(ep.timeout, 300000);
    assert.equal(ep.flashboot, 'OFF');
    assert.deepEqual(ep.dataCenterIds, []);
    assert.deepEqual(ep.networkVolumes, []);
    assert.deepEqual(ep.gpu, {
      pools: ['AMPERE_24', 'ADA_24'],
      excludedTypes: ['NVIDIA L4'],
      count: 1,
      allowedCudaVersions: [],
      minCudaVersion: null,
    });
    assert.equal('cpu' in ep, false);
    assert.ok(!Number.isNaN(Date.parse(ep.createdAt)));
    const fetched = await call<Endpoint>(e.restUrl, 'GET', `/v2/serverless/${ep.id}`);
    assert.deepEqual(fetched.body, ep);
  });
});

test('QUEUE endpoints get the eight job URLs on the jobs host', async () => {
  await withEmulator({}, async (e) => {
    const ep = await create(e, gpuSpec());
    const root = `${e.jobsUrl}/v2/${ep.id}`;
    assert.notEqual(new URL(e.jobsUrl).port, new URL(e.restUrl).port);
    assert.deepEqual(ep.requestUrls, {
      run: `${root}/run`,
      runSync: `${root}/runsync`,
      status: `${root}/status/{job_id}`,
      stream: `${root}/stream/{job_id}`,
      cancel: `${root}/cancel/{job_id}`,
      retry: `${root}/retry/{job_id}`,
      purgeQueue: `${root}/purge-queue`,
      health: `${root}/health`,
    });
  });
});

test('LOAD_BALANCER endpoints get base and health, honouring HEALTH_CHECK_PATH', async () => {
  await withEmulator({}, async (e) => {
    const spec = gpuSpec({ type: 'LOAD_BALANCER', scaling: { type: 'REQUEST_COUNT', requestCount: 4 } });
    const plain = loadBalancerUrls(await create(e, spec));
    assert.deepEqual(Object.keys(plain).sort(), ['base', 'health']);
    assert.equal(plain.health, `${plain.base}/ping`);
    const custom = await create(e, { ...spec, env: { HEALTH_CHECK_PATH: '/healthz' } });
    const customUrls = loadBalancerUrls(custom);
    assert.equal(customUrls.health, `${customUrls.base}/healthz`);
    assert.equal(custom.workers.idleTimeout, 10);
  });
});

test('idleTimeout is omitted for QUEUE + REQUEST_COUNT', async () => {
  await withEmulator({}, async (e) => {
    const ep = await create(e, gpuSpec({ scaling: { type: 'REQUEST_COUNT', requestCount: 2 } }));
    assert.deepEqual(ep.workers, { min: 0, max: 3 });
  });
});

test('CPU endpoints report memory from the flavor multiplier, in submitted order, and gpu null', async () => {
  await withEmulator({}, async (e) => {
    const ep = await create(
      e,
      cpuSpec({
        cpu: [
          { id: 'cpu3g', vcpuCount: 8 },
          { id: 'cpu3c', vcpuCount: 2 },
        ],
      }),
    );
    assert.deepEqual(ep.cpu, [
      { id: 'cpu3g', vcpuCount: 8, memory: 32 },
      { id: 'cpu3c', vcpuCount: 2, memory: 4 },
    ]);
    assert.equal(ep.gpu, null);
  });
});

test('args are stored as sent and deconstructed; entrypoint/cmd arrays are encoded into args', async () => {
  await withEmulator({}, async (e) => {
    const shell = await create(e, gpuSpec({ args: "python -u 'my handler.py'" }));
    assert.equal(shell.args, "python -u 'my handler.py'");
    assert.deepEqual(shell.cmd, ['python', '-u', 'my handler.py']);
    assert.equal('entrypoint' in shell, false);
    const arrays = await create(e, gpuSpec({ entrypoint: ['/bin/sh', '-c'], cmd: ['echo hi'] }));
    assert.ok(arrays.args !== undefined, 'args are reported');
    assert.deepEqual(JSON.parse(arrays.args), { entrypoint: ['/bin/sh', '-c'], cmd: ['echo hi'] });
    assert.deepEqual(arrays.entrypoint, ['/bin/sh', '-c']);
    assert.deepEqual(arrays.cmd, ['echo hi']);
    // Sending back everything that was read is accepted.
    const again = await call(
      e.restUrl,
      'POST',
      '/v2/serverless',
      gpuSpec({ args: arrays.args, entrypoint: arrays.entrypoint, cmd: arrays.cmd }),
    );
    assert.equal(again.status, 201);
  });
});

test('template resolution: body overrides, env merges per key, CUDA set seeds the GPU create', async () => {
  await withEmulator({}, async (e) => {
    const ep = await create(e, {
      ...gpuSpec(),
      image: undefined,
      templateId: PUBLIC_TEMPLATE_IDS.vllm,
      disk: 80,
      env: { MODEL_NAME: 'mine', EXTRA: '1' },
    });
    assert.equal(ep.image, 'runpod/worker-v1-vllm:v2.7.0');
    assert.equal(ep.disk, 80);
    assert.deepEqual(ep.ports, ['8000/http']);
    assert.deepEqual(ep.env, { MODEL_NAME: 'mine', MAX_MODEL_LEN: '8192', GPU_MEMORY_UTILIZATION: '0.95', EXTRA: '1' });
    assert.deepEqual(ep.gpu?.allowedCudaVersions, ['12.4', '12.6', '12.8']);
    const floor = await create(e, {
      ...gpuSpec({ gpu: { pools: ['ADA_24'], minCudaVersion: '12.1' } }),
      image: undefined,
      templateId: PUBLIC_TEMPLATE_IDS.vllm,
    });
    assert.deepEqual(floor.gpu?.allowedCudaVersions, [], 'a floor in the body stops the seeding');
    const own = await create(e, {
      ...gpuSpec({ gpu: { pools: ['ADA_24'], allowedCudaVersions: ['12.8'] } }),
      image: undefined,
      templateId: PUBLIC_TEMPLATE_IDS.vllm,
    });
    assert.deepEqual(own.gpu?.allowedCudaVersions, ['12.8'], 'the body set wins');
    const cpu = await create(e, { ...cpuSpec(), image: undefined, templateId: PUBLIC_TEMPLATE_IDS.cpuWorker });
    assert.deepEqual(cpu.cmd, ['python', '-u', 'handler.py']);
    assert.equal(cpu.gpu, null);
  });
});

test("the caller's own serverless template can be used; later edits do not affect the endpoint", async () => {
  await withEmulator({}, async (e) => {
    const tpl = await call<Template>(e.restUrl, 'POST', '/v2/templates', {
      name: 'mine',
      image: 'me/worker:1',
      serverless: true,
      env: { A: '1' },
    });
    assert.equal(tpl.status, 201);
    const ep = await create(e, { ...gpuSpec(), image: undefined, templateId: tpl.body.id });
    assert.equal(ep.image, 'me/worker:1');
    await call(e.restUrl, 'PATCH', `/v2/templates/${tpl.body.id}`, { image: 'me/worker:2' });
    assert.equal((await call<Endpoint>(e.restUrl, 'GET', `/v2/serverless/${ep.id}`)).body.image, 'me/worker:1');
    assert.equal((await call<{ templates: Template[] }>(e.restUrl, 'GET', '/v2/templates')).body.templates.length, 1);
  });
});

test('catalog: GPU types with pools, null pool for pod-only types, availability with CUDA versions', async () => {
  await withEmulator({}, async (e) => {
    const plain = (await call<{ gpus: GpuType[] }>(e.restUrl, 'GET', '/v2/catalog/gpus')).body.gpus;
    const pools = new Set(plain.map((g) => g.pool));
    for (const pool of ['ADA_24', 'ADA_48_PRO', 'AMPERE_16', 'AMPERE_24', 'AMPERE_48', 'AMPERE_80', 'ADA_80_PRO', 'HOPPER_141', null])
      assert.ok(pools.has(pool), String(pool));
    assert.equal(plain[0].availability, undefined);
    const withStock = (await call<{ gpus: GpuType[] }>(e.restUrl, 'GET', '/v2/catalog/gpus?include=AVAILABILITY&product=SERVERLESS')).body
      .gpus;
    const rtx = withStock.find((g) => g.id === 'NVIDIA GeForce RTX 4090');
    assert.ok(rtx, 'the RTX 4090 is listed');
    assert.equal(rtx.availability, 'HIGH');
    assert.ok(rtx.cudaVersions?.includes('12.8'));
    assert.ok(rtx.dataCenters?.some((d) => d.id === 'US-TX-3'));
    assert.equal(withStock.find((g) => g.id === 'NVIDIA H200')?.availability, 'NONE');
    const one = await call<GpuType>(e.restUrl, 'GET', `/v2/catalog/gpus/${encodeURIComponent('NVIDIA L40S')}`);
    assert.equal(one.body.pool, 'ADA_48_PRO');
    assert.equal((await call(e.restUrl, 'GET', '/v2/catalog/gpus/nope')).status, 404);
    const cpus = (await call<{ cpus: CpuType[] }>(e.restUrl, 'GET', '/v2/catalog/cpus')).body.cpus;
    assert.deepEqual(cpus.find((c) => c.id === 'cpu3c')?.vcpu, { min: 2, max: 8 });
    assert.equal((await call<CpuType>(e.restUrl, 'GET', '/v2/catalog/cpus/cpu5g')).body.ramGbPerVcpu, 4);
    const dcs = (await call<{ dataCenters: DataCenter[] }>(e.restUrl, 'GET', '/v2/catalog/datacenters?include=GPU_AVAILABILITY')).body
      .dataCenters;
    assert.ok(dcs.length >= 4);
    assert.ok(Array.isArray(dcs[0].gpuAvailability));
    assert.equal((await call<DataCenter>(e.restUrl, 'GET', '/v2/catalog/datacenters/EU-RO-1')).body.region, 'EUROPE');
    const templates = (await call<{ templates: Template[] }>(e.restUrl, 'GET', '/v2/catalog/templates')).body.templates;
    assert.ok(templates.some((t) => !t.serverless));
    assert.ok(templates.some((t) => t.serverless && t.allowedCudaVersions && t.env && Object.keys(t.env).length > 0));
    assert.equal((await call(e.restUrl, 'GET', '/v2/catalog/gpus?include=BOGUS')).status, 400);
  });
});

test('openapi.json describes the emulated paths', async () => {
  await withEmulator({}, async (e) => {
    const doc = await call<OpenApiDocument>(e.restUrl, 'GET', '/v2/openapi.json', undefined, null);
    assert.equal(doc.status, 200);
    assert.equal(doc.body.openapi, '3.1.0');
    for (const path of [
      '/v2/serverless',
      '/v2/serverless/{id}',
      '/v2/serverless/{id}/workers/{workerId}/logs',
      '/v2/catalog/gpus',
      '/v2/billing/serverless',
    ])
      assert.ok(doc.body.paths[path], path);
    assert.ok(doc.body.paths['/v2/serverless/{id}']?.patch);
  });
});

test('list, get, delete, network volumes and registries', async () => {
  await withEmulator({}, async (e) => {
    const vol = await call<NetworkVolume>(e.restUrl, 'POST', '/v2/network-volumes', { name: 'data', size: 50, dataCenter: 'EU-RO-1' });
    assert.equal(vol.status, 201);
    assert.equal(vol.body.type, 'STANDARD');
    const reg = await call<Registry>(e.restUrl, 'POST', '/v2/registries', { name: 'hub', username: 'u', password: 'p' });
    assert.deepEqual(Object.keys(reg.body).sort(), ['id', 'name']);
    const ep = await create(e, gpuSpec({ networkVolumes: [vol.body.id], registry: reg.body.id }));
    assert.deepEqual(ep.networkVolumes, [vol.body.id]);
    assert.equal((await call<{ endpoints: Endpoint[] }>(e.restUrl, 'GET', '/v2/serverless')).body.endpoints.length, 1);
    assert.equal((await call(e.restUrl, 'DELETE', `/v2/serverless/${ep.id}`)).status, 204);
    assert.equal((await call(e.restUrl, 'GET', `/v2/serverless/${ep.id}`)).status, 404);
    assert.equal((await call(e.restUrl, 'DELETE', `/v2/serverless/${ep.id}`)).status, 404);
    assert.equal((await call<{ networkVolumes: NetworkVolume[] }>(e.restUrl, 'GET', '/v2/network-volumes')).body.networkVolumes.length, 1);
    assert.equal((await call<{ registries: Registry[] }>(e.restUrl, 'GET', '/v2/registries')).body.registries.length, 1);
  });
});
