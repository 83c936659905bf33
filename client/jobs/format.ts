/**
 * The text of the documents the job console opens: a job's result (JSON, rewritten as the job
 * moves so streamed chunks show up while it runs), an endpoint's health (Markdown tables of jobs
 * and workers by state), a load balancer's URLs with a ping. Plain functions over API records, so
 * what the user reads can be checked without an editor. None of them is given the key.
 */
import type { EndpointHealth, Job, JobRequest } from '../../core/api';
import type { HealthPing } from '../../core/api/jobs';
import { formatDuration } from '../../core/util/duration';
import { plural } from '../../core/util/plural';

/** How a job was submitted: `run` queues it, `runsync` waits on the service for it. */
export type RunMode = 'run' | 'runsync';

/** One job as this window knows it, from submission on. */
export interface JobRecord {
  endpointId: string;
  endpointName: string;
  /** Unknown until the service answers the submission. */
  jobId: string | undefined;
  mode: RunMode;
  status: string;
  /** The latest status record the service gave. */
  job: Job | undefined;
  stream: unknown[];
  submittedAt: string;
  finishedAt?: string;
  /** The request file (relative path) or `last used input`. */
  source: string;
  request: JobRequest;
  notes: string[];
  /** Why the submission itself failed, when it did. */
  failure?: string;
  /** While IN_QUEUE: `waiting: the endpoint's workers are crash-looping: <last line>`, when no worker can take it. */
  waiting?: string;
}

const STATE_LABELS: Record<string, string> = {
  SUBMITTING: 'submitting',
  IN_QUEUE: 'in queue',
  IN_PROGRESS: 'in progress',
  COMPLETED: 'completed',
  FAILED: 'failed',
  CANCELLED: 'cancelled',
  TIMED_OUT: 'timed out',
};

export function stateLabel(status: string): string {
  return STATE_LABELS[status] ?? status.toLowerCase();
}

/**
 * The result document: what was asked for last, so `status`, the times, the worker and the
 * outcome are on the first screen and the (possibly long) output and stream follow.
 */
export function formatJobDocument(record: JobRecord): string {
  const job = record.job;
  const document: Record<string, unknown> = {
    status: record.status,
    jobId: record.jobId ?? null,
    endpoint: { id: record.endpointId, name: record.endpointName },
    delayTime: job?.delayTime ?? null,
    executionTime: job?.executionTime ?? null,
    workerId: job?.workerId ?? null,
  };
  if (job?.retries) document.retries = job.retries;
  if (record.failure !== undefined) document.failure = record.failure;
  if (record.waiting !== undefined) document.waiting = record.waiting;
  if (job?.error !== undefined) document.error = job.error;
  if (job && 'output' in job) document.output = job.output;
  document.stream = record.stream;
  document.mode = record.mode;
  document.submittedAt = record.submittedAt;
  if (record.finishedAt) document.finishedAt = record.finishedAt;
  if (record.notes.length > 0) document.notes = record.notes;
  document.source = record.source;
  document.request = record.request;
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** One line for a progress notification: `in progress · 3.1 s · 2 chunks`, and why a queued job waits. */
export function progressLine(status: string, elapsedMs: number, chunks: number, waiting?: string): string {
  return [stateLabel(status), formatDuration(elapsedMs), chunks > 0 ? plural(chunks, 'chunk') : '', waiting ?? '']
    .filter(Boolean)
    .join(' · ');
}

/** The message after a job ended, variable part last: `Job abc on sdxl failed: out of memory`. */
export function outcomeMessage(record: JobRecord): string {
  const head = `Job ${record.jobId ?? ''} on ${record.endpointName}`;
  const error =
    record.job?.error === undefined ? '' : typeof record.job.error === 'string' ? record.job.error : JSON.stringify(record.job.error);
  switch (record.status) {
    case 'COMPLETED':
      return `${head} completed: queued ${formatDuration(record.job?.delayTime)}, ran ${formatDuration(record.job?.executionTime)}`;
    case 'FAILED':
      return `${head} failed: ${error || 'the handler raised an error'}`;
    case 'TIMED_OUT':
      return `${head} timed out: ${error || 'it ran past its execution timeout'}`;
    case 'CANCELLED':
      return `${head} cancelled`;
    default:
      return `${head}: ${stateLabel(record.status)}`;
  }
}

export function formatHealth(endpoint: { id: string; name: string }, health: EndpointHealth, checkedAt: Date): string {
  const rows = (counts: Record<string, number | undefined>): string[] =>
    Object.entries(counts)
      .filter((entry): entry is [string, number] => typeof entry[1] === 'number')
      .map(([state, count]) => `| ${humanize(state)} | ${count} |`);
  return [
    `# Health of ${endpoint.name}`,
    '',
    `Endpoint \`${endpoint.id}\`, read ${checkedAt.toISOString()}. Run **Endpoint Studio: Show Endpoint Health** again to refresh.`,
    '',
    '## Jobs by state',
    '',
    '| state | jobs |',
    '|---|---:|',
    ...rows(health.jobs),
    '',
    '## Workers by state',
    '',
    '| state | workers |',
    '|---|---:|',
    ...rows(health.workers),
    '',
  ].join('\n');
}

export function pingSummary(ping: HealthPing): string {
  const verdict = ping.ok ? 'healthy' : ping.status === 503 || ping.status === 502 ? 'no worker ready for traffic' : 'unhealthy';
  return `${ping.status} (${verdict}) in ${formatDuration(ping.latencyMs)}${ping.detail ? `: ${ping.detail}` : ''}`;
}

export function formatLoadBalancer(
  endpoint: { id: string; name: string },
  urls: { base: string; health: string },
  ping: HealthPing | { error: string },
  checkedAt: Date,
): string {
  const result =
    'error' in ping ? [`The ping failed: ${ping.error}`] : [`- answer: ${pingSummary(ping)}`, `- healthy: ${ping.ok ? 'yes' : 'no'}`];
  const body =
    !('error' in ping) && (ping.body !== undefined || ping.detail)
      ? ['', '```json', JSON.stringify(ping.body ?? { detail: ping.detail }, null, 2), '```']
      : [];
  return [
    `# Health of ${endpoint.name} (load balancer)`,
    '',
    `Endpoint \`${endpoint.id}\`, pinged ${checkedAt.toISOString()}. The load balancer sends traffic only to workers whose health URL answers 200.`,
    '',
    `- base: ${urls.base}`,
    `- health: ${urls.health}`,
    '',
    '## Ping',
    '',
    ...result,
    ...body,
    '',
  ].join('\n');
}

/** `inProgress` → `in progress`. */
function humanize(key: string): string {
  return key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}
