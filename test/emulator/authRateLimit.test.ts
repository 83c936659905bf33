import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ProblemBody } from '../../emulator/http/problems';
import { call, create, gpuSpec, withEmulator, KEY } from './helpers';

test('401 for a missing, malformed or unknown token, with no rate-limit headers', async () => {
  await withEmulator({}, async (e) => {
    for (const headers of [
      {} as Record<string, string>,
      { Authorization: 'Basic abc' },
      { Authorization: 'Bearer wrong' },
      { Authorization: `Bearer ${KEY} extra` },
    ]) {
      const answer = await call<ProblemBody>(e.restUrl, 'GET', '/v2/serverless', undefined, null, headers);
      assert.equal(answer.status, 401, JSON.stringify(headers));
      assert.equal(answer.body.title, 'Unauthorized');
      assert.match(answer.headers.get('content-type') ?? '', /problem\+json/);
      assert.equal(answer.headers.get('ratelimit'), null);
      assert.equal(answer.headers.get('ratelimit-policy'), null);
    }
    assert.equal((await call(e.jobsUrl, 'GET', '/v2/x/health', undefined, null)).status, 401);
  });
});

test('the read-only key reads but gets 403 on writes, with rate-limit headers', async () => {
  await withEmulator({ readOnlyKey: 'es_dev_read_only' }, async (e) => {
    const ep = await create(e, gpuSpec());
    assert.equal((await call(e.restUrl, 'GET', '/v2/serverless', undefined, 'es_dev_read_only')).status, 200);
    for (const [method, path, body] of [
      ['POST', '/v2/serverless', gpuSpec()],
      ['PATCH', `/v2/serverless/${ep.id}`, { name: 'x' }],
      ['DELETE', `/v2/serverless/${ep.id}`, undefined],
    ] as const) {
      const answer = await call<ProblemBody>(e.restUrl, method, path, body, 'es_dev_read_only');
      assert.equal(answer.status, 403, `${method} ${path}`);
      assert.equal(answer.body.title, 'Forbidden');
      assert.ok(answer.headers.get('ratelimit'));
    }
    assert.equal((await call(e.jobsUrl, 'POST', `/v2/${ep.id}/run`, { input: {} }, 'es_dev_read_only')).status, 403);
    assert.equal((await call(e.jobsUrl, 'GET', `/v2/${ep.id}/health`, undefined, 'es_dev_read_only')).status, 200);
  });
});

test('RateLimit and RateLimit-Policy headers on every authenticated answer, in structured-field form', async () => {
  await withEmulator({ rateLimits: { minute: 60, hour: 3000, day: 50000 } }, async (e) => {
    const ok = await call(e.restUrl, 'GET', '/v2/serverless');
    assert.equal(ok.headers.get('ratelimit-policy'), '"minute";q=60;w=60, "hour";q=3000;w=3600, "day";q=50000;w=86400');
    assert.match(ok.headers.get('ratelimit') ?? '', /^"minute";r=59;t=\d+, "hour";r=2999;t=\d+, "day";r=49999;t=\d+$/);
    const notFound = await call(e.restUrl, 'GET', '/v2/serverless/nope');
    assert.equal(notFound.status, 404);
    assert.match(notFound.headers.get('ratelimit') ?? '', /^"minute";r=58;/);
  });
});

test('429 with Retry-After and a detail naming the exceeded window', async () => {
  await withEmulator({ rateLimits: { minute: 1000, hour: 3, day: 5000 } }, async (e) => {
    for (let i = 0; i < 3; i++) assert.equal((await call(e.restUrl, 'GET', '/v2/serverless')).status, 200);
    const limited = await call<ProblemBody>(e.restUrl, 'GET', '/v2/serverless');
    assert.equal(limited.status, 429);
    assert.equal(limited.body.title, 'Too Many Requests');
    assert.match(limited.body.detail, /hour window/);
    const retryAfter = Number(limited.headers.get('retry-after'));
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 3600);
    assert.match(limited.headers.get('ratelimit') ?? '', /"hour";r=0;t=\d+/);
  });
});
