/**
 * A worker's log, or every worker of an endpoint merged, as two use cases: a bounded snapshot (the
 * last N lines, then stop) and live following. The service only streams (Server-Sent Events that
 * stay open), so a snapshot reads the backfill and stops once the stream goes quiet. Following gives
 * each worker its own resumable stream (the API client reconnects after a drop and resumes with
 * `Last-Event-ID`) and, for an endpoint, picks up workers that start later.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError, type LogSource, type ServerlessApi, type WorkerLogEvent } from '../api';

/** What the logs use cases need of the API client. */
export interface LogsClient {
  readonly serverless: Pick<ServerlessApi, 'workerLogs' | 'workers'>;
}

/** One log line, tagged with the worker that wrote it. */
export interface WorkerLogLine {
  readonly workerId: string;
  /** The SSE event id: orders lines, and is where a resume starts. */
  readonly id: string;
  readonly ts: string;
  /** `container` or `system` (a newer service may name others). */
  readonly source: string;
  readonly line: string;
}

/** The service's largest backfill per connection. */
export const MAX_LOG_LINES = 5000;

export interface ReadWorkerLogsInput {
  readonly endpointId: string;
  /** One worker; omitted for every worker of the endpoint, merged in time order. */
  readonly workerId?: string;
  /** How many of the newest lines to return, 1 to 5000. */
  readonly lines: number;
  /** Omit for both container and system lines. */
  readonly source?: LogSource;
  /** The stream counts as done after this long without a line (the backfill comes at once). Default 500 ms. */
  readonly settleMs?: number;
  /** Longest the snapshot waits per worker. Default 15 s. */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

export type ReadWorkerLogsResult =
  | {
      readonly ok: true;
      readonly endpointId: string;
      /** The workers read (all of the endpoint's when no worker was named). */
      readonly workers: readonly string[];
      /** At most `lines`, oldest first. */
      readonly lines: readonly WorkerLogLine[];
      /** True when older lines exist than those returned. */
      readonly truncated: boolean;
      /** Workers whose log could not be read (the others are still in `lines`). */
      readonly failures: readonly { readonly workerId: string; readonly message: string }[];
    }
  | { readonly ok: false; readonly message: string; readonly notFound: boolean };

/**
 * Reads the last `lines` lines of one worker's log, or of all the endpoint's workers merged and cut
 * to the newest `lines`. Never throws for a service error: a refusal comes back as `ok: false`.
 */
export async function readWorkerLogs(api: LogsClient, input: ReadWorkerLogsInput): Promise<ReadWorkerLogsResult> {
  if (!Number.isInteger(input.lines) || input.lines < 1 || input.lines > MAX_LOG_LINES)
    return { ok: false, message: `lines must be a whole number from 1 to ${MAX_LOG_LINES}; got: ${input.lines}`, notFound: false };
  let workers: string[];
  try {
    workers =
      input.workerId !== undefined
        ? [input.workerId]
        : (await api.serverless.workers(input.endpointId, input.signal ? { signal: input.signal } : {})).workers.map((w) => w.id);
  } catch (error) {
    return refused(error);
  }
  // One more than asked: whether it comes tells if older lines exist.
  const tail = Math.min(input.lines + 1, MAX_LOG_LINES);
  const reads = await Promise.all(workers.map((workerId) => readBackfill(api, input, workerId, tail)));
  const failures = reads.flatMap((r, i) => ('error' in r ? [{ workerId: workers[i], message: messageOf(r.error) }] : []));
  if (input.workerId !== undefined && failures.length > 0) return refused((reads[0] as { error: unknown }).error);
  const merged = reads.flatMap((r) => ('lines' in r ? r.lines : [])).sort(byTime);
  const cappedWorker = reads.some((r) => 'lines' in r && r.lines.length >= tail && tail === MAX_LOG_LINES);
  return {
    ok: true,
    endpointId: input.endpointId,
    workers,
    lines: merged.slice(-input.lines),
    truncated: merged.length > input.lines || cappedWorker,
    failures,
  };
}

/** One worker's backfill: read until `tail` lines came, the stream went quiet, or time ran out. */
async function readBackfill(
  api: LogsClient,
  input: ReadWorkerLogsInput,
  workerId: string,
  tail: number,
): Promise<{ lines: WorkerLogLine[] } | { error: unknown }> {
  const controller = new AbortController();
  const stop = (): void => {
    controller.abort();
  };
  input.signal?.addEventListener('abort', stop, { once: true });
  let quiet: ReturnType<typeof setTimeout> | undefined;
  const settle = (): void => {
    clearTimeout(quiet);
    quiet = setTimeout(stop, input.settleMs ?? 500);
  };
  const deadline = setTimeout(stop, input.timeoutMs ?? 15_000);
  const lines: WorkerLogLine[] = [];
  try {
    const stream = api.serverless.workerLogs(input.endpointId, workerId, {
      signal: controller.signal,
      tail,
      maxReconnects: 2,
      onOpen: settle,
      ...(input.source !== undefined ? { source: input.source } : {}),
    });
    for await (const event of stream) {
      lines.push(lineOf(workerId, event));
      if (lines.length >= tail) break;
      settle();
    }
    return { lines };
  } catch (error) {
    return { error };
  } finally {
    clearTimeout(quiet);
    clearTimeout(deadline);
    controller.abort();
    input.signal?.removeEventListener('abort', stop);
  }
}

export interface FollowWorkerLogsInput {
  readonly endpointId: string;
  /** One worker; omitted for every worker of the endpoint, including those that start later. */
  readonly workerId?: string;
  /** Omit for both container and system lines. */
  readonly source?: LogSource;
  /** Backfill lines per worker on its first connection (0 = live only). Default 100. */
  readonly tail?: number;
  /**
   * Per worker, the id of the last line delivered; updated in place as lines arrive. Pass the same
   * map to a later follow to resume after the last line seen, with nothing lost or repeated.
   */
  readonly cursors?: Map<string, string>;
  /** How often an endpoint's worker list is read again to follow new workers. Default 10 s. */
  readonly workerPollMs?: number;
  readonly reconnectDelayMs?: number;
}

/** What happens to the streams, for a status line or a marker among the lines. */
export type FollowStatus =
  | { readonly kind: 'following'; readonly workerId: string }
  /** The endpoint has no worker yet; the follow waits for one. */
  | { readonly kind: 'waiting'; readonly message: string }
  | {
      readonly kind: 'reconnecting';
      readonly workerId: string;
      readonly attempt: number;
      readonly lastEventId: string | undefined;
      readonly message: string;
    }
  /** A worker's stream ended for good (the worker is gone, the key was refused). */
  | { readonly kind: 'ended'; readonly workerId: string; readonly error: unknown; readonly message: string }
  /** The first read of the worker list failed; later reads are tried again quietly. */
  | { readonly kind: 'listFailed'; readonly error: unknown; readonly message: string };

export interface FollowWorkerLogsHandlers {
  /** New lines, in the order they arrived. */
  onLines(lines: readonly WorkerLogLine[]): void;
  onStatus?(status: FollowStatus): void;
  /** Aborting it stops every stream. */
  readonly signal: AbortSignal;
}

/**
 * Follows the log live until `signal` aborts: one worker, or every worker of the endpoint merged
 * (the worker list is read again every `workerPollMs` to follow new workers). Resolves when the
 * signal aborts, or when a single worker's stream ends for good.
 */
export async function followWorkerLogs(api: LogsClient, input: FollowWorkerLogsInput, handlers: FollowWorkerLogsHandlers): Promise<void> {
  const follow = new Following(api, input, handlers);
  if (input.workerId !== undefined) await follow.worker(input.workerId);
  else await follow.endpoint();
}

/** The streams of one follow call. */
class Following {
  private readonly running = new Set<string>();
  private readonly cursors: Map<string, string>;

  constructor(
    private readonly api: LogsClient,
    private readonly input: FollowWorkerLogsInput,
    private readonly handlers: FollowWorkerLogsHandlers,
  ) {
    this.cursors = input.cursors ?? new Map<string, string>();
  }

  async endpoint(): Promise<void> {
    const { signal } = this.handlers;
    const interval = this.input.workerPollMs ?? 10_000;
    let first = true;
    while (!signal.aborted) {
      try {
        const list = await this.api.serverless.workers(this.input.endpointId, { signal });
        if (first && list.workers.length === 0)
          this.status({ kind: 'waiting', message: `${this.input.endpointId} has no workers yet; waiting for one` });
        for (const worker of list.workers) if (!this.running.has(worker.id)) void this.worker(worker.id);
      } catch (error) {
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- the signal can abort while the list is awaited; the loop condition's narrowing does not see that
        if (signal.aborted) return;
        if (first)
          this.status({
            kind: 'listFailed',
            error,
            message: `could not list the workers of ${this.input.endpointId}: ${messageOf(error)}`,
          });
      }
      first = false;
      // Cut short when the signal aborts, which ends the loop.
      await sleep(interval, undefined, { signal }).catch(() => undefined);
    }
  }

  /** Follows one worker until its stream ends for good or the signal aborts. */
  async worker(workerId: string): Promise<void> {
    const { signal } = this.handlers;
    this.running.add(workerId);
    this.status({ kind: 'following', workerId });
    const cursor = this.cursors.get(workerId);
    const { source, reconnectDelayMs } = this.input;
    const stream = this.api.serverless.workerLogs(this.input.endpointId, workerId, {
      signal,
      tail: this.input.tail ?? 100,
      ...(source !== undefined ? { source } : {}),
      ...(cursor !== undefined ? { lastEventId: cursor } : {}),
      ...(reconnectDelayMs !== undefined ? { reconnectDelayMs } : {}),
      onReconnect: ({ attempt, lastEventId, reason }) => {
        if (signal.aborted) return;
        const after = lastEventId ? `resuming after ${lastEventId}` : 'from the start (no line seen yet)';
        const retry = attempt > 1 ? ` (failed attempts in a row: ${attempt})` : '';
        this.status({
          kind: 'reconnecting',
          workerId,
          attempt,
          lastEventId,
          message: `stream dropped (${reason}); reconnecting, ${after}${retry}`,
        });
      },
    });
    try {
      for await (const event of stream) {
        if (signal.aborted) break;
        this.cursors.set(workerId, event.id);
        this.handlers.onLines([lineOf(workerId, event)]);
      }
    } catch (error) {
      if (signal.aborted) return;
      this.status({ kind: 'ended', workerId, error, message: `stream ended: ${messageOf(error)}` });
    } finally {
      // A stream that ended on its own is followed again if the worker is still listed.
      if (!signal.aborted) this.running.delete(workerId);
    }
  }

  private status(status: FollowStatus): void {
    this.handlers.onStatus?.(status);
  }
}

function lineOf(workerId: string, event: WorkerLogEvent): WorkerLogLine {
  return { workerId, id: event.id, ts: event.ts, source: event.source, line: event.line };
}

/** Time order across workers; the id breaks ties within one millisecond. */
function byTime(a: WorkerLogLine, b: WorkerLogLine): number {
  return a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function refused(error: unknown): ReadWorkerLogsResult {
  return { ok: false, message: messageOf(error), notFound: error instanceof ApiError && error.notFound };
}
