/**
 * Workers and their placement. A worker is placed on the first GPU type (in pool order, minus
 * exclusions, within the CUDA constraints) or CPU flavor that has free stock (capacity.ts) in an
 * allowed data center; with none free it waits THROTTLED and tries again on a later tick.
 */
import { compareVersions } from '../../core/endpointSpec/catalog/rules';
import { CPU_FLAVORS, DATA_CENTERS, findCpuFlavor, findGpuType, poolMembers } from '../catalog/seed';
import type { StoredEndpoint } from '../state';
import type { StockView } from './capacity';

export type WorkerStatus = 'RUNNING' | 'IDLE' | 'INITIALIZING' | 'THROTTLED' | 'UNHEALTHY';

export interface Worker {
  readonly id: string;
  readonly endpointId: string;
  version: number;
  status: WorkerStatus;
  image: string;
  gpuCount: number;
  gpuTypeId: string | null;
  cpuFlavorId: string | null;
  vcpuCount: number;
  dataCenterId: string | null;
  /**
   * Real-clock ms: when placement succeeded (the image pull starts), when the container started, and
   * when a slow-booting container (slowBoot.ts) is due ready.
   */
  placedAt?: number;
  startedAt?: number;
  readyAt?: number;
  idleSince?: number;
  jobId?: string;
  /** In-flight load-balancer requests. */
  activeRequests: number;
  /** A crash-looping container: restarts so far, and when the next is due (real-clock ms). */
  restarts?: number;
  nextRestartAt?: number;
}

export interface Placement {
  gpuTypeId: string | null;
  cpuFlavorId: string | null;
  vcpuCount: number;
  dataCenterId: string;
}

export function gpuCandidates(endpoint: StoredEndpoint): string[] {
  const gpu = endpoint.gpu;
  if (!gpu) return [];
  const excluded = new Set(gpu.excludedTypes);
  const floor = gpu.minCudaVersion;
  return gpu.pools
    .flatMap((pool) => poolMembers(pool))
    .filter((type) => !excluded.has(type.id))
    .filter((type) => gpu.allowedCudaVersions.length === 0 || type.cudaVersions.some((v) => gpu.allowedCudaVersions.includes(v)))
    .filter((type) => floor === null || type.cudaVersions.some((v) => compareVersions(v, floor) >= 0))
    .map((type) => type.id);
}

/** The first free place for one worker of the endpoint, by pool (or flavor) order, then data center order. */
export function place(endpoint: StoredEndpoint, stock: StockView): Placement | undefined {
  const centers = endpoint.dataCenterIds.length > 0 ? endpoint.dataCenterIds : DATA_CENTERS.map((d) => d.id);
  if (endpoint.gpu) {
    for (const typeId of gpuCandidates(endpoint)) {
      for (const dc of centers) {
        if (stock.freeGpus(dc, typeId) >= endpoint.gpu.count)
          return { gpuTypeId: typeId, cpuFlavorId: null, vcpuCount: 0, dataCenterId: dc };
      }
    }
    return undefined;
  }
  for (const choice of endpoint.cpu ?? []) {
    if (!CPU_FLAVORS.some((f) => f.id === choice.id)) continue;
    for (const dc of centers) {
      if (stock.freeCpus(dc, choice.id) >= 1)
        return { gpuTypeId: null, cpuFlavorId: choice.id, vcpuCount: choice.vcpuCount, dataCenterId: dc };
    }
  }
  return undefined;
}

/** Dollars per simulated second for a placed worker: GPU (secure price x count) or CPU (per vCPU). */
export function pricePerSecond(worker: Worker): { gpu: number; cpu: number } {
  if (worker.gpuTypeId) {
    const type = findGpuType(worker.gpuTypeId);
    return { gpu: ((type?.price.secure ?? 0) * worker.gpuCount) / 3600, cpu: 0 };
  }
  if (worker.cpuFlavorId) {
    const flavor = findCpuFlavor(worker.cpuFlavorId);
    return { gpu: 0, cpu: ((flavor?.price.serverlessPerVcpu ?? 0) * worker.vcpuCount) / 3600 };
  }
  return { gpu: 0, cpu: 0 };
}

/** Container disk, per GB per simulated second (0.10 USD per GB-month). */
export const DISK_PRICE_PER_GB_SECOND = 0.1 / (30 * 24 * 3600);

/** Simulated ms from placement to the container's start (pulling and starting the image), by FlashBoot mode. */
export function startMs(endpoint: StoredEndpoint): number {
  return endpoint.flashboot === 'PRIORITY_FLASHBOOT' ? 500 : endpoint.flashboot === 'FLASHBOOT' ? 1000 : 3000;
}

export function workerView(worker: Worker, endpointVersion: number, now: number, timeScale: number): Record<string, unknown> {
  return {
    id: worker.id,
    status: worker.status,
    isStale: worker.version < endpointVersion,
    version: worker.version,
    gpuCount: worker.gpuTypeId ? worker.gpuCount : 0,
    image: worker.image,
    uptimeSeconds: worker.startedAt !== undefined ? Math.floor(((now - worker.startedAt) * timeScale) / 1000) : null,
    gpuTypeId: worker.gpuTypeId,
    dataCenterId: worker.dataCenterId,
    startedAt: worker.startedAt !== undefined ? new Date(worker.startedAt).toISOString() : null,
  };
}
