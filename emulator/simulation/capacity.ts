/**
 * Free capacity: the seeded stock (catalog/seed.ts) less what the emulator's own placed workers
 * hold. Placement and the catalog's availability answers both read it, so a pool or flavor the
 * catalog shows without stock is one whose workers wait THROTTLED, and one that workers filled
 * stops showing stock. Held amounts are counts kept as workers are placed and leave, so a lookup
 * costs the same beside 20 workers or 20,000.
 */
import { cpuStock, gpuStock } from '../catalog/seed';
import type { Worker } from './workers';

const gpuKey = (dataCenterId: string, gpuTypeId: string): string => `gpu|${dataCenterId}|${gpuTypeId}`;
const cpuKey = (dataCenterId: string, flavorId: string): string => `cpu|${dataCenterId}|${flavorId}`;

/** What a placed worker holds: its GPUs of one type, or one slot of a CPU flavor; nothing before it is placed. */
function holding(worker: Worker): { key: string; amount: number } | undefined {
  if (!worker.dataCenterId) return undefined;
  if (worker.gpuTypeId) return { key: gpuKey(worker.dataCenterId, worker.gpuTypeId), amount: worker.gpuCount };
  if (worker.cpuFlavorId) return { key: cpuKey(worker.dataCenterId, worker.cpuFlavorId), amount: 1 };
  return undefined;
}

export interface StockView {
  freeGpus(dataCenterId: string, gpuTypeId: string): number;
  freeCpus(dataCenterId: string, flavorId: string): number;
}

export class Capacity implements StockView {
  private readonly held = new Map<string, number>();

  freeGpus(dataCenterId: string, gpuTypeId: string): number {
    return Math.max(0, gpuStock(dataCenterId, gpuTypeId) - (this.held.get(gpuKey(dataCenterId, gpuTypeId)) ?? 0));
  }

  freeCpus(dataCenterId: string, flavorId: string): number {
    return Math.max(0, cpuStock(dataCenterId, flavorId) - (this.held.get(cpuKey(dataCenterId, flavorId)) ?? 0));
  }

  /** Call once the worker is placed. */
  hold(worker: Worker): void {
    this.change(worker, 1);
  }

  /** Call when a placed worker leaves. */
  release(worker: Worker): void {
    this.change(worker, -1);
  }

  private change(worker: Worker, sign: 1 | -1): void {
    const what = holding(worker);
    if (!what) return;
    const next = (this.held.get(what.key) ?? 0) + sign * what.amount;
    if (next > 0) this.held.set(what.key, next);
    else this.held.delete(what.key);
  }
}
