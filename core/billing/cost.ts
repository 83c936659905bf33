/**
 * What a spec costs to keep running, from catalog prices, before it is deployed: the always-on
 * cost that `workers.min` implies and the cost at `workers.max`, per hour and per month.
 *
 * Prices: a GPU worker is priced at the catalog's secure-cloud price per GPU-hour times
 * `gpu.count`, a CPU worker at the serverless price per vCPU-hour times its `vcpuCount` (the
 * prices the service's serverless billing uses). A selection offers several placements (every GPU
 * type left in the chosen pools, every CPU configuration), and the scheduler picks among them, so
 * a cost is a range from the cheapest placement to the priciest. The catalog has no separate
 * active (always-on) and flex rate, so the workers `workers.min` keeps running and those scaled up
 * to `workers.max` are priced alike. Disk, network volumes and fees are not included.
 */
import type { Catalog } from '../endpointSpec/catalog/catalog';
import { gpuHourPrice, vcpuHourPrice } from '../endpointSpec/catalog/prices';
import { defaultNumber, minimumOf } from '../endpointSpec/contract';
import { record } from '../endpointSpec/rules/rule';
import { scaleRange, type UsdRange } from './format';

/** 8,760 hours a year over 12 months: the convention cloud price sheets use for "per month". */
export const HOURS_PER_MONTH = 730;

/** One way a worker can be placed, with its price per worker-hour. */
interface Placement {
  /** GPU type id or CPU flavor id. */
  readonly id: string;
  readonly name: string;
  /** vCPUs for a CPU placement. */
  readonly vcpuCount?: number;
  /** Catalog price of one unit (GPU-hour or vCPU-hour). */
  readonly unitPrice: number;
  /** Price of one worker for one hour: unit price × GPUs or vCPUs. */
  readonly perWorkerHour: number;
}

export interface SpecCost {
  readonly compute: 'gpu' | 'cpu';
  readonly workersMin: number;
  readonly workersMax: number;
  /** GPUs per worker (GPU specs). */
  readonly gpuCount?: number;
  /** The priced placements, cheapest first; empty when the catalog prices none of them. */
  readonly placements: readonly Placement[];
  /** What the selection names that the catalog has no price for (or does not know). */
  readonly unpriced: readonly string[];
  /** Per worker-hour, cheapest to priciest placement; undefined when nothing is priced. */
  readonly perWorker?: UsdRange;
  /** Per hour with `workers.min` running. */
  readonly alwaysOn?: UsdRange;
  /** Per hour with `workers.max` running. */
  readonly atMax?: UsdRange;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

/** A count from the spec: the default when absent, undefined when present but not a count. */
function count(value: unknown, fallback: number, minimum: number): number | undefined {
  if (value === undefined) return fallback;
  return typeof value === 'number' && Number.isInteger(value) && value >= minimum ? value : undefined;
}

/** A count field with the create default and minimum the schema states for it. */
function specCount(value: unknown, path: string): number | undefined {
  return count(value, defaultNumber(path), minimumOf(path));
}

/**
 * The cost of a spec (or of a live endpoint record, which has the same `gpu`/`cpu`/`workers`
 * shape). Undefined when the spec names no compute or a number the cost depends on is invalid:
 * the spec's own diagnostics say what is wrong, a price computed from it would be fiction.
 */
export function specCost(spec: unknown, catalog: Catalog): SpecCost | undefined {
  const body = record(spec);
  if (!body) return undefined;
  const workers = record(body.workers) ?? {};
  const workersMin = specCount(workers.min, 'workers.min');
  const workersMax = specCount(workers.max, 'workers.max');
  if (workersMin === undefined || workersMax === undefined) return undefined;

  const placements: Placement[] = [];
  const unpriced: string[] = [];
  const gpu = record(body.gpu);
  let compute: 'gpu' | 'cpu';
  let gpuCount: number | undefined;
  if (gpu) {
    compute = 'gpu';
    gpuCount = specCount(gpu.count, 'gpu.count');
    if (gpuCount === undefined) return undefined;
    const pools = strings(gpu.pools);
    for (const pool of pools) if (!catalog.pools.has(pool)) unpriced.push(`pool ${pool}`);
    for (const type of catalog.selectedTypes(pools, strings(gpu.excludedTypes))) {
      const price = gpuHourPrice(type);
      if (price === undefined) unpriced.push(type.name);
      else placements.push({ id: type.id, name: type.name, unitPrice: price, perWorkerHour: price * gpuCount });
    }
  } else if (Array.isArray(body.cpu)) {
    compute = 'cpu';
    for (const item of body.cpu) {
      const entry = record(item);
      const id = typeof entry?.id === 'string' ? entry.id : undefined;
      const vcpuCount = count(entry?.vcpuCount, 0, 1);
      if (!id || !vcpuCount) continue;
      const flavor = catalog.cpuFlavors.get(id);
      const price = flavor && vcpuHourPrice(flavor);
      if (!flavor || price === undefined) unpriced.push(id);
      else placements.push({ id, name: flavor.name, vcpuCount, unitPrice: price, perWorkerHour: price * vcpuCount });
    }
  } else {
    return undefined;
  }

  placements.sort((a, b) => a.perWorkerHour - b.perWorkerHour || a.id.localeCompare(b.id));
  const base = { compute, workersMin, workersMax, ...(gpuCount !== undefined ? { gpuCount } : {}), placements, unpriced };
  if (placements.length === 0) return base;
  const perWorker = { low: placements[0].perWorkerHour, high: placements[placements.length - 1].perWorkerHour };
  return { ...base, perWorker, alwaysOn: scaleRange(perWorker, workersMin), atMax: scaleRange(perWorker, workersMax) };
}

export function perMonth(perHour: UsdRange): UsdRange {
  return scaleRange(perHour, HOURS_PER_MONTH);
}

/**
 * The always-on cost before and after a change (either side may be undefined: nothing runs), and by how much it
 * moves at each end of the range. Undefined when a side has workers to run but no price to run them at.
 */
export function alwaysOnChange(before: SpecCost | undefined, after: SpecCost | undefined) {
  const zero = { low: 0, high: 0 };
  const hourly = (cost: SpecCost | undefined): UsdRange | undefined =>
    cost === undefined ? zero : (cost.alwaysOn ?? (cost.workersMin === 0 ? zero : undefined));
  const [from, to] = [hourly(before), hourly(after)];
  if (!from || !to) return undefined;
  return { before: from, after: to, change: { low: to.low - from.low, high: to.high - from.high } };
}
