/**
 * Keeps the service's catalog for the language server and the command line: read from a disk cache
 * at start, refreshed with short timeouts (the server in the background, never in a request path;
 * the CLI once per run). Offline, the cache answers and its age is reported; with no catalog at
 * all, catalog checks are simply skipped.
 */
import type { ApiClient } from '../api';
import { Catalog, type CatalogData } from '../endpointSpec/catalog/catalog';
import { createBodyPropertyPaths } from '../endpointSpec/liveSchema';
import type { CatalogStatus } from '../protocol';
import { writeFileAtomic } from '../util/atomicWrite';
import { CATALOG_REFRESH_MS, CATALOG_REQUEST_TIMEOUT_MS, readCatalogCache, type CatalogCache } from './cacheFile';
import { fetchCatalogData } from './fetch';

export interface CatalogServiceOptions {
  /** No client: no key or no network configured; only the cache or a pinned file can serve. */
  readonly client?: ApiClient;
  readonly cacheFile: string;
  /** A catalog snapshot file that replaces the live catalog entirely. */
  readonly pinned?: Catalog;
  readonly log: (message: string) => void;
}

export class CatalogService {
  private current?: Catalog;
  private properties?: ReadonlySet<string>;
  private fetchedAt?: string;
  private state: CatalogStatus['state'] = 'none';
  private lastError?: string;
  private timer?: NodeJS.Timeout;
  private inFlight?: Promise<CatalogStatus>;
  private readonly listeners = new Set<(catalogChanged: boolean) => void>();

  constructor(private readonly options: CatalogServiceOptions) {
    if (options.pinned) {
      this.current = options.pinned;
      this.state = 'pinned';
    }
  }

  get catalog(): Catalog | undefined {
    return this.current;
  }

  /** Whether `refresh` can reach a service at all (a client was configured and no snapshot is pinned). */
  get canRefresh(): boolean {
    return this.state !== 'pinned' && this.options.client !== undefined;
  }

  get liveProperties(): ReadonlySet<string> | undefined {
    return this.properties;
  }

  get status(): CatalogStatus {
    return {
      state: this.state,
      ...(this.fetchedAt ? { fetchedAt: this.fetchedAt } : {}),
      ...(this.lastError ? { error: this.lastError } : {}),
    };
  }

  /** Called when the catalog or only its status (a failed refresh) changed. */
  onDidChange(listener: (catalogChanged: boolean) => void): void {
    this.listeners.add(listener);
  }

  /** Loads the disk cache, then refreshes in the background and every CATALOG_REFRESH_MS. */
  async start(): Promise<void> {
    if (this.state === 'pinned') return;
    await this.loadCache();
    if (!this.options.client) return;
    void this.refresh();
    this.timer = setInterval(() => void this.refresh(), CATALOG_REFRESH_MS);
    this.timer.unref();
  }

  /** Fetches the whole catalog now; concurrent callers share one refresh. */
  refresh(): Promise<CatalogStatus> {
    if (this.state === 'pinned' || !this.options.client) return Promise.resolve(this.status);
    this.inFlight ??= this.fetchAll(this.options.client).finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  dispose(): void {
    clearInterval(this.timer);
    this.listeners.clear();
  }

  private async fetchAll(client: ApiClient): Promise<CatalogStatus> {
    const controller = new AbortController();
    const call = { timeoutMs: CATALOG_REQUEST_TIMEOUT_MS, signal: controller.signal };
    try {
      const [data, openApi] = await Promise.all([
        fetchCatalogData(client, call),
        // The served schema is optional: without it the checks use the bundled one.
        client.openApi(call).catch(() => undefined),
      ]);
      const properties = openApi ? createBodyPropertyPaths(openApi) : undefined;
      this.apply(data, new Date().toISOString(), 'live', properties && properties.size > 0 ? properties : undefined);
      this.lastError = undefined;
      await this.saveCache(client.apiUrl, data);
    } catch (error) {
      controller.abort();
      this.lastError = client.redact(error instanceof Error ? error.message : String(error));
      const kept = this.current ? `, keeping the catalog from ${this.fetchedAt ?? 'an unknown time'}` : '';
      this.options.log(`catalog refresh failed${kept}: ${this.lastError}`);
      for (const listener of this.listeners) listener(false);
    }
    return this.status;
  }

  private apply(data: CatalogData, fetchedAt: string, state: 'live' | 'cached', properties?: ReadonlySet<string>): void {
    this.current = new Catalog(data);
    this.fetchedAt = fetchedAt;
    this.state = state;
    if (properties) this.properties = properties;
    for (const listener of this.listeners) listener(true);
  }

  /** Reads the disk cache, if there is one for this service; `start` does this first. */
  async loadCache(): Promise<void> {
    if (this.state === 'pinned') return;
    // A cache written for another service must never describe this one.
    const cache = await readCatalogCache(this.options.cacheFile, this.options.client?.apiUrl);
    if (cache) this.apply(cache.data, cache.fetchedAt, 'cached', cache.liveProperties ? new Set(cache.liveProperties) : undefined);
  }

  private async saveCache(apiUrl: string, data: CatalogData): Promise<void> {
    if (!this.fetchedAt) return;
    const cache: CatalogCache = {
      version: 1,
      apiUrl,
      fetchedAt: this.fetchedAt,
      data,
      ...(this.properties ? { liveProperties: [...this.properties] } : {}),
    };
    try {
      await writeFileAtomic(this.options.cacheFile, JSON.stringify(cache));
    } catch (error) {
      this.options.log(`catalog cache not written: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
