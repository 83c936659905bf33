/**
 * Jobs and the simulated handler. The job's `input` steers the handler so tests and demos can
 * produce every outcome: `{"sleepMs": 500}` runs that long (simulated time), `{"fail": "msg"}`
 * fails with that error, `{"stream": ["a", "b"]}` yields those chunks spread over the run,
 * `{"log": ["line"]}` writes container log lines, `{"output": X}` returns X. Anything else is
 * echoed back as `{"echo": input}` after a short run.
 */

import { record } from '../../core/endpointSpec/rules/rule';

export type JobStatus = 'IN_QUEUE' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED' | 'CANCELLED' | 'TIMED_OUT';

export interface HandlerPlan {
  /** Simulated milliseconds the handler runs. */
  readonly durationMs: number;
  readonly failMessage?: string;
  readonly chunks: readonly unknown[];
  readonly output: unknown;
  readonly logLines: readonly string[];
}

export interface Job {
  readonly id: string;
  readonly endpointId: string;
  readonly input: unknown;
  readonly webhook?: string;
  /** `policy.executionTimeout`, overriding the endpoint's `timeout` for this job. */
  readonly executionTimeoutMs?: number;
  readonly plan: HandlerPlan;
  status: JobStatus;
  /** Real-clock milliseconds; reported durations are scaled to simulated time. */
  submittedAt: number;
  startedAt?: number;
  finishedAt?: number;
  workerId?: string;
  output?: unknown;
  error?: string;
  /** Chunks produced so far, and how many `/stream` has already handed out. */
  chunks: unknown[];
  chunksDelivered: number;
  retries: number;
}

const DEFAULT_DURATION_MS = 50;
const STREAM_CHUNK_MS = 40;
const MAX_SLEEP_MS = 24 * 3600 * 1000;

export function planFor(input: unknown): HandlerPlan {
  const object = record(input) ?? {};
  const chunks = Array.isArray(object.stream) ? object.stream : [];
  const sleep =
    typeof object.sleepMs === 'number' && Number.isFinite(object.sleepMs) && object.sleepMs >= 0
      ? Math.min(object.sleepMs, MAX_SLEEP_MS)
      : undefined;
  const durationMs = sleep ?? (chunks.length > 0 ? chunks.length * STREAM_CHUNK_MS : DEFAULT_DURATION_MS);
  const logLines = Array.isArray(object.log) ? object.log.filter((l): l is string => typeof l === 'string') : [];
  const output = 'output' in object ? object.output : chunks.length > 0 ? chunks : { echo: input };
  return {
    durationMs,
    ...(typeof object.fail === 'string'
      ? { failMessage: object.fail }
      : object.fail === true
        ? { failMessage: 'handler raised an error' }
        : {}),
    chunks,
    output,
    logLines,
  };
}

export function isTerminal(status: JobStatus): boolean {
  return status === 'COMPLETED' || status === 'FAILED' || status === 'CANCELLED' || status === 'TIMED_OUT';
}

/** The status answer: `id`, `status`, `delayTime`/`executionTime` in ms, `output` or `error`. */
export function jobView(job: Job, timeScale: number): Record<string, unknown> {
  const view: Record<string, unknown> = { id: job.id, status: job.status };
  if (job.startedAt !== undefined) view.delayTime = Math.round((job.startedAt - job.submittedAt) * timeScale);
  if (job.startedAt !== undefined && job.finishedAt !== undefined)
    view.executionTime = Math.round((job.finishedAt - job.startedAt) * timeScale);
  if (job.workerId) view.workerId = job.workerId;
  if (job.status === 'COMPLETED') view.output = job.output;
  if (job.error !== undefined && (job.status === 'FAILED' || job.status === 'TIMED_OUT')) view.error = job.error;
  if (job.retries > 0) view.retries = job.retries;
  return view;
}

/** Validates a `/run` or `/runsync` body; returns a reason when it cannot be queued. */
export function parseSubmission(
  body: unknown,
): { ok: true; input: unknown; webhook?: string; executionTimeoutMs?: number } | { ok: false; errors: string[] } {
  const object = record(body);
  if (!object) return { ok: false, errors: ['$: the body is an object with an input member'] };
  const errors: string[] = [];
  if (!('input' in object) || object.input === null || object.input === undefined) errors.push('$.input: missing required property: input');
  if (object.webhook !== undefined && (typeof object.webhook !== 'string' || !/^https?:\/\//.test(object.webhook)))
    errors.push('$.webhook: must be an http(s) URL');
  let executionTimeoutMs: number | undefined;
  if (object.policy !== undefined) {
    const policy = record(object.policy);
    if (!policy) errors.push('$.policy: must be an object');
    else {
      const timeout = policy.executionTimeout;
      if (timeout !== undefined) {
        if (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout < 1)
          errors.push('$.policy.executionTimeout: must be a positive integer of milliseconds');
        else executionTimeoutMs = timeout;
      }
    }
  }
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    input: object.input,
    ...(typeof object.webhook === 'string' ? { webhook: object.webhook } : {}),
    ...(executionTimeoutMs !== undefined ? { executionTimeoutMs } : {}),
  };
}
