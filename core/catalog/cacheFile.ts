/**
 * The on-disk catalog cache shared by the language server and the command line: one file per
 * service URL (so the emulator's catalog never stands in for the real one), in the user's cache
 * folder, checked before use because another version or a hand edit may have written it.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CatalogData } from '../endpointSpec/catalog/catalog';

/** How often the language server refreshes; also the age past which a cache counts as old. */
export const CATALOG_REFRESH_MS = 10 * 60 * 1000;
/** Each catalog read gives up after this, so a slow service never holds up a check for long. */
export const CATALOG_REQUEST_TIMEOUT_MS = 5000;

export interface CatalogCache {
  readonly version: 1;
  readonly apiUrl: string;
  readonly fetchedAt: string;
  readonly data: CatalogData;
  readonly liveProperties?: string[];
}

/** The cache file of one service URL inside `cacheDir`. */
export function catalogCacheFile(apiUrl: string, cacheDir: string): string {
  return join(cacheDir, `catalog-${createHash('sha256').update(apiUrl).digest('hex').slice(0, 16)}.json`);
}

/** The cache, or undefined when there is none, it is malformed, or it was written for another service URL. */
export async function readCatalogCache(file: string, apiUrl: string | undefined): Promise<CatalogCache | undefined> {
  try {
    const cache = JSON.parse(await readFile(file, 'utf8')) as Partial<CatalogCache> | null;
    if (cache?.version !== 1 || !cache.data || typeof cache.fetchedAt !== 'string') return undefined;
    if (apiUrl && cache.apiUrl !== apiUrl) return undefined;
    return cache as CatalogCache;
  } catch {
    // No cache yet, or an unreadable one: the next refresh writes a new one.
    return undefined;
  }
}
