/** `/v2/serverless`: endpoints, their workers, releases and worker log streams. */
import { ApiError } from './errors';
import { setTimeout as sleep } from 'node:timers/promises';
import { segment, type CallOptions, type HttpCore } from './http';
import { ResumableEventStream, type ResumeOptions, type SseEvent } from './sse';
import { readReleaseList, readWorkerList } from './records';
import type { CreateEndpointRequest, Endpoint, LogSource, ReleaseList, UpdateEndpointRequest, WorkerList, WorkerLogEvent } from './types';

export interface WorkerLogOptions extends Omit<ResumeOptions, 'signal'> {
  signal?: AbortSignal;
  /** Omit for both container and system lines. */
  source?: LogSource;
  /** Backfill lines on the first connection (service default 100, max 5000; 0 = live only). */
  tail?: number;
  /** RFC 3339: backfill from this time instead of `tail` on the first connection. */
  since?: string;
}

/** An async iterable of log lines that also tells where to resume. */
export interface WorkerLogStream extends AsyncIterable<WorkerLogEvent> {
  readonly lastEventId: string | undefined;
  readonly reconnects: number;
}

export interface CreateReconciledOptions extends CallOptions {
  /**
   * Ids of endpoints that existed before this deploy (typically from the list the caller already
   * fetched). An endpoint with one of these ids is never taken for the one this create made.
   */
  existingIds?: readonly string[];
  /** After a create is shown not to exist, how many times it may be sent again. Default 1. */
  retries?: number;
  /** Lists made to look for it (a slow server may still be committing it). Default 3. */
  reconcileChecks?: number;
  /** Wait between those lists. Default 1000 ms. */
  reconcileIntervalMs?: number;
  /** Allowance for clock skew between this machine and the service. Default 5 minutes. */
  clockSkewMs?: number;
}

export type CreateOutcome =
  /** The service answered 201. */
  | { status: 'created'; endpoint: Endpoint; attempts: number }
  /** The answer was lost, but listing found the endpoint the request made. */
  | { status: 'reconciled'; endpoint: Endpoint; attempts: number; lostAnswer: ApiError }
  /** The answer was lost and listing showed nothing was made; retries (if any) are spent. */
  | { status: 'notCreated'; attempts: number; lostAnswer: ApiError };

export class ServerlessApi {
  constructor(private readonly http: HttpCore) {}

  async list(options: CallOptions = {}): Promise<Endpoint[]> {
    return this.http.list<Endpoint>('endpoints', { method: 'GET', path: '/v2/serverless', ...options });
  }

  get(id: string, options: CallOptions = {}): Promise<Endpoint> {
    return this.http.request<Endpoint>({ method: 'GET', path: `/v2/serverless/${segment(id)}`, ...options });
  }

  /**
   * One POST, never repeated by the client: after a lost answer it throws with `outcomeUnknown`.
   * Use `createReconciled` to turn that into a definite answer without risking a duplicate.
   */
  create(body: CreateEndpointRequest, options: CallOptions = {}): Promise<Endpoint> {
    return this.http.request<Endpoint>({ method: 'POST', path: '/v2/serverless', body, ...options });
  }

  /**
   * Creates an endpoint and, when the outcome is unknown (timeout, dropped connection, 5xx after
   * sending, unreadable answer), lists endpoints to look for one with the submitted name that
   * did not exist before and was created after the attempt started. Only when repeated lists
   * show none is the create sent again, so a deploy never makes a duplicate. Definite refusals
   * (4xx) are thrown as they are.
   */
  async createReconciled(body: CreateEndpointRequest, options: CreateReconciledOptions = {}): Promise<CreateOutcome> {
    const { existingIds = [], retries = 1, reconcileChecks = 3, reconcileIntervalMs = 1000, clockSkewMs = 5 * 60_000, ...call } = options;
    const known = new Set(existingIds);
    let lostAnswer: ApiError | undefined;
    for (let attempt = 1; attempt <= retries + 1; attempt++) {
      const startedAt = Date.now();
      try {
        return { status: 'created', endpoint: await this.create(body, call), attempts: attempt };
      } catch (error) {
        if (!(error instanceof ApiError) || !error.outcomeUnknown) throw error;
        lostAnswer = error;
      }
      const found = await this.findCreated(body.name, known, startedAt - clockSkewMs, reconcileChecks, reconcileIntervalMs, call);
      if (found) return { status: 'reconciled', endpoint: found, attempts: attempt, lostAnswer };
    }
    return { status: 'notCreated', attempts: retries + 1, lostAnswer: lostAnswer as ApiError };
  }

  private async findCreated(
    name: string,
    known: Set<string>,
    notBefore: number,
    checks: number,
    intervalMs: number,
    call: CallOptions,
  ): Promise<Endpoint | undefined> {
    for (let check = 1; check <= Math.max(1, checks); check++) {
      if (check > 1) {
        try {
          await sleep(intervalMs, undefined, { signal: call.signal });
        } catch {
          throw new ApiError({
            kind: 'aborted',
            title: 'Cancelled',
            detail: 'cancelled while checking whether the endpoint was created',
            method: 'POST',
            path: '/v2/serverless',
            outcomeUnknown: true,
          });
        }
      }
      // A failure here propagates: without a list we cannot tell, and must not guess.
      const candidates = (await this.list(call)).filter((e) => e.name === name && !known.has(e.id) && createdNotBefore(e, notBefore));
      if (candidates.length > 0) return candidates.sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))[0];
    }
    return undefined;
  }

  /** PATCH: only the fields sent change. Safe to repeat, so it is retried after a lost answer. */
  update(id: string, body: UpdateEndpointRequest, options: CallOptions = {}): Promise<Endpoint> {
    return this.http.request<Endpoint>({ method: 'PATCH', path: `/v2/serverless/${segment(id)}`, body, ...options });
  }

  /** Irreversible on the service: workers stop, queued jobs are cancelled. Confirm before calling. */
  async delete(id: string, options: CallOptions = {}): Promise<void> {
    await this.http.request<undefined>({ method: 'DELETE', path: `/v2/serverless/${segment(id)}`, ...options });
  }

  async workers(id: string, options: CallOptions = {}): Promise<WorkerList> {
    return readWorkerList(await this.http.request<unknown>({ method: 'GET', path: `/v2/serverless/${segment(id)}/workers`, ...options }));
  }

  /** Newest first, with the rollout's progress when the service sent it. */
  async releases(id: string, options: CallOptions = {}): Promise<ReleaseList> {
    return readReleaseList(await this.http.request<unknown>({ method: 'GET', path: `/v2/serverless/${segment(id)}/releases`, ...options }));
  }

  /**
   * Follows a worker's log as it is written. After a drop it reconnects with backoff and resumes
   * with `Last-Event-ID` (taking precedence over `tail`/`since` on the service), skipping any
   * line already delivered. Ends when `signal` aborts; throws on a definite refusal (401, 403, 404).
   */
  workerLogs(id: string, workerId: string, options: WorkerLogOptions = {}): WorkerLogStream {
    const path = `/v2/serverless/${segment(id)}/workers/${segment(workerId)}/logs`;
    const { source, tail, since, ...resume } = options;
    const events = new ResumableEventStream(
      this.http,
      (lastEventId) => ({
        method: 'GET',
        path,
        query: lastEventId === undefined ? { source, tail, since } : { source },
        ...(lastEventId !== undefined ? { headers: { 'Last-Event-ID': lastEventId } } : {}),
      }),
      resume,
    );
    return {
      get lastEventId() {
        return events.lastEventId;
      },
      get reconnects() {
        return events.reconnects;
      },
      async *[Symbol.asyncIterator]() {
        for await (const event of events) yield toLogEvent(event);
      },
    };
  }
}

function createdNotBefore(endpoint: Endpoint, notBefore: number): boolean {
  const created = Date.parse(endpoint.createdAt);
  // Without a readable time, the name and the not-seen-before id have to do.
  return Number.isNaN(created) || created >= notBefore;
}

function toLogEvent(event: SseEvent): WorkerLogEvent {
  try {
    const parsed: unknown = JSON.parse(event.data);
    if (typeof parsed === 'object' && parsed !== null) {
      const data = parsed as { ts?: unknown; source?: unknown; line?: unknown };
      return {
        id: event.id,
        event: event.event,
        ts: typeof data.ts === 'string' ? data.ts : event.id,
        source: typeof data.source === 'string' ? data.source : 'container',
        line: typeof data.line === 'string' ? data.line : JSON.stringify(data),
      };
    }
  } catch {
    // Not JSON: the payload is the line itself.
  }
  return { id: event.id, event: event.event, ts: event.id, source: 'container', line: event.data };
}
