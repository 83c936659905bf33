import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runEmulatorCli } from '../../cli/emulator';
import { startEmulator, DEFAULT_DEV_API_KEY } from '../../emulator/index';
import type { ProblemBody } from '../../emulator/http/problems';
import { call, gpuSpec, withEmulator } from './helpers';

test('hostile input gets problem answers, never a crash', async () => {
  await withEmulator({}, async (e) => {
    const malformed = await call(e.restUrl, 'POST', '/v2/serverless', '{"name": ');
    assert.equal(malformed.status, 400);
    assert.match(malformed.headers.get('content-type') ?? '', /problem\+json/);
    const wrongType = await call(e.restUrl, 'POST', '/v2/serverless', JSON.stringify(gpuSpec()), undefined, {
      'Content-Type': 'text/plain',
    });
    assert.equal(wrongType.status, 415);
    const huge = await call(
      e.restUrl,
      'POST',
      '/v2/serverless',
      JSON.stringify({ ...gpuSpec(), env: { BIG: 'x'.repeat(2 * 1024 * 1024) } }),
    );
    assert.equal(huge.status, 413);
    const empty = await call(e.restUrl, 'POST', '/v2/serverless', '');
    assert.equal(empty.status, 400);
    const unknown = await call<ProblemBody>(e.restUrl, 'GET', '/v2/nothing-here');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.title, 'Not Found');
    const wrongMethod = await call(e.restUrl, 'PUT', '/v2/serverless');
    assert.equal(wrongMethod.status, 405);
    assert.equal(wrongMethod.headers.get('allow'), 'GET, POST');
    const badEncoding = await call(e.restUrl, 'GET', '/v2/serverless/%E0%A4%A');
    assert.equal(badEncoding.status, 400);
    // Still serving after all of that.
    assert.equal((await call(e.restUrl, 'POST', '/v2/serverless', gpuSpec())).status, 201);
  });
});

test('faults: 5xx, forced 429, latency and dropped connections, with path filter and count', async () => {
  await withEmulator({}, async (e) => {
    e.setFaults({ status5xx: 502, count: 1, paths: ['/v2/serverless'] });
    assert.equal((await call(e.restUrl, 'GET', '/v2/catalog/cpus')).status, 200, 'path filter');
    assert.equal((await call(e.restUrl, 'GET', '/v2/serverless')).status, 502);
    assert.equal((await call(e.restUrl, 'GET', '/v2/serverless')).status, 200, 'count ran out');
    const set = await call(e.restUrl, 'POST', '/__emulator/faults', { force429: true, count: 1 }, null);
    assert.equal(set.status, 200);
    const limited = await call<ProblemBody>(e.restUrl, 'GET', '/v2/serverless');
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('retry-after'), '1');
    assert.match(limited.body.detail, /minute window/);
    e.setFaults({ latencyMs: 150, count: 1 });
    const started = Date.now();
    assert.equal((await call(e.restUrl, 'GET', '/v2/serverless')).status, 200);
    assert.ok(Date.now() - started >= 140);
    e.setFaults({ dropConnection: true, count: 1 });
    await assert.rejects(fetch(`${e.restUrl}/v2/serverless`, { headers: { Authorization: 'Bearer x' } }));
    assert.equal((await call<{ faults: unknown }>(e.restUrl, 'GET', '/__emulator/faults', undefined, null)).body.faults, null);
    assert.equal((await call(e.restUrl, 'POST', '/__emulator/faults', { bogus: 1 }, null)).status, 422);
    e.setFaults({ errorRate: 1, paths: ['/v2/'] });
    assert.equal((await call(e.jobsUrl, 'GET', '/v2/x/health')).status, 503, 'the jobs host honours faults too');
    e.setFaults(undefined);
    assert.equal((await call(e.restUrl, 'GET', '/v2/serverless')).status, 200);
  });
});

test('CLI: rejects bad flags, prints URLs and the dev key, stops cleanly on SIGTERM', async () => {
  const sink = () => {
    let text = '';
    return { stream: { write: (chunk: string) => ((text += chunk), true) } as unknown as NodeJS.WritableStream, text: () => text };
  };
  const bad = sink();
  assert.equal(await runEmulatorCli(['--port', 'abc'], bad.stream, bad.stream), 2);
  const out = sink();
  const running = runEmulatorCli(['--port', '0', '--jobs-port', '0', '--time-scale', '10'], out.stream, out.stream);
  for (let i = 0; i < 100 && !out.text().includes('Ctrl+C'); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.match(out.text(), /REST API v2 listening on http:\/\/127\.0\.0\.1:\d+/);
  assert.match(out.text(), /Job API listening on http:\/\/127\.0\.0\.1:\d+/);
  assert.match(out.text(), /es_dev_local_emulator_key/);
  const listening = /listening on (http:\/\/[^\s]+)/.exec(out.text());
  assert.ok(listening, 'the REST URL is printed');
  const restUrl = listening[1];
  assert.equal((await call(restUrl, 'GET', '/v2/serverless')).status, 200);
  process.emit('SIGTERM');
  assert.equal(await running, 0);
  assert.match(out.text(), /stopped/);
});

test('dropResponse: the request is handled but its answer is lost', async () => {
  const emulator = await startEmulator({ port: 0, jobsPort: 0 });
  try {
    emulator.setFaults({ dropResponse: true, paths: ['/v2/serverless'], count: 1 });
    const headers = { Authorization: `Bearer ${DEFAULT_DEV_API_KEY}`, 'Content-Type': 'application/json' };
    const body = JSON.stringify({
      name: 'lost-answer',
      type: 'QUEUE',
      image: 'x',
      gpu: { pools: ['ADA_24'] },
      scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
    });
    await assert.rejects(fetch(`${emulator.restUrl}/v2/serverless`, { method: 'POST', headers, body }));
    const list = (await (await fetch(`${emulator.restUrl}/v2/serverless`, { headers })).json()) as { endpoints: { name: string }[] };
    assert.deepEqual(
      list.endpoints.map((e) => e.name),
      ['lost-answer'],
      'the create happened although no answer came',
    );
  } finally {
    await emulator.close();
  }
});
