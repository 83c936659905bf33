/**
 * The catalog of one command-line run: the language server's catalog service (its cache file,
 * timeouts and key rules) asked once instead of in the background. Live when the service answers;
 * otherwise the cache, said to be stale; otherwise none, with the reason the catalog rules were skipped.
 */
import { configFromEnvironment } from '../api/config';
import type { Catalog } from '../endpointSpec/catalog/catalog';
import type { CatalogUsed } from './catalogUsed';

export interface RunCatalogOptions {
  readonly env: NodeJS.ProcessEnv;
  /** Use the cache only: no request is sent. */
  readonly offline: boolean;
  readonly userAgent: string;
}

export interface RunCatalog {
  readonly catalog?: Catalog;
  readonly liveProperties?: ReadonlySet<string>;
  readonly used: CatalogUsed;
  /** A key was configured, so the catalog rules were expected to run; their absence is then worth a line. */
  readonly expected: boolean;
}

const NO_KEY = 'no API key (set ENDPOINT_STUDIO_API_KEY, or pin a snapshot with --catalog FILE)';

export async function readServiceCatalog(options: RunCatalogOptions): Promise<RunCatalog> {
  if (!configFromEnvironment(options.env).apiKey) return { used: { source: 'none', reason: NO_KEY }, expected: false };
  // Loaded only with a key: without one (most `validate` runs) the HTTP client and its modules are never needed.
  const [{ createCatalogService }, { CATALOG_REFRESH_MS }] = await Promise.all([import('./setup.js'), import('./cacheFile.js')]);
  const setupProblems: string[] = [];
  const service = createCatalogService({
    env: options.env,
    userAgent: options.userAgent,
    log: (message) => setupProblems.push(message),
  });
  try {
    await service.loadCache();
    const refreshed = !options.offline && service.canRefresh;
    const status = refreshed ? await service.refresh() : service.status;
    const { catalog, liveProperties } = service;
    const why = options.offline
      ? '--offline: the service was not asked'
      : refreshed
        ? `the service could not be reached: ${status.error ?? 'no answer'}`
        : (setupProblems.at(-1) ?? 'the service is not configured');
    if (status.state === 'live' && status.fetchedAt)
      return { catalog, liveProperties, used: { source: 'live', fetchedAt: status.fetchedAt }, expected: true };
    if (status.state === 'cached' && status.fetchedAt && catalog) {
      const old = Date.now() - Date.parse(status.fetchedAt) > CATALOG_REFRESH_MS;
      const used: CatalogUsed = { source: 'cached', fetchedAt: status.fetchedAt, stale: !options.offline || old, reason: why };
      return { catalog, liveProperties, used, expected: true };
    }
    return { used: { source: 'none', reason: `${why}; no cached catalog` }, expected: true };
  } finally {
    service.dispose();
  }
}
