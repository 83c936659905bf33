/**
 * Why an endpoint's workers are not serving. The service's own tools call every long wait a "capacity
 * timeout", yet most such waits are workers that crash as they start, and a job queued behind workers that
 * never start only ever reads IN_QUEUE. This names the cause from the worker records: crash-looping (with
 * the last lines of one crashing worker's log, read briefly through the worker-log operation), no capacity
 * (workers waiting THROTTLED for stock), or still starting (image pull or boot, with how long so far). The
 * rollout watch, the job use cases and so every front-end ask here, so they all name a cause alike. No
 * capacity comes with the pools or flavors that have stock, priced, when the catalog's stock can be read
 * (`planStock`, the deploy plan's stock check).
 */
import type { ApiClient, Endpoint, ServerlessApi, Worker } from '../api';
import { liveAsSpec } from '../deploy/effective';
import type { StockAlternative } from '../endpointSpec/catalog/stock';
import { planStock } from './planStock';
import { READY } from './readiness';
import { readWorkerLogs, type WorkerLogLine } from './workerLogs';

/** What naming a cause needs of the API client; `redact` keeps a key out of a log read's error. */
export interface NotServingClient {
  readonly serverless: Pick<ServerlessApi, 'get' | 'workers' | 'workerLogs'>;
  redact?(text: string): string;
}

interface CauseBase {
  /** Whose workers: one release's (a rollout) or the whole endpoint's (a queued job). */
  readonly scope: 'release' | 'endpoint';
  /** The release, for the scope `release`. */
  readonly version?: number;
  /** The workers the cause is about. */
  readonly workers: readonly string[];
  /** One line, the variable part last: `the workers of release 2 are crash-looping: ModuleNotFoundError: …`. */
  readonly message: string;
}

interface CrashLoopingCause extends CauseBase {
  readonly kind: 'crash-looping';
  /** The crashing worker whose log was read. */
  readonly workerId: string;
  /** The last line its container wrote (else the last line of its log); undefined when none was read. */
  readonly lastLine?: string;
  /** Its last few log lines, oldest first. */
  readonly logs: readonly WorkerLogLine[];
  /** Why its log could not be read, when it could not. */
  readonly logsError?: string;
}

interface NoCapacityCause extends CauseBase {
  readonly kind: 'no-capacity';
  /** What the workers wait for: `GPU pools HOPPER_141 in any data center`. */
  readonly waitingFor: string;
  /**
   * Up to three pools (or CPU flavors) with stock where the endpoint asks, priced, as the deploy plan's stock
   * check names them; absent when the catalog's stock could not be read or none has stock.
   */
  readonly alternatives?: readonly StockAlternative[];
}

interface StartingCause extends CauseBase {
  readonly kind: 'starting';
  /** How long they have been starting, when known: from the workers' own times, else the release's or the watch's start. */
  readonly startingForMs?: number;
  /** Workers the endpoint keeps that the service has yet to create. */
  readonly yetToStart: number;
}

export type NotServingCause = CrashLoopingCause | NoCapacityCause | StartingCause;

/** A cause before it is worded: each kind's facts without its message. */
type UnwordedCause = NotServingCause extends infer C ? (C extends NotServingCause ? Omit<C, 'message'> : never) : never;

/** What a cause is named from: one read of the workers, and what the caller knows about their start. */
export interface NotServingFacts {
  readonly scope: 'release' | 'endpoint';
  readonly version?: number;
  /** The workers in scope: the release's alone, or every worker of the endpoint. */
  readonly workers: readonly Worker[];
  /** The endpoint's record, to say what THROTTLED workers wait for. */
  readonly endpoint?: Endpoint;
  /** Workers wanted that the service has not created yet. */
  readonly yetToStart?: number;
  /** Epoch ms since when they have been starting (the release was made, the watch began), when no worker says. */
  readonly startedAt?: number;
  readonly now: number;
}

/** A few lines and a short time: a cause is read at the end of a watch or beside a job, never in a loop. */
const CAUSE_LOG_LINES = 5;
const CAUSE_LOG_TIMEOUT_MS = 3000;
const CAUSE_LOG_SETTLE_MS = 300;

/**
 * Pure: the cause from the workers, the crash log not read yet (`explainCrash` reads it). Undefined when
 * nothing keeps them from serving: for an endpoint, some worker is ready (a queued job only waits its turn).
 */
export function notServingCause(facts: NotServingFacts): NotServingCause | undefined {
  const { workers } = facts;
  if (facts.scope === 'endpoint' && workers.some((w) => READY.has(w.status))) return undefined;
  const base = { scope: facts.scope, ...(facts.version !== undefined ? { version: facts.version } : {}) };
  const unhealthy = workers.filter((w) => w.status === 'UNHEALTHY');
  if (unhealthy.length > 0) {
    const cause = { ...base, kind: 'crash-looping' as const, workers: ids(unhealthy), workerId: unhealthy[0].id, logs: [] };
    return { ...cause, message: causeMessage(cause) };
  }
  const throttled = workers.filter((w) => w.status === 'THROTTLED');
  const initializing = workers.filter((w) => w.status === 'INITIALIZING');
  if (throttled.length > 0 && initializing.length === 0) {
    const cause = { ...base, kind: 'no-capacity' as const, workers: ids(throttled), waitingFor: waitingFor(facts.endpoint) };
    return { ...cause, message: causeMessage(cause) };
  }
  const yetToStart = facts.yetToStart ?? 0;
  if (initializing.length === 0 && yetToStart === 0) return undefined;
  const since = startedAt(initializing) ?? facts.startedAt;
  const startingForMs = since !== undefined && facts.now >= since ? facts.now - since : undefined;
  const cause = {
    ...base,
    kind: 'starting' as const,
    workers: ids([...initializing, ...throttled]),
    yetToStart,
    ...(startingForMs !== undefined ? { startingForMs } : {}),
  };
  return { ...cause, message: causeMessage(cause) };
}

/** A crash loop's cause with the last lines of its worker's log, read within a short budget; other causes as they are. */
export async function explainCrash(
  client: NotServingClient,
  endpointId: string,
  cause: NotServingCause,
  signal?: AbortSignal,
): Promise<NotServingCause> {
  if (cause.kind !== 'crash-looping') return cause;
  const read = await readWorkerLogs(client, {
    endpointId,
    workerId: cause.workerId,
    lines: CAUSE_LOG_LINES,
    settleMs: CAUSE_LOG_SETTLE_MS,
    timeoutMs: CAUSE_LOG_TIMEOUT_MS,
    ...(signal ? { signal } : {}),
  });
  const explained: Omit<CrashLoopingCause, 'message'> = read.ok
    ? { ...cause, logs: read.lines, ...lastLineOf(read.lines) }
    : { ...cause, logsError: client.redact ? client.redact(read.message) : read.message };
  return { ...explained, message: causeMessage(explained) };
}

/**
 * A no-capacity cause with the pools or flavors that have stock where the endpoint asks, read from the
 * catalog with `stock` (the deploy plan's check); other causes, or a stock that cannot be read, as they are.
 */
export async function withAlternatives(
  cause: NotServingCause,
  endpoint: Endpoint | undefined,
  stock: ApiClient | undefined,
  signal?: AbortSignal,
): Promise<NotServingCause> {
  if (cause.kind !== 'no-capacity' || !endpoint || !stock) return cause;
  const shortage = await planStock(stock, liveAsSpec(endpoint), undefined, signal);
  return shortage && shortage.alternatives.length > 0 ? { ...cause, alternatives: shortage.alternatives } : cause;
}

/**
 * Why none of an endpoint's workers serves, read now: undefined when one does. Throws when the service
 * cannot be read; a crash log that cannot be read is said in the cause instead. `stock` is the client to read
 * the catalog's stock with, for a no-capacity cause's alternatives; none are read without it.
 */
export async function endpointNotServing(
  client: NotServingClient,
  endpointId: string,
  options: { readonly signal?: AbortSignal; readonly stock?: ApiClient } = {},
): Promise<NotServingCause | undefined> {
  const call = options.signal ? { signal: options.signal } : {};
  const facts = {
    scope: 'endpoint' as const,
    workers: (await client.serverless.workers(endpointId, call)).workers,
    now: Date.now(),
  };
  const cause = notServingCause(facts);
  if (cause?.kind !== 'no-capacity') return cause && explainCrash(client, endpointId, cause, options.signal);
  // The endpoint is read only to say what THROTTLED workers wait for: a serving endpoint costs one request.
  const endpoint = await client.serverless.get(endpointId, call);
  const named = notServingCause({ ...facts, endpoint });
  return named && withAlternatives(named, endpoint, options.stock, options.signal);
}

/** The one-line message of a cause, from its facts. */
function causeMessage(cause: UnwordedCause): string {
  const subject = cause.scope === 'release' ? `the workers of release ${cause.version ?? '?'}` : "the endpoint's workers";
  switch (cause.kind) {
    case 'crash-looping':
      if (cause.lastLine !== undefined) return `${subject} are crash-looping: ${cause.lastLine}`;
      if (cause.logsError !== undefined)
        return `${subject} are crash-looping; the log of worker ${cause.workerId} could not be read: ${cause.logsError}`;
      return `${subject} are crash-looping (UNHEALTHY): worker ${cause.workerId}`;
    case 'no-capacity':
      return `${subject} have no capacity: ${cause.workers.length} waiting THROTTLED for stock of ${cause.waitingFor}`;
    case 'starting': {
      const created = cause.yetToStart > 0 ? `, ${cause.yetToStart} yet to be created` : '';
      const sofar = cause.startingForMs !== undefined ? `: ${durationText(cause.startingForMs)} so far` : '';
      return `${subject} are still starting (image pull or boot)${created}${sofar}`;
    }
  }
}

const ids = (workers: readonly Worker[]): string[] => workers.map((w) => w.id);

/** `5.0 s`, `42 s`, `3 min 5 s`, as the front-ends say a duration (`core/util` is outside this layer's reach). */
function durationText(ms: number): string {
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** The earliest time a starting worker says it started; undefined when none says. */
function startedAt(workers: readonly Worker[]): number | undefined {
  const times = workers.map((w) => (w.startedAt ? Date.parse(w.startedAt) : Number.NaN)).filter((t) => Number.isFinite(t));
  return times.length > 0 ? Math.min(...times) : undefined;
}

/** What THROTTLED workers wait for, from the endpoint's compute and data centers. */
function waitingFor(endpoint: Endpoint | undefined): string {
  if (!endpoint) return "the endpoint's machine types";
  const centers = endpoint.dataCenterIds.length > 0 ? endpoint.dataCenterIds.join(', ') : 'any data center';
  if (endpoint.gpu) return `GPU pools ${endpoint.gpu.pools.join(', ') || 'any'} in ${centers}`;
  if (endpoint.cpu?.length) return `CPU flavors ${endpoint.cpu.map((c) => c.id).join(', ')} in ${centers}`;
  return `a machine in ${centers}`;
}

/** The last line the container wrote, where the crash says why; else the last line of the log. */
function lastLineOf(lines: readonly WorkerLogLine[]): { lastLine?: string } {
  const line = [...lines].reverse().find((l) => l.source === 'container') ?? lines.at(-1);
  return line ? { lastLine: line.line.trim() } : {};
}
