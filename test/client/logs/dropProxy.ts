/**
 * A TCP proxy in front of the emulator that can cut every open connection at once: a log stream
 * dropped in the middle, which the emulator's own faults (they act before a request is handled)
 * cannot do. Used by the log tests here and by the end-to-end log panel test.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface DropProxy {
  /** `http://127.0.0.1:<port>`: use it in place of the emulator's REST URL. */
  readonly url: string;
  /** The request line (`GET /path`) last seen on each connection open now. */
  openRequests(): string[];
  /** Destroys every connection open now (both sides); new ones are accepted as before. */
  dropAll(): number;
  close(): Promise<void>;
}

export async function startDropProxy(target: string): Promise<DropProxy> {
  const { hostname, port } = new URL(target);
  const open = new Set<Socket>();
  const lastRequest = new WeakMap<Socket, string>();
  const server: Server = createServer((client) => {
    const upstream = createConnection({ host: hostname, port: Number(port) });
    open.add(client);
    const cleanup = (): void => {
      open.delete(client);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', cleanup).on('close', cleanup);
    upstream.on('error', cleanup).on('close', cleanup);
    client.on('data', (chunk: Buffer) => {
      const line = /^(GET|POST|PATCH|PUT|DELETE|HEAD|OPTIONS) (\S+) HTTP\/1\.[01]\r?$/m.exec(chunk.toString('latin1'));
      if (line) lastRequest.set(client, `${line[1]} ${line[2]}`);
    });
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('the proxy has no address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    openRequests: () => [...open].map((socket) => lastRequest.get(socket) ?? ''),
    dropAll() {
      const sockets = [...open];
      for (const socket of sockets) socket.destroy();
      return sockets.length;
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
