/**
 * Shared set-up for the client's tests: a real emulator on ephemeral ports, clients pointed at it
 * with a recognisable key (so leak checks can grep for it), and, for the one fault the emulator
 * cannot cause (a request handled but its answer lost), a forwarding proxy that drops answers.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { startEmulator, type EmulatorOptions } from '../../../emulator';
import { createApiClient, type ApiClient, type ApiClientConfig, type CreateEndpointRequest } from '../../../core/api';

/** Distinctive so that a leak anywhere is found by a plain substring search. */
export const TEST_KEY = 'es_test_SECRET_key_7f3a9c21';
export const READ_ONLY_KEY = 'es_test_READONLY_key_55d0e1';

export type Emulator = Awaited<ReturnType<typeof startEmulator>>;

export async function withEmulator<T>(
  options: EmulatorOptions,
  fn: (emu: Emulator, api: (extra?: Partial<ApiClientConfig>) => ApiClient) => Promise<T>,
): Promise<T> {
  const emu = await startEmulator({
    port: 0,
    jobsPort: 0,
    timeScale: 50,
    seed: 11,
    apiKey: TEST_KEY,
    readOnlyKey: READ_ONLY_KEY,
    ...options,
  });
  const api = (extra: Partial<ApiClientConfig> = {}): ApiClient =>
    createApiClient({ apiUrl: emu.restUrl, jobsUrl: emu.jobsUrl, apiKey: TEST_KEY, retry: { baseDelayMs: 20, maxDelayMs: 100 }, ...extra });
  try {
    return await fn(emu, api);
  } finally {
    await emu.close();
  }
}

export const gpuEndpoint = (extra: Partial<CreateEndpointRequest> = {}): CreateEndpointRequest => ({
  name: 'sdxl',
  type: 'QUEUE',
  scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
  image: 'example/worker:1.0',
  gpu: { pools: ['ADA_24'] },
  ...extra,
});

/** Polls `probe` until it gives a value (not undefined); a probe may be synchronous when it only reads local state. */
export async function eventually<T>(probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 10_000, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** A request as the proxy saw it, with the status it was answered. */
export interface ReceivedRequest {
  method: string;
  path: string;
  /** `performance.now()` when the request reached the proxy. */
  at: number;
  status?: number;
}

export interface LosingProxy {
  url: string;
  /** Every request that reached the proxy, in order (so a test can prove the client did not flood it). */
  readonly received: ReceivedRequest[];
  /** The next N requests matching `method` are forwarded and handled, but their answer is dropped. */
  loseAnswers(method: string, count: number): void;
  forwarded: number;
  close(): Promise<void>;
}

/** Forwards everything to `target`; answers chosen with `loseAnswers` are cut off instead of relayed. */
export async function losingProxy(target: string): Promise<LosingProxy> {
  const upstream = new URL(target);
  let lose: { method: string; count: number } | undefined;
  const state = { forwarded: 0 };
  const received: ReceivedRequest[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const entry: ReceivedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', at: performance.now() };
    received.push(entry);
    const dropThis = lose !== undefined && lose.count > 0 && req.method === lose.method;
    if (dropThis && lose) lose.count--;
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        state.forwarded++;
        entry.status = answer.statusCode;
        if (dropThis) {
          answer.resume();
          answer.on('end', () => req.socket.destroy());
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    // The emulator dropped the connection (an injected fault): drop ours too, as the network would.
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    loseAnswers: (method, count) => {
      lose = { method, count };
    },
    get forwarded() {
      return state.forwarded;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
