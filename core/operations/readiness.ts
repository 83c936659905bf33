/**
 * How long a release took to serve: from the deploy to its first worker's container starting, its first worker
 * ready and its first job completed. Cold starts are what users of GPU endpoints feel most, so each release's
 * times are kept with the binding that recorded it (`noteOnRelease`), beside the release before's, and a deploy
 * says when it got slower before users do.
 *
 * Only what the service lets one see is recorded, and a step not seen stays absent:
 * - the deploy is the release's `createdAt` (the service's clock, as the workers' times are), else the binding's
 *   `deployedAt`;
 * - a worker started at its `startedAt`, else at the read's time less its `uptimeSeconds`;
 * - no time says when a worker became ready, so it is the read that first saw one ready, counted only when the read
 *   before it (or the deploy) saw none at most READY_SEEN_WITHIN_MS earlier: a watch begun long after the deploy
 *   cannot tell when that happened;
 * - a job is the smoke job seen completed on a worker of that release.
 */
import type { ApiClient, ReleaseList, Worker, WorkerList } from '../api';
import { readBindings, type Binding, type PreviousRelease, type ReleaseReadiness } from '../deploy/bindings';
import { compareReadiness, type ReadinessReport } from '../deploy/readiness';
import { noteOnRelease } from './specBindings';

/** As long as a rollout watch waits between two reads at most (ROLLOUT_DEFAULTS.maxPollMs). */
export const READY_SEEN_WITHIN_MS = 15_000;

/** The states of a worker that serves. */
export const READY: ReadonlySet<Worker['status']> = new Set(['IDLE', 'RUNNING']);
const STEPS = ['firstWorkerStartingMs', 'firstWorkerReadyMs', 'firstJobCompletedMs'] as const;

export interface ReadinessInput {
  /** When the release was made, ms. */
  readonly deployedAt: number;
  /** One read of the release's workers: when the answer came, ms, and its workers as read. */
  readonly read?: { readonly observedAt: number; readonly workers: readonly Worker[] };
  /** When the last read before this one saw none of the release's workers ready, ms; the deploy when none did. */
  readonly noneReadyAt?: number;
  /** When a job was seen completed on a worker of the release, ms. */
  readonly jobCompletedAt?: number;
}

/** Pure: the steps one read (and a job seen completed) shows, in ms from the deploy; undefined when it shows none. */
export function releaseReadiness(input: ReadinessInput): ReleaseReadiness | undefined {
  const { deployedAt, read } = input;
  const since = (at: number | undefined): number | undefined =>
    at === undefined || !Number.isFinite(at) ? undefined : Math.max(0, Math.round(at - deployedAt));
  const starts = (read?.workers ?? []).map((w) => startOf(w, read?.observedAt)).filter((at): at is number => at !== undefined);
  const readySeen =
    read !== undefined &&
    read.workers.some((w) => READY.has(w.status)) &&
    read.observedAt - Math.max(deployedAt, input.noneReadyAt ?? deployedAt) <= READY_SEEN_WITHIN_MS;
  return stepsOf({
    firstWorkerStartingMs: since(starts.length > 0 ? Math.min(...starts) : undefined),
    firstWorkerReadyMs: since(readySeen ? read.observedAt : undefined),
    firstJobCompletedMs: since(input.jobCompletedAt),
  });
}

/** When a worker's container started: its `startedAt`, else the read's time less its uptime; undefined if neither. */
function startOf(worker: Worker, observedAt: number | undefined): number | undefined {
  const started = timeOf(worker.startedAt);
  if (started !== undefined) return started;
  const uptime: unknown = worker.uptimeSeconds;
  return typeof uptime === 'number' && uptime >= 0 && observedAt !== undefined ? observedAt - uptime * 1000 : undefined;
}

function stepsOf(steps: Partial<Record<(typeof STEPS)[number], number | undefined>>): ReleaseReadiness | undefined {
  const seen = STEPS.filter((step) => steps[step] !== undefined);
  return seen.length > 0 ? Object.fromEntries(seen.map((step) => [step, steps[step]])) : undefined;
}

/** Each step at the earlier of the two: every figure is when it was seen at the latest. */
export function earliestReadiness(a: ReleaseReadiness | undefined, b: ReleaseReadiness | undefined): ReleaseReadiness | undefined {
  if (!a || !b) return a ?? b;
  const earlier = (x: number | undefined, y: number | undefined): number | undefined =>
    x === undefined ? y : y === undefined ? x : Math.min(x, y);
  return stepsOf(Object.fromEntries(STEPS.map((step) => [step, earlier(a[step], b[step])])));
}

function reportOf(version: number, readiness: ReleaseReadiness | undefined, previous: PreviousRelease | undefined): ReadinessReport {
  const change = compareReadiness(readiness, previous?.readiness);
  return { version, ...(readiness ? { readiness } : {}), ...(previous ? { previous } : {}), ...(change ? { change } : {}) };
}

/**
 * What a binding holds of release `version`'s time to ready: its own release's with the one before's, or the one
 * before's alone when that is the release asked about. Undefined when it holds none.
 */
export function readinessOfRelease(binding: Binding | undefined, version: number | undefined): ReadinessReport | undefined {
  const release = binding?.release;
  if (!release || version === undefined) return undefined;
  if (release.version === version && (release.readiness || release.previous)) return reportOf(version, release.readiness, release.previous);
  if (release.previous?.version === version) return reportOf(version, release.previous.readiness, undefined);
  return undefined;
}

/** The first binding in `roots` that recorded release `version` of the endpoint. */
function bindingOfRelease(roots: readonly string[], endpointId: string, version: number): { root: string; binding: Binding } | undefined {
  for (const root of roots) {
    const read = readBindings(root);
    if (!read.ok) continue;
    for (const documents of Object.values(read.store))
      for (const binding of Object.values(documents))
        if (binding.endpointId === endpointId && binding.release?.version === version) return { root, binding };
  }
  return undefined;
}

/** What the workspaces' bindings hold of the release's time to ready, without writing anything. */
export function recordedReadiness(roots: readonly string[], endpointId: string, version: number): ReadinessReport | undefined {
  return readinessOfRelease(bindingOfRelease(roots, endpointId, version)?.binding, version);
}

/**
 * Adds what was seen to what every binding in `roots` that recorded the release holds (each step at its earliest)
 * and says where that leaves it. Nothing is written when no binding recorded it, or nothing new was seen; then the
 * report holds only what was seen (and recorded).
 */
export function recordReadiness(
  roots: readonly string[],
  endpointId: string,
  version: number,
  seen: ReleaseReadiness | undefined,
): ReadinessReport | undefined {
  const found = bindingOfRelease(roots, endpointId, version);
  const recorded = found?.binding.release;
  const readiness = earliestReadiness(recorded?.readiness, seen);
  if (found && readiness && JSON.stringify(readiness) !== JSON.stringify(recorded?.readiness))
    for (const root of roots) noteOnRelease(root, endpointId, version, { readiness });
  if (!readiness && !recorded?.previous) return undefined;
  return reportOf(version, readiness, recorded?.previous);
}

/** When release `version` was made: the service's `createdAt` for it, else the `deployedAt` of a binding of it. */
function deployTime(releases: ReleaseList, roots: readonly string[], endpointId: string, version: number): number | undefined {
  const created = releases.releases.find((r) => r.version === version)?.createdAt;
  return timeOf(created) ?? timeOf(bindingOfRelease(roots, endpointId, version)?.binding.deployedAt);
}

/** An ISO 8601 time in ms; undefined when there is none or it does not parse. */
function timeOf(text: string | undefined): number | undefined {
  const time = text !== undefined ? Date.parse(text) : Number.NaN;
  return Number.isFinite(time) ? time : undefined;
}

/** The workers on `version`: by their own version, else by the service's `isStale` (the current version is read). */
function workersOf(workers: WorkerList, version: number): Worker[] {
  return workers.workers.filter((w) => (w.version !== undefined ? w.version === version : w.isStale === false));
}

/**
 * What a rollout watch learns of the current release's time to ready read by read, recorded in the workspaces'
 * bindings (`roots`, none to record nothing) when it ends. A newer release appearing meanwhile starts it over.
 */
export class ReadinessWatch {
  private version: number | undefined;
  private deployedAt: number | undefined;
  private noneReadyAt: number | undefined;
  private seen: ReleaseReadiness | undefined;

  constructor(
    private readonly endpointId: string,
    private readonly roots: readonly string[],
  ) {}

  observe(version: number | undefined, releases: ReleaseList, workers: WorkerList, observedAt: number): void {
    if (version === undefined) return;
    if (version !== this.version) {
      this.version = version;
      this.deployedAt = deployTime(releases, this.roots, this.endpointId, version);
      this.noneReadyAt = undefined;
      this.seen = undefined;
    }
    if (this.deployedAt === undefined) return;
    const read = { observedAt, workers: workersOf(workers, version) };
    const input = { deployedAt: this.deployedAt, read, ...(this.noneReadyAt !== undefined ? { noneReadyAt: this.noneReadyAt } : {}) };
    this.seen = earliestReadiness(this.seen, releaseReadiness(input));
    if (!read.workers.some((w) => READY.has(w.status))) this.noneReadyAt = observedAt;
  }

  /** Records what was seen; the release's time to ready as it now stands, undefined when nothing is known. */
  end(): ReadinessReport | undefined {
    if (this.version === undefined) return undefined;
    return recordReadiness(this.roots, this.endpointId, this.version, this.seen);
  }
}

/**
 * A job seen completed at `completedAt` on a worker of release `version`: recorded as the release's first job when
 * it is the earliest one known, measured from the release's `createdAt` (one read of the releases).
 */
export async function noteJobCompleted(
  client: ApiClient,
  input: { readonly roots: readonly string[]; readonly endpointId: string; readonly version: number; readonly completedAt: number },
): Promise<ReadinessReport | undefined> {
  const { roots, endpointId, version, completedAt } = input;
  let releases: ReleaseList;
  try {
    releases = await client.serverless.releases(endpointId);
  } catch {
    // The binding's deployedAt measures it then.
    releases = { releases: [] };
  }
  const deployedAt = deployTime(releases, roots, endpointId, version);
  const seen = deployedAt === undefined ? undefined : releaseReadiness({ deployedAt, jobCompletedAt: completedAt });
  return recordReadiness(roots, endpointId, version, seen);
}
