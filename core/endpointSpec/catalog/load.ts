/** Reads a pinned catalog snapshot (CatalogData as JSON), for offline checks in CI and editors. */
import { readFileSync } from 'node:fs';
import { Catalog, type CatalogData } from './catalog';

export function loadCatalogFile(path: string): Catalog {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read catalog ${path}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const candidate = data as Partial<CatalogData> | null;
  if (
    !candidate ||
    !Array.isArray(candidate.gpuTypes) ||
    !Array.isArray(candidate.cpuFlavors) ||
    !Array.isArray(candidate.dataCenters) ||
    !Array.isArray(candidate.templates)
  ) {
    throw new Error(`cannot read catalog ${path}: expected an object with gpuTypes, cpuFlavors, dataCenters and templates`);
  }
  return new Catalog(candidate as CatalogData);
}
