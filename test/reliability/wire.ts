/**
 * Two proxies that sit between the client and the emulator: one records every request the
 * emulator receives (so a test can prove the client did not flood it), one cuts a response stream
 * after an exact number of bytes (a log stream dropped in the middle of a line).
 */
import { createConnection, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

// The recording proxy is the client tests' forwarding proxy, which counts and records every request.
export { losingProxy as countingProxy, type LosingProxy as CountingProxy, type ReceivedRequest as Received } from '../core/api/support';

export interface CuttingProxy {
  readonly url: string;
  /** Connections cut so far. */
  readonly cuts: number;
  /** The bytes of the last cut response that reached the client, for checking the cut fell mid-line. */
  readonly lastCutTail: string;
  close(): Promise<void>;
}

/**
 * TCP proxy: on each of the first `cutAfter.length` connections whose request matches `pattern`,
 * the response is cut after exactly `cutAfter[i]` bytes (headers included), both sockets destroyed.
 */
export async function cuttingProxy(target: string, pattern: RegExp, cutAfter: number[]): Promise<CuttingProxy> {
  const { hostname, port } = new URL(target);
  const open = new Set<Socket>();
  const state = { cuts: 0, lastCutTail: '' };
  const server = createServer((client) => {
    const upstream = createConnection({ host: hostname, port: Number(port) });
    open.add(client);
    let limit: number | undefined;
    let sent = 0;
    let seen = '';
    const cleanup = (): void => {
      open.delete(client);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', cleanup).on('close', cleanup);
    upstream.on('error', cleanup).on('close', cleanup);
    client.on('data', (chunk: Buffer) => {
      if (limit === undefined && pattern.test(chunk.toString('latin1')) && state.cuts < cutAfter.length) limit = cutAfter[state.cuts++];
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (limit === undefined) return void client.write(chunk);
      const room = limit - sent;
      const part = chunk.subarray(0, Math.max(0, room));
      sent += part.length;
      seen = (seen + part.toString('utf8')).slice(-200);
      if (part.length > 0) client.write(part);
      if (sent >= limit) {
        state.lastCutTail = seen;
        // Flush what was allowed through, then cut without a clean end (no FIN-terminated body).
        client.write(Buffer.alloc(0), () => {
          cleanup();
        });
        upstream.destroy();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get cuts() {
      return state.cuts;
    },
    get lastCutTail() {
      return state.lastCutTail;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => {
          resolve();
        });
      }),
  };
}
