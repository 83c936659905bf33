/**
 * Watching a release roll out after a deploy. The service replaces workers of an older
 * configuration version one by one, so "deployed" is not "serving": this reads the releases and the
 * workers, says how far the latest release has got, and follows it until every worker runs it, it
 * stops moving (a stall that names the workers holding it up), every new worker crash-loops, or the
 * caller gives up. A stall or a failure also names why the new workers are not serving
 * (`notServing.ts`: crash-looping with its last log lines, no capacity, still starting). A worker
 * whose release or state the service did not say is never counted as on the latest release or ready,
 * so an unknown answer never reads as done.
 */
import {
  ApiError,
  type ApiClient,
  type CallOptions,
  type Endpoint,
  type RateLimitSnapshot,
  type ReleaseList,
  type Worker,
  type WorkerList,
} from '../api';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ReadinessReport } from '../deploy/readiness';
import { explainCrash, notServingCause, withAlternatives, type NotServingCause } from './notServing';
import { READY, ReadinessWatch } from './readiness';

export interface RolloutProgress {
  readonly endpointId: string;
  /** The endpoint's current configuration version (the release being rolled out); undefined if unknown. */
  readonly version?: number;
  /** Workers on the latest version and ready (IDLE or RUNNING). */
  readonly ready: number;
  /** Workers on the latest version still starting (INITIALIZING, THROTTLED). */
  readonly starting: number;
  /** Workers on the latest version that are UNHEALTHY (crash-looping or failing health checks). */
  readonly unhealthy: readonly Worker[];
  /** Workers on an older version: `draining` of them busy (RUNNING), the rest idle or starting. */
  readonly stale: number;
  readonly draining: number;
  readonly total: number;
  /** Workers the endpoint keeps (`workers.min`) that the service has yet to create for the latest release. */
  readonly yetToStart: number;
  /** Whether no worker runs an older version and none on the latest is starting or unhealthy. */
  readonly done: boolean;
  /** One line, e.g. "release 7: 3 of 5 workers on it, 2 draining" / "release 7: no workers (none needed)". */
  readonly text: string;
}

export type RolloutOutcome = RolloutEnd & {
  /** The release's time to ready as the watch saw it and the workspaces' bindings recorded it (`readiness.ts`). */
  readonly readiness?: ReadinessReport;
};

type RolloutEnd =
  | { readonly kind: 'done'; readonly progress: RolloutProgress; readonly elapsedMs: number }
  /** No progress for `stallAfterMs`: names the workers that hold it up (unhealthy, throttled, starting). */
  | ({ readonly kind: 'stalled'; readonly progress: RolloutProgress } & HeldUp)
  /** Every worker on the new release is UNHEALTHY for `failAfterMs` (a crash loop), or the endpoint is gone. */
  | ({ readonly kind: 'failed'; readonly progress?: RolloutProgress } & HeldUp)
  /** The caller's signal fired (the user dismissed it, Ctrl-C). */
  | { readonly kind: 'dismissed'; readonly progress?: RolloutProgress; readonly elapsedMs: number }
  /** The service could not be read (after the API client's own retries). */
  | { readonly kind: 'error'; readonly progress?: RolloutProgress; readonly elapsedMs: number; readonly message: string };

/** What a stall or a failure says of the workers holding the release up. */
interface HeldUp {
  readonly elapsedMs: number;
  readonly culprits: readonly Worker[];
  readonly message: string;
  /** Why the new release's workers are not serving, when they say (a crash loop with its last log lines); none for a deleted endpoint. */
  readonly cause?: NotServingCause;
}

export interface WatchRolloutInput {
  readonly client: ApiClient;
  readonly endpointId: string;
  readonly signal?: AbortSignal;
  /** No progress for this long is a stall; ROLLOUT_DEFAULTS.stallAfterMs unless given. */
  readonly stallAfterMs?: number;
  /** All new-release workers unhealthy for this long is a failure; ROLLOUT_DEFAULTS.failAfterMs unless given. */
  readonly failAfterMs?: number;
  /** First poll interval; ROLLOUT_DEFAULTS.pollMs unless given. */
  readonly pollMs?: number;
  readonly onProgress?: (progress: RolloutProgress) => void;
  /** Workspace roots whose bindings of the release keep its time to ready when the watch ends; none records nothing. */
  readonly recordReadinessIn?: readonly string[];
}

/**
 * How a rollout is watched when the caller does not say: the editor's setting, the CLI's flags and the agent
 * tool take their defaults from here, so a rollout is called stalled or failed after the same time everywhere.
 */
export const ROLLOUT_DEFAULTS = {
  /** No progress for this long is a stall (3 minutes). */
  stallAfterMs: 180_000,
  /** Every worker of the new release unhealthy for this long is a failed rollout, a crash loop. */
  failAfterMs: 60_000,
  /** The first poll interval; it grows by backoff while nothing changes, and is back to it on a change. */
  pollMs: 2000,
  /** The longest the backoff waits between two polls (unless the first interval is longer). */
  maxPollMs: 15_000,
} as const;
const BACKOFF = 1.5;
/** Each poll reads the releases and the workers. */
const REQUESTS_PER_POLL = 2;
/** Left for everything else the same key does (the editor's views, a deploy): 10% of a window, at least 4 requests. */
const RESERVE_SHARE = 0.1;
const RESERVE_MIN = 4;

const STARTING: ReadonlySet<Worker['status']> = new Set(['INITIALIZING', 'THROTTLED']);
const HOLDS_UP: ReadonlySet<Worker['status']> = new Set(['UNHEALTHY', 'THROTTLED', 'INITIALIZING']);

/** Which release a worker runs, from its version when both are known, else from the service's own `isStale`. */
function releaseOf(worker: Worker, version: number | undefined): 'latest' | 'older' | 'unknown' {
  if (worker.version !== undefined && version !== undefined) return worker.version >= version ? 'latest' : 'older';
  if (worker.isStale === true) return 'older';
  if (worker.isStale === false) return 'latest';
  return 'unknown';
}

/** The current version: what either answer says (the later of two reads), else the newest release listed. */
function currentVersion(releases: ReleaseList, workers: WorkerList): number | undefined {
  const said = [releases.endpointVersion, workers.endpointVersion].filter((v): v is number => v !== undefined);
  if (said.length > 0) return Math.max(...said);
  const listed = releases.releases.map((r) => r.version).filter((v): v is number => v !== undefined);
  return listed.length > 0 ? Math.max(...listed) : undefined;
}

/**
 * Pure: progress from one read of the releases and the workers. With `minWorkers` (the endpoint's
 * `workers.min`), workers the service has yet to start count against done: right after a deploy the
 * list may still be empty.
 */
export function rolloutProgress(endpointId: string, releases: ReleaseList, workers: WorkerList, minWorkers = 0): RolloutProgress {
  const version = currentVersion(releases, workers);
  let ready = 0;
  let starting = 0;
  let stale = 0;
  let draining = 0;
  let unknownRelease = 0;
  let unknownState = 0;
  const unhealthy: Worker[] = [];
  for (const worker of workers.workers) {
    const release = releaseOf(worker, version);
    if (release === 'unknown') unknownRelease++;
    else if (release === 'older') {
      stale++;
      if (worker.status === 'RUNNING') draining++;
    } else if (READY.has(worker.status)) ready++;
    else if (STARTING.has(worker.status)) starting++;
    else if (worker.status === 'UNHEALTHY') unhealthy.push(worker);
    else unknownState++;
  }
  const total = workers.workers.length;
  const yetToStart = Math.max(0, minWorkers - (total - stale));
  const progress = {
    endpointId,
    ...(version !== undefined ? { version } : {}),
    ready,
    starting,
    unhealthy,
    stale,
    draining,
    total,
    yetToStart,
    // Done only when every worker is known to run the latest release and to be ready.
    done: ready === total && yetToStart === 0,
  };
  return { ...progress, text: progressText(progress, unknownRelease, unknownState) };
}

function progressText(p: Omit<RolloutProgress, 'text'>, unknownRelease: number, unknownState: number): string {
  const release = `release ${p.version ?? '?'}`;
  if (p.total === 0)
    return p.yetToStart === 0 ? `${release}: no workers (none needed)` : `${release}: no workers yet (${p.yetToStart} wanted)`;
  const parts = [`${p.ready} of ${p.total} worker${p.total === 1 ? '' : 's'} on it`];
  if (p.draining > 0) parts.push(`${p.draining} draining`);
  if (p.stale > p.draining) parts.push(`${p.stale - p.draining} on an older release`);
  if (p.unhealthy.length > 0) parts.push(`${p.unhealthy.length} unhealthy`);
  if (p.starting > 0) parts.push(`${p.starting} starting`);
  if (unknownState > 0) parts.push(`${unknownState} in an unknown state`);
  if (unknownRelease > 0) parts.push(`${unknownRelease} on an unknown release`);
  if (p.yetToStart > 0) parts.push(`${p.yetToStart} yet to start`);
  return `${release}: ${parts.join(', ')}`;
}

/**
 * One read: the endpoint (for `workers.min`: right after a deploy the service may not have started the
 * workers it wants, and an empty list is not a finished rollout), its releases and its workers.
 */
export async function readRollout(client: ApiClient, endpointId: string): Promise<RolloutProgress> {
  return (await readParts(client, endpointId, {})).progress;
}

/** Where a rollout stands and, while it is not done, why its workers are not serving (undefined when they do not say). */
export interface RolloutState {
  readonly progress: RolloutProgress;
  readonly cause?: NotServingCause;
}

/**
 * One read with its cause: for a rollout not done, why the latest release's workers are not serving, a
 * crash loop with its last log lines. The service failing to answer throws, as `readRollout` does.
 */
export async function readRolloutState(client: ApiClient, endpointId: string, call: CallOptions = {}): Promise<RolloutState> {
  const started = Date.now();
  const parts = await readParts(client, endpointId, call);
  if (parts.progress.done) return { progress: parts.progress };
  const cause = await causeOfRollout(client, { ...parts, watchStarted: started }, call.signal);
  return { progress: parts.progress, ...(cause ? { cause } : {}) };
}

interface RolloutParts {
  readonly endpoint: Endpoint;
  readonly releases: ReleaseList;
  readonly workers: WorkerList;
  readonly progress: RolloutProgress;
}

async function readParts(client: ApiClient, endpointId: string, call: CallOptions): Promise<RolloutParts> {
  const [endpoint, releases, workers] = await Promise.all([
    client.serverless.get(endpointId, call),
    client.serverless.releases(endpointId, call),
    client.serverless.workers(endpointId, call),
  ]);
  return { endpoint, releases, workers, progress: rolloutProgress(endpointId, releases, workers, minWorkersOf(endpoint)) };
}

/**
 * Why the latest release's workers are not serving: named from its workers, with how long they have been
 * starting counted from the release's creation (else from when the watch began), a crash loop's log read, and
 * for no capacity the pools or flavors with stock.
 */
async function causeOfRollout(
  client: ApiClient,
  parts: RolloutParts & { readonly watchStarted: number },
  signal: AbortSignal | undefined,
): Promise<NotServingCause | undefined> {
  const { progress } = parts;
  const release = parts.releases.releases.find((r) => r.version !== undefined && r.version === progress.version);
  const made = release?.createdAt !== undefined ? Date.parse(release.createdAt) : Number.NaN;
  const cause = notServingCause({
    scope: 'release',
    ...(progress.version !== undefined ? { version: progress.version } : {}),
    workers: parts.workers.workers.filter((w) => releaseOf(w, progress.version) === 'latest'),
    endpoint: parts.endpoint,
    yetToStart: progress.yetToStart,
    startedAt: Number.isFinite(made) ? made : parts.watchStarted,
    now: Date.now(),
  });
  if (!cause) return undefined;
  return cause.kind === 'no-capacity'
    ? withAlternatives(cause, parts.endpoint, client, signal)
    : explainCrash(client, progress.endpointId, cause, signal);
}

/** The endpoint's `workers.min`, 0 when the record does not say. */
function minWorkersOf(endpoint: Endpoint): number {
  const min: unknown = (endpoint.workers as Partial<Endpoint['workers']> | undefined)?.min;
  return typeof min === 'number' && Number.isInteger(min) && min >= 0 ? min : 0;
}

/** The workers of the latest release that keep it from being done. */
function culpritsOf(progress: RolloutProgress, workers: WorkerList): Worker[] {
  return workers.workers.filter((w) => HOLDS_UP.has(w.status) && releaseOf(w, progress.version) === 'latest');
}

/** What counts as a change: any count or the version moving. */
function signature(p: RolloutProgress): string {
  return [p.version, p.ready, p.starting, p.unhealthy.length, p.stale, p.draining, p.total].join('/');
}

/**
 * How long to wait before the next poll so it stays inside the quota: with no more than the reserve
 * left in some window, until that window resets; otherwise spread what is left over the time to the
 * reset. 0 when the service sent no quota (an exempt caller) or the budget allows polling freely.
 */
export function budgetDelayMs(snapshot: RateLimitSnapshot | undefined, now: number): number {
  if (!snapshot) return 0;
  let delay = 0;
  for (const window of snapshot.windows) {
    if (window.remaining === undefined) continue;
    const resetAt = window.resetSeconds !== undefined ? snapshot.observedAt + window.resetSeconds * 1000 : undefined;
    const untilReset = resetAt !== undefined ? Math.max(0, resetAt - now) : undefined;
    if (untilReset === 0) continue;
    const reserve = Math.max(RESERVE_MIN, window.quota !== undefined ? Math.ceil(window.quota * RESERVE_SHARE) : 0);
    const polls = Math.floor((window.remaining - reserve) / REQUESTS_PER_POLL);
    // No reset time said: wait the longest poll interval and look again.
    if (polls <= 0) delay = Math.max(delay, untilReset ?? ROLLOUT_DEFAULTS.maxPollMs);
    else if (untilReset !== undefined) delay = Math.max(delay, Math.ceil(untilReset / polls));
  }
  return delay;
}

/** Resolves after `ms` (true), or at once (false) when the signal fires; leaves no timer or listener behind. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return sleep(ms, undefined, { signal }).then(
    () => true,
    () => false,
  );
}

const names = (workers: readonly Worker[]): string => workers.map((w) => `${w.id} (${w.status})`).join(', ');
export const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

type Read = ({ readonly ok: true } & RolloutParts) | { readonly ok: false; readonly error: unknown };

/** One poll: the releases and the workers, with the endpoint (its `workers.min`) read once beforehand. */
async function pollOnce(input: WatchRolloutInput, known: { endpoint?: Endpoint }): Promise<Read> {
  const { client, endpointId, signal } = input;
  try {
    const endpoint = (known.endpoint ??= await client.serverless.get(endpointId, { signal }));
    const [releases, workers] = await Promise.all([
      client.serverless.releases(endpointId, { signal }),
      client.serverless.workers(endpointId, { signal }),
    ]);
    return { ok: true, endpoint, releases, workers, progress: rolloutProgress(endpointId, releases, workers, minWorkersOf(endpoint)) };
  } catch (error) {
    return { ok: false, error };
  }
}

/** What a failed read ends the watch with; undefined for a quota refusal, which is waited out. */
function outcomeOfError(
  input: WatchRolloutInput,
  error: unknown,
  base: { progress?: RolloutProgress; elapsedMs: number },
): RolloutOutcome | undefined {
  if (input.signal?.aborted || (error instanceof ApiError && error.kind === 'aborted')) return { kind: 'dismissed', ...base };
  if (error instanceof ApiError && error.notFound)
    return { kind: 'failed', ...base, culprits: [], message: `endpoint ${input.endpointId} no longer exists` };
  if (error instanceof ApiError && error.kind === 'rateLimited') return undefined;
  const message = input.client.redact(error instanceof Error ? error.message : String(error));
  return { kind: 'error', ...base, message: `cannot read the rollout: ${message}` };
}

function stalledOutcome(progress: RolloutProgress, workers: WorkerList, stalledMs: number, elapsedMs: number): StalledOrFailed {
  const culprits = culpritsOf(progress, workers);
  const heldBy =
    culprits.length > 0
      ? `held up by ${names(culprits)}`
      : progress.draining > 0
        ? `waiting for ${progress.draining} worker${progress.draining === 1 ? '' : 's'} of an older release to finish their jobs`
        : 'no worker says why';
  return { kind: 'stalled', progress, elapsedMs, culprits, message: `no progress for ${seconds(stalledMs)} (${progress.text}); ${heldBy}` };
}

function failedOutcome(progress: RolloutProgress, unhealthyMs: number, elapsedMs: number): StalledOrFailed {
  const culprits = progress.unhealthy;
  const message = `every worker on release ${progress.version ?? '?'} has been unhealthy for ${seconds(unhealthyMs)} (crash loop?): ${names(culprits)}`;
  return { kind: 'failed', progress, elapsedMs, culprits, message };
}

type StalledOrFailed = Extract<RolloutOutcome, { kind: 'stalled' | 'failed' }>;

/** A stall or a failure with why the release's workers are not serving; read within the log's short budget. */
async function withCause(
  input: WatchRolloutInput,
  outcome: StalledOrFailed,
  parts: RolloutParts & { readonly watchStarted: number },
): Promise<RolloutOutcome> {
  const cause = await causeOfRollout(input.client, parts, input.signal);
  return cause ? { ...outcome, cause } : outcome;
}

/** Whether there are workers on the latest release and every one of them is UNHEALTHY. */
function allUnhealthy(p: RolloutProgress): boolean {
  return p.unhealthy.length > 0 && p.ready === 0 && p.starting === 0 && p.unhealthy.length + p.stale === p.total;
}

/**
 * Polls with backoff inside the rate-limit budget (client.rateLimit), until done, stalled, failed or dismissed;
 * then records the release's time to ready as its reads saw it.
 */
export async function watchRollout(input: WatchRolloutInput): Promise<RolloutOutcome> {
  const readiness = new ReadinessWatch(input.endpointId, input.recordReadinessIn ?? []);
  const outcome = await followRollout(input, readiness);
  const report = readiness.end();
  return report ? { ...outcome, readiness: report } : outcome;
}

async function followRollout(input: WatchRolloutInput, readiness: ReadinessWatch): Promise<RolloutEnd> {
  const { client, signal } = input;
  const stallAfterMs = input.stallAfterMs ?? ROLLOUT_DEFAULTS.stallAfterMs;
  const failAfterMs = input.failAfterMs ?? ROLLOUT_DEFAULTS.failAfterMs;
  const firstPollMs = Math.max(1, input.pollMs ?? ROLLOUT_DEFAULTS.pollMs);
  const maxPollMs = Math.max(ROLLOUT_DEFAULTS.maxPollMs, firstPollMs);
  const started = Date.now();
  const known: { endpoint?: Endpoint } = {};
  let progress: RolloutProgress | undefined;
  let lastChange = started;
  let lastSignature: string | undefined;
  let unhealthySince: number | undefined;
  let interval = firstPollMs;
  const base = (): { progress?: RolloutProgress; elapsedMs: number } => ({
    ...(progress ? { progress } : {}),
    elapsedMs: Date.now() - started,
  });

  for (;;) {
    if (signal?.aborted) return { kind: 'dismissed', ...base() };
    const read = await pollOnce(input, known);
    if (!read.ok) {
      const ended = outcomeOfError(input, read.error, base());
      if (ended) return ended;
      // Still over the quota after the client's own waits: wait for the window, then read again.
      const refusal = read.error as ApiError;
      const wait = Math.max(
        (refusal.retryAfterSeconds ?? 0) * 1000,
        budgetDelayMs(refusal.rateLimit ?? client.rateLimit, Date.now()),
        maxPollMs,
      );
      if (!(await pause(wait, signal))) return { kind: 'dismissed', ...base() };
      continue;
    }
    progress = read.progress;
    readiness.observe(progress.version, read.releases, read.workers, Date.now());
    input.onProgress?.(progress);
    if (progress.done) return { kind: 'done', progress, elapsedMs: Date.now() - started };

    const now = Date.now();
    const current = signature(progress);
    if (current !== lastSignature) {
      lastSignature = current;
      lastChange = now;
      interval = firstPollMs;
    } else {
      interval = Math.min(maxPollMs, interval * BACKOFF);
    }
    unhealthySince = allUnhealthy(progress) ? (unhealthySince ?? now) : undefined;
    const parts = { ...read, watchStarted: started };
    if (unhealthySince !== undefined && now - unhealthySince >= failAfterMs)
      return withCause(input, failedOutcome(progress, now - unhealthySince, now - started), parts);
    if (now - lastChange >= stallAfterMs)
      return withCause(input, stalledOutcome(progress, read.workers, now - lastChange, now - started), parts);

    // Wake in time to call a stall or a failure when it is due, but never faster than the quota allows.
    const dueIn = Math.min(lastChange + stallAfterMs, (unhealthySince ?? Number.POSITIVE_INFINITY) + failAfterMs) - now;
    const wait = Math.max(Math.min(interval, Math.max(1, dueIn)), budgetDelayMs(client.rateLimit, now));
    if (!(await pause(wait, signal))) return { kind: 'dismissed', ...base() };
  }
}
