/**
 * What is going on when the demo opens, on the live simulation: a completed and a failed job on the
 * queue endpoint (their status readable through the job API), and a steady trickle of short jobs
 * that keeps a worker up and writing log lines, so the log panel shows lines at once. Jobs and
 * workers are runtime only, so this runs at every start, kept state or not.
 */
import { findEndpoint, type EmulatorContext } from '../context';
import { isTerminal, type Job } from '../simulation/jobs';

export interface DemoJobs {
  /** The queue endpoint they ran on. */
  readonly endpointId: string;
  readonly completed: string;
  readonly failed: string;
}

export interface LiveActivity {
  readonly jobs: DemoJobs;
  stop(): void;
}

/** Simulated ms between trickle jobs: under the demo queue endpoint's 10 s idle timeout, so its worker stays up. */
const TRICKLE_EVERY_MS = 6000;
const TRICKLE_JOB_MS = 2500;
/** Real ms to wait for the first two jobs to finish before answering anyway. */
const SETTLE_TIMEOUT_MS = 30_000;

const COMPLETED_INPUT = {
  prompt: 'a lighthouse at dusk, oil painting',
  steps: 30,
  sleepMs: 800,
  log: ['loading pipeline sdxl-base-1.0 (cached)', 'sampling 30 steps, DPM++ 2M Karras, 1024x1024', 'saved outputs/lighthouse-0001.png'],
  output: { images: ['outputs/lighthouse-0001.png'], seed: 421337, steps: 30 },
};

const FAILED_INPUT = {
  prompt: 'a panorama of the alps at 8192x2048',
  steps: 50,
  sleepMs: 300,
  log: ['loading pipeline sdxl-base-1.0 (cached)', 'sampling 50 steps, DPM++ 2M Karras, 8192x2048'],
  fail: 'CUDA out of memory. Tried to allocate 12.50 GiB (GPU 0; 23.64 GiB total capacity)',
};

function trickleInput(n: number): Record<string, unknown> {
  return {
    prompt: `thumbnail batch ${n}`,
    steps: 20,
    sleepMs: TRICKLE_JOB_MS,
    log: [`batch ${n}: sampling 20 steps, 512x512`, `batch ${n}: saved 4 images to outputs/batch-${n}/`],
    output: { images: 4, batch: n },
  };
}

async function settled(ctx: EmulatorContext, jobs: readonly Job[]): Promise<void> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  for (const job of jobs) {
    while (!isTerminal(job.status) && Date.now() < deadline) await ctx.sim.waitForChange(job.id, deadline - Date.now());
  }
}

/** Runs the two demo jobs to their end, then keeps jobs trickling into `endpointId` until stopped. */
export async function startLiveActivity(ctx: EmulatorContext, endpointId: string): Promise<LiveActivity> {
  const endpoint = findEndpoint(ctx, endpointId);
  if (endpoint?.type !== 'QUEUE') throw new Error(`the demo needs a queue endpoint; ${endpointId} is not one`);
  const completed = ctx.sim.submit(endpoint, COMPLETED_INPUT, {});
  const failed = ctx.sim.submit(endpoint, FAILED_INPUT, {});
  await settled(ctx, [completed, failed]);
  const stopTrickle = startTrickle(ctx, endpointId);
  return { jobs: { endpointId, completed: completed.id, failed: failed.id }, stop: stopTrickle };
}

/** Keeps short jobs trickling into a queue endpoint, so a worker of it stays up and writes log lines; returns the stop. */
export function startTrickle(ctx: EmulatorContext, endpointId: string): () => void {
  let count = 0;
  let last: Job | undefined;
  const trickle = (): void => {
    const current = findEndpoint(ctx, endpointId);
    if (!current) {
      clearInterval(timer);
      return;
    }
    // Never pile up a queue nobody serves (workers.max 0, no capacity, a crash-looping image): one job waiting is enough.
    if (last?.status === 'IN_QUEUE') return;
    last = ctx.sim.submit(current, trickleInput(++count), {});
  };
  const timer: NodeJS.Timeout = setInterval(trickle, TRICKLE_EVERY_MS / ctx.sim.timeScale);
  timer.unref();
  trickle();
  return () => {
    clearInterval(timer);
  };
}
