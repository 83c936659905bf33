/**
 * The job API of a `QUEUE` endpoint, on the jobs host (not the REST host): the operations an
 * endpoint's `requestUrls` name. Same bearer key.
 */
import { segment, type CallOptions, type HttpCore } from './http';
import type { EndpointHealth, Job, JobRequest, JobStreamChunk } from './types';

/** The service's own default for `runsync`. */
export const DEFAULT_RUNSYNC_WAIT_MS = 90_000;
/** Headroom over `wait` so the HTTP timeout never cuts off an answer the service is about to give. */
const RUNSYNC_TIMEOUT_MARGIN_MS = 15_000;

export interface RunSyncOptions extends CallOptions {
  /** How long the service holds the request for the job to finish (ms); default 90 s. */
  waitMs?: number;
}

export class JobsApi {
  constructor(private readonly http: HttpCore) {}

  /** Queues a job: `{id, status: 'IN_QUEUE'}`. Never repeated after a lost answer (it would run twice). */
  run(endpointId: string, request: JobRequest, options: CallOptions = {}): Promise<Job> {
    return this.http.request<Job>({ method: 'POST', host: 'jobs', path: `/v2/${segment(endpointId)}/run`, body: request, idempotent: false, ...options });
  }

  /** Runs a job and waits: the finished job with `output`, or its current status to poll with `status`. */
  runSync(endpointId: string, request: JobRequest, options: RunSyncOptions = {}): Promise<Job> {
    const { waitMs, ...call } = options;
    const timeoutMs = call.timeoutMs ?? (waitMs ?? DEFAULT_RUNSYNC_WAIT_MS) + RUNSYNC_TIMEOUT_MARGIN_MS;
    return this.http.request<Job>({ method: 'POST', host: 'jobs', path: `/v2/${segment(endpointId)}/runsync`, query: { wait: waitMs }, body: request, idempotent: false, ...call, timeoutMs });
  }

  status(endpointId: string, jobId: string, options: CallOptions = {}): Promise<Job> {
    return this.http.request<Job>({ method: 'GET', host: 'jobs', path: `/v2/${segment(endpointId)}/status/${segment(jobId)}`, ...options });
  }

  /**
   * Chunks produced since the last call. Not retried: a lost answer would lose its chunks anyway,
   * and a blind repeat would hide that.
   */
  stream(endpointId: string, jobId: string, options: CallOptions = {}): Promise<JobStreamChunk> {
    return this.http.request<JobStreamChunk>({ method: 'GET', host: 'jobs', path: `/v2/${segment(endpointId)}/stream/${segment(jobId)}`, idempotent: false, ...options });
  }

  /** Cancelling twice leaves it cancelled, so this one is retried after a lost answer. */
  cancel(endpointId: string, jobId: string, options: CallOptions = {}): Promise<Job> {
    return this.http.request<Job>({ method: 'POST', host: 'jobs', path: `/v2/${segment(endpointId)}/cancel/${segment(jobId)}`, idempotent: true, ...options });
  }

  /** Requeues a failed or timed-out job. Not retried: a second retry would run it again. */
  retry(endpointId: string, jobId: string, options: CallOptions = {}): Promise<Job> {
    return this.http.request<Job>({ method: 'POST', host: 'jobs', path: `/v2/${segment(endpointId)}/retry/${segment(jobId)}`, idempotent: false, ...options });
  }

  /**
   * Removes queued jobs (in-progress ones keep running); answers how many it removed. Not retried:
   * a repeat could also remove jobs queued in between.
   */
  purgeQueue(endpointId: string, options: CallOptions = {}): Promise<{ removed: number; status?: string }> {
    return this.http.request({ method: 'POST', host: 'jobs', path: `/v2/${segment(endpointId)}/purge-queue`, idempotent: false, ...options });
  }

  health(endpointId: string, options: CallOptions = {}): Promise<EndpointHealth> {
    return this.http.request<EndpointHealth>({ method: 'GET', host: 'jobs', path: `/v2/${segment(endpointId)}/health`, ...options });
  }
}
