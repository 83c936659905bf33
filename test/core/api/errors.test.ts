/**
 * Failures as the client reports them, against the emulator: problem bodies with JSON paths,
 * auth, quotas and 429s, safe retries, timeouts, cancellation, and a final sweep that the key
 * never appears in anything a failure produced.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { inspect } from 'node:util';
import { ApiError, createApiClient, type ApiLogEntry, type RateLimitSnapshot } from '../../../core/api';
import { gpuEndpoint, READ_ONLY_KEY, TEST_KEY, withEmulator } from './support';

/** Everything a failure produced, for the leak sweep at the end. */
const produced: unknown[] = [];
const logs: ApiLogEntry[] = [];

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    produced.push(error);
    assert.ok(error instanceof ApiError, `expected ApiError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the call to fail');
}

describe('problem bodies', () => {
  it('keep JSON paths that point into the spec', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client({ log: (e) => logs.push(e) });
      const error = await failure(api.serverless.create(gpuEndpoint({ gpu: { pools: ['ADA_24'], excludedTypes: ['NVIDIA A40'] } })));
      assert.equal(error.status, 400);
      assert.equal(error.kind, 'badRequest');
      assert.equal(error.title, 'Bad Request');
      assert.ok(error.detail.length > 0);
      const entry = error.errors.find((e) => e.path === '$.gpu.excludedTypes[0]');
      assert.ok(entry, JSON.stringify(error.errors));
      assert.deepEqual(entry.pathSegments, ['gpu', 'excludedTypes', 0]);
      assert.equal(error.outcomeUnknown, false);

      const unknownTemplate = await failure(api.serverless.create({ ...gpuEndpoint(), templateId: 'no-such-template' }));
      assert.equal(unknownTemplate.status, 404);
      assert.ok(unknownTemplate.notFound);
      const podTemplate = await failure(api.serverless.create({ ...gpuEndpoint(), templateId: 'tplpytorchpod1' }));
      assert.equal(podTemplate.status, 422);
      assert.equal(podTemplate.kind, 'unprocessable');
    });
  });
});

describe('auth', () => {
  it('reports 401 for a wrong key (without quota) and 403 for a read-only key on writes', async () => {
    await withEmulator({}, async (emu, client) => {
      const wrong = createApiClient({ apiUrl: emu.restUrl, jobsUrl: emu.jobsUrl, apiKey: 'es_wrong_key_0000' });
      const unauthorized = await failure(wrong.serverless.list());
      assert.ok(unauthorized.unauthorized);
      assert.equal(unauthorized.status, 401);
      assert.equal(unauthorized.rateLimit, undefined);
      assert.equal(wrong.rateLimit, undefined);

      const noKey = createApiClient({ apiUrl: emu.restUrl, apiKey: '' });
      assert.ok((await failure(noKey.catalog.gpus())).unauthorized);

      const readOnly = client({ apiKey: READ_ONLY_KEY });
      assert.deepEqual(await readOnly.serverless.list(), []);
      const forbidden = await failure(readOnly.serverless.create(gpuEndpoint()));
      assert.ok(forbidden.forbidden);
      assert.equal(forbidden.status, 403);
      assert.ok(forbidden.rateLimit, '403 carries the quota headers');
      assert.ok((await failure(readOnly.jobs.purgeQueue('x'))).forbidden, 'the jobs host takes the same key and scopes');
    });
  });
});

describe('rate limits', () => {
  it('expose the quota snapshot and notify listeners on every answer', async () => {
    await withEmulator({ rateLimits: { minute: 50, hour: 500, day: 5000 } }, async (_emu, client) => {
      const fromConfig: RateLimitSnapshot[] = [];
      const api = client({ onRateLimit: (s) => fromConfig.push(s) });
      const fromListener: RateLimitSnapshot[] = [];
      const unsubscribe = api.onRateLimit((s) => fromListener.push(s));
      await api.serverless.list();
      await api.catalog.cpus();
      unsubscribe();
      await api.catalog.cpus();
      assert.equal(fromListener.length, 2);
      assert.equal(fromConfig.length, 3);
      const minute = api.rateLimit?.windows.find((w) => w.name === 'minute');
      assert.deepEqual(minute && { quota: minute.quota, windowSeconds: minute.windowSeconds, remaining: minute.remaining }, {
        quota: 50,
        windowSeconds: 60,
        remaining: 47,
      });
      assert.deepEqual(
        api.rateLimit?.windows.map((w) => w.name),
        ['minute', 'hour', 'day'],
      );
    });
  });

  it('wait out a 429 on reads, and report it on writes without retrying', async () => {
    await withEmulator({}, async (emu, client) => {
      const api = client();
      emu.setFaults({ force429: true, count: 1 });
      const started = Date.now();
      assert.deepEqual(await api.serverless.list(), []);
      assert.ok(Date.now() - started >= 900, 'waited Retry-After before retrying');

      emu.setFaults({ force429: true, count: 1 });
      const write = await failure(api.serverless.create(gpuEndpoint()));
      assert.ok(write.rateLimited);
      assert.equal(write.retryAfterSeconds, 1);
      assert.equal(write.outcomeUnknown, false);
      assert.deepEqual(await api.serverless.list(), [], 'the write was not repeated');
    });
  });

  it('report a read whose Retry-After is longer than the allowed wait, naming the window', async () => {
    await withEmulator({ rateLimits: { minute: 2, hour: 100, day: 1000 } }, async (_emu, client) => {
      const api = client({ retry: { maxRateLimitWaitMs: 200 } });
      await api.catalog.cpus();
      await api.catalog.cpus();
      const error = await failure(api.catalog.cpus());
      assert.ok(error.rateLimited);
      assert.ok((error.retryAfterSeconds ?? 0) >= 1);
      assert.match(error.detail, /minute/);
      assert.equal(error.rateLimit?.tightest?.name, 'minute');
      assert.equal(error.rateLimit.tightest.remaining, 0);
    });
  });

  it('stop waiting when the caller cancels', async () => {
    await withEmulator({ rateLimits: { minute: 1, hour: 100, day: 1000 } }, async (_emu, client) => {
      const api = client({ retry: { maxRateLimitWaitMs: 120_000 } });
      await api.catalog.cpus();
      const controller = new AbortController();
      setTimeout(() => {
        controller.abort();
      }, 100);
      const started = Date.now();
      const error = await failure(api.catalog.cpus({ signal: controller.signal }));
      assert.ok(error.aborted);
      assert.ok(Date.now() - started < 2000);
    });
  });
});

describe('retries and timeouts', () => {
  it('retry reads after 5xx, but give up after the bounded attempts', async () => {
    await withEmulator({}, async (emu, client) => {
      const api = client();
      emu.setFaults({ status5xx: 503, count: 2 });
      assert.deepEqual(await api.serverless.list(), []);
      emu.setFaults({ status5xx: 502, count: 3 });
      const error = await failure(api.serverless.list());
      assert.ok(error.server);
      assert.equal(error.status, 502);
      assert.equal(error.outcomeUnknown, false);
    });
  });

  it('never repeat a POST after a 5xx; PATCH and DELETE are repeated', async () => {
    await withEmulator({}, async (emu, client) => {
      const api = client();
      emu.setFaults({ status5xx: 503, count: 1 });
      const error = await failure(api.serverless.create(gpuEndpoint()));
      assert.ok(error.server && error.outcomeUnknown);
      emu.setFaults(undefined);
      assert.deepEqual(await api.serverless.list(), [], 'one request only, and the fault refused it');

      const endpoint = await api.serverless.create(gpuEndpoint());
      emu.setFaults({ status5xx: 500, count: 1 });
      assert.equal((await api.serverless.update(endpoint.id, { workers: { max: 7 } })).workers.max, 7);
      emu.setFaults({ dropConnection: true, count: 1 });
      await api.serverless.delete(endpoint.id);
      assert.deepEqual(await api.serverless.list(), []);
    });
  });

  it('time out per attempt, retrying reads, and fail on network errors', async () => {
    await withEmulator({}, async (emu, client) => {
      emu.setFaults({ latencyMs: 400, count: 1 });
      assert.deepEqual(await client({ timeoutMs: 150 }).serverless.list(), []);
      emu.setFaults({ latencyMs: 400, count: 1 });
      const timedOut = await failure(client({ timeoutMs: 150, retry: { maxRetries: 0 } }).serverless.list());
      assert.ok(timedOut.timeout);
      assert.match(timedOut.message, /150 ms/);
      emu.setFaults(undefined);

      const abandoned = createApiClient({ apiUrl: 'http://127.0.0.1:1', apiKey: TEST_KEY, retry: { maxRetries: 1, baseDelayMs: 10 } });
      const network = await failure(abandoned.serverless.create(gpuEndpoint()));
      assert.ok(network.network);
      assert.equal(network.outcomeUnknown, true);
      assert.equal((await failure(abandoned.serverless.list())).outcomeUnknown, false);
    });
  });

  it('cancel an in-flight call through its signal', async () => {
    await withEmulator({}, async (emu, client) => {
      emu.setFaults({ latencyMs: 2000, count: 1 });
      const controller = new AbortController();
      setTimeout(() => {
        controller.abort();
      }, 100);
      const error = await failure(client().serverless.list({ signal: controller.signal }));
      assert.ok(error.aborted);
      const already = new AbortController();
      already.abort();
      assert.ok((await failure(client().catalog.gpus({ signal: already.signal }))).aborted);
    });
  });
});

describe('the key never leaks', () => {
  it('is redacted from a server that echoes it back', async () => {
    const server = createServer((req, res) => {
      const auth = req.headers.authorization ?? '';
      const key = auth.replace(/^Bearer /, '');
      res.writeHead(400, { 'Content-Type': 'application/problem+json' });
      res.end(
        JSON.stringify({
          title: `Bad ${key}`,
          status: 400,
          detail: `you sent ${auth} (${encodeURIComponent(key)})`,
          errors: [`$.env["${key}"]: leaked ${key}`],
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    after(() => server.close());
    const api = createApiClient({
      apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      apiKey: TEST_KEY,
      log: (e) => logs.push(e),
    });
    const error = await failure(api.serverless.get(TEST_KEY));
    assert.match(error.detail, /\[redacted\]/);
    assert.deepEqual(error.errors[0].pathSegments, ['env', '[redacted]']);
  });

  it('appears in no error, cause, stack, serialization or log entry produced by these tests', () => {
    assert.ok(produced.length >= 15, `swept ${produced.length} errors`);
    for (const error of produced) {
      const e = error as ApiError;
      const texts = [
        String(e),
        e.stack ?? '',
        JSON.stringify(e),
        inspect(e, { showHidden: true, depth: 8 }),
        (e.cause as Error | undefined)?.message ?? '',
      ];
      for (const text of texts) assert.equal(text.includes(TEST_KEY), false, text);
    }
    assert.ok(logs.length > 0);
    assert.equal(JSON.stringify(logs).includes(TEST_KEY), false);
  });
});
