/**
 * Why workers are not serving, from the command line in-process against the emulator over HTTP: `deploy --wait`
 * and `rollout` name each cause, as text and as JSON: a crash-looping image (with the line its container died
 * on and its last log lines), a GPU pool without stock (no capacity, what the workers wait for and the pools
 * that have stock), and workers still starting (an image pull at a slowed emulator clock, with how long so
 * far). A job queued behind a crash loop says so in `job status` and `run`, as text and JSON, and while
 * `run --sync` follows it; behind workers that have a free machine it says nothing more.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runDeploy } from '../../cli/deploy';
import { runJobCommand, runRun } from '../../cli/jobs';
import { runRollout } from '../../cli/rollout';
import { EXIT_FAILED, EXIT_STALLED } from '../../cli/rolloutReport';
import type { ApiClient, CreateEndpointRequest } from '../../core/api';
import { eventually, gpuEndpoint, TEST_KEY, withEmulator, type Emulator } from '../core/api/support';
import { captureIo, type CapturedIo } from './support';

const CRASH_LINE = "ModuleNotFoundError: No module named 'torch'";

const specText = (image: string, pools = '[ADA_24, AMPERE_24]'): string => `name: cause-worker
type: QUEUE
image: ${image}
gpu:
  pools: ${pools}
workers:
  min: 1
  max: 1
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;

interface Workspace {
  readonly file: string;
  write(image: string, pools?: string): void;
  request(body: unknown): string;
}

/** Runs `body` with a workspace holding one spec (not written yet); removes the workspace either way. */
async function inWorkspace(body: (ws: Workspace) => Promise<void>): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'es-not-serving-'));
  mkdirSync(join(root, '.git'));
  mkdirSync(join(root, 'specs'));
  const file = join(root, 'specs', 'worker.endpoint.yaml');
  try {
    await body({
      file,
      write: (image, pools) => {
        writeFileSync(file, specText(image, pools));
      },
      request: (input) => {
        const path = join(root, 'specs', 'job.request.json');
        writeFileSync(path, JSON.stringify({ input }));
        return path;
      },
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

async function run(
  command: (args: string[], io: CapturedIo & { signal?: AbortSignal }) => Promise<number>,
  emu: Emulator,
  args: string[],
  signal?: AbortSignal,
): Promise<[number, CapturedIo]> {
  const io = captureIo(emu, { env: { ENDPOINT_STUDIO_JOBS_URL: emu.jobsUrl } });
  const code = await command(args, signal ? { ...io, signal } : io);
  assert.ok(!`${io.stdout}${io.stderr}`.includes(TEST_KEY), 'the key is never printed');
  return [code, io];
}

/** The one line of a captured output that starts with `prefix` (after its indent). */
const lineOf = (text: string, prefix: string): string | undefined =>
  text
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line.startsWith(prefix));

interface CauseJson {
  kind: string;
  message: string;
  workers: string[];
  version?: number;
  workerId?: string;
  lastLine?: string;
  logs?: { line: string; source: string }[];
  waitingFor?: string;
  alternatives?: { id: string; memoryGb: number }[];
  startingForMs?: number;
}

async function onlyEndpointId(api: ApiClient): Promise<string> {
  const [endpoint, ...others] = await api.serverless.list();
  assert.equal(others.length, 0);
  return endpoint.id;
}

describe('why workers are not serving, from the CLI', () => {
  it('a crash-looping release: deploy --wait and rollout name it with the line its container died on', async () => {
    await withEmulator({}, async (emu, client) => {
      await inWorkspace(async (ws) => {
        ws.write('myorg/worker:1.0');
        assert.equal((await run(runDeploy, emu, ['--yes', '--wait', ws.file]))[0], 0);
        ws.write('myorg/worker-crashloop:2.0');
        const [failed, crash] = await run(runDeploy, emu, ['--yes', '--wait', '--fail-after', '1', ws.file]);
        assert.equal(failed, EXIT_FAILED, crash.stderr);
        assert.equal(
          lineOf(crash.stderr, 'not serving:'),
          `not serving: the workers of release 2 are crash-looping: ${CRASH_LINE}`,
          crash.stderr,
        );
        const id = await onlyEndpointId(client());
        const crashing = (await client().serverless.workers(id)).workers.find((w) => w.version === 2 && w.status === 'UNHEALTHY');
        assert.ok(crashing, 'a worker of release 2 crash-loops');
        assert.ok(crash.stderr.includes(`endpoint-studio logs --worker `), crash.stderr);
        assert.match(
          crash.stderr,
          /the last lines of worker \S+ \(all of it: endpoint-studio logs --worker \S+ .*worker\.endpoint\.yaml\):\n/,
        );
        assert.match(crash.stderr, new RegExp(`\\n {4}\\S+ \\[container\\] ${CRASH_LINE}\\n`), 'its last lines are printed');

        const [read, json] = await run(runRollout, emu, ['--format', 'json', ws.file]);
        assert.equal(read, 0, json.stderr);
        const cause = (JSON.parse(json.stdout) as { done: boolean; cause: CauseJson }).cause;
        assert.deepEqual([cause.kind, cause.version, cause.lastLine], ['crash-looping', 2, CRASH_LINE]);
        assert.ok(cause.workerId && cause.workers.includes(cause.workerId));
        assert.ok((cause.logs ?? []).length > 0 && (cause.logs ?? []).length <= 5, 'a few lines, not the whole log');
        const [readText, text] = await run(runRollout, emu, [id]);
        assert.equal(readText, 0);
        assert.ok(text.stdout.includes(`  not serving: the workers of release 2 are crash-looping: ${CRASH_LINE}\n`), text.stdout);
      });
    });
  });

  it('a pool without stock: deploy --wait stalls naming no capacity and what the workers wait for, also as JSON', async () => {
    await withEmulator({}, async (emu) => {
      await inWorkspace(async (ws) => {
        ws.write('myorg/worker:1.0');
        assert.equal((await run(runDeploy, emu, ['--yes', '--wait', ws.file]))[0], 0);
        ws.write('myorg/worker:1.0', '[HOPPER_141]');
        const [stalled, stall] = await run(runDeploy, emu, ['--yes', '--wait', '--stall-after', '1', '--format', 'json', ws.file]);
        assert.equal(stalled, EXIT_STALLED, stall.stderr);
        const said =
          'not serving: the workers of release 2 have no capacity: 1 waiting THROTTLED for stock of GPU pools HOPPER_141 in any data center';
        assert.equal(lineOf(stall.stderr, 'not serving:'), said, stall.stderr);
        const [document] = (JSON.parse(stall.stdout) as { documents: { rollout: { outcome: string; cause: CauseJson } }[] }).documents;
        assert.equal(document.rollout.outcome, 'stalled');
        assert.deepEqual(
          [document.rollout.cause.kind, document.rollout.cause.waitingFor, document.rollout.cause.workers.length],
          ['no-capacity', 'GPU pools HOPPER_141 in any data center', 1],
        );
        assert.equal(document.rollout.cause.message, said.replace('not serving: ', ''));
        // With the pools that have stock, priced, as the deploy plan's stock check names them.
        const alternatives = document.rollout.cause.alternatives ?? [];
        assert.ok(alternatives.length > 0 && alternatives.every((alt) => alt.id !== 'HOPPER_141'), JSON.stringify(alternatives));
        assert.ok(stall.stderr.includes(`  with stock now: ${alternatives[0].id} (${alternatives[0].memoryGb} GB`), stall.stderr);
      });
    });
  });

  it('workers still starting: a stall says so with how long so far, from the release on', async () => {
    // A hundredth of the real clock: the image pull of 3 simulated seconds takes 5 minutes, so the stall comes first.
    await withEmulator({ timeScale: 0.01 }, async (emu, client) => {
      await inWorkspace(async (ws) => {
        ws.write('myorg/worker:1.0');
        const [stalled, stall] = await run(runDeploy, emu, ['--yes', '--wait', '--stall-after', '1', ws.file]);
        assert.equal(stalled, EXIT_STALLED, stall.stderr);
        const id = await onlyEndpointId(client());
        assert.deepEqual(
          (await client().serverless.workers(id)).workers.map((w) => w.status),
          ['INITIALIZING'],
        );
        assert.match(
          lineOf(stall.stderr, 'not serving:') ?? stall.stderr,
          /^not serving: the workers of release 1 are still starting \(image pull or boot\): [\d.]+ s so far$/,
        );

        const [watched, watch] = await run(runRollout, emu, ['--watch', '--stall-after', '1', '--format', 'json', id]);
        assert.equal(watched, EXIT_STALLED, watch.stderr);
        const outcome = JSON.parse(watch.stdout) as { outcome: string; cause: CauseJson };
        assert.deepEqual([outcome.outcome, outcome.cause.kind, outcome.cause.version], ['stalled', 'starting', 1]);
        // Counted from the release's creation, before this watch began: more than the watch's own second.
        assert.ok((outcome.cause.startingForMs ?? 0) >= 2000, JSON.stringify(outcome.cause));
      });
    });
  });

  it('a job queued behind a crash loop says so in job status and run, as text and JSON, and while run --sync follows it', async () => {
    await withEmulator({}, async (emu, client) => {
      await inWorkspace(async (ws) => {
        const api = client();
        const crashing = await api.serverless.create(
          gpuEndpoint({ name: 'crashing', image: 'myorg/worker-crashloop:1.0', workers: { min: 1, max: 1, idleTimeout: 600 } }),
        );
        await eventually(async () =>
          (await api.serverless.workers(crashing.id)).workers.some((w) => w.status === 'UNHEALTHY') ? true : undefined,
        );
        const request = ws.request({ prompt: 'a lighthouse' });
        const waiting = `waiting: the endpoint's workers are crash-looping: ${CRASH_LINE}`;

        const [submitted, queued] = await run(runRun, emu, [crashing.id, request]);
        assert.equal(submitted, 0, queued.stderr);
        const [, jobId] = /^job (\S+) on \S+: IN_QUEUE\n/.exec(queued.stdout) ?? [];
        assert.ok(jobId, queued.stdout);
        assert.equal(queued.stdout, `job ${jobId} on ${crashing.id}: IN_QUEUE\n${waiting}\n`);

        const [submittedJson, queuedJson] = await run(runRun, emu, ['--format', 'json', crashing.id, request]);
        assert.equal(submittedJson, 0);
        const asJson = JSON.parse(queuedJson.stdout) as { status: string; waiting: CauseJson };
        assert.deepEqual([asJson.status, asJson.waiting.kind, asJson.waiting.lastLine], ['IN_QUEUE', 'crash-looping', CRASH_LINE]);

        const [read, status] = await run(runJobCommand, emu, ['status', crashing.id, jobId]);
        assert.equal(read, 0, status.stderr);
        assert.equal(status.stdout, `job ${jobId} on ${crashing.id}: IN_QUEUE\n${waiting}\n`);
        const [readJson, statusJson] = await run(runJobCommand, emu, ['status', '--format', 'json', crashing.id, jobId]);
        assert.equal(readJson, 0);
        const job = JSON.parse(statusJson.stdout) as { jobId: string; status: string; waiting: CauseJson };
        assert.deepEqual([job.jobId, job.status, job.waiting.kind], [jobId, 'IN_QUEUE', 'crash-looping']);
        assert.equal(job.waiting.message, waiting.replace('waiting: ', ''));

        const stop = new AbortController();
        const io = captureIo(emu, { env: { ENDPOINT_STUDIO_JOBS_URL: emu.jobsUrl } });
        const followed = runRun(['--sync', '--wait-timeout', '1', crashing.id, request], { ...io, signal: stop.signal });
        await eventually(() => (io.stderr.includes(`: IN_QUEUE (${waiting})\n`) ? true : undefined), 20_000);
        stop.abort();
        assert.equal(await followed, 1, io.stderr);
        assert.match(io.stdout, /: CANCELLED/);

        // Behind a worker that serves, a queued job is only queued.
        const healthy = await api.serverless.create(gpuEndpoint({ name: 'healthy', workers: { min: 1, max: 1, idleTimeout: 600 } }));
        await eventually(async () =>
          (await api.serverless.workers(healthy.id)).workers.some((w) => w.status === 'IDLE') ? true : undefined,
        );
        const [, served] = await run(runRun, emu, ['--format', 'json', healthy.id, request]);
        assert.equal((JSON.parse(served.stdout) as { waiting: unknown }).waiting, null);
      });
    });
  });

  it('a job queued behind workers that all wait for stock says the endpoint has no capacity', async () => {
    await withEmulator({}, async (emu, client) => {
      await inWorkspace(async (ws) => {
        const api = client();
        const body: CreateEndpointRequest = gpuEndpoint({
          name: 'no-stock',
          gpu: { pools: ['HOPPER_141'] },
          workers: { min: 1, max: 1, idleTimeout: 600 },
        });
        const endpoint = await api.serverless.create(body);
        await eventually(async () => ((await api.serverless.workers(endpoint.id)).workers.length > 0 ? true : undefined));
        const [code, queued] = await run(runRun, emu, [endpoint.id, ws.request({ prompt: 'x' })]);
        assert.equal(code, 0, queued.stderr);
        assert.match(
          queued.stdout,
          /\nwaiting: the endpoint's workers have no capacity: 1 waiting THROTTLED for stock of GPU pools HOPPER_141 in any data center\n$/,
        );
      });
    });
  });
});
