/**
 * The demo's endpoints: the specs of `examples/` as create bodies (the bundled CLI carries no
 * example files, and a test keeps the two equal; the staging and prod overlays as merged into their
 * base), how each was released, and the traffic each gets, so the history the demo simulates reads
 * like a real month of one team's use.
 */

/** When an endpoint's traffic comes: per hour of the day (UTC) and per day of the week. */
export interface DemandProfile {
  /** Busy periods started per hour at the weekday peak, before the daily and weekly shape. */
  readonly peakSessionsPerHour: number;
  /** A session of work: how many requests and how long each one runs (simulated ms), as ranges. */
  readonly requestsPerSession: readonly [number, number];
  readonly requestMs: readonly [number, number];
  /** Gap between a session's requests (simulated ms); 0 submits a batch at once. */
  readonly gapMs: readonly [number, number];
}

/** A release after the first: the PATCH body a deploy sent, and when (whole days before today, at an hour of that day, UTC). */
export interface DemoRelease {
  readonly daysAgo: number;
  readonly hour: number;
  readonly fields: Readonly<Record<string, unknown>>;
}

export interface DemoEndpoint {
  /** The spec file in `examples/` this endpoint is deployed from. */
  readonly file: string;
  /** The create body, equal to the example spec. */
  readonly spec: Readonly<Record<string, unknown>>;
  /**
   * How the endpoint came to be the spec: created with `created` over the spec's fields, then
   * changed by `releases` (oldest first, the last ones restoring the spec). Without it the endpoint
   * is created as the spec and never released again.
   */
  readonly history?: { readonly created: Readonly<Record<string, unknown>>; readonly releases: readonly DemoRelease[] };
  readonly demand: DemandProfile;
}

export const SDXL_WORKER: DemoEndpoint = {
  file: 'sdxl-worker.endpoint.yaml',
  spec: {
    name: 'sdxl-worker',
    type: 'QUEUE',
    image: 'myorg/sdxl-worker:1.4.2',
    gpu: { pools: ['ADA_24', 'AMPERE_24'], count: 1 },
    workers: { min: 0, max: 3, idleTimeout: 10 },
    scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
    flashboot: 'FLASHBOOT',
    timeout: 300000,
    env: { LOG_LEVEL: 'info' },
  },
  history: {
    created: { image: 'myorg/sdxl-worker:1.4.1' },
    releases: [{ daysAgo: 9, hour: 10, fields: { image: 'myorg/sdxl-worker:1.4.2' } }],
  },
  // Batches of image generations: the queue fills, workers scale up to max, then idle out.
  demand: { peakSessionsPerHour: 3, requestsPerSession: [8, 30], requestMs: [12000, 40000], gapMs: [0, 0] },
};

export const HTTP_SERVICE: DemoEndpoint = {
  file: 'http-service.endpoint.json',
  spec: {
    name: 'http-service',
    type: 'LOAD_BALANCER',
    image: 'myorg/http-service:1.0.0',
    gpu: { pools: ['ADA_24'] },
    workers: { min: 0, max: 2 },
    scaling: { type: 'REQUEST_COUNT', requestCount: 4 },
    ports: ['8000/http'],
    env: { PORT: '8000', PORT_HEALTH: '8000', HEALTH_CHECK_PATH: '/ping' },
  },
  // Interactive sessions: a request every few seconds for a few minutes.
  demand: { peakSessionsPerHour: 2, requestsPerSession: [30, 120], requestMs: [300, 2500], gapMs: [1000, 4000] },
};

/** The staging environment of the queue endpoint: its overlay merged into the base, as a deploy sends it. */
export const SDXL_WORKER_STAGING: DemoEndpoint = {
  file: 'sdxl-worker.staging.endpoint.yaml',
  spec: {
    ...SDXL_WORKER.spec,
    name: 'sdxl-worker-staging',
    image: 'myorg/sdxl-worker:1.5.0-rc.1',
    workers: { min: 0, max: 1, idleTimeout: 10 },
    env: { LOG_LEVEL: 'debug' },
  },
  // A few test batches on working days.
  demand: { peakSessionsPerHour: 0.5, requestsPerSession: [2, 6], requestMs: [12000, 40000], gapMs: [0, 0] },
};

/** The prod environment: more headroom, quicker scale-up, one pool (the overlay replaces the list whole). */
export const SDXL_WORKER_PROD: DemoEndpoint = {
  file: 'sdxl-worker.prod.endpoint.yaml',
  spec: {
    ...SDXL_WORKER.spec,
    name: 'sdxl-worker-prod',
    gpu: { pools: ['ADA_24'], count: 1 },
    workers: { min: 0, max: 8, idleTimeout: 10 },
    scaling: { type: 'QUEUE_DELAY', queueDelay: 2 },
  },
  // More headroom, then the base's 1.4.2 rolled out, one pool, and a stall with its rollback: 1.5.0's image
  // crash-loops (emulator/simulation/crashLoop.ts), the 1.4.2 workers serve meanwhile, and the next release restores 1.4.2.
  history: {
    created: {
      image: 'myorg/sdxl-worker:1.4.1',
      gpu: { pools: ['ADA_24', 'AMPERE_24'], count: 1 },
      workers: { min: 0, max: 4, idleTimeout: 10 },
      scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
    },
    releases: [
      { daysAgo: 20, hour: 15, fields: { workers: { min: 0, max: 8, idleTimeout: 10 }, scaling: { type: 'QUEUE_DELAY', queueDelay: 2 } } },
      { daysAgo: 9, hour: 11, fields: { image: 'myorg/sdxl-worker:1.4.2' } },
      { daysAgo: 6, hour: 10, fields: { gpu: { pools: ['ADA_24'] } } },
      { daysAgo: 2, hour: 14, fields: { image: 'myorg/sdxl-worker:1.5.0-crashloop' } },
      { daysAgo: 2, hour: 14.5, fields: { image: 'myorg/sdxl-worker:1.4.2' } },
    ],
  },
  demand: { peakSessionsPerHour: 4, requestsPerSession: [10, 40], requestMs: [12000, 40000], gapMs: [0, 0] },
};

export const DEMO_ENDPOINTS: readonly DemoEndpoint[] = [SDXL_WORKER, HTTP_SERVICE, SDXL_WORKER_STAGING, SDXL_WORKER_PROD];

/** The create body of an endpoint's first release: its spec with the fields it was created with. */
export function firstReleaseBody(demo: DemoEndpoint): Record<string, unknown> {
  return { ...demo.spec, ...(demo.history?.created ?? {}) };
}
