/**
 * Converts a REST v1 create body or GraphQL-era fields into an equivalent v2 spec. GPU type ids
 * need the catalog (they become pools plus exclusions); everything else converts on its own.
 * Whatever cannot be carried over is named in `notes`, never silently dropped.
 */
import type { Catalog } from './catalog/catalog';
import { isRecord, setOwnValue } from './ownData';
import { describeConditions, fieldApplies, minimumOf, notApplicableWhen } from './contract';

type Body = Record<string, unknown>;

/** Root keys that only a v1 or GraphQL body has, with what v2 calls them. */
export const LEGACY_FIELDS: Readonly<Record<string, string>> = {
  gpuTypeIds: 'gpu.pools (+ gpu.excludedTypes)',
  gpuTypeId: 'gpu.pools (+ gpu.excludedTypes)',
  gpuIds: 'gpu.pools',
  gpuCount: 'gpu.count',
  workersMin: 'workers.min',
  workersMax: 'workers.max',
  idleTimeout: 'workers.idleTimeout',
  scalerType: 'scaling.type',
  scalerValue: 'scaling.queueDelay or scaling.requestCount',
  imageName: 'image',
  containerDiskInGb: 'disk',
  containerRegistryAuthId: 'registry',
  dockerArgs: 'args',
  executionTimeoutMs: 'timeout',
  networkVolumeId: 'networkVolumes',
  locations: 'dataCenterIds',
  computeType: 'gpu or cpu',
  cpuFlavorIds: 'cpu[].id',
  vcpuCount: 'cpu[].vcpuCount',
  allowedCudaVersions: 'gpu.allowedCudaVersions',
  volumeInGb: '(pods only)',
  isPublic: '(templates only)',
};

interface Migration {
  readonly spec: Body;
  /** What was assumed or could not be carried over, for the user to read. */
  readonly notes: string[];
}

export type MigrationResult = { ok: true; migration: Migration } | { ok: false; reason: string };

export function isLegacyBody(value: unknown): value is Body {
  if (!isRecord(value)) return false;
  // A loop rather than Object.keys(...).some(...): every check asks this.
  for (const k in value) if (Object.hasOwn(value, k) && Object.hasOwn(LEGACY_FIELDS, k) && k !== 'allowedCudaVersions') return true;
  return false;
}

/** A list as v1 and GraphQL bodies wrote one: an array, or a comma-separated string. */
function list(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  return typeof value === 'string'
    ? value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
}

export function migrateLegacyBody(body: Body, catalog?: Catalog): MigrationResult {
  const notes: string[] = [];
  const spec: Body = {};
  let name = typeof body.name === 'string' ? body.name : undefined;
  let flashboot = typeof body.flashboot === 'boolean' ? body.flashboot : undefined;
  // GraphQL turned FlashBoot on with a "-fb" suffix on the name.
  if (name?.endsWith(' -fb') || name?.endsWith('-fb')) {
    name = name.replace(/\s*-fb$/, '');
    flashboot = true;
  }
  if (name !== undefined) spec.name = name;
  spec.type = typeof body.type === 'string' ? body.type : 'QUEUE';
  if (body.type === undefined) notes.push('type set to QUEUE: v1 and GraphQL endpoints were queue-based, and v2 needs the type stated');
  if (body.templateId !== undefined) spec.templateId = body.templateId;
  if (body.imageName !== undefined) spec.image = body.imageName;
  if (body.image !== undefined) spec.image = body.image;

  const cpuCompute = body.computeType === 'CPU' || body.cpuFlavorIds !== undefined;
  if (cpuCompute) {
    const flavors = list(body.cpuFlavorIds);
    if (flavors.length === 0) return { ok: false, reason: 'a CPU body needs cpuFlavorIds to convert' };
    // The smallest count the contract allows: the cheapest worker that can exist.
    const vcpuCount = typeof body.vcpuCount === 'number' ? body.vcpuCount : minimumOf('cpu[].vcpuCount');
    if (body.vcpuCount === undefined) notes.push(`vcpuCount not given: ${vcpuCount} used for every flavor`);
    spec.cpu = flavors.map((id) => ({ id, vcpuCount }));
    if (body.allowedCudaVersions !== undefined) notes.push('allowedCudaVersions dropped: CUDA constraints do not apply to CPU endpoints');
  } else {
    const gpu = migrateGpuSelection(body, catalog);
    if (!gpu.ok) return gpu;
    notes.push(...gpu.notes);
    spec.gpu = gpu.value;
  }

  const workers: Body = {};
  if (body.workersMin !== undefined) workers.min = body.workersMin;
  if (body.workersMax !== undefined) workers.max = body.workersMax;
  const scalerType = typeof body.scalerType === 'string' ? body.scalerType : 'QUEUE_DELAY';
  if (body.idleTimeout !== undefined) {
    if (fieldApplies('workers.idleTimeout', { type: spec.type, scaling: { type: scalerType } })) workers.idleTimeout = body.idleTimeout;
    else notes.push(`idleTimeout dropped: v2 rejects it when ${describeConditions(notApplicableWhen('workers.idleTimeout') ?? {})}`);
  }
  if (Object.keys(workers).length > 0) spec.workers = workers;
  const value = typeof body.scalerValue === 'number' ? body.scalerValue : 4;
  if (body.scalerValue === undefined) notes.push(`scalerValue not given: ${value} used`);
  // v1 accepted targets v2 refuses; the nearest one v2 accepts keeps the endpoint deployable.
  spec.scaling =
    scalerType === 'REQUEST_COUNT'
      ? { type: 'REQUEST_COUNT', requestCount: Math.max(minimumOf('scaling.requestCount'), Math.round(value)) }
      : { type: 'QUEUE_DELAY', queueDelay: Math.max(minimumOf('scaling.queueDelay'), value) };

  const dataCenters = migrateDataCenters(body, catalog, notes);
  if (dataCenters) spec.dataCenterIds = dataCenters;
  if (typeof body.networkVolumeId === 'string' && body.networkVolumeId !== '') spec.networkVolumes = [body.networkVolumeId];
  if (flashboot !== undefined) spec.flashboot = flashboot ? 'FLASHBOOT' : 'OFF';
  if (typeof body.executionTimeoutMs === 'number') spec.timeout = body.executionTimeoutMs;

  if (body.containerDiskInGb !== undefined) spec.disk = body.containerDiskInGb;
  if (body.containerRegistryAuthId !== undefined && body.containerRegistryAuthId !== '') spec.registry = body.containerRegistryAuthId;
  if (typeof body.dockerArgs === 'string' && body.dockerArgs !== '') spec.args = body.dockerArgs;
  const env = migrateEnv(body.env);
  if (env) spec.env = env;
  const ports = typeof body.ports === 'string' ? list(body.ports) : Array.isArray(body.ports) ? body.ports : undefined;
  if (ports && ports.length > 0) spec.ports = ports;
  for (const key of ['volumeInGb', 'isPublic'])
    if (body[key] !== undefined) notes.push(`${key} dropped: it has no meaning for a serverless endpoint`);

  // v2 fields that were already present pass through untouched.
  for (const [key, v] of Object.entries(body)) {
    if (!Object.hasOwn(LEGACY_FIELDS, key) && !Object.hasOwn(spec, key) && !['env', 'ports', 'flashboot'].includes(key))
      setOwnValue(spec, key, v);
  }
  return { ok: true, migration: { spec, notes } };
}

function migrateGpuSelection(body: Body, catalog?: Catalog): { ok: true; value: Body; notes: string[] } | { ok: false; reason: string } {
  const notes: string[] = [];
  const gpu: Body = {};
  const graphqlIds = list(body.gpuIds);
  const typeIds = [...list(body.gpuTypeIds), ...list(body.gpuTypeId)];
  if (graphqlIds.length > 0) {
    // GraphQL's gpuIds were pools, with "-<type>" entries excluding a type.
    gpu.pools = graphqlIds.filter((id) => !id.startsWith('-'));
    const excluded = graphqlIds.filter((id) => id.startsWith('-')).map((id) => id.slice(1).trim());
    if (excluded.length > 0) gpu.excludedTypes = excluded;
  } else if (typeIds.length > 0) {
    if (!catalog)
      return {
        ok: false,
        reason: 'GPU type ids become pools and exclusions only with the catalog: sign in, start the emulator, or pass --catalog',
      };
    const poolOf = (id: string): string | undefined => catalog.gpuTypes.get(id)?.pool || undefined;
    const unknown = typeIds.filter((id) => poolOf(id) === undefined);
    if (unknown.length > 0) return { ok: false, reason: `not GPU types of any serverless pool: ${unknown.join(', ')}` };
    const pools = [...new Set(typeIds.map(poolOf).filter((pool) => pool !== undefined))];
    const wanted = new Set(typeIds);
    const excluded = pools.flatMap((pool) => (catalog.pools.get(pool) ?? []).map((t) => t.id)).filter((id) => !wanted.has(id));
    gpu.pools = pools;
    if (excluded.length > 0) gpu.excludedTypes = excluded;
    notes.push(
      `GPU types ${typeIds.join(', ')} became pools ${pools.join(', ')}${excluded.length > 0 ? ` minus ${excluded.length} other type(s)` : ''}; cards added to these pools later become eligible`,
    );
  } else {
    return { ok: false, reason: 'no GPU selection found (gpuTypeIds, gpuTypeId or gpuIds)' };
  }
  if (typeof body.gpuCount === 'number') gpu.count = body.gpuCount;
  const cuda = list(body.allowedCudaVersions);
  if (cuda.length > 0) gpu.allowedCudaVersions = cuda;
  return { ok: true, value: gpu, notes };
}

function migrateDataCenters(body: Body, catalog: Catalog | undefined, notes: string[]): string[] | undefined {
  const ids = list(body.dataCenterIds);
  if (ids.length > 0) return ids;
  const countries = list(body.locations);
  if (countries.length === 0) return undefined;
  if (!catalog) {
    notes.push(`locations ${countries.join(', ')} dropped: mapping countries to data centers needs the catalog; the scheduler now chooses`);
    return undefined;
  }
  // GraphQL locations were country codes; v2 names data centers such as US-TX-3.
  const matched = [...catalog.dataCenters.keys()].filter((id) => countries.some((c) => id.startsWith(`${c}-`)));
  notes.push(`locations ${countries.join(', ')} became data centers ${matched.join(', ') || '(none found; the scheduler chooses)'}`);
  return matched.length > 0 ? matched : undefined;
}

function migrateEnv(env: unknown): Record<string, string> | undefined {
  if (Array.isArray(env)) {
    const pairs = env.filter((e): e is { key: unknown; value: unknown } => typeof e === 'object' && e !== null && 'key' in e);
    return Object.fromEntries(pairs.map((e) => [String(e.key), envText(e.value)]));
  }
  if (typeof env === 'object' && env !== null) return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, envText(v)]));
  return undefined;
}

/** v2 env values are strings; v1 and GraphQL bodies also held numbers, booleans and nulls. */
function envText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return value === null || value === undefined ? '' : JSON.stringify(value);
}
