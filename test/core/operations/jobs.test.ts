/**
 * The job use cases against the emulator over HTTP: run and follow with every state
 * reported, runsync within and past its wait, streamed chunks arriving before the job ends,
 * failures that name their worker, execution timeouts, cancel (queued, running, and a runsync
 * that cannot be cancelled by id), retry of failed and timed-out jobs, and the fallback to status
 * reads when the stream cannot be read. The key appears in nothing they hand back; a job is read
 * and cancelled by id.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, type ApiClient, type Endpoint } from '../../../core/api';
import { formatJobDocument, outcomeMessage, type JobRecord, type RunMode } from '../../../client/jobs/format';
import {
  cancelJob,
  followJob,
  getJob,
  retryJob,
  runJob,
  type JobHandlers,
  type JobProgress,
  type JobResult,
  type RunJobInput,
} from '../../../core/operations';
import { TEST_KEY, eventually, gpuEndpoint, withEmulator } from '../api/support';

const FAST = { pollIntervalMs: 30, waitMs: 20_000 };

/** Submits `request` with `run` or `runsync`, fast polling unless `extra` says otherwise. */
function submit(
  api: ApiClient,
  endpointId: string,
  request: Omit<RunJobInput, 'endpointId'>,
  mode: RunMode,
  handlers: JobHandlers = {},
  extra: Partial<RunJobInput> = {},
): Promise<JobResult> {
  return runJob(api, { endpointId, ...FAST, ...request, sync: mode === 'runsync', ...extra }, handlers);
}

async function readyEndpoint(api: ApiClient, extra: Parameters<typeof gpuEndpoint>[0] = {}): Promise<Endpoint> {
  const endpoint = await api.serverless.create(gpuEndpoint({ workers: { min: 1, max: 1, idleTimeout: 600 }, ...extra }));
  await eventually(async () => ((await api.serverless.workers(endpoint.id)).workers.some((w) => w.status === 'IDLE') ? true : undefined));
  return endpoint;
}

function recorder(): {
  progress: JobProgress[];
  chunks: unknown[][];
  handlers: (signal?: AbortSignal) => JobHandlers;
} {
  const progress: JobProgress[] = [];
  const chunks: unknown[][] = [];
  return {
    progress,
    chunks,
    handlers: (signal) => ({ signal, onStatus: (p) => progress.push(p), onStream: (c) => chunks.push(c) }),
  };
}

function recordOf(endpoint: Endpoint, outcome: JobResult): JobRecord {
  return {
    endpointId: endpoint.id,
    endpointName: endpoint.name,
    jobId: outcome.jobId,
    mode: 'run',
    status: outcome.status,
    job: outcome.job,
    stream: outcome.stream,
    submittedAt: new Date().toISOString(),
    source: 'test',
    request: { input: {} },
    notes: outcome.notes,
  };
}

describe('the job use cases against the emulator', () => {
  it('run: reports submitting, in queue/in progress and completed; the result carries times, worker and output', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const endpoint = await readyEndpoint(api);
      const seen = recorder();
      const outcome = await submit(api, endpoint.id, { input: { sleepMs: 20_000, output: { answer: 42 } } }, 'run', seen.handlers());
      assert.equal(outcome.status, 'COMPLETED');
      assert.deepEqual(outcome.job.output, { answer: 42 });
      assert.equal(typeof outcome.job.delayTime, 'number');
      assert.ok((outcome.job.executionTime ?? 0) >= 19_000, `executionTime ${outcome.job.executionTime}`);
      assert.ok(outcome.job.workerId, 'the worker that ran it');
      const states = [...new Set(seen.progress.map((p) => p.status))];
      assert.equal(states[0], 'SUBMITTING');
      assert.ok(states.includes('IN_PROGRESS'), states.join(','));
      assert.equal(states.at(-1), 'COMPLETED');
      assert.ok(seen.progress.slice(1).every((p) => p.jobId === outcome.jobId));
      // The end is reported once, with the record that has the output and times: never a bare "COMPLETED".
      const ends = seen.progress.filter((p) => p.status === 'COMPLETED');
      assert.equal(ends.length, 1);
      assert.deepEqual(ends[0].job?.output, { answer: 42 });
      assert.ok(
        seen.progress.some((p) => p.status === 'IN_PROGRESS' && p.job?.workerId),
        'the worker is known while it runs',
      );
      const text = formatJobDocument(recordOf(endpoint, outcome));
      const shown = JSON.parse(text) as Record<string, unknown>;
      assert.deepEqual(Object.keys(shown).slice(0, 6), ['status', 'jobId', 'endpoint', 'delayTime', 'executionTime', 'workerId']);
      assert.equal(shown.status, 'COMPLETED');
      assert.match(outcomeMessage(recordOf(endpoint, outcome)), /^Job \S+ on sdxl completed: queued .+, ran (\d+(\.\d)? s|\d+ ms)$/);
    });
  });

  it('runsync: finished within its wait, one call; past its wait, followed to the end', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const endpoint = await readyEndpoint(api);
      const quick = await submit(api, endpoint.id, { input: { output: 'hi' } }, 'runsync', recorder().handlers());
      assert.equal(quick.status, 'COMPLETED');
      assert.equal(quick.job.output, 'hi');
      assert.deepEqual(quick.notes, []);
      const seen = recorder();
      const slow = await submit(api, endpoint.id, { input: { sleepMs: 25_000, output: 'late' } }, 'runsync', seen.handlers(), {
        waitMs: 50,
      });
      assert.equal(slow.status, 'COMPLETED');
      assert.equal(slow.job.output, 'late');
      assert.match(slow.notes.join('\n'), /runsync returned (IN_QUEUE|IN_PROGRESS) after its wait of 50 ms/);
      assert.ok(seen.progress.some((p) => p.status === 'IN_PROGRESS'));
    });
  });

  it('streams chunks as they are produced, before the job ends, in order; runsync collects them at the end', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const endpoint = await readyEndpoint(api);
      const parts = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta'];
      const seen = recorder();
      let completedAt = -1;
      const outcome = await submit(api, endpoint.id, { input: { stream: parts, sleepMs: 30_000 } }, 'run', {
        ...seen.handlers(),
        onStatus: (p) => {
          seen.progress.push(p);
          if (p.status === 'COMPLETED' && completedAt < 0) completedAt = seen.chunks.length;
        },
      });
      assert.equal(outcome.status, 'COMPLETED');
      assert.deepEqual(outcome.stream, parts);
      assert.deepEqual(seen.chunks.flat(), parts);
      assert.ok(seen.chunks.length >= 2, `chunks arrived in ${seen.chunks.length} reads`);
      assert.ok(completedAt >= 1, 'some chunks were handed over before the job was reported complete');
      assert.ok(
        seen.progress.some((p) => p.status === 'IN_PROGRESS' && p.chunks > 0 && p.chunks < parts.length),
        'progress counted chunks while running',
      );
      const sync = await submit(api, endpoint.id, { input: { stream: ['x', 'y'] } }, 'runsync', recorder().handlers());
      assert.deepEqual(sync.stream, ['x', 'y']);
    });
  });

  it('a failed job carries its error and the worker that ran it', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const endpoint = await readyEndpoint(api);
      const outcome = await submit(api, endpoint.id, { input: { fail: 'CUDA out of memory' } }, 'run', recorder().handlers());
      assert.equal(outcome.status, 'FAILED');
      assert.equal(outcome.job.error, 'CUDA out of memory');
      const workers = (await api.serverless.workers(endpoint.id)).workers.map((w) => w.id);
      assert.ok(outcome.job.workerId && workers.includes(outcome.job.workerId), "the worker is one of the endpoint's");
      assert.equal(outcomeMessage(recordOf(endpoint, outcome)), `Job ${outcome.jobId} on sdxl failed: CUDA out of memory`);
    });
  });

  it('a job past its execution timeout ends TIMED_OUT; retry requeues it and it is followed again', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const endpoint = await readyEndpoint(api);
      const outcome = await submit(
        api,
        endpoint.id,
        { input: { sleepMs: 60_000 }, policy: { executionTimeout: 2000 } },
        'run',
        recorder().handlers(),
      );
      assert.equal(outcome.status, 'TIMED_OUT');
      assert.match(String(outcome.job.error), /timed out after 2000 ms/);
      assert.match(outcomeMessage(recordOf(endpoint, outcome)), /timed out: job timed out after 2000 ms$/);
      const seen = recorder();
      const again = await retryJob(api, { endpointId: endpoint.id, jobId: outcome.jobId, ...FAST }, seen.handlers());
      assert.equal(again.jobId, outcome.jobId);
      assert.equal(again.status, 'TIMED_OUT');
      assert.equal(again.job.retries, 1);
      assert.ok(
        seen.progress.some((p) => p.status === 'IN_QUEUE' || p.status === 'IN_PROGRESS'),
        'the retried job was followed from the queue',
      );
    });
  });

  it('retry of a failed job runs it again; retry of a completed one is refused by the service', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const endpoint = await readyEndpoint(api);
      const failed = await submit(api, endpoint.id, { input: { fail: 'boom' } }, 'runsync', recorder().handlers());
      assert.equal(failed.status, 'FAILED');
      const again = await retryJob(api, { endpointId: endpoint.id, jobId: failed.jobId, ...FAST }, recorder().handlers());
      assert.equal(again.status, 'FAILED');
      assert.equal(again.job.retries, 1);
      const health = await api.jobs.health(endpoint.id);
      assert.equal(health.jobs.retried, 1);
      const done = await submit(api, endpoint.id, { input: {} }, 'runsync', recorder().handlers());
      await assert.rejects(
        retryJob(api, { endpointId: endpoint.id, jobId: done.jobId, ...FAST }, recorder().handlers()),
        (e: unknown) => e instanceof ApiError && e.status === 400 && /only FAILED or TIMED_OUT/.test(e.message),
      );
    });
  });

  it('cancelling while it runs sends cancel: the job ends CANCELLED, and says it was the user', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const endpoint = await readyEndpoint(api);
      const controller = new AbortController();
      const seen = recorder();
      const outcome = await submit(api, endpoint.id, { input: { sleepMs: 3_600_000 } }, 'run', {
        ...seen.handlers(controller.signal),
        onStatus: (p) => {
          seen.progress.push(p);
          if (p.status === 'IN_PROGRESS') controller.abort();
        },
      });
      assert.equal(outcome.status, 'CANCELLED');
      assert.equal(outcome.cancelledByUser, true);
      assert.equal((await api.jobs.status(endpoint.id, outcome.jobId)).status, 'CANCELLED');
      // The worker is free again: the next job runs.
      assert.equal((await submit(api, endpoint.id, { input: { output: 1 } }, 'runsync', recorder().handlers())).status, 'COMPLETED');
    });
  });

  it('cancelling a queued job removes it from the queue; cancelling a runsync says the job could not be cancelled', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      // No worker can ever start, so jobs stay queued.
      const endpoint = await api.serverless.create(gpuEndpoint({ workers: { min: 0, max: 0 } }));
      const controller = new AbortController();
      const outcome = await submit(api, endpoint.id, { input: {} }, 'run', {
        signal: controller.signal,
        onStatus: (p) => {
          if (p.status === 'IN_QUEUE') controller.abort();
        },
      });
      assert.equal(outcome.status, 'CANCELLED');
      assert.equal((await api.jobs.health(endpoint.id)).jobs.inQueue, 0);
      const sync = new AbortController();
      setTimeout(() => {
        sync.abort();
      }, 100);
      await assert.rejects(
        submit(api, endpoint.id, { input: {} }, 'runsync', { signal: sync.signal }),
        (e: unknown) => e instanceof ApiError && e.kind === 'aborted' && /the job was not cancelled/.test(e.message),
      );
    });
  });

  it('when the stream cannot be read, follows with status reads and says so', async () => {
    await withEmulator({}, async (emu, client) => {
      const api = client();
      const endpoint = await readyEndpoint(api);
      emu.setFaults({ status5xx: 503, paths: [`/v2/${endpoint.id}/stream/`] });
      const outcome = await submit(api, endpoint.id, { input: { sleepMs: 10_000, output: 'ok' } }, 'run', recorder().handlers());
      emu.setFaults(undefined);
      assert.equal(outcome.status, 'COMPLETED');
      assert.equal(outcome.job.output, 'ok');
      assert.match(outcome.notes.join('\n'), /the stream could not be read \(.*503.*\); followed with status reads/);
    });
  });

  it('following a job by id picks up one submitted elsewhere; an unknown id fails with 404', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const endpoint = await readyEndpoint(api);
      const queued = await api.jobs.run(endpoint.id, { input: { output: 'elsewhere' } });
      const outcome = await followJob(api, { endpointId: endpoint.id, jobId: queued.id, pollIntervalMs: 30 });
      assert.equal(outcome.job.output, 'elsewhere');
      await assert.rejects(
        followJob(api, { endpointId: endpoint.id, jobId: 'no-such-job', pollIntervalMs: 30 }),
        (e: unknown) => e instanceof ApiError && e.status === 404,
      );
    });
  });

  it('nothing the use cases return carries the key', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const endpoint = await readyEndpoint(api);
      const outcome = await submit(api, endpoint.id, { input: { fail: 'bad' } }, 'run', recorder().handlers());
      const text = formatJobDocument(recordOf(endpoint, outcome)) + outcomeMessage(recordOf(endpoint, outcome)) + outcome.notes.join('');
      assert.ok(!text.includes(TEST_KEY));
    });
  });

  it('getJob reads a job once as plain data; cancelJob cancels a queued job and an unknown id is refused', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const endpoint = await readyEndpoint(api);
      const done = await submit(api, endpoint.id, { input: { output: { n: 7 } } }, 'runsync');
      const read = await getJob(api, { endpointId: endpoint.id, jobId: done.jobId });
      assert.equal(read.endpointId, endpoint.id);
      assert.equal(read.jobId, done.jobId);
      assert.equal(read.status, 'COMPLETED');
      assert.deepEqual(read.output, { n: 7 });
      assert.equal(typeof read.delayTime, 'number');
      assert.equal(typeof read.executionTime, 'number');
      assert.equal(read.workerId, done.workerId);
      assert.ok(!('error' in read), 'a completed job carries no error');

      const idle = await api.serverless.create(gpuEndpoint({ name: 'idle', workers: { min: 0, max: 0 } }));
      const queued = await api.jobs.run(idle.id, { input: {} });
      assert.equal((await getJob(api, { endpointId: idle.id, jobId: queued.id })).status, 'IN_QUEUE');
      const cancelled = await cancelJob(api, { endpointId: idle.id, jobId: queued.id });
      assert.equal(cancelled.jobId, queued.id);
      assert.equal(cancelled.status, 'CANCELLED');
      assert.equal((await getJob(api, { endpointId: idle.id, jobId: queued.id })).status, 'CANCELLED');
      assert.equal((await api.jobs.health(idle.id)).jobs.inQueue, 0);
      await assert.rejects(
        getJob(api, { endpointId: endpoint.id, jobId: 'no-such-job' }),
        (e: unknown) => e instanceof ApiError && e.status === 404,
      );
      await assert.rejects(
        cancelJob(api, { endpointId: endpoint.id, jobId: 'no-such-job' }),
        (e: unknown) => e instanceof ApiError && e.status === 404,
      );
    });
  });

  it('a failed job comes back with its error and times as plain fields', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const endpoint = await readyEndpoint(api);
      const failed = await submit(api, endpoint.id, { input: { fail: 'disk full' } }, 'run');
      assert.equal(failed.status, 'FAILED');
      assert.equal(failed.error, 'disk full');
      assert.equal(failed.output, undefined);
      assert.equal(typeof failed.executionTime, 'number');
      assert.equal(failed.retries ?? 0, 0);
      assert.deepEqual(await getJob(api, { endpointId: endpoint.id, jobId: failed.jobId }), {
        endpointId: failed.endpointId,
        jobId: failed.jobId,
        status: failed.status,
        job: failed.job,
        ...Object.fromEntries(
          (['output', 'error', 'delayTime', 'executionTime', 'workerId', 'retries'] as const)
            .filter((k) => failed[k] !== undefined)
            .map((k) => [k, failed[k]]),
        ),
      });
    });
  });
});
