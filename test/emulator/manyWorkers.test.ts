/**
 * An endpoint asking for 20,000 workers, far more than the seeded stock: they come, nearly all
 * THROTTLED, and the emulator keeps answering every request within a second, on create and on
 * update, stops at once on SIGTERM and answers as fast after a restart from its `--state` file.
 * (The contract states no upper bound of `workers.min`.) The emulator runs in a process of its
 * own, so an emulator that stops answering fails these tests instead of freezing them.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Endpoint, WorkerList } from '../../core/api/types';
import { call, cpuSpec, eventually, gpuSpec } from './helpers';

const MANY = 20_000;
/** Every answer while the workers come must take less than this. */
const ANSWER_MS = 1000;
/** SIGTERM must end the process within this. */
const STOP_MS = 3000;

/** `work`, or a failure naming `what` when it takes `ms` or more. */
async function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`${what}: no answer within ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

interface Urls {
  restUrl: string;
  jobsUrl: string;
}

async function get<T>(e: Urls, path: string): Promise<T> {
  const answer = await within(ANSWER_MS, `GET ${path}`, call<T>(e.restUrl, 'GET', path));
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body;
}

/** Waits, each request answered within the bound, until the endpoint has all its workers. */
async function allWorkers(e: Urls, id: string): Promise<WorkerList> {
  return eventually(
    async () => {
      const list = await get<WorkerList>(e, `/v2/serverless/${id}/workers`);
      return list.summary.total === MANY ? list : undefined;
    },
    30_000,
    `${MANY} workers`,
  );
}

interface EmulatorChild extends Urls {
  readonly child: ChildProcess;
  /** SIGTERM; resolves with the exit code once the process is gone, failing when that takes `ms`. */
  stop(ms: number): Promise<number | null>;
  /** SIGKILL, unless it is gone already. */
  kill(): void;
}

async function startChild(args: string[]): Promise<EmulatorChild> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(__dirname, 'runEmulatorCli.ts'), '--port', '0', '--jobs-port', '0', ...args],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      resolve(code);
    });
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const urls = await within(
    30_000,
    `the emulator to start (${output})`,
    new Promise<Urls>((resolve, reject) => {
      const look = (): void => {
        const rest = /REST API v2 listening on (\S+)/.exec(output)?.[1];
        const jobs = /Job API listening on (\S+)/.exec(output)?.[1];
        if (rest && jobs) resolve({ restUrl: rest, jobsUrl: jobs });
      };
      child.stdout.on('data', look);
      void exited.then((code) => {
        reject(new Error(`the emulator exited with ${code}: ${output}`));
      });
    }),
  );
  return {
    child,
    ...urls,
    stop: (ms) => {
      child.kill('SIGTERM');
      return within(ms, 'the emulator to stop on SIGTERM', exited);
    },
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

test('with --state: SIGTERM stops it at once, and after a restart it answers within a second again', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'es-many-workers-'));
  const state = join(dir, 'state.json');
  const children: EmulatorChild[] = [];
  try {
    const first = await startChild(['--state', state]);
    children.push(first);
    const created = await within(
      ANSWER_MS,
      'the create',
      call<Endpoint>(first.restUrl, 'POST', '/v2/serverless', gpuSpec({ workers: { min: MANY, max: MANY } })),
    );
    assert.equal(created.status, 201, JSON.stringify(created.body));
    await allWorkers(first, created.body.id);
    assert.equal(await first.stop(STOP_MS), 0);

    const second = await startChild(['--state', state]);
    children.push(second);
    const kept = await get<{ endpoints: Endpoint[] }>(second, '/v2/serverless');
    assert.deepEqual(
      kept.endpoints.map((ep) => [ep.id, ep.workers.min]),
      [[created.body.id, MANY]],
    );
    await allWorkers(second, created.body.id);
    await get(second, `/v2/serverless/${created.body.id}`);
    assert.equal(await second.stop(STOP_MS), 0);
  } finally {
    for (const child of children) child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('workers.min 20000 on create and on update: every request still answers within a second', async () => {
  const emulator = await startChild([]);
  try {
    const spec = gpuSpec({ name: 'many', workers: { min: MANY, max: MANY } });
    const created = await within(ANSWER_MS, 'the create', call<Endpoint>(emulator.restUrl, 'POST', '/v2/serverless', spec));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.id;
    assert.deepEqual((await get<Endpoint>(emulator, `/v2/serverless/${id}`)).workers, { min: MANY, max: MANY, idleTimeout: 10 });
    const list = await allWorkers(emulator, id);
    // ADA_24 is the RTX 4090 alone: 51 in stock, so 51 placed and the rest waiting.
    assert.equal(list.summary.throttled, MANY - 51);
    assert.equal(list.workers.filter((w) => w.gpuTypeId === 'NVIDIA GeForce RTX 4090').length, 51);

    const small = await within(ANSWER_MS, 'the create', call<Endpoint>(emulator.restUrl, 'POST', '/v2/serverless', cpuSpec()));
    const patched = await within(
      ANSWER_MS,
      'the update',
      call<Endpoint>(emulator.restUrl, 'PATCH', `/v2/serverless/${small.body.id}`, { workers: { min: MANY, max: MANY } }),
    );
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal((await allWorkers(emulator, small.body.id)).summary.throttled, MANY - 53, 'cpu3c: 53 in stock');
    await get(emulator, '/v2/serverless');
    await get(emulator, '/v2/catalog/gpus?include=AVAILABILITY&product=SERVERLESS');
    assert.equal((await within(ANSWER_MS, 'the health', call(emulator.jobsUrl, 'GET', `/v2/${id}/health`))).status, 200);
    assert.equal(await emulator.stop(STOP_MS), 0);
  } finally {
    emulator.kill();
  }
});
