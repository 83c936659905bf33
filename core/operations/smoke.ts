/**
 * A smoke check after a rollout: one job, run on the endpoint and followed to its end, passes only
 * when it completed on a worker of the endpoint's current release. A job that an older worker
 * answered proves nothing about the new release, so it does not pass, and says so. A load balancer
 * has no job API, so it is refused before anything is sent.
 */
import { ApiError, type ApiClient, type Endpoint, type JobRequest } from '../api';
import { runJob, type JobResult } from './jobs';
import { rolloutProgress, seconds } from './rollout';

export interface SmokeCheckInput {
  readonly client: ApiClient;
  readonly endpointId: string;
  readonly request: JobRequest;
  /** How long the job may take from submission, queueing included, before it is cancelled. Default 10 min. */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

export interface SmokeOutcome {
  readonly passed: boolean;
  readonly job?: JobResult;
  /** The release version of the worker that ran it, when known; a job run on an older release is not a pass. */
  readonly workerVersion?: number;
  readonly endpointVersion?: number;
  /** "smoke job 1234 COMPLETED on release 7 in 2.1 s" / "smoke job … FAILED: <error>" */
  readonly message: string;
}

const DEFAULT_TIMEOUT_MS = 600_000;
const MAX_ERROR_LENGTH = 300;

function isLoadBalancer(endpoint: Endpoint): boolean {
  if (endpoint.type !== undefined) return endpoint.type === 'LOAD_BALANCER';
  // The contract makes `type` optional in answers; the shape of the request URLs still tells.
  return typeof endpoint.requestUrls === 'object' && 'base' in endpoint.requestUrls;
}

function errorText(error: unknown): string {
  if (error === undefined || error === null || error === '') return 'no error given';
  const text = typeof error === 'string' ? error : JSON.stringify(error);
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text;
}

/** The worker's release and the endpoint's, read right after the job ended; unknown when the service does not say. */
async function versionsAfter(
  client: ApiClient,
  endpointId: string,
  workerId: string | undefined,
): Promise<{ versions: Pick<SmokeOutcome, 'workerVersion' | 'endpointVersion'>; note?: string }> {
  try {
    const [releases, workers] = await Promise.all([client.serverless.releases(endpointId), client.serverless.workers(endpointId)]);
    const endpointVersion = rolloutProgress(endpointId, releases, workers).version;
    const workerVersion = workers.workers.find((w) => w.id === workerId)?.version;
    return {
      versions: {
        ...(workerVersion !== undefined ? { workerVersion } : {}),
        ...(endpointVersion !== undefined ? { endpointVersion } : {}),
      },
    };
  } catch (error) {
    return {
      versions: {},
      note: `the releases could not be read: ${client.redact(error instanceof Error ? error.message : String(error))}`,
    };
  }
}

/** Runs one job on the endpoint (after the rollout is done) and reports whether it passed on the new release. */
export async function smokeCheck(input: SmokeCheckInput): Promise<SmokeOutcome> {
  const { client, endpointId, request } = input;
  const timeoutMs = input.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = input.signal ? AbortSignal.any([input.signal, timeout]) : timeout;
  const started = Date.now();
  let job: JobResult;
  try {
    const endpoint = await client.serverless.get(endpointId, { signal });
    if (isLoadBalancer(endpoint))
      return {
        passed: false,
        message: `endpoint ${endpointId} is a LOAD_BALANCER endpoint, which has no job API to run a smoke job through`,
      };
    job = await runJob(client, { endpointId, ...request }, { signal });
  } catch (error) {
    if (timeout.aborted) return { passed: false, message: `the smoke job could not be submitted within ${seconds(timeoutMs)}` };
    if (input.signal?.aborted) return { passed: false, message: 'the smoke check was stopped before its job was submitted' };
    if (error instanceof ApiError && error.notFound) return { passed: false, message: `endpoint ${endpointId} was not found` };
    return {
      passed: false,
      message: `the smoke job could not be submitted: ${client.redact(error instanceof Error ? error.message : String(error))}`,
    };
  }
  const elapsedMs = Date.now() - started;
  const head = `smoke job ${job.jobId} ${job.status}`;
  if (job.cancelledByUser) {
    const why = input.signal?.aborted ? 'the smoke check was stopped' : `it did not finish within ${seconds(timeoutMs)}`;
    return { passed: false, job, message: `${head}: cancelled, since ${why}` };
  }
  if (job.status !== 'COMPLETED') return { passed: false, job, message: `${head}: ${errorText(job.error)}` };
  const { versions, note } = await versionsAfter(client, endpointId, job.workerId);
  const { workerVersion, endpointVersion } = versions;
  const outcome = { job, ...versions };
  if (workerVersion !== undefined && endpointVersion !== undefined && workerVersion < endpointVersion)
    return {
      ...outcome,
      passed: false,
      message: `${head} on release ${workerVersion}, not on the endpoint's release ${endpointVersion}: a worker of an older release ran it`,
    };
  // The service did not say which release the worker runs: the job still completed, and the message says what is not known.
  if (workerVersion === undefined)
    return {
      ...outcome,
      passed: true,
      message: `${head} in ${seconds(elapsedMs)} (${note ?? `the release of worker ${job.workerId ?? '?'} is unknown`})`,
    };
  return { ...outcome, passed: true, message: `${head} on release ${workerVersion} in ${seconds(elapsedMs)}` };
}
