/**
 * A month of demo history, simulated rather than written down: the demo endpoints are created on a
 * clock set 30 days back, the emulator's own simulation engine runs their workers through a month
 * of sessions (busy weekday afternoons, quiet weekends, some growth), and every worker second it
 * bills goes into the usage ledger exactly as a live worker's does. A release made on the way
 * carries its simulated date, and the workers roll over to it as they would live.
 */
import { findEndpoint, type EmulatorContext } from '../context';
import type { Random } from '../../core/util/seededRandom';
import { IdFactory } from '../ids';
import { createEndpoint, updateEndpoint } from '../resources/serverless';
import { Simulation } from '../simulation/engine';
import type { Worker } from '../simulation/workers';
import type { StoredEndpoint } from '../state';
import { firstReleaseBody, type DemandProfile, type DemoEndpoint } from './endpoints';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Whole UTC days of history before today; today runs up to the present. */
export const HISTORY_DAYS = 30;
/** Simulated step while any worker lives; stretches without one are skipped to the next arrival. */
const STEP_MS = 1000;
/** A load balancer request gives up after this long without a worker, as the jobs server's does. */
const LB_GIVE_UP_MS = 60_000;

const PROMPTS = [
  'a lighthouse at dusk, oil painting',
  'isometric city block at night, neon',
  'portrait of an astronaut, studio light',
  'a bowl of ramen, food photography',
  'misty pine forest, morning',
];

/** Where billed worker time goes: the emulator's usage ledger. */
export interface UsageSink {
  record(endpointId: string, workerId: string, resourceId: string, at: number, amounts: { gpu: number; cpu: number; disk: number }): void;
}

interface Arrival {
  readonly at: number;
  readonly endpointId: string;
  readonly durationMs: number;
}

export function startOfUtcDay(t: number): number {
  return Math.floor(t / DAY) * DAY;
}

/** Sessions expected in the hour starting at `hourStart`: daytime peak, weekend dip, growth over the month. */
function sessionsPerHour(demand: DemandProfile, hourStart: number, historyStart: number): number {
  const date = new Date(hourStart);
  const daytime = 0.15 + 0.85 * Math.exp(-(((date.getUTCHours() - 14) / 4) ** 2));
  const weekday = date.getUTCDay();
  const week = weekday === 0 ? 0.3 : weekday === 6 ? 0.4 : 1;
  const growth = 0.6 + 0.4 * Math.min(1, (hourStart - historyStart) / (HISTORY_DAYS * DAY));
  return demand.peakSessionsPerHour * daytime * week * growth;
}

function poisson(mean: number, random: Random): number {
  const floor = Math.exp(-mean);
  let count = 0;
  for (let p = random(); p > floor; p *= random()) count++;
  return count;
}

function between([low, high]: readonly [number, number], random: Random): number {
  return low + (high - low) * random();
}

function arrivalsOf(demand: DemandProfile, endpointId: string, start: number, end: number, random: Random): Arrival[] {
  const arrivals: Arrival[] = [];
  for (let hour = start; hour < end; hour += HOUR) {
    const sessions = poisson(sessionsPerHour(demand, hour, start), random);
    for (let s = 0; s < sessions; s++) {
      let at = hour + random() * HOUR;
      const requests = Math.round(between(demand.requestsPerSession, random));
      for (let i = 0; i < requests && at < end; i++) {
        arrivals.push({ at, endpointId, durationMs: Math.round(between(demand.requestMs, random)) });
        at += between(demand.gapMs, random);
      }
    }
  }
  return arrivals;
}

/** Load balancer requests in flight on the simulated clock: waiting for a worker, then served for their duration. */
class LoadBalancerRequests {
  private waiting: { endpointId: string; durationMs: number; since: number; stopWaiting: () => void }[] = [];
  private serving: { worker: Worker; until: number }[] = [];

  constructor(private readonly sim: Simulation) {}

  get inFlight(): number {
    return this.waiting.length + this.serving.length;
  }

  arrive(arrival: Arrival, now: number): void {
    const stopWaiting = this.sim.waitForLbWorker(arrival.endpointId);
    this.waiting.push({ endpointId: arrival.endpointId, durationMs: arrival.durationMs, since: now, stopWaiting });
  }

  advance(now: number): void {
    for (const done of this.serving.filter((s) => s.until <= now)) this.sim.releaseLbWorker(done.worker);
    this.serving = this.serving.filter((s) => s.until > now);
    this.waiting = this.waiting.filter((request) => {
      const worker = this.sim.takeLbWorker(request.endpointId);
      if (worker) this.serving.push({ worker, until: now + request.durationMs });
      const settled = worker !== undefined || now - request.since >= LB_GIVE_UP_MS;
      if (settled) request.stopWaiting();
      return !settled;
    });
  }
}

interface PlannedRelease {
  readonly at: number;
  readonly endpointId: string;
  readonly body: Record<string, unknown>;
}

/**
 * Creates `demos` 30 days before today's UTC midnight and simulates their traffic up to `now`,
 * billing it to `usage`. Answers each demo's endpoint, in the order given.
 */
export function simulateHistory(
  ctx: EmulatorContext,
  usage: UsageSink,
  demos: readonly DemoEndpoint[],
  random: Random,
  now: number,
): StoredEndpoint[] {
  const start = startOfUtcDay(now) - HISTORY_DAYS * DAY;
  let clock = start;
  const ids = new Set<string>();
  const sim = new Simulation(
    {
      endpoint: (id) => (ids.has(id) ? findEndpoint(ctx, id) : undefined),
      endpoints: () => ctx.state.endpoints.filter((e) => ids.has(e.id)),
      recordUsage: (endpointId, workerId, resourceId, amounts) => {
        usage.record(endpointId, workerId, resourceId, clock, amounts);
      },
    },
    // Thousands of workers and jobs: ids from the demo's own quick generator, not the crypto one.
    new IdFactory(random),
    1,
    () => clock,
  );
  const past: EmulatorContext = { ...ctx, sim, now: () => clock, persist: () => undefined };
  const created = demos.map((demo) => createEndpoint(past, firstReleaseBody(demo)));
  for (const endpoint of created) ids.add(endpoint.id);
  const releases = plannedReleases(demos, created, now);
  const arrivals = demos.flatMap((demo, i) => arrivalsOf(demo.demand, created[i].id, start, now, random)).sort((a, b) => a.at - b.at);
  const requests = new LoadBalancerRequests(sim);
  let next = 0;
  while (clock < now) {
    const busy = requests.inFlight > 0 || [...ids].some((id) => sim.workersOf(id).length > 0);
    const nextEvent = Math.min(arrivals.at(next)?.at ?? now, releases.at(0)?.at ?? now);
    clock = busy ? Math.min(clock + STEP_MS, now) : Math.max(clock, Math.min(nextEvent, now));
    for (; next < arrivals.length && arrivals[next].at <= clock; next++) submit(past, requests, arrivals[next], clock);
    while (releases.length > 0 && releases[0].at <= clock) release(past, releases.shift());
    requests.advance(clock);
    sim.tick();
  }
  return created.map((endpoint) => findEndpoint(ctx, endpoint.id) ?? endpoint);
}

function plannedReleases(demos: readonly DemoEndpoint[], created: readonly StoredEndpoint[], now: number): PlannedRelease[] {
  return demos
    .flatMap((demo, i) =>
      (demo.history?.releases ?? []).map((r) => ({
        at: startOfUtcDay(now) - r.daysAgo * DAY + r.hour * HOUR,
        endpointId: created[i].id,
        body: { ...r.fields },
      })),
    )
    .sort((a, b) => a.at - b.at);
}

function submit(past: EmulatorContext, requests: LoadBalancerRequests, arrival: Arrival, now: number): void {
  const endpoint = findEndpoint(past, arrival.endpointId);
  if (!endpoint) return;
  if (endpoint.type === 'LOAD_BALANCER') {
    requests.arrive(arrival, now);
    return;
  }
  const prompt = PROMPTS[Math.floor(arrival.at / 1000) % PROMPTS.length];
  past.sim.submit(endpoint, { prompt, steps: 30, sleepMs: arrival.durationMs }, {});
}

function release(past: EmulatorContext, planned: PlannedRelease | undefined): void {
  const endpoint = planned && findEndpoint(past, planned.endpointId);
  if (planned && endpoint) updateEndpoint(past, endpoint, planned.body);
}
