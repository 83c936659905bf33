/**
 * Worker, release and job records read tolerantly. The contract calls their shapes "not shown" and
 * the published snapshot may lag the service, so every field is checked for its type as it is read:
 * a field that is missing, null or of another type becomes unknown (`undefined`), an unknown worker
 * status becomes `UNKNOWN`, and fields this client does not know are dropped. Nothing downstream
 * then has to guard against a record, and no wrong value is ever shown as true.
 */
import type {
  Job,
  JobStatus,
  JobStreamChunk,
  Release,
  ReleaseDiffEntry,
  ReleaseList,
  Rollout,
  Worker,
  WorkerList,
  WorkerStatus,
  WorkerSummary,
} from './types';

type Fields = Record<string, unknown>;

const WORKER_STATUSES: readonly WorkerStatus[] = ['RUNNING', 'IDLE', 'INITIALIZING', 'THROTTLED', 'UNHEALTHY'];
const JOB_STATUSES: readonly JobStatus[] = ['IN_QUEUE', 'IN_PROGRESS', 'COMPLETED', 'FAILED', 'CANCELLED', 'TIMED_OUT'];

function fieldsOf(value: unknown): Fields | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : undefined;
}

function jobStatusOf(value: unknown): JobStatus | 'UNKNOWN' {
  return JOB_STATUSES.find((s) => s === value) ?? 'UNKNOWN';
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

function flag(value: unknown): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined;
}

function listOf<T>(value: unknown, read: (item: Fields) => T | undefined): T[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    const fields = fieldsOf(item);
    const record = fields ? read(fields) : undefined;
    return record === undefined ? [] : [record];
  });
}

/** Keeps only the defined values, so an unknown field is absent rather than present as undefined. */
export function defined<T extends object>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as T;
}

/** A worker without an id cannot be addressed (logs, tree rows), so it is left out. */
function readWorker(fields: Fields): Worker | undefined {
  const id = text(fields.id);
  if (id === undefined) return undefined;
  const status = WORKER_STATUSES.find((s) => s === fields.status) ?? 'UNKNOWN';
  return defined<Worker>({
    id,
    status,
    isStale: flag(fields.isStale),
    version: count(fields.version),
    gpuCount: count(fields.gpuCount),
    image: text(fields.image),
    uptimeSeconds: count(fields.uptimeSeconds),
    gpuTypeId: text(fields.gpuTypeId),
    dataCenterId: text(fields.dataCenterId),
    startedAt: text(fields.startedAt),
  });
}

/** The roll-up of the workers read; the service's own summary is kept only when every count in it is one. */
function summaryOf(raw: unknown, workers: readonly Worker[]): WorkerSummary {
  const given = fieldsOf(raw);
  const keys = ['running', 'idle', 'initializing', 'throttled', 'unhealthy', 'total'] as const;
  if (given && keys.every((k) => count(given[k]) !== undefined)) {
    return Object.fromEntries(keys.map((k) => [k, given[k]])) as unknown as WorkerSummary;
  }
  const of = (status: WorkerStatus): number => workers.filter((w) => w.status === status).length;
  return {
    running: of('RUNNING'),
    idle: of('IDLE'),
    initializing: of('INITIALIZING'),
    throttled: of('THROTTLED'),
    unhealthy: of('UNHEALTHY'),
    total: workers.length,
  };
}

export function readWorkerList(raw: unknown): WorkerList {
  const fields = fieldsOf(raw) ?? {};
  const workers = listOf(fields.workers, readWorker);
  return defined<WorkerList>({ workers, summary: summaryOf(fields.summary, workers), endpointVersion: count(fields.endpointVersion) });
}

function readDiffEntry(fields: Fields): ReleaseDiffEntry | undefined {
  const field = text(fields.field);
  if (field === undefined) return undefined;
  // `old`/`new` are raw JSON; absent is told apart from null (added or removed) by `in`.
  return { field, old: 'old' in fields ? fields.old : undefined, new: 'new' in fields ? fields.new : undefined };
}

function readRelease(fields: Fields): Release {
  return defined<Release>({
    id: text(fields.id),
    version: count(fields.version),
    source: text(fields.source),
    buildId: text(fields.buildId),
    createdByUserId: text(fields.createdByUserId),
    workerCount: count(fields.workerCount),
    createdAt: text(fields.createdAt),
    diff: listOf(fields.diff, readDiffEntry),
  });
}

function readRollout(raw: unknown): Rollout | undefined {
  const fields = fieldsOf(raw);
  if (!fields) return undefined;
  const percent = count(fields.percentOnLatest);
  return defined<Rollout>({
    inProgress: flag(fields.inProgress),
    workersOnLatest: count(fields.workersOnLatest),
    workersTotal: count(fields.workersTotal),
    percentOnLatest: percent !== undefined && percent <= 100 ? percent : undefined,
  });
}

/** Releases newest first, as the service sends them; a record without a version still shows its diff. */
export function readReleaseList(raw: unknown): ReleaseList {
  const fields = fieldsOf(raw) ?? {};
  return defined<ReleaseList>({
    endpointVersion: count(fields.endpointVersion),
    rollout: readRollout(fields.rollout),
    releases: listOf(fields.releases, readRelease),
  });
}

/** A job as the job API answers it; an answer that is not a job record throws, since nothing can be shown of it. */
export function readJob(raw: unknown): Job {
  const fields = fieldsOf(raw);
  const id = text(fields?.id);
  if (!fields || id === undefined) throw new TypeError('the job API answered something that is not a job record');
  return defined<Job>({
    id,
    status: jobStatusOf(fields.status),
    delayTime: count(fields.delayTime),
    executionTime: count(fields.executionTime),
    output: fields.output ?? undefined,
    error: fields.error ?? undefined,
    workerId: text(fields.workerId),
    retries: count(fields.retries),
  });
}

/** Chunks since the last read; a chunk that is not `{output}` is skipped, a missing status is unknown. */
export function readJobStream(raw: unknown): JobStreamChunk {
  const fields = fieldsOf(raw) ?? {};
  return {
    status: jobStatusOf(fields.status),
    stream: listOf(fields.stream, (chunk) => ('output' in chunk ? { output: chunk.output } : undefined)),
  };
}
