/**
 * Reads the whole catalog from the service: the seven reads the checks need, in parallel. The
 * account's own lists (templates, volumes, registries) are optional, since a scoped key may be
 * refused them; the public catalog is not.
 */
import type { ApiClient } from '../api';
import type { CatalogData } from '../endpointSpec/catalog/catalog';
import { catalogDataFromApi } from '../endpointSpec/catalog/fromApi';

export async function fetchCatalogData(client: ApiClient, call: { timeoutMs: number; signal?: AbortSignal }): Promise<CatalogData> {
  const optional = <T>(request: Promise<T>): Promise<T | undefined> => request.catch(() => undefined);
  const [gpus, cpus, dataCenters, publicTemplates, ownTemplates, networkVolumes, registries] = await Promise.all([
    client.catalog.gpus(call),
    // With serverless stock, which the stock warnings read for CPU endpoints (GPU types carry it by default).
    client.catalog.cpus({ ...call, availability: true }),
    client.catalog.dataCenters(call),
    client.catalog.templates(call),
    optional(client.templates.list(call)),
    optional(client.networkVolumes.list(call)),
    optional(client.registries.list(call)),
  ]);
  return catalogDataFromApi({ gpus, cpus, dataCenters, publicTemplates, ownTemplates, networkVolumes, registries });
}
