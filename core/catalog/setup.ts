/**
 * Builds the catalog service from a process environment, the same for the language server and the
 * command line: the key and URL rules of `configFromEnvironment`, one cache file per service URL, the
 * same refresh interval and timeouts. The key comes only from the environment, never from an LSP
 * message, since clients log those whole when tracing.
 */
import { configFromEnvironment, createApiClient, DEFAULT_API_URL, type ApiClient } from '../api';
import { readCatalogSnapshot } from './snapshot';
import { defaultCacheDir } from '../util/codeCache';
import { catalogCacheFile } from './cacheFile';
import { CatalogService } from './catalogService';

export interface CatalogSetup {
  readonly catalogFile?: string;
  readonly cacheDir?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Sent with every catalog read, so the service can tell the editor's reads from the CLI's. */
  readonly userAgent?: string;
  readonly log: (message: string) => void;
}

export function createCatalogService(setup: CatalogSetup): CatalogService {
  const env = setup.env ?? process.env;
  let pinned;
  if (setup.catalogFile) {
    try {
      pinned = readCatalogSnapshot(setup.catalogFile).catalog;
    } catch (error) {
      setup.log((error as Error).message);
    }
  }
  const config = configFromEnvironment(env);
  let client: ApiClient | undefined;
  if (config.apiKey) {
    try {
      client = createApiClient({
        ...config,
        ...(setup.userAgent ? { userAgent: setup.userAgent } : {}),
        log: (entry) => {
          setup.log(`${entry.method} ${entry.url} ${entry.status ?? entry.note ?? ''} ${entry.durationMs}ms`);
        },
      });
    } catch (error) {
      setup.log(`catalog disabled: ${(error as Error).message}`);
    }
  }
  return new CatalogService({
    client,
    pinned,
    cacheFile: catalogCacheFile(config.apiUrl ?? DEFAULT_API_URL, setup.cacheDir ?? defaultCacheDir(env)),
    log: setup.log,
  });
}
