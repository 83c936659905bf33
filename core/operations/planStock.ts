/**
 * The stock warning of a deploy plan. Workers wait THROTTLED, and users with them, when nothing a spec chooses
 * has serverless stock; the catalog says so before the deploy. The stock is read live when the plan is made
 * (it moves by the minute), with the pinned snapshot, when there is one, standing in for a service whose
 * catalog cannot be read. A warning, never a refusal: the stock may be back by the time workers start.
 */
import type { ApiClient } from '../api';
import { Catalog } from '../endpointSpec/catalog/catalog';
import { catalogDataFromApi } from '../endpointSpec/catalog/fromApi';
import { stockShortage, type StockShortage } from '../endpointSpec/catalog/stock';
import type { Spec } from '../deploy/effective';

/** Short: the warning is extra information, and the plan has already waited on the service. */
const STOCK_READ_TIMEOUT_MS = 10_000;

/** The shortage of what `spec` chooses, from the live catalog, else from `pinned`; undefined when something has stock or nothing can tell. */
export async function planStock(
  client: ApiClient,
  spec: Spec,
  pinned: Catalog | undefined,
  signal?: AbortSignal,
): Promise<StockShortage | undefined> {
  const catalog = (await readStockCatalog(client, spec, signal)) ?? pinned;
  return catalog ? stockShortage(spec, catalog) : undefined;
}

/** Only the lists the spec's compute needs, with serverless stock; the data centers only when the spec names some. */
async function readStockCatalog(client: ApiClient, spec: Spec, signal: AbortSignal | undefined): Promise<Catalog | undefined> {
  const gpu = typeof spec.gpu === 'object' && spec.gpu !== null ? (spec.gpu as Record<string, unknown>) : undefined;
  const cpu = Array.isArray(spec.cpu);
  if (!gpu && !cpu) return undefined;
  const options = { timeoutMs: STOCK_READ_TIMEOUT_MS, ...(signal ? { signal } : {}) };
  // Stock for as many GPUs per worker as the spec asks: a type may have one free GPU but not eight on one host.
  const count = typeof gpu?.count === 'number' && Number.isInteger(gpu.count) && gpu.count > 0 ? { count: gpu.count } : {};
  try {
    const [gpus, cpus, dataCenters] = await Promise.all([
      gpu ? client.catalog.gpus({ ...options, ...count }) : [],
      cpu ? client.catalog.cpus({ ...options, availability: true }) : [],
      Array.isArray(spec.dataCenterIds) ? client.catalog.dataCenters({ ...options, include: [] }) : [],
    ]);
    return new Catalog(catalogDataFromApi({ gpus, cpus, dataCenters, publicTemplates: [] }));
  } catch {
    return undefined;
  }
}
