/**
 * Whether what a spec chooses has serverless stock, and when none of it has, what in the catalog does: the
 * one check behind the editor's stock warnings (rules.ts) and the deploy plan's. Workers wait THROTTLED
 * for stock that may never come, and nothing else says so before a deploy. Stock is looked for in the
 * spec's `dataCenterIds` when it names known ones, anywhere otherwise. A choice whose stock the catalog
 * does not state (read without availability) is never guessed at. Alternatives are priced as the cost
 * hover prices a spec (prices.ts), per worker and with `workers.max` running.
 */
import { defaultNumber } from '../contract';
import { record, stringArray } from '../rules/rule';
import type { Catalog, CatalogCpuFlavor, CatalogGpuType } from './catalog';
import { gpuHourPrice, vcpuHourPrice } from './prices';

/** US dollars per hour, from the cheapest placement with stock to the priciest. */
interface HourlyRange {
  readonly low: number;
  readonly high: number;
}

/** A pool or CPU flavor with stock where the spec asks for it. */
export interface StockAlternative {
  /** A GPU pool id, or a CPU flavor id. */
  readonly id: string;
  /** VRAM of the pool's smallest GPU with stock, or the RAM of one CPU worker, in GB. */
  readonly memoryGb: number;
  /** vCPUs per worker of a CPU flavor: the spec's count where the flavor offers it. */
  readonly vcpuCount?: number;
  /** One worker for an hour; absent when the catalog has no price for it. */
  readonly perWorkerHour?: HourlyRange;
  /** `workers.max` workers for an hour; absent when the catalog has no price for it. */
  readonly atMaxHour?: HourlyRange;
}

/** Nothing the spec chose has stock where it asks. */
export interface StockShortage {
  readonly compute: 'gpu' | 'cpu';
  /** The chosen GPU pools, or CPU flavor ids. */
  readonly chosen: readonly string[];
  /** The spec's data centers stock was looked for in; absent when it was looked for anywhere. */
  readonly dataCenters?: readonly string[];
  /** Some chosen GPU type or flavor has stock outside `dataCenters`. */
  readonly stockElsewhere: boolean;
  readonly workersMax: number;
  /** At most three: GPU pools of the closest VRAM first (at or above the chosen GPUs', then below), CPU flavors cheapest first. */
  readonly alternatives: readonly StockAlternative[];
  /** The shortage in words, for the editor's warning and the plan alike. */
  readonly message: string;
}

const MAX_STOCK_ALTERNATIVES = 3;

/** The shortage of what `spec` chooses, or undefined when something has stock, or the catalog cannot tell. */
export function stockShortage(spec: Record<string, unknown>, catalog: Catalog): StockShortage | undefined {
  const named = stringArray(spec.dataCenterIds)?.filter((id) => catalog.dataCenters.has(id));
  const where = named && named.length > 0 ? named : undefined;
  const workersMax = countOf(record(spec.workers)?.max, 'workers.max');
  if (workersMax === undefined) return undefined;
  const gpu = record(spec.gpu);
  if (gpu) return gpuShortage(gpu, catalog, where, workersMax);
  if (Array.isArray(spec.cpu)) return cpuShortage(spec.cpu, catalog, where, workersMax);
  return undefined;
}

function gpuShortage(
  gpu: Record<string, unknown>,
  catalog: Catalog,
  where: readonly string[] | undefined,
  workersMax: number,
): StockShortage | undefined {
  const pools = stringArray(gpu.pools)?.filter((pool) => catalog.pools.has(pool));
  const gpuCount = countOf(gpu.count, 'gpu.count');
  if (!pools || pools.length === 0 || gpuCount === undefined) return undefined;
  const types = catalog.selectedTypes(pools, stringArray(gpu.excludedTypes) ?? []);
  if (types.length === 0 || types.some((type) => hasStock(type, where) !== false)) return undefined;
  const wanted = Math.min(...types.map((type) => type.memory));
  const alternatives = [...catalog.pools.keys()]
    .filter((pool) => !pools.includes(pool))
    .flatMap((pool) => {
      const stocked = (catalog.pools.get(pool) ?? []).filter((type) => hasStock(type, where) === true);
      if (stocked.length === 0) return [];
      const prices = stocked.flatMap((type) => gpuHourPrice(type) ?? []).map((price) => price * gpuCount);
      return [{ id: pool, memoryGb: Math.min(...stocked.map((type) => type.memory)), ...priced(prices, workersMax) }];
    })
    .sort((a, b) => vramDistance(a.memoryGb, wanted) - vramDistance(b.memoryGb, wanted) || cheaper(a, b));
  const elsewhere = types.some((type) => where && hasStock(type, undefined) === true);
  return shortage('gpu', pools, where, elsewhere, workersMax, alternatives);
}

/** Closest at or above the VRAM wanted first, then closest below it: a smaller GPU may not hold the model. */
function vramDistance(memory: number, wanted: number): number {
  return memory >= wanted ? memory - wanted : 100_000 + wanted - memory;
}

function cpuShortage(
  items: readonly unknown[],
  catalog: Catalog,
  where: readonly string[] | undefined,
  workersMax: number,
): StockShortage | undefined {
  const chosen = items.flatMap((item) => {
    const entry = record(item);
    const flavor = typeof entry?.id === 'string' ? catalog.cpuFlavors.get(entry.id) : undefined;
    return flavor ? [{ flavor, vcpuCount: entry?.vcpuCount }] : [];
  });
  if (chosen.length === 0 || chosen.some(({ flavor }) => hasStock(flavor, where) !== false)) return undefined;
  const wantedVcpus = chosen.map((c) => c.vcpuCount).find((n): n is number => typeof n === 'number' && Number.isInteger(n) && n > 0);
  const ids = chosen.map(({ flavor }) => flavor.id);
  const alternatives = [...catalog.cpuFlavors.values()]
    .filter((flavor) => !ids.includes(flavor.id) && hasStock(flavor, where) === true)
    .map((flavor) => {
      const vcpuCount = vcpusFor(flavor, wantedVcpus ?? flavor.vcpu.min);
      const price = vcpuHourPrice(flavor);
      const prices = price === undefined ? [] : [price * vcpuCount];
      return { id: flavor.id, memoryGb: vcpuCount * flavor.ramGbPerVcpu, vcpuCount, ...priced(prices, workersMax) };
    })
    .sort(cheaper);
  const elsewhere = chosen.some(({ flavor }) => where && hasStock(flavor, undefined) === true);
  return shortage('cpu', [...new Set(ids)], where, elsewhere, workersMax, alternatives);
}

/** The spec's vCPU count where the flavor offers it, else the power of two nearest within the flavor's range. */
function vcpusFor(flavor: CatalogCpuFlavor, wanted: number): number {
  let count = 2 ** Math.floor(Math.log2(Math.min(Math.max(wanted, flavor.vcpu.min), flavor.vcpu.max)));
  while (count < flavor.vcpu.min) count *= 2;
  return count;
}

function shortage(
  compute: 'gpu' | 'cpu',
  chosen: readonly string[],
  where: readonly string[] | undefined,
  stockElsewhere: boolean,
  workersMax: number,
  ranked: readonly StockAlternative[],
): StockShortage {
  const alternatives = ranked.slice(0, MAX_STOCK_ALTERNATIVES);
  const facts = { compute, chosen, ...(where ? { dataCenters: where } : {}), stockElsewhere, workersMax, alternatives };
  return { ...facts, message: shortageMessage(facts) };
}

function shortageMessage(s: Omit<StockShortage, 'message'>): string {
  const there = s.dataCenters ? ` in ${s.dataCenters.join(', ')}` : '';
  const what = s.compute === 'gpu' ? `GPUs chosen in ${s.chosen.join(', ')}` : `chosen CPU flavors (${s.chosen.join(', ')})`;
  const others = s.compute === 'gpu' ? 'pools' : 'CPU flavors';
  const parts = [`none of the ${what} has serverless stock${there}, so workers would wait THROTTLED`];
  parts.push(
    s.alternatives.length > 0
      ? `${others} with stock${there}: ${s.alternatives.map(alternativeText).join(', ')}`
      : `no other ${others.replace(/s$/, '')} has stock${there} either`,
  );
  if (s.dataCenters)
    parts.push(
      `${s.stockElsewhere ? 'the chosen ones have stock elsewhere: ' : ''}leaving dataCenterIds unset gives the scheduler more room`,
    );
  return parts.join('; ');
}

/** `ADA_24 (24 GB, $0.69/h per worker)`, `cpu3c (4 vCPU, 8 GB, $0.12/h per worker)`. */
export function alternativeText(a: StockAlternative): string {
  const facts = [...(a.vcpuCount !== undefined ? [`${a.vcpuCount} vCPU`] : []), `${a.memoryGb} GB`];
  if (a.perWorkerHour) facts.push(`${dollars(a.perWorkerHour)}/h per worker`);
  return `${a.id} (${facts.join(', ')})`;
}

const CENTS = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** `$0.69` or `$0.40–$0.76`, as the billing figures write hourly prices (a cent or more). */
function dollars(range: HourlyRange): string {
  const [low, high] = [`$${CENTS.format(range.low)}`, `$${CENTS.format(range.high)}`];
  return low === high ? low : `${low}–${high}`;
}

/** Stock in `where` (anywhere when undefined); undefined when the catalog does not say. */
function hasStock(item: Pick<CatalogGpuType, 'dataCenters' | 'availability'>, where: readonly string[] | undefined): boolean | undefined {
  if (item.dataCenters) return item.dataCenters.some((dc) => dc.availability !== 'NONE' && (!where || where.includes(dc.id)));
  if (where || item.availability === undefined) return undefined;
  return item.availability !== 'NONE';
}

function priced(perWorker: readonly number[], workersMax: number): Pick<StockAlternative, 'perWorkerHour' | 'atMaxHour'> {
  if (perWorker.length === 0) return {};
  const [low, high] = [Math.min(...perWorker), Math.max(...perWorker)];
  return { perWorkerHour: { low, high }, atMaxHour: { low: low * workersMax, high: high * workersMax } };
}

/** Cheapest first, the unpriced last, then by id so the order never depends on the catalog's. */
function cheaper(a: StockAlternative, b: StockAlternative): number {
  return (a.perWorkerHour?.low ?? Infinity) - (b.perWorkerHour?.low ?? Infinity) || a.id.localeCompare(b.id);
}

/** A count from the spec with the schema's default; undefined when it is not a count (the schema reports that). */
function countOf(value: unknown, path: 'workers.max' | 'gpu.count'): number | undefined {
  if (value === undefined) return defaultNumber(path);
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}
