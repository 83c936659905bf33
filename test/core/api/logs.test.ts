/**
 * Worker log streaming: against the emulator for backfill, live lines and resuming with
 * `Last-Event-ID`; against a small SSE server in the test for what the emulator cannot do on
 * purpose (cut a stream in the middle, resend lines already delivered, go silent).
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { ApiError, createApiClient, type WorkerLogEvent, type WorkerLogStream } from '../../../core/api';
import { eventually, gpuEndpoint, TEST_KEY, withEmulator } from './support';

/** Reads until `until` says stop (or `timeoutMs` passes), then leaves the stream. */
async function collect(stream: WorkerLogStream, until: (events: WorkerLogEvent[]) => boolean, timeoutMs = 8000): Promise<WorkerLogEvent[]> {
  const events: WorkerLogEvent[] = [];
  const timeout = new Promise<'timeout'>((resolve) =>
    setTimeout(() => {
      resolve('timeout');
    }, timeoutMs).unref(),
  );
  const iterator = stream[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), timeout]);
      if (next === 'timeout' || next.done) break;
      events.push(next.value);
      if (until(events)) break;
    }
  } finally {
    void iterator.return?.();
  }
  return events;
}

const lines = (events: WorkerLogEvent[]): string[] => events.map((e) => e.line);

describe('worker logs against the emulator', () => {
  it('backfill, then resume after the last id seen without losing or repeating a line', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const endpoint = await api.serverless.create(gpuEndpoint({ workers: { min: 1, max: 1 } }));
      const worker = await eventually(async () => (await api.serverless.workers(endpoint.id)).workers.find((w) => w.status === 'IDLE'));
      await api.jobs.runSync(endpoint.id, { input: { log: ['one', 'two', 'three'] } });

      const controller = new AbortController();
      const first = api.serverless.workerLogs(endpoint.id, worker.id, { tail: 5000, source: 'container', signal: controller.signal });
      const seen = await collect(first, (events) => lines(events).includes('two'));
      controller.abort();
      assert.ok(seen.length > 0 && seen.every((e) => e.source === 'container' && e.id !== '' && e.ts !== ''));
      assert.equal(first.lastEventId, seen[seen.length - 1].id);

      // Written while nobody was listening.
      await api.jobs.runSync(endpoint.id, { input: { log: ['four', 'five'] } });
      const resumed = api.serverless.workerLogs(endpoint.id, worker.id, { source: 'container', lastEventId: first.lastEventId });
      const rest = await collect(resumed, (events) => lines(events).includes('five'));

      const everything = await collect(api.serverless.workerLogs(endpoint.id, worker.id, { tail: 5000, source: 'container' }), (events) =>
        lines(events).includes('five'),
      );
      assert.deepEqual(
        [...seen, ...rest].map((e) => e.id),
        everything.map((e) => e.id),
        'the two reads together are exactly the whole log, in order',
      );
      assert.equal(lines(rest)[0], 'three');
    });
  });

  it('delivers live lines and reconnects when the first connection is dropped', async () => {
    await withEmulator({}, async (emu, client) => {
      const api = client();
      const endpoint = await api.serverless.create(gpuEndpoint({ workers: { min: 1, max: 1 } }));
      const worker = await eventually(async () => (await api.serverless.workers(endpoint.id)).workers.find((w) => w.status === 'IDLE'));
      emu.setFaults({ dropConnection: true, count: 1, paths: [`/v2/serverless/${endpoint.id}/workers/`] });
      const reconnects: string[] = [];
      let opens = 0;
      const stream = api.serverless.workerLogs(endpoint.id, worker.id, {
        tail: 0,
        reconnectDelayMs: 20,
        onReconnect: (info) => reconnects.push(info.reason),
        onOpen: () => opens++,
      });
      const reading = collect(stream, (events) => lines(events).includes('live'));
      // Live only (tail 0): the line is written once the connection after the dropped one is open, and so listening.
      await eventually(() => (opens === 1 ? true : undefined));
      await api.jobs.runSync(endpoint.id, { input: { log: ['live'] } });
      assert.ok(lines(await reading).includes('live'));
      assert.equal(opens, 1, 'the dropped connection never opened');
      assert.equal(stream.reconnects, 1);
      assert.match(reconnects[0], /network|connection|dropped|reached/i);
    });
  });

  it('fails at once for an unknown worker instead of reconnecting', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const endpoint = await api.serverless.create(gpuEndpoint());
      await assert.rejects(
        collect(api.serverless.workerLogs(endpoint.id, 'no-such-worker'), () => true),
        (e: unknown) => e instanceof ApiError && e.notFound,
      );
    });
  });
});

interface Connection {
  lastEventId: string | undefined;
  query: string;
}

/** An SSE server scripted per connection. */
async function scriptedSse(
  script: (n: number, req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; connections: Connection[]; close: () => Promise<void> }> {
  const connections: Connection[] = [];
  const server = createServer((req, res) => {
    connections.push({
      lastEventId: req.headers['last-event-id'] as string | undefined,
      query: new URL(req.url ?? '/', 'http://x').search,
    });
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    res.flushHeaders();
    script(connections.length, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

const event = (n: number): string =>
  `id: 2026-06-01T12:00:0${n}Z/00000000000${n}\ndata: ${JSON.stringify({ ts: `2026-06-01T12:00:0${n}Z`, source: 'container', line: `line ${n}` })}\n\n`;

describe('worker log resume over a cut connection', () => {
  it('resumes with Last-Event-ID after a mid-stream drop and skips lines sent again', async () => {
    const sse = await scriptedSse((n, _req, res) => {
      if (n === 1) {
        res.write(event(1) + event(2));
        // Half an event, then the connection dies: line 3 must come from the next connection.
        res.write(event(3).slice(0, 20));
        setTimeout(() => res.socket?.destroy(), 50);
      } else {
        // A server whose resume point is a little early: lines 2 and 3 come again.
        res.write(event(2) + event(3) + event(4) + event(5));
      }
    });
    try {
      const api = createApiClient({ apiUrl: sse.url, apiKey: TEST_KEY });
      const stream = api.serverless.workerLogs('ep1', 'w1', { tail: 10, since: undefined, reconnectDelayMs: 10 });
      const got = await collect(stream, (events) => events.length >= 5, 4000);
      assert.deepEqual(lines(got), ['line 1', 'line 2', 'line 3', 'line 4', 'line 5']);
      assert.equal(sse.connections.length, 2);
      assert.equal(sse.connections[0].lastEventId, undefined);
      assert.equal(sse.connections[0].query, '?tail=10');
      assert.equal(sse.connections[1].lastEventId, '2026-06-01T12:00:02Z/000000000002');
      assert.equal(sse.connections[1].query, '', 'the cursor, not tail, drives the resume');
      assert.equal(stream.lastEventId, '2026-06-01T12:00:05Z/000000000005');
    } finally {
      await sse.close();
    }
  });

  it('treats a silent connection as dead and stops cleanly when aborted', async () => {
    const sse = await scriptedSse((n, _req, res) => {
      if (n === 2) res.write(event(1));
      // Otherwise: headers only, then silence.
    });
    try {
      const controller = new AbortController();
      const api = createApiClient({ apiUrl: sse.url, apiKey: TEST_KEY });
      const stream = api.serverless.workerLogs('ep1', 'w1', { idleTimeoutMs: 150, reconnectDelayMs: 10, signal: controller.signal });
      const got = await collect(stream, (events) => events.length >= 1, 4000);
      assert.deepEqual(lines(got), ['line 1']);
      assert.ok(sse.connections.length >= 2);
      const iterator = stream[Symbol.asyncIterator]();
      setTimeout(() => {
        controller.abort();
      }, 50);
      const started = Date.now();
      const next = await iterator.next();
      assert.equal(next.done, true);
      assert.ok(Date.now() - started < 1000);
    } finally {
      await sse.close();
    }
  });

  it('gives up after the allowed reconnections when no data ever comes', async () => {
    const sse = await scriptedSse((_n, _req, res) => res.end());
    try {
      const api = createApiClient({ apiUrl: sse.url, apiKey: TEST_KEY });
      const stream = api.serverless.workerLogs('ep1', 'w1', { maxReconnects: 2, reconnectDelayMs: 5 });
      await assert.rejects(
        collect(stream, () => false, 4000),
        (e: unknown) => e instanceof ApiError && e.network && /gave up/.test(e.message),
      );
      assert.equal(sse.connections.length, 3);
    } finally {
      await sse.close();
    }
  });
});
