/**
 * `/v2/catalog/*`: GPU types, CPU flavors, data centers and public templates, with availability on
 * request. Availability is the free capacity the simulation's own placement reads (capacity.ts), so
 * what the catalog shows without stock is where workers wait THROTTLED.
 */
import { badRequest, findById } from '../http/problems';
import { route, type Route } from '../http/router';
import { CPU_FLAVORS, DATA_CENTERS, GPU_TYPES, PUBLIC_TEMPLATES, availabilityLevel, type CpuFlavorSeed, type GpuTypeSeed } from './seed';
import type { StockView } from '../simulation/capacity';

type Body = Record<string, unknown>;

function listParam(query: URLSearchParams, name: string, allowed: readonly string[]): string[] {
  const values = query
    .getAll(name)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  for (const value of values) {
    if (!allowed.includes(value))
      throw badRequest(`invalid ${name}: ${JSON.stringify(value)}; allowed: ${allowed.join(', ')}`, [
        `$.${name}: must be one of ${allowed.join(', ')}`,
      ]);
  }
  return values;
}

function gpuView(type: GpuTypeSeed, query: URLSearchParams, stock: StockView): Body {
  const include = listParam(query, 'include', ['AVAILABILITY']);
  const products = listParam(query, 'product', ['POD', 'CLUSTER', 'SERVERLESS']);
  if (products.length > 0 && include.length === 0) throw badRequest('product is valid only with include=AVAILABILITY');
  const { cudaVersions, ...base } = type;
  if (include.length === 0) return { ...base };
  // Serverless stock exists only for types in a serverless pool; the other products see the same free capacity.
  const serverlessOnly = products.length === 1 && products[0] === 'SERVERLESS';
  const perDc = DATA_CENTERS.map((dc) => {
    const count = serverlessOnly && type.pool === null ? 0 : stock.freeGpus(dc.id, type.id);
    return { id: dc.id, name: dc.name, availability: availabilityLevel(count), count };
  });
  const total = perDc.reduce((n, d) => n + d.count, 0);
  return {
    ...base,
    availability: availabilityLevel(total),
    cudaVersions,
    dataCenters: perDc.filter((d) => d.count > 0).map(({ count: _count, ...d }) => d),
  };
}

function cpuView(flavor: CpuFlavorSeed, query: URLSearchParams, stock: StockView): Body {
  const include = listParam(query, 'include', ['AVAILABILITY']);
  listParam(query, 'product', ['POD', 'SERVERLESS']);
  if (include.length === 0) return { ...flavor };
  const perDc = DATA_CENTERS.map((dc) => ({ id: dc.id, name: dc.name, count: stock.freeCpus(dc.id, flavor.id) }));
  const total = perDc.reduce((n, d) => n + d.count, 0);
  return {
    ...flavor,
    availability: availabilityLevel(total),
    dataCenters: perDc.filter((d) => d.count > 0).map((d) => ({ id: d.id, name: d.name, availability: availabilityLevel(d.count) })),
  };
}

function dataCenterView(dc: (typeof DATA_CENTERS)[number], query: URLSearchParams, stock: StockView): Body {
  const include = listParam(query, 'include', ['GPU_AVAILABILITY', 'CPU_AVAILABILITY']);
  const view: Body = { ...dc };
  if (include.includes('GPU_AVAILABILITY')) {
    view.gpuAvailability = GPU_TYPES.flatMap((g) => {
      const free = stock.freeGpus(dc.id, g.id);
      return free > 0 ? [{ id: g.id, name: g.name, availability: availabilityLevel(free) }] : [];
    });
  }
  if (include.includes('CPU_AVAILABILITY')) {
    view.cpuAvailability = CPU_FLAVORS.flatMap((c) => {
      const free = stock.freeCpus(dc.id, c.id);
      return free > 0 ? [{ id: c.id, name: c.name, availability: availabilityLevel(free) }] : [];
    });
  }
  return view;
}

/** `GET <path>` lists `items` under `key`; `GET <path>/{id}` answers one, a 404 naming `what` when there is none. */
function listAndGet<T extends { id: string }>(
  path: string,
  key: string,
  what: string,
  items: readonly T[],
  view: (item: T, query: URLSearchParams) => Body,
): Route[] {
  return [
    route('GET', path, `List ${what}s`, ({ query }) => ({ status: 200, body: { [key]: items.map((item) => view(item, query)) } })),
    route('GET', `${path}/{id}`, `Get a ${what}`, ({ params, query }) => ({
      status: 200,
      body: view(findById(items, params.id, what), query),
    })),
  ];
}

export function catalogRoutes(stock: StockView): Route[] {
  return [
    ...listAndGet('/v2/catalog/gpus', 'gpus', 'GPU type', GPU_TYPES, (g, query) => gpuView(g, query, stock)),
    ...listAndGet('/v2/catalog/cpus', 'cpus', 'CPU flavor', CPU_FLAVORS, (c, query) => cpuView(c, query, stock)),
    ...listAndGet('/v2/catalog/datacenters', 'dataCenters', 'data center', DATA_CENTERS, (d, query) => dataCenterView(d, query, stock)),
    route('GET', '/v2/catalog/templates', 'List public catalog templates', () => ({
      status: 200,
      body: { templates: PUBLIC_TEMPLATES },
    })),
  ];
}
