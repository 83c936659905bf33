/**
 * Where the simulation keeps its workers: by id, and per endpoint split into those waiting for
 * capacity and those placed. A tick walks the placed ones (never more than the seeded stock) and
 * the waiting ones only until one cannot be placed, so its cost does not grow with `workers.min`:
 * 20,000 THROTTLED workers cost a tick what one does. Placing a worker or letting it go keeps the
 * free capacity (capacity.ts) in step.
 */
import { Capacity } from './capacity';
import type { Worker } from './workers';

/**
 * The most workers the emulator holds at once, over all endpoints. The contract states no upper
 * bound of `workers.min`; past this one an endpoint gets fewer workers than it asks, so a huge
 * `workers.min` cannot fill the emulator's memory (docs/emulator.md).
 */
export const MAX_WORKERS = 50_000;
/** Workers created per tick over all endpoints, so a large `workers.min` is reached over a few ticks, not in one long one. */
export const SPAWNS_PER_TICK = 250;

export interface EndpointWorkers {
  /** Every worker, in the order it was created. */
  readonly all: Map<string, Worker>;
  /** Placed (any status but THROTTLED), in the order they were placed. */
  readonly placed: Set<Worker>;
  /** Waiting for capacity, oldest first. */
  readonly throttled: Set<Worker>;
  /**
   * The endpoint version for which every stale worker that does not serve has been stopped. Until
   * the version changes, stale workers can only be ready ones, which are placed.
   */
  sweptVersion: number;
}

const NONE: EndpointWorkers = { all: new Map(), placed: new Set(), throttled: new Set(), sweptVersion: 0 };

export class Fleet {
  readonly capacity = new Capacity();
  private readonly byId = new Map<string, Worker>();
  private readonly byEndpoint = new Map<string, EndpointWorkers>();

  get size(): number {
    return this.byId.size;
  }

  get(workerId: string): Worker | undefined {
    return this.byId.get(workerId);
  }

  /** The endpoint's workers; an empty set, shared and never written, for an endpoint without any. */
  of(endpointId: string): EndpointWorkers {
    return this.byEndpoint.get(endpointId) ?? NONE;
  }

  /** Adds a worker that waits for capacity. */
  add(worker: Worker): void {
    const set = this.byEndpoint.get(worker.endpointId) ?? { all: new Map(), placed: new Set(), throttled: new Set(), sweptVersion: 0 };
    this.byEndpoint.set(worker.endpointId, set);
    this.byId.set(worker.id, worker);
    set.all.set(worker.id, worker);
    set.throttled.add(worker);
  }

  /** Records that a waiting worker was placed (its data center and resource already set on it). */
  placed(worker: Worker): void {
    const set = this.of(worker.endpointId);
    set.throttled.delete(worker);
    set.placed.add(worker);
    this.capacity.hold(worker);
  }

  /** Records that the endpoint's stale workers that do not serve were stopped for this version. */
  swept(endpointId: string, version: number): void {
    const set = this.byEndpoint.get(endpointId);
    if (set) set.sweptVersion = version;
  }

  remove(worker: Worker): void {
    const set = this.byEndpoint.get(worker.endpointId);
    this.byId.delete(worker.id);
    if (!set) return;
    set.all.delete(worker.id);
    set.throttled.delete(worker);
    if (set.placed.delete(worker)) this.capacity.release(worker);
    if (set.all.size === 0) this.byEndpoint.delete(worker.endpointId);
  }
}
