/**
 * The service's catalog as every front-end keeps it: read from the service, cached on disk per
 * service URL, refreshed with short timeouts, pinned as a snapshot file for CI, and described
 * (live, cached with its age, snapshot, none) wherever a check reports which one it used.
 */
export { CATALOG_REQUEST_TIMEOUT_MS, catalogCacheFile } from './cacheFile';
export type { CatalogCache } from './cacheFile';
export { catalogUsedJson, describeAge, describeCatalogUsed } from './catalogUsed';
export { fetchCatalogData } from './fetch';
export { catalogSnapshot, readCatalogSnapshot } from './snapshot';
