/**
 * A rolling release, as the service runs one: workers of an older configuration version are stale.
 * A stale worker that does not serve (not yet placed, booting, crash-looping) goes at once; one
 * that serves goes once enough workers of the current version are ready to take its place, and a
 * busy one only after its current job or request. So a release whose image never becomes ready
 * leaves the old version serving, and one that does replaces it worker by worker.
 */
import type { Worker } from './workers';

export interface Stop {
  readonly worker: Worker;
  readonly reason: string;
}

export const isReady = (w: Worker): boolean => w.status === 'IDLE' || w.status === 'RUNNING';
const isBusy = (w: Worker): boolean => w.status === 'RUNNING' || w.activeRequests > 0;

/** The stale workers to stop now, given the endpoint's current version and how many workers it wants. */
export function staleToStop(workers: readonly Worker[], version: number, desired: number): Stop[] {
  const stale = workers.filter((w) => w.version < version).sort((a, b) => b.version - a.version);
  const freshReady = workers.filter((w) => w.version >= version && isReady(w)).length;
  // Old workers that still stand in for new ones not ready yet; busy ones stay regardless and count first.
  let standIns = Math.max(0, desired - freshReady) - stale.filter((w) => isReady(w) && isBusy(w)).length;
  const stops: Stop[] = [];
  for (const worker of stale) {
    if (!isReady(worker)) stops.push({ worker, reason: `replaced by release version ${version} before it was ready` });
    else if (isBusy(worker)) continue;
    else if (standIns > 0) standIns--;
    else stops.push({ worker, reason: `replaced by release version ${version}` });
  }
  return stops;
}

/** Workers a release that needs no restart reaches in place: those on the version before it, not older stale ones. */
export function reachedInPlace(workers: readonly Worker[], version: number): Worker[] {
  return workers.filter((w) => w.version === version - 1);
}
