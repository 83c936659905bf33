/**
 * A body over the 1 MB limit is answered 413 with a problem, and the answer reaches the client:
 * the emulator reads the rest of the body before answering, so Node's fetch sees the 413, not a
 * connection closed under it (EPIPE, ECONNRESET). Past a further 16 MB it answers at once and
 * closes.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { test } from 'node:test';
import type { ProblemBody } from '../../emulator/http/problems';
import { KEY, call, gpuSpec, withEmulator } from './helpers';

const MB = 1024 * 1024;
const headers = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' };

async function assertTooLarge(answer: Response, detail: RegExp): Promise<void> {
  assert.equal(answer.status, 413);
  assert.match(answer.headers.get('content-type') ?? '', /^application\/problem\+json/);
  const problem = (await answer.json()) as ProblemBody;
  assert.equal(problem.status, 413);
  assert.equal(problem.title, 'Content Too Large');
  assert.match(problem.detail, detail);
}

/** A body of `size` bytes of JSON in 64 KB pieces, with no Content-Length (chunked). */
function streamed(size: number): ReadableStream<Uint8Array> {
  const piece = new TextEncoder().encode(' '.repeat(64 * 1024));
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= size) {
        controller.close();
        return;
      }
      controller.enqueue(piece);
      sent += piece.length;
    },
  });
}

test('an oversized body gets its 413 problem through fetch: declared, streamed, and on the job API', async () => {
  await withEmulator({}, async (e) => {
    for (const size of [2 * MB, 10 * MB, 16 * MB]) {
      const body = JSON.stringify({ ...gpuSpec(), env: { BIG: 'x'.repeat(size) } });
      const answer = await fetch(`${e.restUrl}/v2/serverless`, { method: 'POST', headers, body });
      await assertTooLarge(answer, new RegExp(`^request body is ${Buffer.byteLength(body)} bytes; the limit is ${MB} bytes$`));
    }
    const chunked = await fetch(`${e.restUrl}/v2/serverless`, {
      method: 'POST',
      headers,
      body: streamed(10 * MB),
      duplex: 'half',
    });
    await assertTooLarge(chunked, new RegExp(`^request body exceeds the limit of ${MB} bytes$`));
    const ep = await call<{ id: string }>(e.restUrl, 'POST', '/v2/serverless', gpuSpec());
    assert.equal(ep.status, 201);
    const job = await fetch(`${e.jobsUrl}/v2/${ep.body.id}/run`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ input: { text: 'x'.repeat(5 * MB) } }),
    });
    await assertTooLarge(job, /the limit is/);
    assert.equal((await call(e.restUrl, 'GET', '/v2/serverless')).status, 200, 'still serving');
  });
});

interface Exchange {
  text: string;
  closedByServer: boolean;
  /** What writing or reading failed with (EPIPE, ECONNRESET), if anything did. */
  error?: string;
}

/** Writes `request` on one connection and reads until the server closes it or `ms` pass. */
function exchange(url: string, request: (string | Buffer)[], ms = 10_000): Promise<Exchange> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let text = '';
    let error: string | undefined;
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text, closedByServer: false });
    }, ms);
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('error', (failure: NodeJS.ErrnoException) => {
      error = failure.code ?? failure.message;
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closedByServer: true, ...(error !== undefined ? { error } : {}) });
    });
    socket.on('connect', () => {
      for (const part of request) socket.write(part);
    });
  });
}

test('after a read oversized body the connection serves the next request; past the bound it closes at once', async () => {
  await withEmulator({}, async (e) => {
    const body = Buffer.alloc(2 * MB, 0x20);
    const head = (length: number): string =>
      `POST /v2/serverless HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;
    const next = `GET /v2/serverless HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\nConnection: close\r\n\r\n`;
    const kept = await exchange(e.restUrl, [head(body.length), body, next]);
    assert.equal(kept.error, undefined, 'the whole body was taken');
    const statuses = [...kept.text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => m[1]);
    assert.deepEqual(statuses, ['413', '200'], kept.text.slice(0, 400));

    const beyond = await exchange(e.restUrl, [head(MB + 16 * MB + 1)], 5000);
    assert.ok(beyond.closedByServer, 'closed without waiting for the body');
    assert.match(beyond.text, /^HTTP\/1\.1 413 /);
    assert.match(beyond.text, /\r\nConnection: close\r\n/i);
  });
});
