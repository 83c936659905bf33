/**
 * Migration of REST v1 and GraphQL-era bodies: the conversions themselves, and that what comes out
 * is accepted by the emulator (whose catalog is read over HTTP, as the language server reads it).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Catalog } from '../../../core/endpointSpec/catalog/catalog';
import { catalogDataFromApi } from '../../../core/endpointSpec/catalog/fromApi';
import { isLegacyBody, migrateLegacyBody } from '../../../core/endpointSpec/migrate';
import { validateSpecData } from '../../../core/endpointSpec/validate';
import { startEmulator, DEFAULT_DEV_API_KEY, type RunningEmulator } from '../../../emulator/index';

let emulator: RunningEmulator;
let catalog: Catalog;
const get = async (path: string): Promise<unknown> =>
  (await fetch(`${emulator.restUrl}${path}`, { headers: { Authorization: `Bearer ${DEFAULT_DEV_API_KEY}` } })).json();

before(async () => {
  emulator = await startEmulator({ port: 0, jobsPort: 0 });
  catalog = new Catalog(
    catalogDataFromApi({
      gpus: await get('/v2/catalog/gpus?include=AVAILABILITY&product=SERVERLESS'),
      cpus: await get('/v2/catalog/cpus'),
      dataCenters: await get('/v2/catalog/datacenters?include=GPU_AVAILABILITY'),
      publicTemplates: await get('/v2/catalog/templates'),
      ownTemplates: await get('/v2/templates'),
      networkVolumes: await get('/v2/network-volumes'),
      registries: await get('/v2/registries'),
    }),
  );
});
after(() => emulator.close());

async function create(spec: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${emulator.restUrl}/v2/serverless`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${DEFAULT_DEV_API_KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(spec),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const V1_GPU = {
  name: 'sdxl -fb',
  templateId: 'tplvllmworker1',
  gpuTypeIds: ['NVIDIA GeForce RTX 4090'],
  gpuCount: 1,
  workersMin: 0,
  workersMax: 4,
  idleTimeout: 20,
  scalerType: 'QUEUE_DELAY',
  scalerValue: 6,
  executionTimeoutMs: 120000,
  dataCenterIds: ['US-TX-3'],
};

const GRAPHQL = {
  name: 'graphql-era',
  imageName: 'example/worker:1.0',
  gpuIds: 'AMPERE_24,-NVIDIA L4',
  containerDiskInGb: 20,
  dockerArgs: 'python -u handler.py',
  env: [
    { key: 'MODEL', value: 'llama' },
    { key: 'EMPTY', value: null },
  ],
  ports: '8000/http,22/tcp',
  scalerType: 'REQUEST_COUNT',
  scalerValue: 3,
  idleTimeout: 5,
  locations: 'US',
};

describe('migration', () => {
  it('recognises legacy bodies and only them', () => {
    assert.equal(isLegacyBody(V1_GPU), true);
    assert.equal(isLegacyBody(GRAPHQL), true);
    assert.equal(isLegacyBody({ name: 'x', type: 'QUEUE', gpu: { pools: ['ADA_24'] } }), false);
  });

  it('turns a v1 GPU body into pools plus exclusions that keep exactly the chosen types', () => {
    const result = migrateLegacyBody(V1_GPU, catalog);
    assert.ok(result.ok);
    const spec = result.migration.spec;
    assert.equal(spec.name, 'sdxl');
    assert.equal(spec.flashboot, 'FLASHBOOT');
    const gpu = spec.gpu as { pools: string[]; excludedTypes?: string[]; count: number };
    const pools = gpu.pools;
    const remaining = catalog.selectedTypes(pools, gpu.excludedTypes).map((t) => t.id);
    assert.deepEqual(remaining, ['NVIDIA GeForce RTX 4090']);
    assert.deepEqual(spec.workers, { min: 0, max: 4, idleTimeout: 20 });
    assert.deepEqual(spec.scaling, { type: 'QUEUE_DELAY', queueDelay: 6 });
    assert.equal(spec.timeout, 120000);
  });

  it('refuses GPU type ids without a catalog, with a reason', () => {
    const result = migrateLegacyBody(V1_GPU);
    assert.equal(result.ok, false);
    assert.match(result.reason, /needs|only with the catalog/);
  });

  it('reshapes GraphQL-era fields and says what it assumed', () => {
    const result = migrateLegacyBody(GRAPHQL, catalog);
    assert.ok(result.ok);
    const spec = result.migration.spec;
    assert.deepEqual(spec.gpu, { pools: ['AMPERE_24'], excludedTypes: ['NVIDIA L4'] });
    assert.deepEqual(spec.env, { MODEL: 'llama', EMPTY: '' });
    assert.deepEqual(spec.ports, ['8000/http', '22/tcp']);
    assert.equal(spec.image, 'example/worker:1.0');
    assert.equal(spec.disk, 20);
    assert.equal(spec.args, 'python -u handler.py');
    assert.deepEqual(spec.scaling, { type: 'REQUEST_COUNT', requestCount: 3 });
    assert.equal(
      (spec.workers as Record<string, unknown> | undefined)?.idleTimeout,
      undefined,
      'idleTimeout cannot go with QUEUE + REQUEST_COUNT',
    );
    assert.ok((spec.dataCenterIds as string[]).every((id) => id.startsWith('US-')));
    assert.ok(result.migration.notes.some((n) => /idleTimeout dropped/.test(n)));
    assert.ok(result.migration.notes.some((n) => /locations US became data centers/.test(n)));
  });

  it('converts a v1 CPU body', () => {
    const result = migrateLegacyBody(
      { name: 'cpu', imageName: 'x', computeType: 'CPU', cpuFlavorIds: ['cpu3c', 'cpu5c'], vcpuCount: 4, workersMax: 2 },
      catalog,
    );
    assert.ok(result.ok);
    assert.deepEqual(result.migration.spec.cpu, [
      { id: 'cpu3c', vcpuCount: 4 },
      { id: 'cpu5c', vcpuCount: 4 },
    ]);
  });

  for (const [label, body] of [
    ['v1 GPU', V1_GPU],
    ['GraphQL', GRAPHQL],
    ['v1 CPU', { name: 'cpu', imageName: 'x', computeType: 'CPU', cpuFlavorIds: ['cpu3c'], vcpuCount: 4 }],
  ] as const) {
    it(`the converted ${label} body is valid and the emulator creates it`, async () => {
      const result = migrateLegacyBody(body, catalog);
      assert.ok(result.ok);
      assert.deepEqual(
        validateSpecData(result.migration.spec, 'create', { catalog }).filter((p) => p.severity === 'error'),
        [],
      );
      const created = await create(result.migration.spec);
      assert.equal(created.status, 201, JSON.stringify(created.body));
    });
  }

  it('a legacy body is reported once per legacy key, not by every v2 rule', () => {
    const problems = validateSpecData(V1_GPU);
    assert.ok(problems.length > 0);
    assert.ok(problems.every((p) => p.code === 'legacy-field'));
  });
});
