/**
 * The service's catalog as every front-end keeps it: read from the service, cached on disk per
 * service URL, refreshed with short timeouts, pinned as a snapshot file for CI, and described
 * (live, cached with its age, snapshot, none) wherever a check reports which one it used.
 */
export { CATALOG_REFRESH_MS, CATALOG_REQUEST_TIMEOUT_MS, catalogCacheFile, defaultCacheDir, readCatalogCache } from './cacheFile';
export type { CatalogCache } from './cacheFile';
export { CatalogService } from './catalogService';
export type { CatalogServiceOptions } from './catalogService';
export { catalogUsedJson, describeAge, describeCatalogUsed } from './catalogUsed';
export type { CatalogUsed } from './catalogUsed';
export { fetchCatalogData } from './fetch';
export { readServiceCatalog } from './forRun';
export type { RunCatalog, RunCatalogOptions } from './forRun';
export { createCatalogService } from './setup';
export type { CatalogSetup } from './setup';
export { CATALOG_SNAPSHOT_FORMAT, CATALOG_SNAPSHOT_VERSION, catalogSnapshot, readCatalogSnapshot } from './snapshot';
export type { CatalogSnapshot, ReadSnapshot } from './snapshot';
