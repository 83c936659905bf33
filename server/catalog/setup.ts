/**
 * Builds the catalog service from what the server process was given. The API key comes only from
 * the process environment (the extension sets it when it starts the server), never from an LSP
 * message, since clients log those whole when tracing.
 */
import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { configFromEnvironment, createApiClient, DEFAULT_API_URL, type ApiClient } from '../../core/api';
import { loadCatalogFile } from '../../core/endpointSpec/catalog/load';
import { CatalogService } from './catalogService';

export const CATALOG_REFRESH_MS = 10 * 60 * 1000;
export const CATALOG_REQUEST_TIMEOUT_MS = 5000;

export interface CatalogSetup {
  readonly catalogFile?: string;
  readonly cacheDir?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly log: (message: string) => void;
}

export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.ENDPOINT_STUDIO_CACHE_DIR || join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'endpoint-studio');
}

export function createCatalogService(setup: CatalogSetup): CatalogService {
  const env = setup.env ?? process.env;
  let pinned;
  if (setup.catalogFile) {
    try {
      pinned = loadCatalogFile(setup.catalogFile);
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
        log: (entry) => {
          setup.log(`${entry.method} ${entry.url} ${entry.status ?? entry.note ?? ''} ${entry.durationMs}ms`);
        },
      });
    } catch (error) {
      setup.log(`catalog disabled: ${(error as Error).message}`);
    }
  }
  // One cache per service URL, so the emulator's catalog never stands in for the real one.
  const cacheFile = join(
    setup.cacheDir ?? defaultCacheDir(env),
    `catalog-${createHash('sha256')
      .update(config.apiUrl ?? DEFAULT_API_URL)
      .digest('hex')
      .slice(0, 16)}.json`,
  );
  return new CatalogService({
    client,
    pinned,
    cacheFile,
    refreshIntervalMs: CATALOG_REFRESH_MS,
    requestTimeoutMs: CATALOG_REQUEST_TIMEOUT_MS,
    fetchOpenApi: client ? (signal) => client.openApi({ signal, timeoutMs: CATALOG_REQUEST_TIMEOUT_MS }) : undefined,
    log: setup.log,
  });
}
