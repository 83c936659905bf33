/**
 * The job API host (a different origin from REST, as on the service): the eight queue
 * operations of each `QUEUE` endpoint, and each load balancer on its own host
 * (`<id>.localhost:<port>`, routed on the Host header's first label) or, where a host name is not
 * possible, under the path `/lb/<id>/...`. Same bearer keys as REST; the read-only key may only read.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate, requireWrite, type KeyRing } from './auth';
import { findEndpoint, type EmulatorContext } from './context';
import type { FaultInjector } from './faults';
import { readJsonBody } from './http/body';
import { ProblemError, findById, notFound, sendJson } from './http/problems';
import { Router, route, splitPath, type RequestContext, type Route } from './http/router';
import { guard, parseUrl, sendResult } from './http/serve';
import { isTerminal, parseSubmission, type Job } from './simulation/jobs';
import type { StoredEndpoint } from './state';

const DEFAULT_WAIT_MS = 90000;
const MAX_WAIT_MS = 300000;
const STREAM_LONG_POLL_MS = 1000;
const LB_WAIT_MS = 60000;

export interface JobsServerDeps {
  ctx: EmulatorContext;
  keys: KeyRing;
  faults: FaultInjector;
}

function queueEndpoint(ctx: EmulatorContext, id: string): StoredEndpoint {
  const endpoint = findById(ctx.state.endpoints, id, 'endpoint');
  if (endpoint.type !== 'QUEUE')
    throw new ProblemError(404, `endpoint ${id} is a load balancer; it has no job queue (send requests to its requestUrls.base)`);
  return endpoint;
}

/** Aborted once the caller hangs up, so a long poll stops waiting for an answer nobody reads. */
function closedSignal(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.on('close', () => {
    controller.abort();
  });
  return controller.signal;
}

/** The job `{jobId}` of the queue endpoint `{id}`. */
function jobOf(ctx: EmulatorContext, params: Record<string, string>): Job {
  const job = ctx.sim.job(queueEndpoint(ctx, params.id).id, params.jobId);
  if (!job) throw notFound(`job ${params.jobId}`);
  return job;
}

async function submission(req: IncomingMessage) {
  const parsed = parseSubmission(await readJsonBody(req));
  if (!parsed.ok) throw new ProblemError(400, `invalid job request: ${parsed.errors[0]}`, parsed.errors);
  return parsed;
}

function jobRoutes(ctx: EmulatorContext): Route[] {
  const submit = async ({ req, params }: RequestContext) => {
    const endpoint = queueEndpoint(ctx, params.id);
    const parsed = await submission(req);
    return ctx.sim.submit(endpoint, parsed.input, parsed);
  };
  const status = ({ params }: RequestContext) => ({ status: 200, body: ctx.sim.view(jobOf(ctx, params)) });
  return [
    route('POST', '/v2/{id}/run', 'Submit a job', async (c) => {
      const job = await submit(c);
      return { status: 200, body: { id: job.id, status: job.status } };
    }),
    route('POST', '/v2/{id}/runsync', 'Submit a job and wait for it', async (c) => {
      const waitParam = c.query.get('wait');
      const wait = waitParam === null ? DEFAULT_WAIT_MS : Number(waitParam);
      if (waitParam !== null && (!/^\d+$/.test(waitParam) || wait < 1 || wait > MAX_WAIT_MS)) {
        throw new ProblemError(400, `wait is milliseconds from 1 to ${MAX_WAIT_MS}; got: ${JSON.stringify(waitParam)}`, [
          '$.wait: invalid value',
        ]);
      }
      const job = await submit(c);
      const deadline = ctx.now() + wait;
      const gone = closedSignal(c.res);
      while (!isTerminal(job.status) && !gone.aborted && ctx.now() < deadline) await ctx.sim.waitForChange(job.id, deadline - ctx.now());
      return { status: 200, body: ctx.sim.view(job) };
    }),
    route('GET', '/v2/{id}/status/{jobId}', 'Job status', status),
    route('POST', '/v2/{id}/status/{jobId}', 'Job status', status),
    route('GET', '/v2/{id}/stream/{jobId}', 'Job output produced since the last call', async ({ params, res }) => {
      const job = jobOf(ctx, params);
      const gone = closedSignal(res);
      // Long-poll briefly so a client polling in a loop does not spin.
      if (job.chunks.length === job.chunksDelivered && !isTerminal(job.status) && !gone.aborted)
        await ctx.sim.waitForChange(job.id, STREAM_LONG_POLL_MS);
      const fresh = job.chunks.slice(job.chunksDelivered);
      job.chunksDelivered = job.chunks.length;
      return { status: 200, body: { id: job.id, status: job.status, stream: fresh.map((output) => ({ output })) } };
    }),
    route('POST', '/v2/{id}/cancel/{jobId}', 'Cancel a job', ({ params }) => {
      const job = jobOf(ctx, params);
      ctx.sim.cancel(job);
      return { status: 200, body: { id: job.id, status: job.status } };
    }),
    route('POST', '/v2/{id}/retry/{jobId}', 'Retry a failed or timed-out job', ({ params }) => {
      const job = jobOf(ctx, params);
      if (!ctx.sim.retry(job)) throw new ProblemError(400, `only FAILED or TIMED_OUT jobs can be retried; job ${job.id} is ${job.status}`);
      return { status: 200, body: { id: job.id, status: job.status } };
    }),
    route('POST', '/v2/{id}/purge-queue', 'Remove all queued jobs', ({ params }) => {
      const endpoint = queueEndpoint(ctx, params.id);
      return { status: 200, body: { removed: ctx.sim.purgeQueue(endpoint.id), status: 'completed' } };
    }),
    route('GET', '/v2/{id}/health', 'Endpoint health: job and worker counts', ({ params }) => ({
      status: 200,
      body: ctx.sim.health(queueEndpoint(ctx, params.id).id),
    })),
  ];
}

/** A load balancer request: answered by a simulated worker once one is ready (cold start included). */
async function handleLoadBalancer(
  ctx: EmulatorContext,
  req: IncomingMessage,
  res: ServerResponse,
  endpointId: string,
  rest: string,
): Promise<void> {
  const endpoint = findEndpoint(ctx, endpointId);
  if (!endpoint || endpoint.type !== 'LOAD_BALANCER') throw notFound(`load balancer endpoint ${endpointId}`);
  const healthPath = endpoint.env.HEALTH_CHECK_PATH || '/ping';
  if (rest === healthPath) {
    const ready = ctx.sim.hasReadyWorker(endpoint.id);
    sendJson(res, ready ? 200 : 503, { status: ready ? 'healthy' : 'no ready worker' });
    return;
  }
  if (endpoint.workers.max === 0) throw new ProblemError(503, 'this endpoint has workers.max 0, so no worker can serve the request');
  const worker = await ctx.sim.acquireLbWorker(endpoint.id, LB_WAIT_MS);
  if (!worker) throw new ProblemError(503, 'no worker became ready in time');
  try {
    const body = await readJsonBody(req, { required: false }).catch(() => undefined);
    sendJson(res, 200, { endpointId: endpoint.id, workerId: worker.id, method: req.method, path: rest, body: body ?? null });
  } finally {
    ctx.sim.releaseLbWorker(worker);
  }
}

export function createJobsHandler(deps: JobsServerDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const router = new Router(jobRoutes(deps.ctx));
  return (req, res) => {
    void guard(
      res,
      () => ({}),
      async () => {
        const url = parseUrl(req);
        const method = req.method ?? 'GET';
        const fault = await deps.faults.apply(url.pathname);
        if (fault.kind === 'drop') return void req.socket.destroy();
        if (fault.kind === 'problem') throw fault.problem;
        const caller = authenticate(req, deps.keys);
        const parts = splitPath(url.pathname) ?? [];
        if (parts[0] === 'lb' && parts.length >= 2) {
          return handleLoadBalancer(deps.ctx, req, res, parts[1], `/${parts.slice(2).join('/')}`);
        }
        const hostLabel = (req.headers.host ?? '').split('.')[0];
        if (hostLabel && findEndpoint(deps.ctx, hostLabel)?.type === 'LOAD_BALANCER') {
          return handleLoadBalancer(deps.ctx, req, res, hostLabel, url.pathname);
        }
        const { route: matched, params } = router.resolve(method, url.pathname);
        requireWrite(caller, method === 'POST' && matched.pattern.includes('/status/') ? 'GET' : method);
        const result = await matched.handler({ req, res, method, path: url.pathname, query: url.searchParams, params, headers: {} });
        if (fault.kind === 'dropResponse') return void req.socket.destroy();
        sendResult(res, result, {});
      },
    );
  };
}
