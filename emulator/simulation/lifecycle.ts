/**
 * One worker's way through its states, with the log lines the service's workers write at each
 * step: created THROTTLED until there is room, placed (INITIALIZING while its image is pulled), its
 * container started (`startedAt`), then ready (IDLE). An image that boots slowly (slowBoot.ts)
 * stays INITIALIZING after its start for its boot time; one that crashes (crashLoop.ts) turns
 * UNHEALTHY and starts again after a back-off.
 */
import type { IdFactory } from '../ids';
import type { StoredEndpoint } from '../state';
import { CRASH_OUTPUT, crashesOnStart, exitLine, restartBackoffMs } from './crashLoop';
import type { Fleet } from './fleet';
import type { LogStore } from './logs';
import { bootingLines, slowBootMs } from './slowBoot';
import { place, startMs, type Worker } from './workers';

export class WorkerLifecycle {
  constructor(
    private readonly fleet: Fleet,
    private readonly logs: LogStore,
    private readonly ids: IdFactory,
    private readonly timeScale: number,
  ) {}

  /** Moves a placed worker that is starting or crash-looping on, once its time has come. */
  advance(endpoint: StoredEndpoint, worker: Worker, now: number): void {
    if (worker.status === 'UNHEALTHY') {
      if (worker.nextRestartAt !== undefined && now >= worker.nextRestartAt) this.startContainer(worker, now);
    } else if (worker.status !== 'INITIALIZING') {
      return;
    } else if (worker.startedAt === undefined) {
      if (worker.placedAt !== undefined && (now - worker.placedAt) * this.timeScale >= startMs(endpoint)) this.startContainer(worker, now);
    } else if (worker.readyAt !== undefined && now >= worker.readyAt) {
      this.becomeReady(worker, now);
    }
  }

  /**
   * Places waiting workers, oldest first, until one finds no room: all of an endpoint's waiting
   * workers ask for the same selection, so the rest would find none either.
   */
  placeWaiting(endpoint: StoredEndpoint, now: number): void {
    for (const worker of this.fleet.of(endpoint.id).throttled) if (!this.tryPlace(endpoint, worker, now)) return;
  }

  /** A new worker of the endpoint's current version, placed at once when there is room and no older one still waits. */
  spawn(endpoint: StoredEndpoint, now: number): Worker {
    const worker: Worker = {
      id: this.ids.short(),
      endpointId: endpoint.id,
      version: endpoint.version,
      status: 'THROTTLED',
      image: endpoint.image,
      gpuCount: endpoint.gpu?.count ?? 0,
      gpuTypeId: null,
      cpuFlavorId: null,
      vcpuCount: 0,
      dataCenterId: null,
      activeRequests: 0,
    };
    const othersWait = this.fleet.of(endpoint.id).throttled.size > 0;
    this.fleet.add(worker);
    this.logs.append(worker.id, 'system', `worker ${worker.id} created for endpoint ${endpoint.id} (version ${endpoint.version})`);
    if (othersWait || !this.tryPlace(endpoint, worker, now)) {
      const where = endpoint.dataCenterIds.length > 0 ? endpoint.dataCenterIds.join(', ') : 'any data center';
      const what = endpoint.gpu
        ? `GPU pools ${endpoint.gpu.pools.join(', ')}`
        : `CPU flavors ${(endpoint.cpu ?? []).map((c) => c.id).join(', ')}`;
      this.logs.append(worker.id, 'system', `throttled: no free capacity for ${what} in ${where}; waiting`);
    }
    return worker;
  }

  remove(worker: Worker, reason: string): void {
    this.logs.append(worker.id, 'system', `worker stopped: ${reason}`);
    this.fleet.remove(worker);
  }

  private tryPlace(endpoint: StoredEndpoint, worker: Worker, now: number): boolean {
    const placement = place(endpoint, this.fleet.capacity);
    if (!placement) return false;
    worker.gpuTypeId = placement.gpuTypeId;
    worker.cpuFlavorId = placement.cpuFlavorId;
    worker.vcpuCount = placement.vcpuCount;
    worker.dataCenterId = placement.dataCenterId;
    worker.status = 'INITIALIZING';
    worker.placedAt = now;
    this.fleet.placed(worker);
    const on = placement.gpuTypeId
      ? `${endpoint.gpu?.count ?? 1}x ${placement.gpuTypeId}`
      : `${placement.cpuFlavorId} with ${placement.vcpuCount} vCPUs`;
    this.logs.append(worker.id, 'system', `placed on ${on} in ${placement.dataCenterId}`);
    this.logs.append(worker.id, 'system', `pulling image ${worker.image}`);
    return true;
  }

  /** The container starts: ready to serve, booting for a while (a slow-booting image), or crashing. */
  private startContainer(worker: Worker, now: number): void {
    worker.startedAt = now;
    this.logs.append(worker.id, 'system', 'container started');
    if (crashesOnStart(worker.image)) {
      this.crash(worker, now);
      return;
    }
    const booting = slowBootMs(worker.image);
    if (booting > 0) {
      worker.readyAt = now + booting / this.timeScale;
      for (const line of bootingLines(booting)) this.logs.append(worker.id, 'container', line);
      return;
    }
    this.becomeReady(worker, now);
  }

  private becomeReady(worker: Worker, now: number): void {
    worker.status = 'IDLE';
    worker.idleSince = now;
    worker.readyAt = undefined;
    this.logs.append(worker.id, 'container', 'Worker ready.');
  }

  /** The container exits at once: UNHEALTHY, with what it printed, until its next start. */
  private crash(worker: Worker, now: number): void {
    const attempt = (worker.restarts ?? 0) + 1;
    worker.status = 'UNHEALTHY';
    worker.restarts = attempt;
    worker.nextRestartAt = now + restartBackoffMs(attempt) / this.timeScale;
    for (const line of CRASH_OUTPUT) this.logs.append(worker.id, 'container', line);
    this.logs.append(worker.id, 'system', exitLine(attempt));
  }
}
