/**
 * The catalog prices a cost needs, read from the service: GPU types (with their pools) and CPU
 * flavors only, without availability, so it is two light reads. For the deploy plan's cost line,
 * which is extra information: a failure is not an error of the deploy, the line is just left out.
 */
import type { ApiClient } from '../api';
import { Catalog } from '../endpointSpec/catalog/catalog';
import { catalogDataFromApi } from '../endpointSpec/catalog/fromApi';

export async function readPriceCatalog(
  api: ApiClient,
  options: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<Catalog | undefined> {
  const call = { timeoutMs: options.timeoutMs ?? 10_000, ...(options.signal ? { signal: options.signal } : {}) };
  try {
    const [gpus, cpus] = await Promise.all([api.catalog.gpus({ availability: false, ...call }), api.catalog.cpus(call)]);
    return new Catalog(catalogDataFromApi({ gpus, cpus, dataCenters: [], publicTemplates: [] }));
  } catch {
    return undefined;
  }
}
