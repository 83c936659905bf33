/**
 * The emulator against hostile HTTP, sent as raw bytes over TCP so nothing in a client library
 * tidies it up first: oversized and broken headers, bad Content-Length, invalid UTF-8, deep JSON,
 * 10 MB bodies, traversal paths, random bytes. Every answer is a problem response (never a 5xx,
 * never silence where HTTP allows an answer), and the emulator keeps serving. Then 100 creates at
 * once: all land, each with its own id.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { fuzz } from '../support/fuzz';
import { createApiClient } from '../../core/api';
import { startEmulator, type RunningEmulator } from '../../emulator';
import { PROTOTYPE_KEYS } from './corpus';
import { count, reportFigures, SECRET_KEY } from './support';

interface RawAnswer {
  status: number;
  head: string;
  body: string;
}

/** Sends bytes, reads until the server closes (requests ask for `Connection: close`) or the bound passes. */
function raw(url: string, chunks: (string | Buffer)[], boundMs = 10_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const received: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${boundMs} ms to ${String(chunks[0]).slice(0, 80)}`));
    }, boundMs);
    socket.on('data', (c: Buffer) => received.push(c));
    // The server may close while we are still sending (413 before the body); that is an answer too.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(received).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0),
        head: split < 0 ? text : text.slice(0, split),
        body: split < 0 ? '' : text.slice(split + 4),
      });
    });
    socket.on('connect', () => {
      for (const chunk of chunks) socket.write(chunk);
    });
  });
}

const auth = `Authorization: Bearer ${SECRET_KEY}\r\n`;
const post = (path: string, body: string | Buffer, extra = ''): (string | Buffer)[] => [
  `POST ${path} HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n${extra}\r\n`,
  body,
];
const get = (path: string, extra = ''): string => `GET ${path} HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n${extra}\r\n`;

/** A problem answer: the status wanted (or any 4xx), problem+json, a detail that says something. */
function assertProblem(answer: RawAnswer, status: number | '4xx', what: string): void {
  count({ inputsTried: 1 });
  if (status === '4xx')
    assert.ok(
      answer.status >= 400 && answer.status < 500,
      `${what}: status ${answer.status}\n${answer.head}\n${answer.body.slice(0, 300)}`,
    );
  else assert.equal(answer.status, status, `${what}: ${answer.head}\n${answer.body.slice(0, 300)}`);
  assert.match(answer.head, /content-type: application\/problem\+json/i, what);
  const problem = JSON.parse(answer.body) as { status: number; title: string; detail: string };
  assert.equal(problem.status, answer.status);
  assert.ok(problem.detail.length > 10, what);
}

const spec = (name: string): Record<string, unknown> => ({
  name,
  type: 'QUEUE',
  image: 'example/worker:1.0',
  gpu: { pools: ['ADA_24'] },
  scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
});

let emu: RunningEmulator;
before(async () => {
  emu = await startEmulator({
    port: 0,
    jobsPort: 0,
    apiKey: SECRET_KEY,
    seed: 3,
    rateLimits: { minute: 100_000, hour: 1_000_000, day: 10_000_000 },
  });
});
after(async () => {
  await emu.close();
  reportFigures(__filename);
});

async function stillServing(): Promise<void> {
  const answer = await raw(emu.restUrl, [get('/v2/serverless')]);
  assert.equal(answer.status, 200, answer.head);
}

describe('hostile headers and request lines', () => {
  it('oversized headers get 431, broken ones 400, each as a problem', async () => {
    assertProblem(
      await raw(emu.restUrl, [`GET /v2/serverless HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(100_000)}\r\n\r\n`]),
      431,
      'one 100 KB header',
    );
    assertProblem(
      await raw(emu.restUrl, [
        `GET /v2/serverless HTTP/1.1\r\n${Array.from({ length: 3000 }, (_, i) => `X-H${i}: v`).join('\r\n')}\r\n\r\n`,
      ]),
      431,
      '3,000 headers',
    );
    assertProblem(await raw(emu.restUrl, [`GET /${'a'.repeat(70_000)} HTTP/1.1\r\nHost: x\r\n\r\n`]), 431, 'a 70 KB path');
    assertProblem(await raw(emu.restUrl, ['GARBAGE\r\n\r\n']), 400, 'no request line');
    assertProblem(
      await raw(emu.restUrl, [Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03])]),
      400,
      'a TLS hello on the plain port',
    );
    assertProblem(
      await raw(emu.restUrl, ['GET /v2/serverless HTTP/1.1\r\nHost: x\r\nBad Header Name: v\r\n\r\n']),
      400,
      'a space in a header name',
    );
    assertProblem(
      await raw(emu.restUrl, ['GET /v2/serverless HTTP/1.1\r\nHost: x\r\nX: a\u0000b\r\n\r\n']),
      400,
      'a NUL in a header value',
    );
    assertProblem(
      await raw(emu.restUrl, [get('/v2/serverless').replace(`Bearer ${SECRET_KEY}`, 'Bearer \u00ff\u00fe')]),
      401,
      'a non-ASCII key',
    );
    await stillServing();
  });

  it('bad Content-Length: not a number, negative, twice, with chunked, shorter than the body', async () => {
    const head = (extra: string) =>
      `POST /v2/serverless HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nConnection: close\r\n${extra}\r\n`;
    assertProblem(await raw(emu.restUrl, [head('Content-Length: abc\r\n'), '{}']), 400, 'Content-Length: abc');
    assertProblem(await raw(emu.restUrl, [head('Content-Length: -5\r\n'), '{}']), 400, 'Content-Length: -5');
    assertProblem(await raw(emu.restUrl, [head('Content-Length: 2\r\nContent-Length: 9\r\n'), '{}']), 400, 'two Content-Lengths');
    assertProblem(
      await raw(emu.restUrl, [head('Content-Length: 2\r\nTransfer-Encoding: chunked\r\n'), '2\r\n{}\r\n0\r\n\r\n']),
      400,
      'Content-Length with chunked',
    );
    assertProblem(await raw(emu.restUrl, [head('Content-Length: 99999999999\r\n'), '{}']), 413, 'a declared 100 GB body');
    assertProblem(await raw(emu.restUrl, [head('Transfer-Encoding: chunked\r\n'), 'zz\r\n{}\r\n0\r\n\r\n']), 400, 'a bad chunk size');
    // Promised 1,000 bytes, sent 2 and hung up: nothing to answer, and nothing may break.
    const { hostname, port } = new URL(emu.restUrl);
    await new Promise<void>((resolve) => {
      const socket = connect({ host: hostname, port: Number(port) }, () => socket.end(`${head('Content-Length: 1000\r\n')}{}`));
      socket
        .on('close', () => {
          resolve();
        })
        .on('error', () => {
          resolve();
        })
        .resume();
    });
    count({ inputsTried: 1 });
    await stillServing();
  });
});

describe('hostile bodies', () => {
  it('invalid UTF-8, NULs, deep JSON, huge numbers and 10 MB bodies are problems, not crashes', async () => {
    assertProblem(
      await raw(emu.restUrl, post('/v2/serverless', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d]))),
      400,
      'invalid UTF-8 in a key',
    );
    assertProblem(
      await raw(
        emu.restUrl,
        post(
          '/v2/serverless',
          Buffer.concat([Buffer.from('{"name": "caf'), Buffer.from([0xc3, 0x28, 0xa0]), Buffer.from('", "type": "QUEUE"}')]),
        ),
      ),
      '4xx',
      'invalid UTF-8 in a value',
    );
    assertProblem(await raw(emu.restUrl, post('/v2/serverless', '\u0000\u0000\u0000')), 400, 'NULs');
    assertProblem(
      await raw(emu.restUrl, post('/v2/serverless', `${'['.repeat(10_000)}${']'.repeat(10_000)}`)),
      '4xx',
      '10,000-deep arrays',
    );
    assertProblem(
      await raw(
        emu.restUrl,
        post('/v2/serverless', `${JSON.stringify(spec('deep')).slice(0, -1)}, "env": ${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}}`),
      ),
      '4xx',
      '5,000-deep env',
    );
    assertProblem(
      await raw(emu.restUrl, post('/v2/serverless', `{"name": "n", "workers": {"max": 1${'0'.repeat(400)}}, "timeout": 1e999}`)),
      '4xx',
      'huge numbers',
    );
    assertProblem(
      await raw(emu.restUrl, post('/v2/serverless', '{"__proto__": {"admin": true}, "constructor": {"prototype": {"x": 1}}}')),
      '4xx',
      'prototype keys',
    );
    const tenMb = Buffer.alloc(10 * 1024 * 1024, 0x20);
    assertProblem(await raw(emu.restUrl, post('/v2/serverless', tenMb), 30_000), 413, '10 MB body with its length declared');
    const chunked = `POST /v2/serverless HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`;
    const pieces = Array.from({ length: 10 }, () => `100000\r\n${' '.repeat(0x100000)}\r\n`);
    assertProblem(await raw(emu.restUrl, [chunked, ...pieces, '0\r\n\r\n'], 30_000), 413, '10 MB body, chunked');
    assertProblem(await raw(emu.jobsUrl, post('/v2/some-endpoint/run', '['.repeat(10_000))), '4xx', 'deep JSON to the job API');
    assertProblem(
      await raw(emu.jobsUrl, post('/v2/some-endpoint/run', Buffer.from([0xff, 0xfe, 0xfd]))),
      '4xx',
      'invalid UTF-8 to the job API',
    );
    await stillServing();
  });

  it('fast-check: random bodies of random bytes are answered below 500', async () => {
    await fuzz(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 400 }).map((a) => Buffer.from(a)),
          fc.json().map((j) => Buffer.from(j)),
          fc
            .object({ key: fc.constantFrom(...PROTOTYPE_KEYS, 'name', 'cpu', 'gpu', 'scaling') })
            .map((o) => Buffer.from(JSON.stringify(o))),
          fc.string({ unit: 'binary', maxLength: 300 }).map((s) => Buffer.from(s)),
        ),
        async (body) => {
          const answer = await raw(emu.restUrl, post('/v2/serverless', body));
          count({ inputsTried: 1 });
          assert.ok(answer.status >= 200 && answer.status < 500, `status ${answer.status} for ${body.toString('hex').slice(0, 200)}`);
        },
      ),
      { numRuns: 60 },
    );
    await stillServing();
  });
});

describe('hostile paths', () => {
  const paths = [
    '/v2/serverless/../../../../etc/passwd',
    '/v2/serverless/..%2f..%2f..%2fetc%2fpasswd',
    '/v2/serverless/%2e%2e/%2e%2e/etc/passwd',
    '/v2/serverless/..\\..\\..\\windows\\win.ini',
    '/v2/serverless/%00',
    '/v2/serverless/%E0%A4%A',
    '/v2/serverless/%ff%fe',
    '//etc/passwd',
    '/v2/serverless?' + 'x=1&'.repeat(2000),
    '/v2/serverless/x/workers/%2e%2e/logs',
    '/__emulator/..%2ffaults',
    '*',
    'http://evil.example/v2/serverless',
  ];
  for (const path of paths) {
    it(`${path.slice(0, 60)}: an answer below 500 that serves no file`, async () => {
      const answer = await raw(emu.restUrl, [get(path)]);
      count({ inputsTried: 1 });
      assert.ok(answer.status >= 200 && answer.status < 500, `${path}: ${answer.status}`);
      if (answer.status >= 400) assertProblem(answer, answer.status, path);
      assert.doesNotMatch(answer.body, /root:|\[fonts\]|\[extensions\]/);
    });
  }

  it('fast-check: random paths are answered below 500', async () => {
    const segment = fc.oneof(
      fc.webSegment(),
      fc.constantFrom('..', '.', '%2e%2e', '%00', '%ff', '~', 'serverless', 'v2', 'workers', 'logs', 'releases'),
    );
    await fuzz(
      fc.asyncProperty(fc.array(segment, { maxLength: 8 }), async (segments) => {
        const answer = await raw(emu.restUrl, [get(`/${segments.join('/')}`)]);
        count({ inputsTried: 1 });
        assert.ok(answer.status >= 200 && answer.status < 500, `/${segments.join('/')}: ${answer.status}`);
      }),
      { numRuns: 60 },
    );
    await stillServing();
  });
});

describe('concurrency', () => {
  it('100 concurrent creates all land, each with its own id', async () => {
    const api = createApiClient({ apiUrl: emu.restUrl, jobsUrl: emu.jobsUrl, apiKey: SECRET_KEY });
    const before = new Set((await api.serverless.list()).map((e) => e.id));
    const created = await Promise.all(Array.from({ length: 100 }, (_, i) => api.serverless.create(spec(`concurrent-${i}`) as never)));
    count({ inputsTried: 100 });
    const ids = created.map((e) => e.id);
    assert.equal(new Set(ids).size, 100, 'distinct ids');
    const listed = (await api.serverless.list()).filter((e) => !before.has(e.id));
    assert.deepEqual(listed.map((e) => e.id).sort(), [...ids].sort(), 'every create is listed, nothing else');
    assert.deepEqual(listed.map((e) => e.name).sort(), created.map((e) => e.name).sort());
    count({ endpointsLost: 100 - listed.length, duplicates: listed.length - new Set(listed.map((e) => e.name)).size });
  });
});
