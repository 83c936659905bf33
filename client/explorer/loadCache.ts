/**
 * What a tree has read from the service since its last refresh. Trees ask for data only when a node
 * is expanded; asking twice for the same key shares one request, so re-renders, expanded nodes and
 * concurrent refreshes never multiply calls. A refresh starts a new generation: the old requests are
 * aborted and their answers are ignored, so a slow answer for the previous profile cannot land in
 * the tree of the new one.
 */
import { ApiError } from '../../core/api';

/** Requests one tree may have open at a time: expanding many nodes at once queues instead of flooding. */
const MAX_CONCURRENT_REQUESTS = 4;

export class LoadCache {
  private entries = new Map<string, Promise<unknown>>();
  private pending = new Set<Promise<unknown>>();
  private controller = new AbortController();
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  /** Time (ms) before which the service asked us not to call again, after a 429. */
  private quietUntil = 0;

  /** The signal of the current generation; aborted by the next `clear`. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Seconds left of the wait a 429 asked for; 0 when calls may go out. */
  get rateLimitedForSeconds(): number {
    return Math.max(0, Math.ceil((this.quietUntil - Date.now()) / 1000));
  }

  /** The cached answer for `key`, or one request for it. A failure is not kept, so a retry asks again. */
  get<T>(key: string, load: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const cached = this.entries.get(key);
    if (cached) return cached as Promise<T>;
    const entries = this.entries;
    const signal = this.controller.signal;
    const pending = this.limited(() => load(signal)).catch((error: unknown) => {
      if (this.entries === entries && entries.get(key) === pending) entries.delete(key);
      if (error instanceof ApiError && error.status === 429) this.quietUntil = Date.now() + (error.retryAfterSeconds ?? 10) * 1000;
      throw error;
    });
    entries.set(key, pending);
    const pendingNow = this.pending;
    pendingNow.add(pending);
    const settle = () => void pendingNow.delete(pending);
    pending.then(settle, settle);
    return pending;
  }

  /** True while a request of this generation is open or queued. */
  get busy(): boolean {
    return this.pending.size > 0;
  }

  /** Resolves when every request of this generation open now has settled (whatever its outcome). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }

  /** Caches whatever `compute` settles to for this generation, without a request slot (it may wait on `get`). */
  remember<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const cached = this.entries.get(key);
    if (cached) return cached as Promise<T>;
    const pending = compute();
    this.entries.set(key, pending);
    return pending;
  }

  /** Forgets one key (or every key starting with `prefix/`), keeping the rest of the generation. */
  forget(prefix: string): void {
    for (const key of [...this.entries.keys()]) if (key === prefix || key.startsWith(`${prefix}/`)) this.entries.delete(key);
  }

  /** Starts a new generation: everything is read again, and requests still open are abandoned. */
  clear(): void {
    this.controller.abort();
    this.controller = new AbortController();
    this.entries = new Map();
    this.pending = new Set();
  }

  private async limited<T>(run: () => Promise<T>): Promise<T> {
    while (this.running >= MAX_CONCURRENT_REQUESTS) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      return await run();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }
}

/** True when the error only says the request was abandoned by a refresh: nothing to report. */
export function wasAbandoned(error: unknown, signal: AbortSignal): boolean {
  return signal.aborted || (error instanceof ApiError && error.kind === 'aborted');
}
