/**
 * Builds the rules' catalog from REST v2 list responses (`/v2/catalog/gpus`, `/cpus`,
 * `/datacenters`, `/templates`, `/v2/templates`, `/v2/network-volumes`, `/v2/registries`).
 * Records are read defensively: a malformed entry is skipped, never trusted.
 */
import type { AvailabilityLevel, CatalogData, CatalogGpuType, CatalogTemplate } from './catalog';

export interface CatalogResponses {
  readonly gpus: unknown;
  readonly cpus: unknown;
  readonly dataCenters: unknown;
  readonly publicTemplates: unknown;
  readonly ownTemplates?: unknown;
  readonly networkVolumes?: unknown;
  readonly registries?: unknown;
}

type Loose = Record<string, unknown>;

const LEVELS = new Set(['NONE', 'LOW', 'MEDIUM', 'HIGH']);

/** A record with an id: the least an entry of any list needs to be used. */
const isEntry = (e: unknown): e is Loose => typeof e === 'object' && e !== null && typeof (e as Loose).id === 'string';

function listOf(response: unknown, key: string): Loose[] {
  const list = Array.isArray(response) ? response : (response as Loose | null)?.[key];
  return Array.isArray(list) ? list.filter(isEntry) : [];
}

const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);
const num = (v: unknown, fallback = 0): number => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : undefined);

const level = (v: unknown): AvailabilityLevel => (LEVELS.has(str(v)) ? v : 'NONE') as AvailabilityLevel;

/** A record's id and name (its id when it has no name). */
const named = (entry: Loose): { id: string; name: string } => ({ id: entry.id as string, name: str(entry.name, entry.id as string) });

/** The stock a type or flavor was read with (`include=AVAILABILITY`); nothing when it was read without. */
function stock(entry: Loose): Pick<CatalogGpuType, 'dataCenters' | 'availability'> {
  const dataCenters = Array.isArray(entry.dataCenters)
    ? (entry.dataCenters as unknown[]).filter(isEntry).map((dc) => ({ id: dc.id as string, availability: level(dc.availability) }))
    : undefined;
  return {
    ...(dataCenters ? { dataCenters } : {}),
    ...(entry.availability !== undefined ? { availability: level(entry.availability) } : {}),
  };
}

function gpuType(entry: Loose): CatalogGpuType {
  const price = entry.price as Loose | undefined;
  return {
    ...named(entry),
    pool: typeof entry.pool === 'string' ? entry.pool : null,
    memory: num(entry.memory),
    cudaVersions: strings(entry.cudaVersions),
    dataCenters: undefined,
    ...stock(entry),
    price: price ? { secure: num(price.secure), community: num(price.community) } : undefined,
  };
}

function template(entry: Loose): CatalogTemplate {
  const env = entry.env && typeof entry.env === 'object' ? (entry.env as Record<string, string>) : undefined;
  return {
    ...named(entry),
    image: str(entry.image),
    serverless: entry.serverless === true,
    env,
    allowedCudaVersions: strings(entry.allowedCudaVersions),
  };
}

export function catalogDataFromApi(responses: CatalogResponses): CatalogData {
  const own = listOf(responses.ownTemplates, 'templates').map(template);
  const ownIds = new Set(own.map((t) => t.id));
  return {
    gpuTypes: listOf(responses.gpus, 'gpus').map(gpuType),
    cpuFlavors: listOf(responses.cpus, 'cpus').map((c) => {
      const vcpu = (c.vcpu ?? {}) as Loose;
      const price = c.price as Loose | undefined;
      return {
        ...named(c),
        vcpu: { min: num(vcpu.min, 1), max: num(vcpu.max, 1) },
        ramGbPerVcpu: num(c.ramGbPerVcpu, 1),
        price: price ? { serverlessPerVcpu: num(price.serverlessPerVcpu) } : undefined,
        ...stock(c),
      };
    }),
    dataCenters: listOf(responses.dataCenters, 'dataCenters').map(named),
    // The caller's own templates shadow a public one with the same id, as the service resolves them.
    templates: [
      ...own,
      ...listOf(responses.publicTemplates, 'templates')
        .map(template)
        .filter((t) => !ownIds.has(t.id)),
    ],
    networkVolumes:
      responses.networkVolumes === undefined
        ? undefined
        : listOf(responses.networkVolumes, 'networkVolumes').map((v) => ({ ...named(v), dataCenter: str(v.dataCenter) })),
    registries: responses.registries === undefined ? undefined : listOf(responses.registries, 'registries').map(named),
  };
}
