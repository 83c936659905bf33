/**
 * The job API of a `QUEUE` endpoint, on the jobs host (not the REST host): the operations an
 * endpoint's `requestUrls` name. Same bearer key.
 */
import { ApiError } from './errors';
import { segment, type CallOptions, type HttpCore, type HttpRequest } from './http';
import { isLoopbackHost } from './loopback';
import { readJob, readJobStream } from './records';
import type { EndpointHealth, Job, JobRequest, JobStreamChunk } from './types';

/** The service's own default for `runsync`. */
const DEFAULT_RUNSYNC_WAIT_MS = 90_000;
/** Headroom over `wait` so the HTTP timeout never cuts off an answer the service is about to give. */
const RUNSYNC_TIMEOUT_MARGIN_MS = 15_000;

export interface RunSyncOptions extends CallOptions {
  /** How long the service holds the request for the job to finish (ms); default 90 s. */
  waitMs?: number;
}

/** What a load balancer's health URL answered to one GET. */
export interface HealthPing {
  /** 2xx: a worker may receive traffic. */
  ok: boolean;
  status: number;
  /** One attempt, request sent to answer read. */
  latencyMs: number;
  /** The answer's JSON body, or the problem's detail when it refused. */
  body?: unknown;
  detail?: string;
}

/**
 * Whether `url` is on the service's jobs host: its origin, or a subdomain of it
 * (`https://<endpoint_id>.<jobs domain>`), or for a jobs host on loopback `<endpoint_id>.localhost`
 * on its port. The key is only ever sent there.
 */
export function isOnJobsHost(url: string, jobsUrl: string): boolean {
  let target: URL;
  let jobs: URL;
  try {
    target = new URL(url);
    jobs = new URL(jobsUrl);
  } catch {
    return false;
  }
  if (target.username || target.password) return false;
  if (target.origin === jobs.origin) return true;
  if (target.protocol !== jobs.protocol || target.port !== jobs.port) return false;
  if (target.hostname.endsWith(`.${jobs.hostname}`)) return true;
  // A jobs host on loopback (the local emulator) names its load balancers `<endpoint id>.localhost`,
  // which is loopback too: the same machine and port, so the same server.
  return isLoopbackHost(jobs.hostname) && /^[a-z0-9-]+\.localhost$/i.test(target.hostname);
}

export class JobsApi {
  constructor(private readonly http: HttpCore) {}

  /** Queues a job: `{id, status: 'IN_QUEUE'}`. Never repeated after a lost answer (it would run twice). */
  async run(endpointId: string, request: JobRequest, options: CallOptions = {}): Promise<Job> {
    return this.job({ method: 'POST', path: `/v2/${segment(endpointId)}/run`, body: request, ...options });
  }

  /** Runs a job and waits: the finished job with `output`, or its current status to poll with `status`. */
  async runSync(endpointId: string, request: JobRequest, options: RunSyncOptions = {}): Promise<Job> {
    const { waitMs, ...call } = options;
    const timeoutMs = call.timeoutMs ?? (waitMs ?? DEFAULT_RUNSYNC_WAIT_MS) + RUNSYNC_TIMEOUT_MARGIN_MS;
    return this.job({
      method: 'POST',
      path: `/v2/${segment(endpointId)}/runsync`,
      query: { wait: waitMs },
      body: request,
      ...call,
      timeoutMs,
    });
  }

  async status(endpointId: string, jobId: string, options: CallOptions = {}): Promise<Job> {
    return this.job({ method: 'GET', path: `/v2/${segment(endpointId)}/status/${segment(jobId)}`, ...options });
  }

  /**
   * Chunks produced since the last call. Not retried: a lost answer would lose its chunks anyway,
   * and a blind repeat would hide that.
   */
  async stream(endpointId: string, jobId: string, options: CallOptions = {}): Promise<JobStreamChunk> {
    return readJobStream(
      await this.http.request<unknown>({
        method: 'GET',
        host: 'jobs',
        path: `/v2/${segment(endpointId)}/stream/${segment(jobId)}`,
        idempotent: false,
        ...options,
      }),
    );
  }

  /** Cancelling twice leaves it cancelled, so this one is retried after a lost answer. */
  async cancel(endpointId: string, jobId: string, options: CallOptions = {}): Promise<Job> {
    return this.job({ method: 'POST', path: `/v2/${segment(endpointId)}/cancel/${segment(jobId)}`, idempotent: true, ...options });
  }

  /** Requeues a failed or timed-out job. Not retried: a second retry would run it again. */
  async retry(endpointId: string, jobId: string, options: CallOptions = {}): Promise<Job> {
    return this.job({ method: 'POST', path: `/v2/${segment(endpointId)}/retry/${segment(jobId)}`, ...options });
  }

  /**
   * Removes queued jobs (in-progress ones keep running); answers how many it removed. Not retried:
   * a repeat could also remove jobs queued in between.
   */
  purgeQueue(endpointId: string, options: CallOptions = {}): Promise<{ removed: number; status?: string }> {
    return this.http.request({ method: 'POST', host: 'jobs', path: `/v2/${segment(endpointId)}/purge-queue`, ...options });
  }

  health(endpointId: string, options: CallOptions = {}): Promise<EndpointHealth> {
    return this.http.request<EndpointHealth>({ method: 'GET', host: 'jobs', path: `/v2/${segment(endpointId)}/health`, ...options });
  }

  /**
   * GETs a load balancer's `health` URL once and reports what it answered, a 503 included. Not
   * retried, so the latency is that of one attempt. Refuses a URL off the jobs host rather than send
   * the key there.
   */
  async pingHealth(url: string, options: CallOptions = {}): Promise<HealthPing> {
    if (!isOnJobsHost(url, this.http.jobsUrl)) {
      throw new ApiError({
        kind: 'configuration',
        title: 'Invalid argument',
        detail: `the health URL is not on the job host ${this.http.jobsUrl}, so the key is not sent to it: ${url}`,
      });
    }
    const target = new URL(url);
    const started = Date.now();
    try {
      const answer = await this.http.exchange<unknown>({
        method: 'GET',
        origin: target.origin,
        path: `${target.pathname}${target.search}`,
        idempotent: false,
        read: false,
        ...options,
      });
      return { ok: true, status: answer.status, latencyMs: Date.now() - started, body: answer.body };
    } catch (error) {
      if (!(error instanceof ApiError) || error.status === undefined) throw error;
      const latencyMs = Date.now() - started;
      // A worker's health route may answer plain text (`OK`): still a healthy answer.
      if (error.kind === 'invalidResponse') return { ok: error.status >= 200 && error.status < 300, status: error.status, latencyMs };
      return { ok: false, status: error.status, latencyMs, detail: error.detail };
    }
  }

  /** A call to the jobs host whose answer is a job record. */
  private async job(req: Omit<HttpRequest, 'host'>): Promise<Job> {
    return readJob(await this.http.request<unknown>({ host: 'jobs', ...req }));
  }
}
