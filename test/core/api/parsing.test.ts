/** The client's pure parts: JSON paths, problem bodies, quota headers, redaction, SSE framing, config. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  catalogFileFromEnvironment,
  configFromEnvironment,
  createApiClient,
  DEFAULT_API_URL,
  DEFAULT_JOBS_URL,
  parseRateLimitHeaders,
  parseRetryAfter,
} from '../../../core/api';
import { ApiError, parseProblemBody } from '../../../core/api/errors';
import { parseJsonPath, parseProblemFieldError } from '../../../core/api/jsonPath';
import { parseStructuredList } from '../../../core/api/rateLimit';
import { createRedactor, REDACTED } from '../../../core/api/redact';
import { SseParser } from '../../../core/api/sse';

describe('JSON paths in problem errors', () => {
  it('reads dotted names, indexes and quoted keys', () => {
    assert.deepEqual(parseJsonPath('$.gpu.excludedTypes[0]'), ['gpu', 'excludedTypes', 0]);
    assert.deepEqual(parseJsonPath('$'), []);
    assert.deepEqual(parseJsonPath('$.env["MY KEY"]'), ['env', 'MY KEY']);
    assert.deepEqual(parseJsonPath("$.env['a.b']"), ['env', 'a.b']);
    assert.deepEqual(parseJsonPath('$.cpu[12].vcpuCount'), ['cpu', 12, 'vcpuCount']);
    assert.deepEqual(parseJsonPath('$["quote\\"d"]'), ['quote"d']);
  });

  it('refuses text that is not a path', () => {
    assert.equal(parseJsonPath('gpu.pools'), undefined);
    assert.equal(parseJsonPath('$.'), undefined);
    assert.equal(parseJsonPath('$[x]'), undefined);
    assert.equal(parseJsonPath('$.a b'), undefined);
  });

  it('splits an errors entry into path, segments and message', () => {
    assert.deepEqual(parseProblemFieldError('$.gpu.excludedTypes[0]: NVIDIA A40 is not in the chosen pools'), {
      path: '$.gpu.excludedTypes[0]',
      pathSegments: ['gpu', 'excludedTypes', 0],
      message: 'NVIDIA A40 is not in the chosen pools',
    });
    assert.deepEqual(parseProblemFieldError("$: additional properties 'bogus' not allowed"), {
      path: '$',
      pathSegments: [],
      message: "additional properties 'bogus' not allowed",
    });
    // A quoted key may itself contain ': '.
    assert.deepEqual(parseProblemFieldError('$.env["a: b"]: must be a string'), {
      path: '$.env["a: b"]',
      pathSegments: ['env', 'a: b'],
      message: 'must be a string',
    });
    assert.deepEqual(parseProblemFieldError('name is required'), { path: '$', pathSegments: [], message: 'name is required' });
  });
});

describe('problem bodies', () => {
  it('reads a problem document with field errors', () => {
    const parsed = parseProblemBody(
      400,
      JSON.stringify({
        title: 'Bad Request',
        status: 400,
        detail: 'invalid GPU selection',
        errors: ['$.gpu.excludedTypes[1]: not in pool'],
      }),
    );
    assert.equal(parsed.title, 'Bad Request');
    assert.equal(parsed.detail, 'invalid GPU selection');
    assert.deepEqual(parsed.errors[0].pathSegments, ['gpu', 'excludedTypes', 1]);
  });

  it('tolerates the legacy {message}, the job host {error}, text and HTML', () => {
    assert.equal(parseProblemBody(404, '{"message":"endpoint not found"}').detail, 'endpoint not found');
    assert.equal(parseProblemBody(400, '{"error":"input is required"}').detail, 'input is required');
    assert.deepEqual(parseProblemBody(502, 'upstream timeout'), { title: 'Bad Gateway', detail: 'upstream timeout', errors: [] });
    assert.equal(parseProblemBody(503, '<html><body>down</body></html>').detail, '');
    assert.equal(parseProblemBody(418, '').title, 'HTTP 418');
  });
});

describe('ApiError', () => {
  it('has kind flags and a message that places field errors', () => {
    const error = new ApiError({
      kind: 'badRequest',
      status: 400,
      title: 'Bad Request',
      detail: 'invalid',
      errors: [parseProblemFieldError('$.gpu.pools[0]: unknown pool')],
      method: 'POST',
      path: '/v2/serverless',
    });
    assert.match(error.message, /^400 Bad Request: invalid; \$\.gpu\.pools\[0\]: unknown pool \(POST \/v2\/serverless\)$/);
    assert.equal(error.notFound, false);
    assert.equal(new ApiError({ kind: 'rateLimited', status: 429, title: 'x', detail: 'y', retryAfterSeconds: 3 }).rateLimited, true);
    assert.ok(error instanceof Error);
  });

  it('keeps the cause out of JSON and enumerable fields', () => {
    const error = new ApiError({ kind: 'network', title: 'Network error', detail: 'reset', cause: new Error('inner') });
    assert.equal(Object.keys(error).includes('cause'), false);
    assert.equal(JSON.stringify(error).includes('inner'), false);
  });
});

describe('RateLimit headers', () => {
  it('parses the state and policy lists into windows', () => {
    const snapshot = parseRateLimitHeaders(
      '"minute";r=0;t=12, "hour";r=2800;t=1812, "day";r=49500;t=45012',
      '"minute";q=60;w=60, "hour";q=3000;w=3600, "day";q=50000;w=86400',
      1000,
    );
    assert.deepEqual(snapshot?.windows, [
      { name: 'minute', remaining: 0, resetSeconds: 12, quota: 60, windowSeconds: 60 },
      { name: 'hour', remaining: 2800, resetSeconds: 1812, quota: 3000, windowSeconds: 3600 },
      { name: 'day', remaining: 49500, resetSeconds: 45012, quota: 50000, windowSeconds: 86400 },
    ]);
    assert.equal(snapshot.tightest?.name, 'minute');
    assert.equal(snapshot.observedAt, 1000);
  });

  it('is absent without headers and skips malformed members', () => {
    assert.equal(parseRateLimitHeaders(null, null), undefined);
    const snapshot = parseRateLimitHeaders('"minute";r=5;t=3, garbage((, "day";r=x', undefined);
    assert.deepEqual(
      snapshot?.windows.map((w) => w.name),
      ['minute', 'day'],
    );
    assert.equal(snapshot.windows[1].remaining, undefined);
  });

  it('reads structured-field tokens, strings with commas and booleans', () => {
    assert.deepEqual(parseStructuredList('"a,b";x=1, tok;flag, "q\\"t";y=?0'), [
      { item: 'a,b', params: { x: 1 } },
      { item: 'tok', params: { flag: true } },
      { item: 'q"t', params: { y: false } },
    ]);
  });

  it('reads Retry-After as seconds or a date', () => {
    assert.equal(parseRetryAfter('12'), 12);
    assert.equal(parseRetryAfter(new Date(10_000 + 5_000).toUTCString(), 10_000), 5);
    assert.equal(parseRetryAfter('soon'), undefined);
  });
});

describe('redaction', () => {
  it('removes the key, its URL-encoded form, bearer values and key query parameters', () => {
    const redact = createRedactor(['sk_live+abc/123']);
    assert.equal(redact('key sk_live+abc/123 leaked'), `key ${REDACTED} leaked`);
    assert.equal(redact(`x=${encodeURIComponent('sk_live+abc/123')}`), `x=${REDACTED}`);
    assert.equal(redact('Authorization: Bearer something-else'), `Authorization: Bearer ${REDACTED}`);
    assert.equal(redact('https://h/graphql?api_key=zzz&a=1'), `https://h/graphql?api_key=${REDACTED}&a=1`);
  });
});

describe('SSE parser', () => {
  it('frames events across chunk boundaries with any line ending', () => {
    const parser = new SseParser();
    const events = [
      ...parser.push('\uFEFFid: 1\ndata: {"line":"a"}\n'),
      ...parser.push('\n: keep-alive\n\nid: 2\r'),
      ...parser.push('\nevent: log\r\ndata: x\r\ndata: y\r\n\r\n'),
      ...parser.push('retry: 2500\n\ndata: no id\n\n'),
    ];
    assert.deepEqual(events, [
      { id: '1', event: 'message', data: '{"line":"a"}' },
      { id: '2', event: 'log', data: 'x\ny' },
      { id: '', event: 'message', data: 'no id' },
    ]);
    assert.equal(parser.retryMs, 2500);
  });
});

describe('configuration', () => {
  it('reads the environment with the RUNPOD_API_KEY fallback and public defaults', () => {
    assert.deepEqual(configFromEnvironment({ RUNPOD_API_KEY: 'k1' }), { apiUrl: DEFAULT_API_URL, jobsUrl: DEFAULT_JOBS_URL, apiKey: 'k1' });
    const config = configFromEnvironment({
      ENDPOINT_STUDIO_API_URL: 'http://127.0.0.1:8787/',
      ENDPOINT_STUDIO_JOBS_URL: 'http://127.0.0.1:8788',
      ENDPOINT_STUDIO_API_KEY: 'k2',
      RUNPOD_API_KEY: 'k1',
    });
    assert.equal(config.apiKey, 'k2');
    assert.equal(createApiClient(config).apiUrl, 'http://127.0.0.1:8787');
    assert.equal(configFromEnvironment({ ENDPOINT_STUDIO_API_KEY: '  ', RUNPOD_API_KEY: 'k1' }).apiKey, 'k1');
  });

  it('reads the catalog snapshot file beside the service, blank counted as unset', () => {
    assert.equal(catalogFileFromEnvironment({ ENDPOINT_STUDIO_CATALOG_FILE: 'ci/catalog.json' }), 'ci/catalog.json');
    assert.equal(catalogFileFromEnvironment({ ENDPOINT_STUDIO_CATALOG_FILE: ' ci/catalog.json\n' }), 'ci/catalog.json');
    for (const blank of ['', '  ', undefined]) assert.equal(catalogFileFromEnvironment({ ENDPOINT_STUDIO_CATALOG_FILE: blank }), undefined);
  });

  it('refuses base URLs with credentials or a query, without echoing the key', () => {
    const key = 'secret-key-123';
    assert.throws(
      () => createApiClient({ apiKey: key, apiUrl: `https://user:${key}@h` }),
      (e: unknown) => e instanceof ApiError && e.kind === 'configuration' && !e.message.includes(key),
    );
    assert.throws(
      () => createApiClient({ apiKey: key, apiUrl: `https://h/?api_key=${key}` }),
      (e: unknown) => e instanceof ApiError && !JSON.stringify(e).includes(key) && !e.message.includes(key),
    );
    assert.throws(
      () => createApiClient({ apiKey: key, apiUrl: `not a url ${key}` }),
      (e: unknown) => e instanceof ApiError && !e.message.includes(key),
    );
    assert.throws(() => createApiClient({ apiKey: 'a b' }), /whitespace/);
    assert.throws(
      () => createApiClient({ apiKey: 'schlüssel-123' }),
      (e: unknown) => e instanceof ApiError && !e.message.includes('schlüssel'),
    );
  });

  it('does not expose the key when the client is inspected or serialized', async () => {
    const key = 'inspect-me-not-0987';
    const client = createApiClient({ apiKey: key });
    const { inspect } = await import('node:util');
    assert.equal(inspect(client, { depth: 10, showHidden: true }).includes(key), false);
    assert.equal(JSON.stringify(client).includes(key), false);
  });
});
