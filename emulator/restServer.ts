/**
 * The REST API v2 server. Order of checks, as the service answers: injected faults, then auth
 * (401 without rate-limit headers), then the rate limit (429), then routing (404/405), then
 * write access (403), then the handler. Every answer after auth carries the rate-limit headers.
 *
 * Admin paths under `/__emulator/` (fault injection) need no key but answer only loopback
 * clients, and only when `adminEnabled` is on (the default): they exist for end-to-end tests.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate, requireWrite, type KeyRing } from './auth';
import { catalogRoutes } from './catalog/routes';
import type { EmulatorContext } from './context';
import { parseFaults, type FaultInjector } from './faults';
import { readJsonBody } from './http/body';
import { ProblemError, sendJson } from './http/problems';
import { Router, type RequestContext } from './http/router';
import { guard, isLoopback, parseUrl, sendResult } from './http/serve';
import type { RateLimiter } from './rateLimit';
import { accountRoutes } from './resources/account';
import { billingRoutes } from './resources/billing';
import { logRoutes } from './resources/logs';
import { openApiDocument } from './resources/openapi';
import { serverlessRoutes } from './resources/serverless';

export interface RestServerDeps {
  ctx: EmulatorContext;
  keys: KeyRing;
  limiter: RateLimiter;
  faults: FaultInjector;
  adminEnabled: boolean;
  /** Registers an open stream so `close()` can end it; returns the unregister function. */
  trackStream: (close: () => void) => () => void;
}

export function createRestHandler(deps: RestServerDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const { ctx } = deps;
  const router = new Router([
    ...serverlessRoutes(ctx),
    ...logRoutes(ctx, deps.trackStream),
    ...catalogRoutes(ctx.sim.stock),
    ...accountRoutes(ctx),
    ...billingRoutes(ctx),
  ]);
  const openapi = JSON.stringify(openApiDocument(router.routes, ctx.newerServiceFields));

  async function handleAdmin(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (!deps.adminEnabled || !isLoopback(req) || path !== '/__emulator/faults') throw new ProblemError(404, `no such path: ${path}`);
    if (req.method === 'DELETE') {
      deps.faults.set(undefined);
      sendJson(res, 204, undefined);
      return;
    }
    if (req.method === 'POST') deps.faults.set(parseFaults(await readJsonBody(req)));
    else if (req.method !== 'GET')
      throw new ProblemError(405, `the ${req.method} method is not allowed for ${path}`, undefined, { Allow: 'GET, POST, DELETE' });
    sendJson(res, 200, { faults: deps.faults.get() ?? null });
  }

  return (req, res) => {
    let headers: Record<string, string> = {};
    void guard(
      res,
      () => headers,
      async () => {
        const url = parseUrl(req);
        const path = url.pathname;
        const method = req.method ?? 'GET';
        if (path.startsWith('/__emulator/')) return handleAdmin(req, res, path);
        const fault = await deps.faults.apply(path);
        if (fault.kind === 'drop') return void req.socket.destroy();
        if (fault.kind === 'problem') {
          if (fault.rateLimited) headers = deps.limiter.forcedHeaders(req.headers.authorization ?? 'anonymous');
          throw fault.problem;
        }
        if (path === '/v2/openapi.json' && method === 'GET') {
          res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(openapi) });
          res.end(openapi);
          return;
        }
        const caller = authenticate(req, deps.keys);
        // Over quota, the 429 carries the rate-limit headers itself.
        headers = deps.limiter.consume(caller.key);
        const { route, params } = router.resolve(method, path);
        requireWrite(caller, method);
        const context: RequestContext = { req, res, method, path, query: url.searchParams, params, headers };
        const result = await route.handler(context);
        if (fault.kind === 'dropResponse') return void req.socket.destroy();
        sendResult(res, result, headers);
      },
    );
  };
}
