/**
 * Worker, release and job answers that vary from what this client expects (fields removed, null, of
 * another type, or extra; items that are not records) go through the tolerant readers and on into
 * what is built on them: rollout progress, the configuration at an earlier release, and the explorer's
 * tree text. Nothing throws (but a job answer that is no record, which must say so), no unknown value
 * comes out as a known one, and no derived count exceeds the workers there are.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { readJob, readJobStream, readReleaseList, readWorkerList } from '../../../core/api/records';
import type { Endpoint, WorkerStatus } from '../../../core/api';
import { configurationAt } from '../../../core/deploy';
import { rolloutProgress } from '../../../core/operations';
import { diffLine, releaseDescription, workerDescription, workerTooltip } from '../../../client/explorer/endpointFacts';
import { fuzz } from '../../support/fuzz';
import { liveEndpoint } from '../deploy/liveEndpoint';

type Raw = Record<string, unknown>;

/** A field as the service might send it: as expected, missing, null, of another type; `undefined` means removed. */
function varied(expected: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 3, arbitrary: expected },
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  );
}

/** A record with each field varied and a few extra ones; removed fields are left out, not sent as undefined. */
function record(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Raw> {
  const shaped = Object.fromEntries(Object.entries(fields).map(([key, arbitrary]) => [key, varied(arbitrary)]));
  return fc
    .tuple(fc.record(shaped), fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }))
    .map(([known, extra]) => {
      const out: Raw = { ...extra };
      for (const [key, value] of Object.entries(known)) if (value !== undefined) out[key] = value;
      return out;
    });
}

/** An item of a list: mostly a record, sometimes something else the reader must skip. */
const item = (shape: fc.Arbitrary<Raw>): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 5, arbitrary: shape }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) });

const KNOWN_STATUSES = ['RUNNING', 'IDLE', 'INITIALIZING', 'THROTTLED', 'UNHEALTHY'];
const version = fc.integer({ min: 0, max: 6 });

const rawWorker = record({
  id: fc.string({ minLength: 1, maxLength: 6 }),
  status: fc.constantFrom(...KNOWN_STATUSES, 'SLEEPING', 'idle'),
  isStale: fc.boolean(),
  version,
  gpuCount: fc.integer({ min: 0, max: 8 }),
  image: fc.string({ maxLength: 12 }),
  uptimeSeconds: fc.integer({ min: 0, max: 100_000 }),
  gpuTypeId: fc.string({ maxLength: 10 }),
  dataCenterId: fc.string({ maxLength: 8 }),
  startedAt: fc.string({ maxLength: 10 }),
});

const SERVICE_FIELDS = [
  'template.imageName',
  'gpuIds',
  'excludedGpuTypeIds',
  'gpuCount',
  'scalerType',
  'scalerValue',
  'template.env',
  'workersMax',
  'unknownThing',
];
const rawDiffEntry = record({
  field: fc.constantFrom(...SERVICE_FIELDS),
  old: fc.jsonValue({ maxDepth: 2 }),
  new: fc.jsonValue({ maxDepth: 2 }),
});
const rawRelease = record({
  id: fc.string({ maxLength: 6 }),
  version,
  source: fc.constantFrom('MANUAL', 'GIT_BUILD'),
  workerCount: fc.integer({ min: 0, max: 5 }),
  createdAt: fc.constant('2026-01-01T00:00:00.000Z'),
  diff: fc.array(item(rawDiffEntry), { maxLength: 4 }),
});

const rawWorkerList = record({
  workers: fc.array(item(rawWorker), { maxLength: 6 }),
  endpointVersion: version,
  summary: record({ running: version, idle: version, total: version }),
});
const rawReleaseList = record({
  endpointVersion: version,
  rollout: record({ inProgress: fc.boolean(), workersOnLatest: version, percentOnLatest: fc.integer({ min: 0, max: 200 }) }),
  releases: fc.array(item(rawRelease), { maxLength: 6 }),
});
const rawJob = record({
  id: fc.string({ maxLength: 6 }),
  status: fc.constantFrom('COMPLETED', 'FAILED', 'IN_QUEUE', 'PAUSED'),
  delayTime: fc.integer({ min: 0, max: 1000 }),
  executionTime: fc.integer({ min: 0, max: 1000 }),
  output: fc.jsonValue({ maxDepth: 1 }),
  error: fc.string(),
  workerId: fc.string({ maxLength: 6 }),
  retries: fc.integer({ min: 0, max: 3 }),
});
const rawStream = record({
  status: fc.constantFrom('IN_PROGRESS', 'COMPLETED', 'WAITING'),
  stream: fc.array(item(record({ output: fc.jsonValue() })), { maxLength: 3 }),
});

const fieldsOf = (value: unknown): Raw | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Raw) : undefined;
/** The raw workers the reader keeps: records with a non-empty string id. */
const addressable = (raw: Raw): Raw[] =>
  (Array.isArray(raw.workers) ? raw.workers : []).flatMap((w) => {
    const fields = fieldsOf(w);
    return fields && typeof fields.id === 'string' && fields.id !== '' ? [fields] : [];
  });
const isCount = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v >= 0;

const endpoint = liveEndpoint();
const rawEndpoint = record({
  id: fc.constant('ep1'),
  name: fc.constant('sdxl'),
  type: fc.constantFrom('QUEUE', 'LOAD_BALANCER'),
  image: fc.string({ maxLength: 10 }),
  args: fc.string({ maxLength: 10 }),
  env: fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 }), { maxKeys: 2 }),
  gpu: fc.constant(endpoint.gpu),
  cpu: fc.constant([{ id: 'cpu3c', vcpuCount: 2, memory: 4 }]),
  workers: fc.constant(endpoint.workers),
  scaling: fc.constant(endpoint.scaling),
  dataCenterIds: fc.constant(['US-TX-3']),
  flashboot: fc.constant('OFF'),
});

describe('records that vary from what the client expects', () => {
  it('read as workers whose unknown status and stale flag stay unknown, and rollout counts that add up', () => {
    fuzz(
      fc.property(rawWorkerList, rawReleaseList, (rawWorkers, rawReleases) => {
        const workers = readWorkerList(rawWorkers);
        const releases = readReleaseList(rawReleases);
        const kept = addressable(rawWorkers);
        assert.equal(workers.workers.length, kept.length);
        workers.workers.forEach((worker, i) => {
          const raw = kept[i];
          assert.equal(worker.status, KNOWN_STATUSES.includes(raw.status as string) ? raw.status : 'UNKNOWN');
          assert.equal(worker.isStale, typeof raw.isStale === 'boolean' ? raw.isStale : undefined);
          assert.equal(worker.version, isCount(raw.version) ? raw.version : undefined);
        });
        for (const count of Object.values(workers.summary)) assert.ok(isCount(count));

        const progress = rolloutProgress('ep1', releases, workers);
        const total = workers.workers.length;
        assert.equal(progress.total, total);
        assert.ok(progress.ready + progress.starting + progress.unhealthy.length + progress.stale <= total);
        assert.ok(progress.draining <= progress.stale);
        const readyStatus = kept.filter((w) => w.status === 'IDLE' || w.status === 'RUNNING').length;
        assert.ok(progress.ready <= readyStatus, 'a status that is not a known one is never ready');
        const staleEvidence = kept.filter((w) => w.isStale === true || isCount(w.version)).length;
        assert.ok(progress.stale <= staleEvidence, 'a worker is stale only from a stale flag or a version');
        assert.ok(progress.unhealthy.every((w) => (w.status as WorkerStatus) === 'UNHEALTHY'));
        if (progress.done) assert.equal(progress.ready, total);
        assert.equal(typeof progress.text, 'string');
        for (const worker of workers.workers) {
          const description = workerDescription(worker, releases.endpointVersion);
          workerTooltip(worker, releases.endpointVersion);
          const staleSaid = description.includes('stale (v');
          const staleKnown =
            worker.isStale === true ||
            (worker.version !== undefined && releases.endpointVersion !== undefined && worker.version < releases.endpointVersion);
          assert.equal(staleSaid, staleKnown, description);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('read as releases that describe themselves and whose earlier configurations never throw', () => {
    fuzz(
      fc.property(rawReleaseList, rawEndpoint, fc.integer({ min: -1, max: 7 }), (rawReleases, rawLive, target) => {
        const { releases, rollout, endpointVersion } = readReleaseList(rawReleases);
        assert.ok(endpointVersion === undefined || isCount(endpointVersion));
        if (rollout?.percentOnLatest !== undefined) assert.ok(rollout.percentOnLatest <= 100);
        for (const release of releases) {
          assert.equal(typeof releaseDescription(release), 'string');
          for (const entry of release.diff) assert.equal(typeof diffLine(entry), 'string');
        }
        for (const live of [endpoint, rawLive as unknown as Endpoint]) {
          const at = configurationAt(live, releases, target);
          if (at.ok) {
            assert.equal(typeof at.spec, 'object');
            assert.ok(at.unknownFields.every((f) => typeof f === 'string'));
          } else assert.ok(at.reason.length > 0);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('read as jobs and stream chunks, and a job answer that is no record is refused clearly', () => {
    fuzz(
      fc.property(item(rawJob), item(rawStream), (raw, rawChunk) => {
        const chunk = readJobStream(rawChunk);
        assert.ok(Array.isArray(chunk.stream));
        const fields = fieldsOf(raw);
        if (!fields || typeof fields.id !== 'string' || fields.id === '') {
          assert.throws(() => readJob(raw), { name: 'TypeError', message: 'the job API answered something that is not a job record' });
          return;
        }
        const job = readJob(raw);
        assert.equal(job.status, ['COMPLETED', 'FAILED', 'IN_QUEUE'].includes(fields.status as string) ? fields.status : 'UNKNOWN');
        assert.equal(job.workerId, typeof fields.workerId === 'string' && fields.workerId !== '' ? fields.workerId : undefined);
        assert.equal(job.delayTime, isCount(fields.delayTime) ? fields.delayTime : undefined);
      }),
      { numRuns: 400 },
    );
  });
});
