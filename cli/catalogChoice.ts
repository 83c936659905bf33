/**
 * Which catalog a command checks against: the snapshot named by --catalog (or
 * $ENDPOINT_STUDIO_CATALOG_FILE), else the service's catalog through the language server's cache,
 * refresh and timeouts (live, or the cache when the service cannot be reached or --offline), else none.
 */
import { readServiceCatalog, type RunCatalog } from '../core/catalog/forRun';
import { loadSnapshotOption } from './inputs';
import type { ServiceIo } from './service';

export interface CatalogChoice {
  readonly catalogPath: string | undefined;
  readonly offline: boolean;
}

/** The catalog to check against, or `false` after saying why the snapshot cannot be used (the caller exits 2). */
export async function chooseCatalog(command: string, choice: CatalogChoice, io: ServiceIo): Promise<RunCatalog | false> {
  const { catalogPath } = choice;
  if (catalogPath) {
    const snapshot = loadSnapshotOption(catalogPath, command, io);
    if (!snapshot) return false;
    const { catalog, fetchedAt } = snapshot;
    return { catalog, used: { source: 'snapshot', file: catalogPath, ...(fetchedAt ? { fetchedAt } : {}) }, expected: true };
  }
  return readServiceCatalog({ env: io.env ?? process.env, offline: choice.offline, userAgent: 'endpoint-studio-cli' });
}
