/**
 * The API client against the emulator's fault injection, with a proxy counting what the emulator
 * actually received: 429 storms (Retry-After waited out, measured; no flood; each wait announced;
 * the event loop stays free), 5xx, timeouts, deploys whose create is dropped before or after the
 * service handled it (no duplicate, the exact state said), and log streams cut in the middle of a
 * line (resumed with nothing lost or repeated).
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import {
  ApiError,
  createApiClient,
  DEFAULT_RETRY_POLICY,
  type ApiClient,
  type ApiClientConfig,
  type CreateEndpointRequest,
  type RetryNotice,
  type WorkerLogEvent,
} from '../../core/api';
import { applyPlan, planDeployment, type Spec } from '../../core/deploy';
import { startEmulator, type FaultOptions, type RunningEmulator } from '../../emulator';
import { count, reportFigures, SECRET_KEY } from './support';
import { countingProxy, cuttingProxy, type CountingProxy } from './wire';

after(() => {
  reportFigures(__filename);
});

const spec = (name: string, extra: Record<string, unknown> = {}): CreateEndpointRequest => ({
  name,
  type: 'QUEUE',
  image: 'example/worker:1.0',
  gpu: { pools: ['ADA_24'] },
  scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
  ...extra,
});

interface Rig {
  emu: RunningEmulator;
  proxy: CountingProxy;
  /** A client through the counting proxy, short backoff. */
  api: (extra?: Partial<ApiClientConfig>) => ApiClient;
  fault: (f: FaultOptions) => void;
}

async function withRig<T>(fn: (rig: Rig) => Promise<T>): Promise<T> {
  const emu = await startEmulator({
    port: 0,
    jobsPort: 0,
    apiKey: SECRET_KEY,
    seed: 5,
    timeScale: 50,
    rateLimits: { minute: 100_000, hour: 1_000_000, day: 10_000_000 },
  });
  const proxy = await countingProxy(emu.restUrl);
  const api = (extra: Partial<ApiClientConfig> = {}): ApiClient =>
    createApiClient({ apiUrl: proxy.url, jobsUrl: emu.jobsUrl, apiKey: SECRET_KEY, retry: { baseDelayMs: 30, maxDelayMs: 200 }, ...extra });
  const fault = (f: FaultOptions): void => {
    emu.setFaults(f);
  };
  try {
    return await fn({ emu, proxy, api, fault });
  } finally {
    await proxy.close();
    await emu.close();
  }
}

/** Largest delay of the event loop while `work` runs: what a user would feel as a frozen editor. */
async function loopLag<T>(work: Promise<T>): Promise<{ value: T; maxLagMs: number }> {
  let maxLagMs = 0;
  let last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    maxLagMs = Math.max(maxLagMs, now - last - 20);
    last = now;
  }, 20);
  try {
    return { value: await work, maxLagMs };
  } finally {
    clearInterval(ticker);
  }
}

describe('429 storms', () => {
  it('reads wait out Retry-After (measured), announce each wait, and send at most 1 + 2 retries per call', async () => {
    await withRig(async ({ proxy, api, fault }) => {
      const notices: RetryNotice[] = [];
      const client = api({ onRetry: (n) => notices.push(n) });
      const ids = await Promise.all(Array.from({ length: 10 }, async (_, i) => (await client.serverless.create(spec(`storm-${i}`))).id));
      const start = proxy.received.length;
      // Every call's first two attempts are refused; the third gets through.
      fault({ force429: true, count: 20, paths: ['/v2/serverless/'] });
      const { value, maxLagMs } = await loopLag(Promise.all(ids.map((id) => client.serverless.get(id))));
      assert.deepEqual(
        value.map((e) => e.id),
        ids,
      );
      const storm = proxy.received.slice(start);
      count({ faultsInjected: 20, stormRequests: storm.length, stormCalls: ids.length });
      assert.equal(storm.length, ids.length * (1 + DEFAULT_RETRY_POLICY.maxRateLimitRetries), 'three requests per call, no more');
      for (const id of ids) {
        const attempts = storm.filter((r) => r.path === `/v2/serverless/${id}`);
        assert.deepEqual(
          attempts.map((r) => r.status),
          [429, 429, 200],
        );
        for (let i = 1; i < attempts.length; i++)
          assert.ok(
            attempts[i].at - attempts[i - 1].at >= 950,
            `Retry-After: 1 respected (waited ${Math.round(attempts[i].at - attempts[i - 1].at)} ms)`,
          );
      }
      assert.equal(notices.length, 20);
      assert.ok(notices.every((n) => n.reason === 'rateLimited' && n.waitMs === 1000 && n.retryAt > 0 && !n.path.includes(SECRET_KEY)));
      assert.ok(maxLagMs < 250, `the event loop stayed free (worst lag ${Math.round(maxLagMs)} ms)`);
    });
  });

  it('a storm longer than the client waits: each call gives up after its bounded retries with the wait the service asked for', async () => {
    await withRig(async ({ proxy, api, fault }) => {
      const client = api();
      fault({ force429: true, count: 10_000 });
      const start = proxy.received.length;
      const calls = 8;
      const results = await Promise.allSettled([
        ...Array.from({ length: calls - 2 }, () => client.serverless.list()),
        client.serverless.create(spec('refused')),
        client.serverless.create(spec('refused-too')),
      ]);
      const storm = proxy.received.slice(start);
      count({ faultsInjected: storm.length, stormRequests: storm.length, stormCalls: calls });
      assert.ok(
        results.every(
          (r) => r.status === 'rejected' && r.reason instanceof ApiError && r.reason.rateLimited && r.reason.retryAfterSeconds === 1,
        ),
      );
      assert.match(String((results[0] as PromiseRejectedResult).reason), /429|rate/i);
      // Reads: 1 + 2 retries each; writes are never repeated after a 429.
      assert.equal(storm.length, (calls - 2) * 3 + 2, 'no flood');
      assert.equal(storm.filter((r) => r.method === 'POST').length, 2);
    });
  });
});

describe('5xx and timeouts', () => {
  it('reads retry 5xx and timeouts within their bound; a write is never repeated blind', async () => {
    await withRig(async ({ proxy, api, fault }) => {
      const client = api({ timeoutMs: 150 });
      // The 503 storm runs 30 reads at once; a roomier timeout keeps a slow machine from adding timeouts to it.
      const stormClient = api({ timeoutMs: 5000 });
      const created = await client.serverless.create(spec('steady'));
      let failed = 0;
      fault({ errorRate: 0.4, status5xx: 503 });
      const start = proxy.received.length;
      const reads = await Promise.allSettled(Array.from({ length: 30 }, () => stormClient.serverless.get(created.id)));
      fault({});
      const sent = proxy.received.slice(start);
      count({ faultsInjected: sent.filter((r) => r.status === 503).length });
      for (const r of reads) {
        if (r.status === 'fulfilled') assert.equal(r.value.id, created.id);
        else {
          failed++;
          assert.ok(r.reason instanceof ApiError && r.reason.server && r.reason.status === 503 && !r.reason.outcomeUnknown);
        }
      }
      assert.ok(sent.length <= 30 * 3, `at most 3 requests per read; sent ${sent.length}`);
      assert.ok(failed < 30, 'retries get most reads through');

      fault({ latencyMs: 400, count: 2 });
      assert.equal((await client.serverless.get(created.id)).id, created.id, 'two timeouts, then an answer');
      fault({ latencyMs: 400, count: 3 });
      const timedOut = await client.serverless.get(created.id).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(timedOut instanceof ApiError && timedOut.timeout && /150 ms/.test(timedOut.message));
      count({ faultsInjected: 5 });

      fault({ status5xx: 500, count: 1, paths: ['/v2/serverless'] });
      const write = await client.serverless.create(spec('unsure')).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(write instanceof ApiError && write.outcomeUnknown, 'a 5xx on a create leaves its outcome open, and says so');
      count({ faultsInjected: 1 });
      assert.equal(proxy.received.filter((r) => r.method === 'POST' && r.status === 500).length, 1, 'sent once');
    });
  });
});

describe('a connection dropped mid-deploy', () => {
  // What the deploy must conclude: the create was made once (found by listing), or never (sent again).
  const faults: [string, FaultOptions, 'reconciled' | 'created'][] = [
    ['answer lost after the create was made', { dropResponse: true, count: 1, paths: ['/v2/serverless'] }, 'reconciled'],
    ['connection dropped before the create was handled', { dropConnection: true, count: 1, paths: ['/v2/serverless'] }, 'created'],
    ['503 before the create was handled', { status5xx: 503, count: 1, paths: ['/v2/serverless'] }, 'created'],
    ['slow answer the client gave up on (made after the timeout)', { latencyMs: 700, count: 1, paths: ['/v2/serverless'] }, 'reconciled'],
  ];
  for (const [label, options, expected] of faults) {
    it(`${label}: one endpoint, never two, and the exact state said`, async () => {
      await withRig(async ({ emu, api }) => {
        const client = api({ timeoutMs: 400 });
        const deploySpec = { ...spec(`deploy-${label.split(' ')[0]}`) } as unknown as Spec;
        const before = (await client.serverless.list()).map((e) => e.id);
        emu.setFaults(options);
        const steps: string[] = [];
        const result = await applyPlan(client, planDeployment(deploySpec, undefined), {
          existingIds: before,
          reconcile: { reconcileIntervalMs: 300, reconcileChecks: 5 },
          onProgress: (_s, message) => steps.push(message),
        });
        emu.setFaults(undefined);
        count({ faultsInjected: 1 });
        const mine = (await client.serverless.list()).filter((e) => e.name === deploySpec.name);
        count({ duplicates: Math.max(0, mine.length - 1), endpointsLost: result.ok && mine.length === 0 ? 1 : 0 });
        assert.ok(result.ok, JSON.stringify(!result.ok && result.failure));
        assert.equal(mine.length, 1, 'exactly one endpoint');
        assert.equal(result.endpoint.id, mine[0].id);
        assert.ok(result.verified);
        assert.equal(result.action, expected, steps.join('\n'));
        if (expected === 'reconciled')
          assert.ok(
            steps.some((s) => /answer was lost; found the endpoint the request made \(\w+\), no second one was created/.test(s)),
            steps.join('\n'),
          );
        else assert.equal(result.attempts, 2, 'sent again only after listing showed nothing was made');
      });
    });
  }
});

describe('a log stream dropped mid-line', () => {
  it('resumes after the last whole line: nothing lost, nothing repeated', async () => {
    await withRig(async ({ emu, api }) => {
      const client = api();
      const endpoint = await client.serverless.create(spec('logs', { workers: { min: 1, max: 1 } }));
      let workerId: string | undefined;
      for (let i = 0; i < 200 && !workerId; i++) {
        workerId = (await client.serverless.workers(endpoint.id)).workers.find((w) => w.status === 'IDLE')?.id;
        if (!workerId) await new Promise((r) => setTimeout(r, 50));
      }
      assert.ok(workerId, 'a worker came up');
      const written = Array.from({ length: 40 }, (_, i) => `line ${i} ${'x'.repeat(30)} ünïcödé`);
      await client.jobs.runSync(endpoint.id, { input: { log: written } });
      const read = async (c: ApiClient): Promise<WorkerLogEvent[]> => {
        const controller = new AbortController();
        const events: WorkerLogEvent[] = [];
        const stream = c.serverless.workerLogs(endpoint.id, workerId, {
          tail: 5000,
          source: 'container',
          signal: controller.signal,
          reconnectDelayMs: 20,
          maxReconnectDelayMs: 100,
        });
        const timer = setTimeout(() => {
          controller.abort();
        }, 15_000);
        try {
          for await (const event of stream) {
            events.push(event);
            if (event.line === written[written.length - 1]) break;
          }
        } finally {
          clearTimeout(timer);
          controller.abort();
        }
        return events;
      };
      const reference = await read(client);
      assert.ok(reference.some((e) => e.line === written[0]));
      // Cut three times, at byte counts that fall inside events (checked below).
      const cutter = await cuttingProxy(emu.restUrl, /GET \/v2\/serverless\/[^ ]+\/logs/, [700, 1555, 2321]);
      try {
        const got = await read(api({ apiUrl: cutter.url }));
        assert.equal(cutter.cuts, 3, 'the stream was cut three times');
        assert.ok(!/\n\n$/.test(cutter.lastCutTail), `the last cut fell inside an event: ${JSON.stringify(cutter.lastCutTail.slice(-60))}`);
        const ids = got.map((e) => e.id);
        const lost = reference.filter((e) => !ids.includes(e.id)).length;
        const repeated = ids.length - new Set(ids).size;
        count({ faultsInjected: 3, linesLost: lost, linesRepeated: repeated });
        assert.equal(lost, 0, 'no line lost');
        assert.equal(repeated, 0, 'no line repeated');
        assert.deepEqual(
          got.map((e) => e.line),
          reference.map((e) => e.line),
          'the same lines in the same order, none half',
        );
      } finally {
        await cutter.close();
      }
    });
  });
});
