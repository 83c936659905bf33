/**
 * Runs one job to its end against the job API, with no editor in sight (the commands wrap it in a
 * progress notification): submit with `run` and follow it, or submit with `runsync` and follow it
 * only if the wait ran out first. A queued job is followed with `/status`; once it runs, with
 * `/stream`, which carries the state as well as the chunks produced since the last read, so
 * progress and streamed output come from one call; when the stream cannot be read, it falls back
 * to `/status`. Aborting the signal sends `cancel`
 * for the job and reports where that left it.
 */
import { ApiError, type Job, type JobRequest, type JobStatus, type JobStreamChunk, type JobsApi } from '../../core/api';

export type RunMode = 'run' | 'runsync';

/** What a progress display needs, after every answer. */
export interface JobProgress {
  jobId: string | undefined;
  status: JobStatus | 'SUBMITTING';
  elapsedMs: number;
  chunks: number;
  /** The status record, when this answer was a status read (delay time and worker while it runs). */
  job?: Job;
}

export interface FollowOptions {
  /** Pause between reads; a read that took longer (the service held it) is not followed by one. */
  pollIntervalMs: number;
  signal?: AbortSignal;
  onProgress?(progress: JobProgress): void;
  /** New streamed chunks, in order, as they arrive. */
  onChunks?(chunks: unknown[]): void;
}

export interface RunOptions extends FollowOptions {
  mode: RunMode;
  /** How long `runsync` asks the service to hold the request. */
  runsyncWaitMs: number;
}

export interface JobOutcome {
  jobId: string;
  status: JobStatus;
  /** The final status record: times, output or error, worker, retries. */
  job: Job;
  /** Every chunk streamed while it was followed. */
  stream: unknown[];
  /** Set when the user cancelled (the job may have finished before the cancel arrived). */
  cancelledByUser: boolean;
  /** Something worth knowing that is not a failure: a fallback taken, a cancel that came late. */
  notes: string[];
}

type TerminalStatus = Exclude<JobStatus, 'IN_QUEUE' | 'IN_PROGRESS'>;
const TERMINAL: readonly TerminalStatus[] = ['COMPLETED', 'FAILED', 'CANCELLED', 'TIMED_OUT'];
/** Cancel and the final status read are sent after the user's signal fired, so they get their own limit. */
const AFTER_CANCEL_TIMEOUT_MS = 15_000;

export function isTerminal(status: string): status is TerminalStatus {
  return (TERMINAL as readonly string[]).includes(status);
}

export function isAborted(error: unknown): boolean {
  return error instanceof ApiError && error.kind === 'aborted';
}

/** Submits and follows to the end. Throws only when the submission itself fails. */
export async function runJob(jobs: JobsApi, endpointId: string, request: JobRequest, options: RunOptions): Promise<JobOutcome> {
  const started = Date.now();
  options.onProgress?.({ jobId: undefined, status: 'SUBMITTING', elapsedMs: 0, chunks: 0 });
  if (options.mode === 'run') {
    const queued = await jobs.run(endpointId, request, { signal: options.signal });
    return followJob(jobs, endpointId, queued.id, options, { started, first: queued });
  }
  let answer: Job;
  try {
    answer = await jobs.runSync(endpointId, request, { waitMs: options.runsyncWaitMs, signal: options.signal });
  } catch (error) {
    if (isAborted(error)) {
      // The service names the job only in its answer, so there is nothing to cancel by id.
      throw new ApiError({
        kind: 'aborted',
        title: 'Cancelled',
        detail: 'stopped waiting for runsync; the job was not cancelled, since the service names it only in its answer',
        outcomeUnknown: true,
      });
    }
    throw error;
  }
  if (!isTerminal(answer.status))
    return followJob(jobs, endpointId, answer.id, options, {
      started,
      first: answer,
      notes: [`runsync returned ${answer.status} after its wait of ${options.runsyncWaitMs} ms; followed with status reads`],
    });
  // Finished within the wait: whatever it streamed is still waiting to be read.
  const stream = await readRemainingStream(jobs, endpointId, answer.id);
  if (stream.length > 0) options.onChunks?.(stream);
  options.onProgress?.({ jobId: answer.id, status: answer.status, elapsedMs: Date.now() - started, chunks: stream.length, job: answer });
  return { jobId: answer.id, status: answer.status, job: answer, stream, cancelledByUser: false, notes: [] };
}

/** Requeues a failed or timed-out job and follows it again. Throws when the service refuses. */
export async function retryJob(jobs: JobsApi, endpointId: string, jobId: string, options: FollowOptions): Promise<JobOutcome> {
  const started = Date.now();
  const requeued = await jobs.retry(endpointId, jobId, { signal: options.signal });
  return followJob(jobs, endpointId, requeued.id || jobId, options, { started, first: requeued });
}

/** Follows a submitted job until it ends or the signal fires (then cancels it). */
export async function followJob(
  jobs: JobsApi,
  endpointId: string,
  jobId: string,
  options: FollowOptions,
  from: { started?: number; first?: Job; notes?: string[] } = {},
): Promise<JobOutcome> {
  const started = from.started ?? Date.now();
  const stream: unknown[] = [];
  const notes = [...(from.notes ?? [])];
  let status: JobStatus = from.first?.status ?? 'IN_QUEUE';
  let streamable = true;
  const report = (job?: Job): void =>
    options.onProgress?.({ jobId, status, elapsedMs: Date.now() - started, chunks: stream.length, ...(job ? { job } : {}) });
  report(from.first);
  try {
    while (!isTerminal(status)) {
      const readStarted = Date.now();
      let read: Job | undefined;
      // Status reads while queued: a stream read may wait for the next change, and a job that
      // started meanwhile without streaming would go on showing as queued until it ends.
      if (streamable && status !== 'IN_QUEUE') {
        try {
          const part = await jobs.stream(endpointId, jobId, { signal: options.signal });
          const fresh = chunksOf(part);
          if (fresh.length > 0) {
            stream.push(...fresh);
            options.onChunks?.(fresh);
          }
          status = part.status;
        } catch (error) {
          if (isAborted(error)) throw error;
          streamable = false;
          notes.push(
            `the stream could not be read (${error instanceof Error ? error.message : String(error)}); followed with status reads`,
          );
          read = await jobs.status(endpointId, jobId, { signal: options.signal });
        }
      } else {
        read = await jobs.status(endpointId, jobId, { signal: options.signal });
      }
      if (read) status = read.status;
      // The end is reported with the final status record below, never without its output or times.
      if (isTerminal(status)) break;
      report(read);
      const rest = options.pollIntervalMs - (Date.now() - readStarted);
      if (rest > 0) await sleep(rest, options.signal);
    }
  } catch (error) {
    if (!isAborted(error) && !options.signal?.aborted) throw error;
    return cancelJob(jobs, endpointId, jobId, stream, notes);
  }
  const job = await jobs.status(endpointId, jobId, { timeoutMs: AFTER_CANCEL_TIMEOUT_MS });
  status = job.status;
  report(job);
  return { jobId, status: job.status, job, stream, cancelledByUser: false, notes };
}

async function cancelJob(jobs: JobsApi, endpointId: string, jobId: string, stream: unknown[], notes: string[]): Promise<JobOutcome> {
  await jobs.cancel(endpointId, jobId, { timeoutMs: AFTER_CANCEL_TIMEOUT_MS });
  const job = await jobs.status(endpointId, jobId, { timeoutMs: AFTER_CANCEL_TIMEOUT_MS });
  if (job.status !== 'CANCELLED') notes.push(`cancel arrived after the job ended as ${job.status}`);
  return { jobId, status: job.status, job, stream, cancelledByUser: true, notes };
}

/** The outputs a stream answer carries; the contract does not define its body, so one without `stream` carries none. */
function chunksOf(part: Partial<JobStreamChunk>): unknown[] {
  return (part.stream ?? []).map((chunk) => chunk.output);
}

/** Chunks a finished job produced that nobody read yet; best effort, since not every handler streams. */
async function readRemainingStream(jobs: JobsApi, endpointId: string, jobId: string): Promise<unknown[]> {
  try {
    const part = await jobs.stream(endpointId, jobId, { timeoutMs: AFTER_CANCEL_TIMEOUT_MS });
    return chunksOf(part);
  } catch {
    return [];
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const abort = (): void => {
      clearTimeout(timer);
      reject(new ApiError({ kind: 'aborted', title: 'Cancelled', detail: 'cancelled while waiting to read again' }));
    };
    if (signal?.aborted) {
      abort();
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', abort, { once: true });
  });
}
