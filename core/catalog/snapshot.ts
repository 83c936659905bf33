/**
 * The catalog snapshot file that `validate --catalog`, `migrate --catalog` and the editor's pinned
 * catalog read, and `endpoint-studio catalog export` writes: the catalog's data (the same shape the
 * checks index) with when and where it was read and a format version, so CI without a key can pin
 * it and say how old it is. A file without the version (hand-written CatalogData) is read as well.
 */
import type { Catalog, CatalogData } from '../endpointSpec/catalog/catalog';
import { catalogFromJson, readCatalogJson } from '../endpointSpec/catalog/load';

const CATALOG_SNAPSHOT_FORMAT = 'endpoint-studio-catalog';
const CATALOG_SNAPSHOT_VERSION = 1;

export interface CatalogSnapshot extends CatalogData {
  readonly format: typeof CATALOG_SNAPSHOT_FORMAT;
  readonly version: typeof CATALOG_SNAPSHOT_VERSION;
  /** When the service was read (ISO 8601). */
  readonly fetchedAt: string;
  /** The REST API the catalog came from. */
  readonly apiUrl: string;
  /** Each pool with its GPU types: derived from `gpuTypes[].pool`, written for people reading a diff; the checks ignore it. */
  readonly pools: Readonly<Record<string, readonly string[]>>;
}

/** The snapshot of catalog data read from `apiUrl` at `fetchedAt`, keys in a fixed order so re-exports diff well. */
export function catalogSnapshot(data: CatalogData, fetchedAt: string, apiUrl: string): CatalogSnapshot {
  const pools: Record<string, string[]> = {};
  for (const type of data.gpuTypes) if (type.pool) (pools[type.pool] ??= []).push(type.id);
  return {
    format: CATALOG_SNAPSHOT_FORMAT,
    version: CATALOG_SNAPSHOT_VERSION,
    fetchedAt,
    apiUrl,
    pools: Object.fromEntries(Object.entries(pools).sort(([a], [b]) => a.localeCompare(b))),
    gpuTypes: data.gpuTypes,
    cpuFlavors: data.cpuFlavors,
    dataCenters: data.dataCenters,
    templates: data.templates,
    ...(data.networkVolumes ? { networkVolumes: data.networkVolumes } : {}),
    ...(data.registries ? { registries: data.registries } : {}),
  };
}

export interface ReadSnapshot {
  readonly catalog: Catalog;
  /** Absent for a file without it (hand-written, or from before snapshots carried it). */
  readonly fetchedAt?: string;
}

/** Reads a snapshot file; throws an error naming the file when it cannot be used. */
export function readCatalogSnapshot(path: string): ReadSnapshot {
  const json = readCatalogJson(path);
  const header = (typeof json === 'object' && json !== null ? json : {}) as { version?: unknown; fetchedAt?: unknown };
  if (typeof header.version === 'number' && header.version > CATALOG_SNAPSHOT_VERSION)
    throw new Error(
      `cannot read catalog ${path}: snapshot format version ${header.version} is newer than this version reads (${CATALOG_SNAPSHOT_VERSION})`,
    );
  const catalog = catalogFromJson(json, path);
  return typeof header.fetchedAt === 'string' ? { catalog, fetchedAt: header.fetchedAt } : { catalog };
}
