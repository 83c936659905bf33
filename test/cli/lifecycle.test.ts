/**
 * `endpoint-studio logs`, `run` and `job` run in-process against the emulator over HTTP, on the endpoint a
 * deployed spec is bound to or on an endpoint id: the merged log and its filters, a follow stopped by its
 * signal across a dropped connection, jobs that complete, fail, stream, are cancelled and retried, and the
 * refusals (an unbound spec, a load balancer, a bad request file) with their exit codes.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runBind, runDeploy } from '../../cli/deploy';
import { runJobCommand, runRun } from '../../cli/jobs';
import { runLogs } from '../../cli/logs';
import type { ApiClient } from '../../core/api';
import { eventually, gpuEndpoint, TEST_KEY, withEmulator, type Emulator } from '../core/api/support';
import { captureIo, type CapturedIo } from './support';

const spec = (workers: number): string => `name: lifecycle-worker
type: QUEUE
image: myorg/worker:1.0
gpu:
  pools: [ADA_24, AMPERE_24]
workers:
  min: ${workers}
  max: ${workers}
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;

interface Workspace {
  readonly root: string;
  readonly file: string;
  /** Writes a request file and returns its path. */
  request(name: string, body: unknown): string;
  cleanup(): void;
}

function workspace(text: string): Workspace {
  const root = mkdtempSync(join(tmpdir(), 'es-lifecycle-cli-'));
  mkdirSync(join(root, '.git'));
  mkdirSync(join(root, 'specs'));
  const file = join(root, 'specs', 'worker.endpoint.yaml');
  writeFileSync(file, text);
  return {
    root,
    file,
    request: (name, body) => {
      const path = join(root, 'specs', `${name}.request.json`);
      writeFileSync(path, typeof body === 'string' ? body : JSON.stringify(body));
      return path;
    },
    cleanup: () => {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A signed-in run against the emulator, its job API included, stoppable with `signal`. */
function io(emu: Emulator, signal?: AbortSignal, env: Record<string, string> = {}): CapturedIo & { signal?: AbortSignal } {
  return Object.assign(captureIo(emu, { env: { ENDPOINT_STUDIO_JOBS_URL: emu.jobsUrl, ...env } }), signal ? { signal } : {});
}

/** Deploys the workspace's spec and waits until its workers are idle; the endpoint's id and workers. */
async function deployed(
  emu: Emulator,
  api: ApiClient,
  ws: Workspace,
  workers: number,
): Promise<{ endpointId: string; workerIds: string[] }> {
  const deploy = io(emu);
  assert.equal(await runDeploy([ws.file, '--yes'], deploy), 0, deploy.stderr);
  const endpoint = (await api.serverless.list()).find((e) => e.name === 'lifecycle-worker');
  assert.ok(endpoint);
  const workerIds = await eventually(async () => {
    const idle = (await api.serverless.workers(endpoint.id)).workers.filter((w) => w.status === 'IDLE');
    return idle.length >= workers ? idle.map((w) => w.id) : undefined;
  });
  return { endpointId: endpoint.id, workerIds };
}

interface JsonLine {
  ts: string;
  workerId: string;
  source: string;
  line: string;
}

const jsonLines = (stdout: string): JsonLine[] =>
  stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as JsonLine);

const noKeyIn = (...ios: CapturedIo[]): void => {
  for (const captured of ios) assert.ok(!`${captured.stdout}${captured.stderr}`.includes(TEST_KEY), 'the key is never printed');
};

const count = (text: string, part: string): number => text.split(part).length - 1;

describe('endpoint-studio logs', () => {
  it('prints the merged log of a spec’s endpoint oldest first, as text and as JSON lines, and one worker’s with --worker', async () => {
    await withEmulator({}, async (emu, client) => {
      const ws = workspace(spec(2));
      try {
        const api = client();
        const { endpointId, workerIds } = await deployed(emu, api, ws, 2);
        const job = await api.jobs.runSync(endpointId, { input: { log: ['first line', 'second line'] } });
        assert.equal(job.status, 'COMPLETED');

        const text = io(emu);
        assert.equal(await runLogs([ws.file], text), 0, text.stderr);
        const ran = job.workerId ?? '';
        assert.match(
          text.stdout,
          new RegExp(`^\\S+Z ${ran} \\[container\\] job ${job.id} started\\n\\S+Z ${ran} \\[container\\] first line\\n`, 'm'),
        );
        assert.ok(text.stdout.indexOf('first line') < text.stdout.indexOf('second line'));
        assert.equal(text.stderr, '');

        const json = io(emu);
        assert.equal(await runLogs(['--format', 'json', endpointId], json), 0, json.stderr);
        const lines = jsonLines(json.stdout);
        for (const line of lines) assert.deepEqual(Object.keys(line), ['ts', 'workerId', 'source', 'line']);
        const times = lines.map((l) => l.ts);
        assert.deepEqual(times, [...times].sort(), 'oldest first across workers');
        assert.deepEqual(new Set(lines.map((l) => l.workerId)), new Set(workerIds), 'both workers merged');
        assert.deepEqual(
          lines.filter((l) => l.source === 'container' && l.workerId === ran).map((l) => l.line),
          ['Worker ready.', `job ${job.id} started`, 'first line', 'second line', `job ${job.id} completed in 50 ms`],
        );

        const other = workerIds.find((w) => w !== ran) ?? '';
        const one = io(emu);
        assert.equal(await runLogs([ws.file, '--worker', other, '--format', 'json'], one), 0, one.stderr);
        const own = jsonLines(one.stdout);
        assert.ok(own.length > 0);
        assert.ok(own.every((l) => l.workerId === other));
        assert.deepEqual(
          own.map((l) => l.line),
          lines.filter((l) => l.workerId === other).map((l) => l.line),
        );

        const last = io(emu);
        assert.equal(await runLogs([ws.file, '--lines', '2', '--source', 'container', '--format', 'json'], last), 0);
        assert.deepEqual(
          jsonLines(last.stdout).map((l) => l.line),
          ['second line', `job ${job.id} completed in 50 ms`],
        );
        assert.match(last.stderr, /2 line\(s\) shown; older ones exist/);
        noKeyIn(text, json, one, last);
      } finally {
        ws.cleanup();
      }
    });
  });

  it('--since keeps the lines from an ISO time or a duration ago on', async () => {
    // The emulator's clock stands two hours back until the 'before' job is done, then keeps the real time: the CLI
    // counts --since 1h back from the real clock, so the cut falls an hour from either job's lines on any machine.
    let behindMs = 2 * 3600_000;
    await withEmulator({ clock: () => Date.now() - behindMs }, async (emu, client) => {
      const ws = workspace(spec(1));
      try {
        const api = client();
        const { endpointId } = await deployed(emu, api, ws, 1);
        await api.jobs.runSync(endpointId, { input: { log: ['before'] } });
        behindMs = 0;
        const afterJob = await api.jobs.runSync(endpointId, { input: { log: ['after'] } });
        const afterLines = [`job ${afterJob.id} started`, 'after', `job ${afterJob.id} completed in 50 ms`];

        const fromDuration = io(emu);
        assert.equal(await runLogs([ws.file, '--since', '1h'], fromDuration), 0, fromDuration.stderr);
        assert.deepEqual(
          [...fromDuration.stdout.matchAll(/ \[container\] (.*)\n/g)].map((m) => m[1]),
          afterLines,
        );
        assert.doesNotMatch(fromDuration.stdout, /before|Worker ready/);

        const all = io(emu);
        assert.equal(await runLogs([ws.file, '--format', 'json'], all), 0);
        // The after job's first line: a later line of the same job may carry a later millisecond.
        const started = jsonLines(all.stdout).find((l) => l.line === afterLines[0]);
        assert.ok(started);

        const fromTime = io(emu);
        assert.equal(await runLogs([ws.file, '--since', started.ts, '--format', 'json'], fromTime), 0, fromTime.stderr);
        const kept = jsonLines(fromTime.stdout);
        assert.ok(kept.every((l) => l.ts >= started.ts));
        assert.deepEqual(
          kept.filter((l) => l.source === 'container').map((l) => l.line),
          afterLines,
        );

        const bad = io(emu);
        assert.equal(await runLogs([ws.file, '--since', 'yesterday'], bad), 2);
        assert.match(
          bad.stderr,
          /^endpoint-studio logs: --since takes an ISO 8601 time or a duration such as 10m, 2h or 1d; got: yesterday\n/,
        );
      } finally {
        ws.cleanup();
      }
    });
  });

  it('an unbound spec is an error naming deploy and bind, and nothing is read', async () => {
    await withEmulator({}, async (emu) => {
      const ws = workspace(spec(1));
      try {
        const logs = io(emu);
        assert.equal(await runLogs([ws.file], logs), 2);
        assert.equal(
          logs.stderr,
          `endpoint-studio logs: no endpoint is bound to ${ws.file}: deploy it (endpoint-studio deploy ${ws.file}) or bind it to an existing endpoint (endpoint-studio bind ${ws.file} <endpointId>)\n`,
        );
        assert.equal(logs.stdout, '');
        const jobs = io(emu);
        assert.equal(await runRun([ws.file, ws.request('echo', { input: 1 })], jobs), 2);
        assert.match(jobs.stderr, /^endpoint-studio run: no endpoint is bound to /);
        const neither = io(emu);
        assert.equal(await runLogs([join(ws.root, 'specs', 'worker.yaml')], neither), 2);
        assert.match(
          neither.stderr,
          /not a spec file \(\*\.endpoint\.yaml, \*\.endpoint\.yml or \*\.endpoint\.json\) nor an endpoint id: /,
        );
        const unknown = io(emu);
        assert.equal(await runLogs(['nosuchendpoint'], unknown), 2);
        assert.match(unknown.stderr, /^endpoint-studio logs: cannot read the log of endpoint nosuchendpoint: 404/);
      } finally {
        ws.cleanup();
      }
    });
  });

  it('a file of several bound documents needs --document to pick one', async () => {
    await withEmulator({}, async (emu, client) => {
      const ws = workspace(`${spec(0)}---\n${spec(0).replace('lifecycle-worker', 'lifecycle-other')}`);
      try {
        const api = client();
        const first = await api.serverless.create(gpuEndpoint({ name: 'lifecycle-worker', workers: { min: 0, max: 0 } }));
        const second = await api.serverless.create(gpuEndpoint({ name: 'lifecycle-other', workers: { min: 0, max: 0 } }));
        const onlyFirst = io(emu);
        assert.equal(await runBind([ws.file, first.id], onlyFirst), 0, onlyFirst.stderr);
        const one = io(emu);
        assert.equal(await runLogs([ws.file], one), 0, 'the one bound document is taken');
        assert.equal(one.stdout, '');
        const unbound = io(emu);
        assert.equal(await runLogs(['--document', '1', ws.file], unbound), 2);
        assert.match(unbound.stderr, /no endpoint is bound to .* \(document 1\): .*endpoint-studio bind --document 1 /);

        assert.equal(await runBind(['--document', '1', ws.file, second.id], io(emu)), 0);
        const both = io(emu);
        assert.equal(await runLogs([ws.file], both), 2);
        assert.match(
          both.stderr,
          new RegExp(`has several bound documents \\(0: ${first.id}, 1: ${second.id}\\); pick one with --document N\n$`),
        );
        const picked = io(emu);
        assert.equal(
          await runRun(['--document', '1', '--format', 'json', ws.file, ws.request('echo', { input: 1 })], picked),
          0,
          picked.stderr,
        );
        assert.equal((JSON.parse(picked.stdout) as JobJson).endpointId, second.id);
        const badDocument = io(emu);
        assert.equal(await runLogs(['--document', 'x', ws.file], badDocument), 2);
        assert.match(badDocument.stderr, /^endpoint-studio logs: --document takes a document index \(0, 1, \.\.\.\); got: x\n/);
      } finally {
        ws.cleanup();
      }
    });
  });

  it('an overlay reads its endpoint with its environment’s key only', async () => {
    await withEmulator({}, async (emu, client) => {
      const ws = workspace(spec(1));
      const overlay = join(ws.root, 'specs', 'worker.prod.endpoint.yaml');
      writeFileSync(overlay, 'extends: ./worker.endpoint.yaml\nname: lifecycle-worker-prod\n');
      try {
        const api = client();
        const endpoint = await api.serverless.create(gpuEndpoint({ name: 'lifecycle-worker-prod', workers: { min: 1, max: 1 } }));
        const bind = io(emu);
        assert.equal(await runBind([overlay, endpoint.id], bind), 0, bind.stderr);
        await eventually(async () =>
          (await api.serverless.workers(endpoint.id)).workers.some((w) => w.status === 'IDLE') ? true : undefined,
        );

        const withoutKey = io(emu, undefined, { ENDPOINT_STUDIO_API_KEY: 'es_wrong_default_key' });
        assert.equal(await runLogs([overlay], withoutKey), 2);
        assert.match(withoutKey.stderr, /no API key for the prod environment: set ENDPOINT_STUDIO_API_KEY_PROD/);

        const prod = io(emu, undefined, { ENDPOINT_STUDIO_API_KEY: 'es_wrong_default_key', ENDPOINT_STUDIO_API_KEY_PROD: TEST_KEY });
        assert.equal(await runLogs([overlay, '--source', 'container'], prod), 0, prod.stderr);
        assert.match(prod.stdout, / \[container\] Worker ready\.\n$/);
        noKeyIn(withoutKey, prod);
      } finally {
        ws.cleanup();
      }
    });
  });

  it('--follow prints the log, then lines as they are written across a dropped connection, until its signal stops it (exit 0)', async () => {
    await withEmulator({}, async (emu, client) => {
      const ws = workspace(spec(1));
      try {
        const api = client();
        const { endpointId, workerIds } = await deployed(emu, api, ws, 1);
        const [worker] = workerIds;
        const stop = new AbortController();
        const follow = io(emu, stop.signal);
        let dropped = false;
        follow.out = (text) => {
          // The snapshot is printed before the follow connects: its first connection is then dropped.
          if (!dropped) emu.setFaults({ dropConnection: true, paths: [`/v2/serverless/${endpointId}/workers/${worker}/logs`], count: 1 });
          dropped = true;
          follow.stdout += text;
        };
        const done = runLogs([ws.file, '--follow', '--source', 'container'], follow);
        await eventually(() => (/reconnecting/.test(follow.stderr) ? true : undefined));
        await api.jobs.runSync(endpointId, { input: { log: ['live-1', 'live-2'] } });
        await eventually(() => (follow.stdout.includes('live-2') ? true : undefined));
        stop.abort();
        assert.equal(await done, 0, follow.stderr);
        assert.match(follow.stderr, new RegExp(`worker ${worker}: stream dropped \\(.*\\); reconnecting, resuming after \\S+`));
        assert.equal(count(follow.stdout, 'Worker ready.'), 1, 'the snapshot’s line is not repeated after the reconnect');
        assert.equal(count(follow.stdout, 'live-1'), 1);
        assert.ok(follow.stdout.indexOf('Worker ready.') < follow.stdout.indexOf('live-1'));
        assert.ok(follow.stdout.indexOf('live-1') < follow.stdout.indexOf('live-2'));
      } finally {
        ws.cleanup();
      }
    });
  });
});

/** A job's duration as the CLI prints it: `120 ms` under a second, `1.0 s` from there. */
const DURATION = String.raw`(?:\d+ ms|\d+\.\d s)`;

interface JobJson {
  endpointId: string;
  jobId: string;
  status: string;
  output?: unknown;
  error?: unknown;
  retries?: number;
  stream?: unknown[];
  notes?: string[];
}

describe('endpoint-studio run and job', () => {
  it('run --sync prints streamed chunks and the output (exit 0), or the error of a failed job (exit 1)', async () => {
    await withEmulator({}, async (emu, client) => {
      const ws = workspace(spec(1));
      try {
        const { endpointId } = await deployed(emu, client(), ws, 1);
        const streamed = ws.request('streamed', {
          $schema: '../schemas/request.schema.json',
          input: { stream: ['a', 'b', 'c'], output: { done: true } },
        });
        const text = io(emu);
        assert.equal(await runRun(['--sync', ws.file, streamed], text), 0, text.stderr);
        assert.match(
          text.stdout,
          new RegExp(
            `^a\\nb\\nc\\njob \\S+ on ${endpointId}: COMPLETED \\(queued ${DURATION}, ran ${DURATION}, worker \\S+\\)\\n\\{\\n  "done": true\\n\\}\\n$`,
          ),
        );

        const json = io(emu);
        assert.equal(await runRun(['--sync', '--format', 'json', ws.file, streamed], json), 0, json.stderr);
        const completed = JSON.parse(json.stdout) as JobJson;
        assert.equal(completed.status, 'COMPLETED');
        assert.deepEqual(completed.output, { done: true });
        assert.deepEqual(completed.stream, ['a', 'b', 'c']);
        assert.equal(completed.endpointId, endpointId);

        const failing = ws.request('failing', { input: { fail: 'out of memory' } });
        const failed = io(emu);
        assert.equal(await runRun(['--sync', ws.file, failing], failed), 1);
        assert.match(failed.stdout, /: FAILED \(.*\)\nerror: out of memory\n$/);
        const failedJson = io(emu);
        assert.equal(await runRun(['--sync', '--format', 'json', endpointId, failing], failedJson), 1);
        assert.equal((JSON.parse(failedJson.stdout) as JobJson).error, 'out of memory');

        // 75 simulated seconds are 1.5 s here: runsync's wait of 1 s runs out and the job is followed to its end.
        const slow = ws.request('slow', { input: { sleepMs: 75_000 } });
        const waited = io(emu);
        assert.equal(await runRun(['--sync', '--wait-timeout', '1', '--format', 'json', ws.file, slow], waited), 0, waited.stderr);
        const ended = JSON.parse(waited.stdout) as JobJson;
        assert.equal(ended.status, 'COMPLETED');
        assert.deepEqual(ended.output, { echo: { sleepMs: 75_000 } });
        assert.match(
          ended.notes?.[0] ?? '',
          /^runsync returned IN_(QUEUE|PROGRESS) after its wait of 1000 ms; followed with status reads$/,
        );
        noKeyIn(text, json, failed, failedJson, waited);
      } finally {
        ws.cleanup();
      }
    });
  });

  it('run without --sync prints the job id; job status reads it and job cancel cancels it', async () => {
    await withEmulator({}, async (emu, client) => {
      const ws = workspace(spec(1));
      try {
        const { endpointId } = await deployed(emu, client(), ws, 1);
        const long = ws.request('long', { input: { sleepMs: 3_600_000 } });
        const run = io(emu);
        assert.equal(await runRun([ws.file, long], run), 0, run.stderr);
        const [, jobId] = /^job (\S+) on (\S+): IN_QUEUE\n$/.exec(run.stdout) ?? [];
        assert.ok(jobId, run.stdout);
        assert.equal(run.stderr, `endpoint-studio run: follow it with: endpoint-studio job status ${ws.file} ${jobId}\n`);

        const status = io(emu);
        assert.equal(await runJobCommand(['status', ws.file, jobId, '--format', 'json'], status), 0, status.stderr);
        const read = JSON.parse(status.stdout) as JobJson;
        assert.equal(read.jobId, jobId);
        assert.ok(['IN_QUEUE', 'IN_PROGRESS'].includes(read.status), read.status);

        const cancel = io(emu);
        assert.equal(await runJobCommand(['cancel', endpointId, jobId], cancel), 0, cancel.stderr);
        assert.match(cancel.stdout, new RegExp(`^job ${jobId} on ${endpointId}: CANCELLED`));
        const after = io(emu);
        assert.equal(await runJobCommand(['status', ws.file, jobId], after), 0);
        assert.match(after.stdout, /: CANCELLED/);

        const again = io(emu);
        const done = ws.request('done', { input: { output: 'ok' } });
        const finished = io(emu);
        assert.equal(await runRun(['--sync', '--format', 'json', ws.file, done], finished), 0);
        const finishedId = (JSON.parse(finished.stdout) as JobJson).jobId;
        assert.equal(await runJobCommand(['cancel', ws.file, finishedId], again), 1);
        assert.match(again.stderr, new RegExp(`job ${finishedId} had already ended; it stays COMPLETED`));

        const unknown = io(emu);
        assert.equal(await runJobCommand(['status', ws.file, 'nosuchjob'], unknown), 2);
        assert.match(
          unknown.stderr,
          /^endpoint-studio job: cannot read job nosuchjob on endpoint \S+ \(bound to specs\/worker\.endpoint\.yaml\): 404/,
        );
        noKeyIn(run, status, cancel, after, again, unknown);
      } finally {
        ws.cleanup();
      }
    });
  });

  it('Ctrl-C while run --sync follows a job cancels it (exit 1)', async () => {
    await withEmulator({}, async (emu, client) => {
      const ws = workspace(spec(1));
      try {
        const { endpointId } = await deployed(emu, client(), ws, 1);
        const stop = new AbortController();
        const run = io(emu, stop.signal);
        const done = runRun(['--sync', '--wait-timeout', '1', ws.file, ws.request('long', { input: { sleepMs: 3_600_000 } })], run);
        // The follow starts once runsync's wait of 1 s ran out, and says the job's state.
        const jobId = await eventually(() => /job (\S+): IN_PROGRESS\n/.exec(run.stderr)?.[1]);
        stop.abort();
        assert.equal(await done, 1, run.stderr);
        assert.match(run.stdout, new RegExp(`^job ${jobId} on ${endpointId}: CANCELLED`));
        assert.match(run.stderr, new RegExp(`endpoint-studio run: cancelled job ${jobId} \\(Ctrl-C\\)\n`));
        assert.equal((await client().jobs.status(endpointId, jobId)).status, 'CANCELLED');
      } finally {
        ws.cleanup();
      }
    });
  });

  it('job retry requeues a failed job and follows it to its end again', async () => {
    await withEmulator({}, async (emu, client) => {
      const ws = workspace(spec(1));
      try {
        await deployed(emu, client(), ws, 1);
        const failing = ws.request('failing', { input: { fail: true } });
        const first = io(emu);
        assert.equal(await runRun(['--sync', '--format', 'json', ws.file, failing], first), 1);
        const { jobId } = JSON.parse(first.stdout) as JobJson;
        const retry = io(emu);
        assert.equal(await runJobCommand(['retry', ws.file, jobId, '--format', 'json'], retry), 1, retry.stderr);
        const retried = JSON.parse(retry.stdout) as JobJson;
        assert.equal(retried.jobId, jobId);
        assert.equal(retried.status, 'FAILED');
        assert.equal(retried.error, 'handler raised an error');
        assert.equal(retried.retries, 1);

        const text = io(emu);
        assert.equal(await runJobCommand(['retry', ws.file, jobId], text), 1);
        assert.match(text.stdout, new RegExp(`^job ${jobId} on \\S+: FAILED \\(.*retries 2\\)\\nerror: handler raised an error\\n$`));
        assert.match(text.stderr, new RegExp(`endpoint-studio job: job ${jobId}: IN_QUEUE\\n`));

        const ok = io(emu);
        assert.equal(await runRun(['--sync', '--format', 'json', ws.file, ws.request('ok', { input: 'x' })], ok), 0);
        const refused = io(emu);
        const completedId = (JSON.parse(ok.stdout) as JobJson).jobId;
        assert.equal(await runJobCommand(['retry', ws.file, completedId], refused), 2);
        assert.match(refused.stderr, /only FAILED or TIMED_OUT jobs can be retried/);
      } finally {
        ws.cleanup();
      }
    });
  });

  it('refuses a LOAD_BALANCER endpoint and a bad request file before anything is sent', async () => {
    await withEmulator({}, async (emu, client) => {
      const ws = workspace(spec(0));
      try {
        const api = client();
        const balancer = await api.serverless.create(
          gpuEndpoint({ name: 'balancer', type: 'LOAD_BALANCER', scaling: { type: 'REQUEST_COUNT', requestCount: 1 } }),
        );
        const request = ws.request('echo', { input: { prompt: 'hi' } });
        const lb = io(emu);
        assert.equal(await runRun([balancer.id, request], lb), 2);
        assert.match(
          lb.stderr,
          new RegExp(
            `^endpoint-studio run: jobs run on QUEUE endpoints; endpoint ${balancer.id} "balancer" is a LOAD_BALANCER endpoint, which takes HTTP requests at its own URL: http`,
          ),
        );
        const status = io(emu);
        assert.equal(await runJobCommand(['status', balancer.id, 'j1'], status), 2);
        assert.match(status.stderr, /is a LOAD_BALANCER endpoint/);

        const { endpointId } = await deployed(emu, api, ws, 0);
        const bad = io(emu);
        const file = ws.request('bad', { endpointId, input: null, policy: { ttl: 0 } });
        assert.equal(await runRun([ws.file, file], bad), 2);
        assert.equal(
          bad.stderr,
          [
            `endpoint-studio run: ${file}: $.endpointId: unknown member; a request holds only input, webhook and policy (the endpoint is the argument before the file, not in it)`,
            `endpoint-studio run: ${file}: $.input: missing; the handler receives it as job["input"]`,
            `endpoint-studio run: ${file}: $.policy.ttl: must be a positive integer of milliseconds`,
            '',
          ].join('\n'),
        );
        const notJson = io(emu);
        assert.equal(await runRun([ws.file, ws.request('broken', '{"input": ')], notJson), 2);
        assert.match(notJson.stderr, /broken\.request\.json: the file is not valid JSON: /);
        const usage = io(emu);
        assert.equal(await runRun([ws.file], usage), 2);
        assert.match(usage.stderr, /^endpoint-studio run: a spec file or endpoint id, then a request file are needed\n\nUsage:/);
        const noJob = io(emu);
        assert.equal(await runJobCommand(['purge', ws.file, 'j1'], noJob), 2);
        assert.match(noJob.stderr, /^endpoint-studio job: job takes status, cancel or retry; got: purge\n/);
        assert.equal(
          (await api.jobs.health(endpointId)).jobs.completed + (await api.jobs.health(endpointId)).jobs.inQueue,
          0,
          'no job was sent',
        );
      } finally {
        ws.cleanup();
      }
    });
  });
});
