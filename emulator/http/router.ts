/**
 * A small path router: exact segments and `{name}` parameters. A path that matches with another
 * method answers 405 with `Allow`; one that matches nothing answers 404.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ProblemError } from './problems';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface RequestContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly params: Record<string, string>;
  /** Headers every answer to this request carries (rate-limit state). */
  readonly headers: Record<string, string>;
}

/** A handler returns the JSON body (status 200 unless it says otherwise) or handles `res` itself. */
export type RouteResult = { status: number; body?: unknown; headers?: Record<string, string> } | 'handled';
export type Handler = (ctx: RequestContext) => RouteResult | Promise<RouteResult>;

export interface Route {
  readonly method: Method;
  readonly pattern: string;
  readonly summary: string;
  readonly handler: Handler;
  readonly segments: readonly string[];
}

export function route(method: Method, pattern: string, summary: string, handler: Handler): Route {
  return { method, pattern, summary, handler, segments: pattern.split('/').filter(Boolean) };
}

function matchSegments(segments: readonly string[], parts: readonly string[]): Record<string, string> | undefined {
  if (segments.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    if (segment.startsWith('{') && segment.endsWith('}')) {
      if (parts[i] === '') return undefined;
      params[segment.slice(1, -1)] = parts[i];
    } else if (segment !== parts[i]) {
      return undefined;
    }
  }
  return params;
}

export function splitPath(path: string): string[] | undefined {
  const parts: string[] = [];
  for (const raw of path.split('/').filter(Boolean)) {
    try {
      parts.push(decodeURIComponent(raw));
    } catch {
      return undefined;
    }
  }
  return parts;
}

export class Router {
  constructor(readonly routes: readonly Route[]) {}

  /** The matching route and its parameters; throws the 404 or 405 problem otherwise. */
  resolve(method: string, path: string): { route: Route; params: Record<string, string> } {
    const parts = splitPath(path);
    if (!parts) throw new ProblemError(400, 'the request path is not valid percent-encoding');
    const allowed: string[] = [];
    for (const candidate of this.routes) {
      const params = matchSegments(candidate.segments, parts);
      if (!params) continue;
      if (candidate.method === method) return { route: candidate, params };
      if (!allowed.includes(candidate.method)) allowed.push(candidate.method);
    }
    if (allowed.length > 0) {
      throw new ProblemError(405, `the ${method} method is not allowed for ${path}; allowed: ${allowed.join(', ')}`, undefined, {
        Allow: allowed.join(', '),
      });
    }
    throw new ProblemError(404, `no such path: ${path}`);
  }
}
