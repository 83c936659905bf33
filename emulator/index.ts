/**
 * The local emulator of REST API v2 and of the job API: the embedded default for trying
 * Endpoint Studio without an account, and the real server the tests talk to.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { titleFor } from './http/problems';
import { DEFAULT_DEV_API_KEY } from './auth';
import type { EmulatorContext } from './context';
import { seedDemo, type DemoState } from './demo/index';
import { FaultInjector, type FaultOptions } from './faults';
import { seededRandom } from '../core/util/seededRandom';
import { IdFactory, cryptoRandom } from './ids';
import { createJobsHandler } from './jobsServer';
import { DEFAULT_RATE_LIMITS, RateLimiter, type RateLimits } from './rateLimit';
import { UsageLedger } from './resources/billing';
import { createRestHandler } from './restServer';
import { Simulation } from './simulation/engine';
import { emptyState, loadState, saveState } from './state';

export { DEFAULT_DEV_API_KEY } from './auth';
export type { FaultOptions } from './faults';
export { PUBLIC_TEMPLATE_IDS } from './catalog/seed';

export interface EmulatorOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** REST port; default 8787; 0 picks a free port. */
  port?: number;
  /** Job API port; default 8788; 0 picks a free port. */
  jobsPort?: number;
  /** Default `DEFAULT_DEV_API_KEY`. */
  apiKey?: string;
  /** A valid key without write access: writes answer 403. */
  readOnlyKey?: string;
  /** Persist state here (atomic temp file + rename); loaded on start when present. */
  statePath?: string;
  rateLimits?: RateLimits;
  /** Off unless given; also settable with `setFaults` or `POST /__emulator/faults`. */
  faults?: FaultOptions;
  /** Simulated time runs this many times faster than the real clock (boot, idle timeouts, jobs, billing). Default 1. */
  timeScale?: number;
  /**
   * Where the emulator reads the time in ms (log lines, billing, the simulation's steps, created times); default
   * `Date.now`. A test that moves it itself knows what each time will be. The rate limits keep to the real clock:
   * they pace real requests.
   */
  clock?: () => number;
  /** Deterministic ids and injected-fault draws. */
  seed?: number;
  /** Serve `/__emulator/*` admin paths to loopback clients. Default true. */
  adminEnabled?: boolean;
  /**
   * Top-level create fields (name → JSON Schema) this emulator accepts and advertises in
   * `/v2/openapi.json` beyond the bundled schema, as a service newer than the client would.
   * They are accepted and not stored.
   */
  newerServiceFields?: Record<string, Record<string, unknown>>;
  /**
   * Seed the demo state before answering (emulator/demo): the example endpoints with a month of
   * simulated billing and two releases, a completed and a failed job, and a worker writing logs.
   */
  demo?: boolean;
}

export interface RunningEmulator {
  restUrl: string;
  jobsUrl: string;
  close(): Promise<void>;
  setFaults(f: FaultOptions | undefined): void;
  /** What the demo seeded, when `demo` was set. */
  demo?: DemoState;
}

/** The demo's traffic is the same month every time unless a seed is given. */
const DEMO_TRAFFIC_SEED = 20240601;

/** State is written at most this often for billing accrual; changes made through the API are written at once. */
const USAGE_SAVE_INTERVAL_MS = 5000;

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function urlFor(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

function answerUnparsable(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || (error.code === 'ECONNRESET' && !socket.readable)) return void socket.destroy();
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'HPE_REQUEST_TIMEOUT' ? 408 : 400;
  const detail =
    status === 431
      ? 'the request headers are larger than the server accepts'
      : status === 408
        ? 'the request was not received in time'
        : 'the request could not be parsed as HTTP/1.1';
  const body = JSON.stringify({ title: titleFor(status), status, detail });
  socket.end(
    `HTTP/1.1 ${status} ${titleFor(status)}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const host = options.host ?? '127.0.0.1';
  const timeScale = options.timeScale ?? 1;
  const clock = options.clock ?? Date.now;
  if (!(timeScale > 0) || !Number.isFinite(timeScale)) throw new Error(`timeScale must be a positive number; got ${timeScale}`);
  const random = options.seed !== undefined ? seededRandom(options.seed) : cryptoRandom;
  const ids = new IdFactory(random);
  const statePath = options.statePath;
  const state = (statePath ? loadState(statePath) : undefined) ?? emptyState();
  const ledger = new UsageLedger(state);
  let jobsUrl = '';
  let usageDirty = false;
  const persist = (): void => {
    usageDirty = false;
    if (statePath) saveState(statePath, state);
  };

  const sim: Simulation = new Simulation(
    {
      endpoint: (id) => state.endpoints.find((e) => e.id === id),
      endpoints: () => state.endpoints,
      recordUsage: (endpointId, workerId, resourceId, amounts) => {
        ledger.record(endpointId, workerId, resourceId, clock(), amounts);
        usageDirty = true;
      },
    },
    ids,
    timeScale,
    clock,
  );
  const ctx: EmulatorContext = {
    state,
    ids,
    sim,
    now: clock,
    jobsUrl: () => jobsUrl,
    persist,
    newerServiceFields: options.newerServiceFields ?? {},
  };
  const faults = new FaultInjector(random);
  faults.set(options.faults);
  const keys = { apiKey: options.apiKey ?? DEFAULT_DEV_API_KEY, ...(options.readOnlyKey ? { readOnlyKey: options.readOnlyKey } : {}) };
  const limiter = new RateLimiter(options.rateLimits ?? DEFAULT_RATE_LIMITS);
  const streams = new Set<() => void>();
  const trackStream = (close: () => void): (() => void) => {
    streams.add(close);
    return () => streams.delete(close);
  };

  const rest = createServer(createRestHandler({ ctx, keys, limiter, faults, adminEnabled: options.adminEnabled ?? true, trackStream }));
  const jobs = createServer(createJobsHandler({ ctx, keys, faults }));
  // A request Node cannot parse (a malformed request line, an oversized or broken header, a bad
  // Content-Length) still gets a problem answer, as the service's front end gives one, then the
  // connection is closed; it must never become an unhandled error.
  for (const server of [rest, jobs])
    server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
      answerUnparsable(error, socket);
    });
  const restPort = await listen(rest, options.port ?? 8787, host);
  let jobsPort: number;
  try {
    jobsPort = await listen(jobs, options.jobsPort ?? 8788, host);
  } catch (error) {
    rest.close();
    throw error;
  }
  jobsUrl = urlFor(host, jobsPort);
  sim.start();
  const saver = setInterval(() => {
    if (usageDirty && statePath) {
      try {
        persist();
      } catch (error) {
        process.emitWarning(`emulator could not write its state file: ${(error as Error).message}`);
      }
    }
  }, USAGE_SAVE_INTERVAL_MS);
  saver.unref();
  let demo: DemoState | undefined;
  if (options.demo) {
    try {
      demo = await seedDemo(ctx, ledger, seededRandom(options.seed ?? DEMO_TRAFFIC_SEED));
    } catch (error) {
      clearInterval(saver);
      sim.stop();
      rest.close();
      jobs.close();
      throw error;
    }
  }

  let closing: Promise<void> | undefined;
  return {
    restUrl: urlFor(host, restPort),
    jobsUrl,
    ...(demo ? { demo } : {}),
    setFaults: (f) => {
      faults.set(f);
    },
    close() {
      closing ??= (async () => {
        clearInterval(saver);
        demo?.stop();
        sim.stop();
        for (const close of [...streams]) close();
        if (statePath) persist();
        await Promise.all(
          [rest, jobs].map(
            (server) =>
              new Promise<void>((resolve) => {
                server.close(() => {
                  resolve();
                });
                server.closeAllConnections();
              }),
          ),
        );
      })();
      return closing;
    },
  };
}
