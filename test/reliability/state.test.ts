/**
 * The emulator's state file under abrupt ends, with the emulator as the real CLI process:
 * SIGKILL while creates are being written (many times, at random moments) leaves a file the next
 * start loads, holding every create that was acknowledged; and a client keeps working across a
 * restart mid-session on the same port and state.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ApiError, createApiClient, type ApiClient, type CreateEndpointRequest } from '../../core/api';
import { count, reportFigures, SECRET_KEY, spawnEmulator, type EmulatorProcess } from './support';

const spec = (name: string): CreateEndpointRequest => ({
  name,
  type: 'QUEUE',
  image: 'example/worker:1.0',
  gpu: { pools: ['ADA_24'] },
  scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
  env: { PAD: 'p'.repeat(4000) },
});

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'es-reliability-state-'));
});
after(() => {
  rmSync(dir, { recursive: true, force: true });
  reportFigures(__filename);
});

const args = (state: string, port = '0') => [
  '--state',
  state,
  '--api-key',
  SECRET_KEY,
  '--seed',
  String(Math.floor(Math.random() * 1e6)),
  '--rate-limit',
  '100000,1000000,10000000',
  ...(port === '0' ? [] : ['--port', port]),
];
const client = (emu: EmulatorProcess): ApiClient =>
  createApiClient({ apiUrl: emu.restUrl, jobsUrl: emu.jobsUrl, apiKey: SECRET_KEY, retry: { maxRetries: 0 } });

describe('kill -9 during state writes', () => {
  it('every restart loads the state file and finds every acknowledged create', async () => {
    const state = join(dir, 'killed.json');
    const acknowledged = new Set<string>();
    const rounds = 6;
    let sent = 0;
    let midWrite = 0;
    for (let round = 0; round < rounds; round++) {
      // A temp file beside the state means the last kill landed in the middle of a write.
      if (round > 0) midWrite += readdirSync(dir).filter((f) => f.startsWith('killed.json.') && f.endsWith('.tmp')).length;
      const emu = await spawnEmulator(args(state));
      assert.equal(
        readdirSync(dir).filter((f) => f.startsWith('killed.json.') && f.endsWith('.tmp')).length,
        0,
        "the restart removed the dead writer's temp file",
      );
      const api = client(emu);
      // It came back with everything acknowledged before the last kill.
      const listed = new Set((await api.serverless.list()).map((e) => e.id));
      const missing = [...acknowledged].filter((id) => !listed.has(id));
      count({ endpointsLost: missing.length });
      assert.deepEqual(missing, [], `round ${round}: acknowledged creates missing after a kill -9`);
      // Keep 16 creates in flight (each one rewrites the whole, growing file) and kill at a random moment.
      let stop = false;
      const worker = async (w: number): Promise<void> => {
        for (let i = 0; !stop; i++) {
          sent++;
          try {
            acknowledged.add((await api.serverless.create(spec(`r${round}-w${w}-${i}`))).id);
          } catch (error) {
            // Killed mid-request: the outcome of this one is unknown, and it is not counted as acknowledged.
            if (!(error instanceof ApiError)) throw error;
            return;
          }
        }
      };
      const workers = Array.from({ length: 16 }, (_, w) => worker(w));
      await new Promise((resolve) => setTimeout(resolve, 200 + Math.random() * 400));
      // Aim the kill at a write: wait (briefly) until a temp file shows one is under way.
      const aimed = Date.now() + 500;
      while (Date.now() < aimed && !readdirSync(dir).some((f) => f.startsWith('killed.json.') && f.endsWith('.tmp')))
        await new Promise((resolve) => setImmediate(resolve));
      await emu.kill();
      stop = true;
      await Promise.all(workers);
      count({ faultsInjected: 1 });
      // The state file is always whole JSON: the temp file + rename never leaves half of one.
      assert.doesNotThrow(() => JSON.parse(readFileSync(state, 'utf8')), `round ${round}: the state file is not valid JSON`);
    }
    midWrite += readdirSync(dir).filter((f) => f.startsWith('killed.json.') && f.endsWith('.tmp')).length;
    const last = await spawnEmulator(args(state));
    try {
      const listed = (await client(last).serverless.list()).map((e) => e.id);
      const missing = [...acknowledged].filter((id) => !listed.includes(id));
      count({ endpointsLost: missing.length, duplicates: listed.length - new Set(listed).size, inputsTried: sent });
      assert.deepEqual(missing, []);
      assert.ok(acknowledged.size > rounds * 10, `enough creates were acknowledged to mean something: ${acknowledged.size}`);
      assert.ok(midWrite > 0, 'at least one kill landed in the middle of a write');
      console.log(
        `reliability [state]: ${rounds} kill -9s during ${sent} creates (${midWrite} landed mid-write), ${acknowledged.size} acknowledged, all present after each restart`,
      );
    } finally {
      await last.stop();
    }
  });
});

describe('the emulator restarted mid-session', () => {
  it('the same client keeps working on the same port: reads retry through the gap, state is kept, a lost create is settled', async () => {
    const state = join(dir, 'restarted.json');
    let emu = await spawnEmulator(args(state));
    const port = new URL(emu.restUrl).port;
    // Backoff long enough to span a restart: 300, 600, 1200, 2400 ms.
    const api = createApiClient({
      apiUrl: emu.restUrl,
      jobsUrl: emu.jobsUrl,
      apiKey: SECRET_KEY,
      retry: { maxRetries: 4, baseDelayMs: 300, maxDelayMs: 2400 },
    });
    try {
      const first = await api.serverless.create(spec('before-restart'));
      // A clean restart: stop, and start again on the same port with the same state.
      assert.equal(await emu.stop(), 0);
      count({ faultsInjected: 1 });
      const during = api.serverless.list();
      emu = await spawnEmulator(args(state, port));
      const listed = await during;
      assert.deepEqual(
        listed.map((e) => e.id),
        [first.id],
        'a read made while it was down got through after the restart',
      );

      // An abrupt one while a create is in flight: the create's outcome is unknown until listed.
      const inFlight = api.serverless.createReconciled(spec('during-restart'), { reconcileIntervalMs: 500, reconcileChecks: 10 });
      await emu.kill();
      count({ faultsInjected: 1 });
      emu = await spawnEmulator(args(state, port));
      const outcome = await inFlight;
      const names = (await api.serverless.list()).map((e) => e.name).sort();
      const made = names.filter((n) => n === 'during-restart').length;
      count({ duplicates: Math.max(0, made - 1) });
      assert.ok(made === 1 || (made === 0 && outcome.status === 'notCreated'), `${outcome.status}: ${names.join(', ')}`);
      assert.ok(names.includes('before-restart'));
      const patched = await api.serverless.update(first.id, { workers: { max: 4 } });
      assert.equal(patched.workers.max, 4);
    } finally {
      await emu.stop();
    }
  });
});
