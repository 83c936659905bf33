/** Shared request plumbing for both servers: parse the URL, run the handler, turn failures into problems. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ProblemError, sendJson, sendProblem } from './problems';
import type { RouteResult } from './router';

export function parseUrl(req: IncomingMessage): URL {
  try {
    return new URL(req.url ?? '/', 'http://emulator.invalid');
  } catch {
    throw new ProblemError(400, 'the request target is not a valid URL');
  }
}

export function isLoopback(req: IncomingMessage): boolean {
  const address = req.socket.remoteAddress ?? '';
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}

export function sendResult(res: ServerResponse, result: RouteResult, headers: Record<string, string>): void {
  if (result === 'handled') return;
  sendJson(res, result.status, result.body, { ...headers, ...(result.headers ?? {}) });
}

/**
 * Runs `work` and answers any failure as a problem. Anything that is not a `ProblemError` is a
 * bug in the emulator: it becomes a 500 problem and never takes the process down.
 */
export async function guard(res: ServerResponse, headers: () => Record<string, string>, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    const problem =
      error instanceof ProblemError
        ? error
        : new ProblemError(500, `the emulator failed to handle this request: ${error instanceof Error ? error.message : String(error)}`);
    try {
      sendProblem(res, problem, headers());
    } catch {
      res.destroy();
    }
  }
}
