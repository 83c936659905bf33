/**
 * The demo state (`EmulatorOptions.demo`), the one seeding `npm start` and "Use Local Emulator"
 * share, so every view has something true to show: the example endpoints with a month of billing
 * simulated by the emulator's own engine, two releases of the queue endpoint and six of its prod
 * environment (a rollout, a stall and a rollback among them), a completed and a failed job, and
 * workers writing log lines. A kept state keeps its endpoints and their history:
 * only a demo endpoint it lacks is created, with its month; the live part runs at every start.
 */
import { findEndpoint, type EmulatorContext } from '../context';
import type { Random } from '../../core/util/seededRandom';
import { DEMO_ENDPOINTS, SDXL_WORKER, SDXL_WORKER_PROD } from './endpoints';
import { simulateHistory, type UsageSink } from './history';
import { startLiveActivity, startTrickle, type DemoJobs } from './live';

export { DEMO_ENDPOINTS } from './endpoints';
export { HISTORY_DAYS } from './history';

export interface DemoState {
  /** Example spec file (`examples/<file>`) → the id of the endpoint deployed from it. */
  readonly endpoints: Readonly<Record<string, string>>;
  /** The demo's jobs, on the queue endpoint (none when a kept state's namesake is not a queue endpoint). */
  readonly jobs?: DemoJobs;
  /** Stops the live jobs. */
  stop(): void;
}

/** The oldest endpoint of each name, should a kept state hold several. */
function endpointsByName(ctx: EmulatorContext): Map<string, string> {
  const byName = new Map<string, string>();
  for (const endpoint of ctx.state.endpoints) if (!byName.has(endpoint.name)) byName.set(endpoint.name, endpoint.id);
  return byName;
}

/** Creates what the demo lacks (with its history), writes the state, and starts the live part. */
export async function seedDemo(ctx: EmulatorContext, usage: UsageSink, random: Random): Promise<DemoState> {
  const existing = endpointsByName(ctx);
  const missing = DEMO_ENDPOINTS.filter((demo) => !existing.has(String(demo.spec.name)));
  const created = simulateHistory(ctx, usage, missing, random, ctx.now());
  ctx.persist();
  for (const [i, demo] of missing.entries()) existing.set(String(demo.spec.name), created[i].id);
  const endpoints: Record<string, string> = {};
  for (const demo of DEMO_ENDPOINTS) {
    const id = existing.get(String(demo.spec.name));
    if (id !== undefined) endpoints[demo.file] = id;
  }
  // A kept state may hold a namesake of another type; the demo then runs no jobs rather than fail to start.
  const queue = findEndpoint(ctx, endpoints[SDXL_WORKER.file]);
  const live = queue?.type === 'QUEUE' ? await startLiveActivity(ctx, queue.id) : undefined;
  // A worker up on prod too, so a release there rolls over (or stalls) in front of the user.
  const prod = findEndpoint(ctx, endpoints[SDXL_WORKER_PROD.file]);
  const stopProd = prod?.type === 'QUEUE' ? startTrickle(ctx, prod.id) : undefined;
  return {
    endpoints,
    ...(live ? { jobs: live.jobs } : {}),
    stop: () => {
      live?.stop();
      stopProd?.();
    },
  };
}
