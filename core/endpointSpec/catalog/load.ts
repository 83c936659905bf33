/** Reads a pinned catalog snapshot (CatalogData as JSON), for offline checks in CI and editors. */
import { readFileSync } from 'node:fs';
import { Catalog, type CatalogData } from './catalog';

export function loadCatalogFile(path: string): Catalog {
  return catalogFromJson(readCatalogJson(path), path);
}

/** The file's JSON, or an error that names the file. */
export function readCatalogJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read catalog ${path}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

const REQUIRED_LISTS = ['gpuTypes', 'cpuFlavors', 'dataCenters', 'templates'] as const;

/** The catalog of parsed snapshot JSON, once it has the four lists every check reads. */
export function catalogFromJson(data: unknown, path: string): Catalog {
  const candidate = data as Partial<CatalogData> | null;
  if (!candidate || REQUIRED_LISTS.some((list) => !Array.isArray(candidate[list]))) {
    throw new Error(`cannot read catalog ${path}: expected an object with gpuTypes, cpuFlavors, dataCenters and templates`);
  }
  return new Catalog(candidate as CatalogData);
}
