/**
 * The simulation loop: one unref'd timer advances every endpoint's workers and jobs. Durations
 * (boot, idle timeout, handler runs, job timeouts, billed seconds) are simulated time, which runs
 * `timeScale` times faster than the real clock so tests can watch a whole lifecycle quickly.
 */
import type { IdFactory } from '../ids';
import type { StoredEndpoint } from '../state';
import { isTerminal, jobView, planFor, type Job } from './jobs';
import { LogStore } from './logs';
import { isReady, reachedInPlace, staleToStop } from './rollout';
import { DISK_PRICE_PER_GB_SECOND, pricePerSecond, workerView, type Worker } from './workers';
import type { StockView } from './capacity';
import { Fleet, MAX_WORKERS, SPAWNS_PER_TICK } from './fleet';
import { WorkerLifecycle } from './lifecycle';

export interface SimulationHost {
  endpoint(id: string): StoredEndpoint | undefined;
  endpoints(): readonly StoredEndpoint[];
  recordUsage(endpointId: string, workerId: string, resourceId: string, amounts: { gpu: number; cpu: number; disk: number }): void;
}

interface EndpointStats {
  completed: number;
  failed: number;
  retried: number;
}

const TICK_MS = 20;
/** Idle grace for QUEUE + REQUEST_COUNT endpoints, which have no idleTimeout of their own. */
const REQUEST_COUNT_IDLE_MS = 5000;
const MAX_FINISHED_JOBS_PER_ENDPOINT = 1000;

/** An endpoint's workers of its current version: the placed ones, and how many in all (placed and waiting). */
interface FreshWorkers {
  readonly placed: Worker[];
  readonly count: number;
}

export class Simulation {
  readonly logs: LogStore;
  private readonly fleet = new Fleet();
  private readonly lifecycle: WorkerLifecycle;
  /** Every worker that ever existed, so logs of departed workers stay readable. */
  private readonly workerEndpoint = new Map<string, string>();
  private readonly jobs = new Map<string, Job>();
  private readonly queues = new Map<string, string[]>();
  private readonly stats = new Map<string, EndpointStats>();
  private readonly lbWaiting = new Map<string, number>();
  private readonly waiters = new Map<string, Set<() => void>>();
  private timer: NodeJS.Timeout | undefined;
  private lastTick: number;
  /** Workers this tick may still create (SPAWNS_PER_TICK). */
  private spawnsLeft = SPAWNS_PER_TICK;

  constructor(
    private readonly host: SimulationHost,
    private readonly ids: IdFactory,
    readonly timeScale: number,
    private readonly now: () => number = Date.now,
  ) {
    this.logs = new LogStore(now);
    this.lifecycle = new WorkerLifecycle(this.fleet, this.logs, ids, timeScale);
    this.lastTick = now();
  }

  /** Free capacity as the emulator's own workers leave it, which the catalog answers with. */
  get stock(): StockView {
    return this.fleet.capacity;
  }

  start(): void {
    this.timer = setInterval(() => {
      this.safeTick();
    }, TICK_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    for (const set of this.waiters.values()) for (const wake of set) wake();
    this.waiters.clear();
  }

  private safeTick(): void {
    try {
      this.tick();
    } catch (error) {
      // The loop must survive any single bad record; report and carry on.
      process.emitWarning(`emulator simulation tick failed: ${(error as Error).message}`);
    }
  }

  tick(): void {
    const now = this.now();
    const simSeconds = ((now - this.lastTick) * this.timeScale) / 1000;
    this.lastTick = now;
    this.spawnsLeft = SPAWNS_PER_TICK;
    for (const endpoint of this.host.endpoints()) this.advanceEndpoint(endpoint, now, simSeconds);
  }

  private sim(realMs: number): number {
    return realMs * this.timeScale;
  }

  /** The endpoint's workers in the order they were created. */
  workersOf(endpointId: string): Worker[] {
    return [...this.fleet.of(endpointId).all.values()];
  }

  workerViews(endpoint: StoredEndpoint): Record<string, unknown>[] {
    const now = this.now();
    return this.workersOf(endpoint.id).map((w) => workerView(w, endpoint.version, now, this.timeScale));
  }

  workerBelongsTo(workerId: string, endpointId: string): boolean {
    return this.workerEndpoint.get(workerId) === endpointId;
  }

  private advanceEndpoint(endpoint: StoredEndpoint, now: number, simSeconds: number): void {
    const { placed } = this.fleet.of(endpoint.id);
    if (simSeconds > 0) for (const w of placed) this.bill(endpoint, w, simSeconds);
    for (const w of placed) {
      if (w.status === 'RUNNING' && w.jobId) this.advanceJob(endpoint, w, now);
      else this.lifecycle.advance(endpoint, w, now);
    }
    this.lifecycle.placeWaiting(endpoint, now);
    if (endpoint.type === 'QUEUE') this.assignJobs(endpoint, now);
    this.scale(endpoint, now);
  }

  private bill(endpoint: StoredEndpoint, worker: Worker, simSeconds: number): void {
    const price = pricePerSecond(worker);
    this.host.recordUsage(endpoint.id, worker.id, worker.gpuTypeId ?? worker.cpuFlavorId ?? 'unknown', {
      gpu: price.gpu * simSeconds,
      cpu: price.cpu * simSeconds,
      disk: endpoint.disk * DISK_PRICE_PER_GB_SECOND * simSeconds,
    });
  }

  /** How many workers of the current version the endpoint wants, from its fresh workers' load and its queue. */
  private desiredWorkers(endpoint: StoredEndpoint, fresh: FreshWorkers, now: number): number {
    let demand: number;
    if (endpoint.type === 'LOAD_BALANCER') {
      const inFlight = fresh.placed.reduce((n, w) => n + w.activeRequests, 0) + (this.lbWaiting.get(endpoint.id) ?? 0);
      const perWorker = endpoint.scaling.type === 'REQUEST_COUNT' ? endpoint.scaling.requestCount : 1;
      demand = Math.ceil(inFlight / perWorker);
    } else {
      const queued = this.queues.get(endpoint.id) ?? [];
      let running = 0;
      for (const w of this.fleet.of(endpoint.id).placed) if (w.status === 'RUNNING') running++;
      if (endpoint.scaling.type === 'REQUEST_COUNT') {
        demand = Math.ceil((queued.length + running) / endpoint.scaling.requestCount);
      } else if (queued.length === 0) {
        demand = running;
      } else {
        const oldest = this.jobs.get(queued[0]);
        const waitedSeconds = oldest ? this.sim(now - oldest.submittedAt) / 1000 : 0;
        const active = fresh.count;
        demand = active === 0 || waitedSeconds >= endpoint.scaling.queueDelay ? active + 1 : active;
        demand = Math.min(demand, queued.length + running);
      }
    }
    return Math.max(endpoint.workers.min, Math.min(endpoint.workers.max, demand));
  }

  /**
   * The endpoint's workers of the current version: the placed ones, and how many in all. Waiting
   * workers are all fresh once the version's stale ones were swept, so only then are they not counted one by one.
   */
  private freshWorkers(endpoint: StoredEndpoint): FreshWorkers {
    const set = this.fleet.of(endpoint.id);
    const placed = [...set.placed].filter((w) => w.version >= endpoint.version);
    let waiting = set.throttled.size;
    if (set.sweptVersion !== endpoint.version) {
      waiting = 0;
      for (const w of set.throttled) if (w.version >= endpoint.version) waiting++;
    }
    return { placed, count: placed.length + waiting };
  }

  private scale(endpoint: StoredEndpoint, now: number): void {
    const current = this.freshWorkers(endpoint);
    const desired = this.desiredWorkers(endpoint, current, now);
    const room = Math.min(desired - current.count, this.spawnsLeft, MAX_WORKERS - this.fleet.size);
    for (let i = 0; i < room; i++) this.workerEndpoint.set(this.lifecycle.spawn(endpoint, now).id, endpoint.id);
    this.spawnsLeft -= Math.max(0, room);
    // Rolling release: stale workers leave as the new version's workers become ready. Right after a
    // version change every worker is looked at; after that, stale workers can only be ready, so placed, ones.
    const set = this.fleet.of(endpoint.id);
    const candidates = set.sweptVersion === endpoint.version ? [...set.placed] : [...set.all.values()];
    for (const { worker, reason } of staleToStop(candidates, endpoint.version, desired)) this.lifecycle.remove(worker, reason);
    this.fleet.swept(endpoint.id, endpoint.version);
    const fresh = this.freshWorkers(endpoint);
    let surplus = fresh.count - desired;
    // Workers that serve nothing go first: those waiting for capacity, oldest first, then crash-looping ones.
    for (const w of set.throttled) {
      if (surplus <= 0) return;
      this.lifecycle.remove(w, 'no longer needed');
      surplus--;
    }
    for (const w of fresh.placed.filter((x) => x.status === 'UNHEALTHY')) {
      if (surplus <= 0) return;
      this.lifecycle.remove(w, 'no longer needed');
      surplus--;
    }
    const idleMs = endpoint.workers.idleTimeout !== undefined ? endpoint.workers.idleTimeout * 1000 : REQUEST_COUNT_IDLE_MS;
    const idle = fresh.placed
      .flatMap((w) => (w.status === 'IDLE' && w.activeRequests === 0 && w.idleSince !== undefined ? [{ w, since: w.idleSince }] : []))
      .sort((a, b) => a.since - b.since);
    for (const { w, since } of idle) {
      if (surplus <= 0) break;
      if (this.sim(now - since) < idleMs) continue;
      this.lifecycle.remove(w, `idle for ${Math.round(idleMs / 1000)} s`);
      surplus--;
    }
  }

  // ── Jobs ───────────────────────────────────────────────────────────────────

  submit(endpoint: StoredEndpoint, input: unknown, options: { webhook?: string; executionTimeoutMs?: number }): Job {
    const job: Job = {
      id: this.ids.job(),
      endpointId: endpoint.id,
      input,
      ...(options.webhook ? { webhook: options.webhook } : {}),
      ...(options.executionTimeoutMs !== undefined ? { executionTimeoutMs: options.executionTimeoutMs } : {}),
      plan: planFor(input),
      status: 'IN_QUEUE',
      submittedAt: this.now(),
      chunks: [],
      chunksDelivered: 0,
      retries: 0,
    };
    this.jobs.set(job.id, job);
    this.enqueue(job);
    this.pruneFinished(endpoint.id);
    return job;
  }

  private enqueue(job: Job): void {
    const queue = this.queues.get(job.endpointId) ?? [];
    queue.push(job.id);
    this.queues.set(job.endpointId, queue);
  }

  job(endpointId: string, jobId: string): Job | undefined {
    const job = this.jobs.get(jobId);
    return job && job.endpointId === endpointId ? job : undefined;
  }

  view(job: Job): Record<string, unknown> {
    return jobView(job, this.timeScale);
  }

  private statsFor(endpointId: string): EndpointStats {
    const stats = this.stats.get(endpointId) ?? { completed: 0, failed: 0, retried: 0 };
    this.stats.set(endpointId, stats);
    return stats;
  }

  private assignJobs(endpoint: StoredEndpoint, now: number): void {
    const queue = this.queues.get(endpoint.id);
    if (!queue || queue.length === 0) return;
    // New-version workers first, so a rollout drains the old ones.
    const idle = [...this.fleet.of(endpoint.id).placed].filter((w) => w.status === 'IDLE').sort((a, b) => b.version - a.version);
    for (const worker of idle) {
      const jobId = queue.shift();
      if (!jobId) break;
      const job = this.jobs.get(jobId);
      if (!job || job.status !== 'IN_QUEUE') continue;
      job.status = 'IN_PROGRESS';
      job.startedAt = now;
      job.workerId = worker.id;
      worker.status = 'RUNNING';
      worker.jobId = job.id;
      this.logs.append(worker.id, 'container', `job ${job.id} started`);
      for (const line of job.plan.logLines) this.logs.append(worker.id, 'container', line);
      this.notify(job);
    }
  }

  private advanceJob(endpoint: StoredEndpoint, worker: Worker, now: number): void {
    const job = worker.jobId === undefined ? undefined : this.jobs.get(worker.jobId);
    if (!job || job.status !== 'IN_PROGRESS' || job.startedAt === undefined) {
      this.freeWorker(worker, now);
      return;
    }
    const elapsed = this.sim(now - job.startedAt);
    const { plan } = job;
    const timeoutMs = job.executionTimeoutMs ?? endpoint.timeout;
    const limit = timeoutMs > 0 ? Math.min(timeoutMs, plan.durationMs) : plan.durationMs;
    if (plan.chunks.length > 0) {
      const due = Math.min(plan.chunks.length, Math.floor((Math.min(elapsed, limit) / plan.durationMs) * plan.chunks.length + 1e-9));
      if (due > job.chunks.length) {
        job.chunks.push(...plan.chunks.slice(job.chunks.length, due));
        this.notify(job);
      }
    }
    if (timeoutMs > 0 && timeoutMs < plan.durationMs && elapsed >= timeoutMs) {
      this.finish(job, worker, 'TIMED_OUT', job.startedAt + timeoutMs / this.timeScale, { error: `job timed out after ${timeoutMs} ms` });
      this.logs.append(worker.id, 'system', `job ${job.id} exceeded the execution timeout of ${timeoutMs} ms and was stopped`);
    } else if (elapsed >= plan.durationMs) {
      const finishedAt = job.startedAt + plan.durationMs / this.timeScale;
      if (plan.failMessage !== undefined) {
        this.finish(job, worker, 'FAILED', finishedAt, { error: plan.failMessage });
        this.logs.append(worker.id, 'container', `job ${job.id} failed: ${plan.failMessage}`);
      } else {
        this.finish(job, worker, 'COMPLETED', finishedAt, { output: plan.output });
        this.logs.append(worker.id, 'container', `job ${job.id} completed in ${plan.durationMs} ms`);
      }
    }
  }

  private finish(
    job: Job,
    worker: Worker | undefined,
    status: 'COMPLETED' | 'FAILED' | 'TIMED_OUT' | 'CANCELLED',
    at: number,
    result: { output?: unknown; error?: string },
  ): void {
    job.status = status;
    job.finishedAt = Math.min(at, this.now());
    if (result.output !== undefined) job.output = result.output;
    if (result.error !== undefined) job.error = result.error;
    const stats = this.statsFor(job.endpointId);
    if (status === 'COMPLETED') stats.completed++;
    if (status === 'FAILED' || status === 'TIMED_OUT') stats.failed++;
    if (worker) this.freeWorker(worker, this.now());
    this.notify(job);
    if (job.webhook) this.sendWebhook(job, job.webhook);
  }

  private freeWorker(worker: Worker, now: number): void {
    worker.jobId = undefined;
    if (worker.status === 'RUNNING') worker.status = 'IDLE';
    worker.idleSince = now;
  }

  private sendWebhook(job: Job, url: string): void {
    void fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(this.view(job)),
      signal: AbortSignal.timeout(5000),
    }).catch(() => undefined);
  }

  cancel(job: Job): void {
    if (isTerminal(job.status)) return;
    if (job.status === 'IN_QUEUE') {
      const queue = this.queues.get(job.endpointId) ?? [];
      this.queues.set(
        job.endpointId,
        queue.filter((id) => id !== job.id),
      );
      this.finish(job, undefined, 'CANCELLED', this.now(), {});
      return;
    }
    const worker = job.workerId ? this.fleet.get(job.workerId) : undefined;
    if (worker) this.logs.append(worker.id, 'system', `job ${job.id} cancelled`);
    this.finish(job, worker && worker.jobId === job.id ? worker : undefined, 'CANCELLED', this.now(), {});
  }

  /** Requeues a failed or timed-out job; false when the job is in another state. */
  retry(job: Job): boolean {
    if (job.status !== 'FAILED' && job.status !== 'TIMED_OUT') return false;
    job.status = 'IN_QUEUE';
    job.retries++;
    job.submittedAt = this.now();
    job.startedAt = undefined;
    job.finishedAt = undefined;
    job.workerId = undefined;
    job.output = undefined;
    job.error = undefined;
    job.chunks = [];
    job.chunksDelivered = 0;
    this.statsFor(job.endpointId).retried++;
    this.enqueue(job);
    this.notify(job);
    return true;
  }

  purgeQueue(endpointId: string): number {
    const queue = this.queues.get(endpointId) ?? [];
    this.queues.set(endpointId, []);
    let removed = 0;
    for (const id of queue) {
      const job = this.jobs.get(id);
      if (job && job.status === 'IN_QUEUE') {
        this.finish(job, undefined, 'CANCELLED', this.now(), {});
        removed++;
      }
    }
    return removed;
  }

  health(endpointId: string): Record<string, unknown> {
    const jobs = [...this.jobs.values()].filter((j) => j.endpointId === endpointId);
    const stats = this.statsFor(endpointId);
    const workers = this.workersOf(endpointId);
    const count = (status: Worker['status']): number => workers.filter((w) => w.status === status).length;
    return {
      jobs: {
        completed: stats.completed,
        failed: stats.failed,
        inProgress: jobs.filter((j) => j.status === 'IN_PROGRESS').length,
        inQueue: jobs.filter((j) => j.status === 'IN_QUEUE').length,
        retried: stats.retried,
      },
      workers: {
        idle: count('IDLE'),
        running: count('RUNNING'),
        initializing: count('INITIALIZING'),
        throttled: count('THROTTLED'),
        unhealthy: count('UNHEALTHY'),
      },
    };
  }

  /** Resolves when the job changes (status or a new chunk), or after `timeoutMs`. */
  waitForChange(jobId: string, timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const set = this.waiters.get(jobId) ?? new Set();
      this.waiters.set(jobId, set);
      const wake = (): void => {
        clearTimeout(timer);
        set.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, Math.max(0, timeoutMs));
      timer.unref();
      set.add(wake);
    });
  }

  private notify(job: Job): void {
    const set = this.waiters.get(job.id);
    if (!set) return;
    this.waiters.delete(job.id);
    for (const wake of set) wake();
  }

  private pruneFinished(endpointId: string): void {
    const finished = [...this.jobs.values()].filter((j) => j.endpointId === endpointId && isTerminal(j.status));
    for (const job of finished.slice(0, Math.max(0, finished.length - MAX_FINISHED_JOBS_PER_ENDPOINT))) this.jobs.delete(job.id);
  }

  // ── Endpoint changes and load balancers ───────────────────────────────────

  /** A release that needs no restart reaches running workers in place; others leave them stale. */
  endpointChanged(endpoint: StoredEndpoint, restart: boolean): void {
    if (restart) return;
    for (const w of reachedInPlace(this.workersOf(endpoint.id), endpoint.version)) w.version = endpoint.version;
  }

  endpointDeleted(endpointId: string): void {
    for (const job of this.jobs.values())
      if (job.endpointId === endpointId && !isTerminal(job.status)) this.finish(job, undefined, 'CANCELLED', this.now(), {});
    for (const w of this.workersOf(endpointId)) this.lifecycle.remove(w, 'endpoint deleted');
    this.queues.delete(endpointId);
  }

  /** Waits for a ready worker of a load balancer, counting as in-flight demand meanwhile. */
  async acquireLbWorker(endpointId: string, timeoutMs: number): Promise<Worker | undefined> {
    const deadline = this.now() + timeoutMs;
    const stopWaiting = this.waitForLbWorker(endpointId);
    try {
      while (this.timer) {
        const ready = this.takeLbWorker(endpointId);
        if (ready) return ready;
        if (this.now() >= deadline || !this.host.endpoint(endpointId)) return undefined;
        await new Promise<void>((resolve) => setTimeout(resolve, TICK_MS).unref());
      }
      return undefined;
    } finally {
      stopWaiting();
    }
  }

  /** Counts one request waiting for a worker of a load balancer as demand, until the returned function is called. */
  waitForLbWorker(endpointId: string): () => void {
    this.lbWaiting.set(endpointId, (this.lbWaiting.get(endpointId) ?? 0) + 1);
    let waiting = true;
    return () => {
      if (!waiting) return;
      waiting = false;
      this.lbWaiting.set(endpointId, Math.max(0, (this.lbWaiting.get(endpointId) ?? 1) - 1));
    };
  }

  /** The least busy ready worker of a load balancer, now serving one more request; undefined while none is ready. */
  takeLbWorker(endpointId: string): Worker | undefined {
    // Workers of the current version first, so a rollout drains the old ones; then the least busy.
    const ready = [...this.fleet.of(endpointId).placed]
      .filter((w) => w.status === 'IDLE' || (w.status === 'RUNNING' && w.activeRequests > 0))
      .sort((a, b) => b.version - a.version || a.activeRequests - b.activeRequests)
      .at(0);
    if (!ready) return undefined;
    ready.activeRequests++;
    ready.status = 'RUNNING';
    return ready;
  }

  releaseLbWorker(worker: Worker): void {
    worker.activeRequests = Math.max(0, worker.activeRequests - 1);
    if (worker.activeRequests === 0 && worker.status === 'RUNNING') {
      worker.status = 'IDLE';
      worker.idleSince = this.now();
    }
  }

  hasReadyWorker(endpointId: string): boolean {
    for (const w of this.fleet.of(endpointId).placed) if (isReady(w)) return true;
    return false;
  }
}
