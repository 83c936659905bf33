/**
 * Jobs on a queue endpoint as use cases: run one and follow it to its end, follow or read one by
 * id, cancel, retry. Submitting with `run` follows the job; `runsync` waits on the service and is
 * followed only if its wait ran out first. A queued job is followed with `/status`; once it runs,
 * with `/stream`, which carries the state as well as the chunks produced since the last read, so
 * progress and streamed output come from one call; when the stream cannot be read, it falls back
 * to `/status`. Aborting the signal sends `cancel` for the job and reports where that left it.
 * A job IN_QUEUE says only that; when the endpoint's workers crash-loop or all wait for capacity,
 * `whyJobWaits` says so, and a followed job reports it with its progress (`waiting`).
 */
import { ApiError, type ApiClient, type Job, type JobRequest, type JobsApi, type JobStatus, type JobStreamChunk } from '../api';
import { setTimeout as sleep } from 'node:timers/promises';
import { endpointNotServing, type NotServingCause, type NotServingClient } from './notServing';

/** What the job use cases need of the API client; with `serverless`, a queued job also says why it waits. */
export interface JobsClient {
  readonly jobs: JobsApi;
  readonly serverless?: NotServingClient['serverless'];
  redact?(text: string): string;
}

/** What a progress display needs, after every answer. */
export interface JobProgress {
  readonly jobId: string | undefined;
  readonly status: Job['status'] | 'SUBMITTING';
  readonly elapsedMs: number;
  readonly chunks: number;
  /** The status record, when this answer was a status read (delay time and worker while it runs). */
  readonly job?: Job;
  /** While IN_QUEUE: why no worker takes it (crash-looping or no capacity), as last checked. */
  readonly waiting?: NotServingCause;
}

export interface JobHandlers {
  /** Aborting it cancels the job being followed (a `runsync` in flight cannot be: see `runJob`). */
  readonly signal?: AbortSignal;
  onStatus?(progress: JobProgress): void;
  /** New streamed chunks, in order, as they arrive. */
  onStream?(chunks: unknown[]): void;
}

/** How often a followed job is read. */
export interface FollowPace {
  /** Pause between reads; a read that took longer (the service held it) is not followed by one. Default 1 s. */
  readonly pollIntervalMs?: number;
}

export interface RunJobInput extends FollowPace {
  readonly endpointId: string;
  /** What the handler receives as `job["input"]`. */
  readonly input: unknown;
  readonly webhook?: string;
  readonly policy?: JobRequest['policy'];
  /** Submit with `runsync` (the service holds the request up to `waitMs`) instead of `run`. */
  readonly sync?: boolean;
  /** How long `runsync` asks the service to hold the request. Default 90 s. */
  readonly waitMs?: number;
  /**
   * With `sync`, a job still running when the wait ran out is followed to its end (the default), or
   * returned as it stands, so a caller that cannot wait (an agent's tool call) hands back its id.
   */
  readonly followUnfinished?: boolean;
}

export interface JobRef {
  readonly endpointId: string;
  readonly jobId: string;
}

/** A job as plain data: its state, and once it ended its output or error and times. */
export interface JobSnapshot extends JobRef {
  readonly status: Job['status'];
  readonly output?: unknown;
  readonly error?: unknown;
  /** Time in the queue, ms. */
  readonly delayTime?: number;
  /** Time running, ms. */
  readonly executionTime?: number;
  readonly workerId?: string;
  readonly retries?: number;
  /** The service's record as it came. */
  readonly job: Job;
}

/** A job followed to its end. */
export interface JobResult extends JobSnapshot {
  /** Why it waited in the queue, when its endpoint's workers were not serving while it did. */
  readonly waited?: NotServingCause;
  /** Every chunk streamed while it was followed. */
  readonly stream: unknown[];
  /** Set when the signal cancelled it (the job may have finished before the cancel arrived). */
  readonly cancelledByUser: boolean;
  /** Something worth knowing that is not a failure: a fallback taken, a cancel that came late. */
  readonly notes: string[];
}

type TerminalStatus = Exclude<JobStatus, 'IN_QUEUE' | 'IN_PROGRESS'>;
const TERMINAL: readonly TerminalStatus[] = ['COMPLETED', 'FAILED', 'CANCELLED', 'TIMED_OUT'];
const DEFAULT_POLL_MS = 1000;
/** How often a followed job still IN_QUEUE checks why it waits: a workers read, and a short log read for a crash loop. */
const WAIT_CHECK_MS = 30_000;
const DEFAULT_RUNSYNC_WAIT_MS = 90_000;
/** Cancel and the final status read are sent after the caller's signal fired, so they get their own limit. */
const AFTER_CANCEL_TIMEOUT_MS = 15_000;

/** Whether a job in this state is done for good. */
export function isTerminal(status: string): status is TerminalStatus {
  return (TERMINAL as readonly string[]).includes(status);
}

/** Whether an error is the caller's own cancellation. */
export function isAborted(error: unknown): boolean {
  return error instanceof ApiError && error.kind === 'aborted';
}

/**
 * Why a job IN_QUEUE waits: its endpoint's workers crash-loop (with the last line of one's log) or all wait
 * THROTTLED for capacity (with the pools that have stock, when `stock` can read them). Undefined for any other
 * state, while a worker serves or is starting, without a `serverless` client, or when the workers cannot be
 * read: this only ever adds to what the job says.
 */
export async function whyJobWaits(
  api: JobsClient,
  job: { readonly endpointId: string; readonly status: string },
  options: { signal?: AbortSignal; stock?: ApiClient } = {},
): Promise<NotServingCause | undefined> {
  if (job.status !== 'IN_QUEUE' || !api.serverless) return undefined;
  try {
    const client: NotServingClient = { serverless: api.serverless, redact: (text) => (api.redact ? api.redact(text) : text) };
    const cause = await endpointNotServing(client, job.endpointId, options);
    return cause?.kind === 'starting' ? undefined : cause;
  } catch {
    return undefined;
  }
}

/** The line a queued job carries: `waiting: the endpoint's workers are crash-looping: <last line>`. */
export function waitingNote(cause: NotServingCause): string {
  return `waiting: ${cause.message}`;
}

/**
 * Submits a job and follows it to its end. With `sync` it is sent with `runsync` and followed only
 * if the service's wait ran out first; aborting a `runsync` in flight throws an `aborted` ApiError
 * (the service names the job only in its answer, so there is nothing to cancel). Throws an
 * `ApiError` only when the submission itself fails.
 */
export async function runJob(api: JobsClient, input: RunJobInput, handlers: JobHandlers = {}): Promise<JobResult> {
  const { jobs } = api;
  const { endpointId } = input;
  const request: JobRequest = {
    input: input.input,
    ...(input.webhook !== undefined ? { webhook: input.webhook } : {}),
    ...(input.policy !== undefined ? { policy: input.policy } : {}),
  };
  const started = Date.now();
  handlers.onStatus?.({ jobId: undefined, status: 'SUBMITTING', elapsedMs: 0, chunks: 0 });
  if (input.sync !== true) {
    const queued = await jobs.run(endpointId, request, { signal: handlers.signal });
    return follow(api, { endpointId, jobId: queued.id, pollIntervalMs: input.pollIntervalMs }, handlers, { started, first: queued });
  }
  const waitMs = input.waitMs ?? DEFAULT_RUNSYNC_WAIT_MS;
  let answer: Job;
  try {
    answer = await jobs.runSync(endpointId, request, { waitMs, signal: handlers.signal });
  } catch (error) {
    if (!isAborted(error)) throw error;
    throw new ApiError({
      kind: 'aborted',
      title: 'Cancelled',
      detail: 'stopped waiting for runsync; the job was not cancelled, since the service names it only in its answer',
      outcomeUnknown: true,
    });
  }
  if (!isTerminal(answer.status) && input.followUnfinished === false)
    return result(endpointId, answer, [], false, [`runsync returned ${answer.status} after its wait of ${waitMs} ms; the job goes on`]);
  if (!isTerminal(answer.status))
    return follow(api, { endpointId, jobId: answer.id, pollIntervalMs: input.pollIntervalMs }, handlers, {
      started,
      first: answer,
      notes: [`runsync returned ${answer.status} after its wait of ${waitMs} ms; followed with status reads`],
    });
  // Finished within the wait: whatever it streamed is still waiting to be read.
  const stream = await readRemainingStream(jobs, endpointId, answer.id);
  if (stream.length > 0) handlers.onStream?.(stream);
  handlers.onStatus?.({ jobId: answer.id, status: answer.status, elapsedMs: Date.now() - started, chunks: stream.length, job: answer });
  return result(endpointId, answer, stream, false, []);
}

/** Follows a submitted job (by id, from anywhere) until it ends or the signal fires, then cancels it. Throws when the service refuses (404 for an unknown id). */
export function followJob(api: JobsClient, input: JobRef & FollowPace, handlers: JobHandlers = {}): Promise<JobResult> {
  return follow(api, input, handlers, {});
}

/** Requeues a failed or timed-out job and follows it again. Throws when the service refuses. */
export async function retryJob(api: JobsClient, input: JobRef & FollowPace, handlers: JobHandlers = {}): Promise<JobResult> {
  const started = Date.now();
  const requeued = await api.jobs.retry(input.endpointId, input.jobId, { signal: handlers.signal });
  return follow(api, { ...input, jobId: requeued.id || input.jobId }, handlers, { started, first: requeued });
}

/** Reads a job's state once. Throws an `ApiError` when the service refuses (404 for an unknown id). */
export async function getJob(api: JobsClient, input: JobRef, options: { signal?: AbortSignal } = {}): Promise<JobSnapshot> {
  return snapshot(input.endpointId, await api.jobs.status(input.endpointId, input.jobId, options));
}

/** Cancels a job and reads where that left it (a job that already ended keeps its state). Throws when the service refuses. */
export async function cancelJob(api: JobsClient, input: JobRef, options: { signal?: AbortSignal } = {}): Promise<JobSnapshot> {
  const answer = await api.jobs.cancel(input.endpointId, input.jobId, options);
  return snapshot(input.endpointId, { ...answer, id: answer.id || input.jobId });
}

async function follow(
  api: JobsClient,
  input: JobRef & FollowPace,
  handlers: JobHandlers,
  from: { started?: number; first?: Job; notes?: string[] },
): Promise<JobResult> {
  const { jobs } = api;
  const { endpointId, jobId } = input;
  const pollIntervalMs = input.pollIntervalMs ?? DEFAULT_POLL_MS;
  const { signal } = handlers;
  const started = from.started ?? Date.now();
  const stream: unknown[] = [];
  const notes = [...(from.notes ?? [])];
  let status: Job['status'] = from.first?.status ?? 'IN_QUEUE';
  let streamable = true;
  const queue = new QueueWatch(api, endpointId, signal);
  const report = (job?: Job): void =>
    handlers.onStatus?.({
      jobId,
      status,
      elapsedMs: Date.now() - started,
      chunks: stream.length,
      ...(job ? { job } : {}),
      ...(queue.waiting ? { waiting: queue.waiting } : {}),
    });
  report(from.first);
  try {
    while (!isTerminal(status)) {
      const readStarted = Date.now();
      let read: Job | undefined;
      // Status reads while queued: a stream read may wait for the next change, and a job that
      // started meanwhile without streaming would go on showing as queued until it ends.
      if (streamable && status !== 'IN_QUEUE') {
        try {
          const part = await jobs.stream(endpointId, jobId, { signal });
          const fresh = chunksOf(part);
          if (fresh.length > 0) {
            stream.push(...fresh);
            handlers.onStream?.(fresh);
          }
          status = part.status;
        } catch (error) {
          if (isAborted(error)) throw error;
          streamable = false;
          notes.push(
            `the stream could not be read (${error instanceof Error ? error.message : String(error)}); followed with status reads`,
          );
          read = await jobs.status(endpointId, jobId, { signal });
        }
      } else {
        read = await jobs.status(endpointId, jobId, { signal });
      }
      if (read) status = read.status;
      // The end is reported with the final status record below, never without its output or times.
      if (isTerminal(status)) break;
      await queue.check(status);
      report(read);
      const rest = pollIntervalMs - (Date.now() - readStarted);
      if (rest > 0) await sleep(rest, undefined, { signal });
    }
  } catch (error) {
    if (!isAborted(error) && !signal?.aborted) throw error;
    return withWaited(await cancelFollowed(jobs, endpointId, jobId, stream, notes), queue.waited);
  }
  const job = await jobs.status(endpointId, jobId, { timeoutMs: AFTER_CANCEL_TIMEOUT_MS });
  status = job.status;
  report(job);
  return withWaited(result(endpointId, job, stream, false, notes), queue.waited);
}

/** While a followed job is IN_QUEUE, why it waits: checked at once, then every WAIT_CHECK_MS. */
class QueueWatch {
  /** The cause as last checked, while the job is queued. */
  waiting: NotServingCause | undefined;
  /** The last cause seen at all, kept once the job left the queue. */
  waited: NotServingCause | undefined;
  private checkedAt: number | undefined;

  constructor(
    private readonly api: JobsClient,
    private readonly endpointId: string,
    private readonly signal: AbortSignal | undefined,
  ) {}

  async check(status: string): Promise<void> {
    if (status !== 'IN_QUEUE') {
      this.waiting = undefined;
      return;
    }
    if (this.checkedAt !== undefined && Date.now() - this.checkedAt < WAIT_CHECK_MS) return;
    this.checkedAt = Date.now();
    this.waiting = await whyJobWaits(this.api, { endpointId: this.endpointId, status }, this.signal ? { signal: this.signal } : {});
    this.waited = this.waiting ?? this.waited;
  }
}

function withWaited(job: JobResult, waited: NotServingCause | undefined): JobResult {
  return waited ? { ...job, waited } : job;
}

async function cancelFollowed(jobs: JobsApi, endpointId: string, jobId: string, stream: unknown[], notes: string[]): Promise<JobResult> {
  await jobs.cancel(endpointId, jobId, { timeoutMs: AFTER_CANCEL_TIMEOUT_MS });
  const job = await jobs.status(endpointId, jobId, { timeoutMs: AFTER_CANCEL_TIMEOUT_MS });
  if (job.status !== 'CANCELLED') notes.push(`cancel arrived after the job ended as ${job.status}`);
  return result(endpointId, job, stream, true, notes);
}

function snapshot(endpointId: string, job: Job): JobSnapshot {
  return {
    endpointId,
    jobId: job.id,
    status: job.status,
    job,
    ...(job.output !== undefined ? { output: job.output } : {}),
    ...(job.error !== undefined ? { error: job.error } : {}),
    ...(job.delayTime !== undefined ? { delayTime: job.delayTime } : {}),
    ...(job.executionTime !== undefined ? { executionTime: job.executionTime } : {}),
    ...(job.workerId !== undefined ? { workerId: job.workerId } : {}),
    ...(job.retries !== undefined ? { retries: job.retries } : {}),
  };
}

function result(endpointId: string, job: Job, stream: unknown[], cancelledByUser: boolean, notes: string[]): JobResult {
  return { ...snapshot(endpointId, job), stream, cancelledByUser, notes };
}

/** The outputs a stream answer carries; the contract does not define its body, so one without `stream` carries none. */
function chunksOf(part: Partial<JobStreamChunk>): unknown[] {
  return (part.stream ?? []).map((chunk) => chunk.output);
}

/** Chunks a finished job produced that nobody read yet; best effort, since not every handler streams. */
async function readRemainingStream(jobs: JobsApi, endpointId: string, jobId: string): Promise<unknown[]> {
  try {
    return chunksOf(await jobs.stream(endpointId, jobId, { timeoutMs: AFTER_CANCEL_TIMEOUT_MS }));
  } catch {
    return [];
  }
}
