/**
 * RFC 9457 problem bodies, the one error format of REST API v2. Handlers throw `ProblemError`
 * and the server turns it into a response, so no code path can answer an error in another shape.
 */
import { STATUS_TITLES } from '../../core/api/errors';
import type { ServerResponse } from 'node:http';
import type { SpecProblem } from '../../core/endpointSpec/problem';
import { formatJsonPath } from '../../core/endpointSpec/tree';

export interface ProblemBody {
  title: string;
  status: number;
  detail: string;
  errors?: string[];
}

export function titleFor(status: number): string {
  return STATUS_TITLES[status] ?? (status >= 500 ? 'Server Error' : 'Error');
}

export class ProblemError extends Error {
  readonly headers: Record<string, string>;
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly errors?: string[],
    headers: Record<string, string> = {},
  ) {
    super(detail);
    this.headers = headers;
  }

  body(): ProblemBody {
    return {
      title: titleFor(this.status),
      status: this.status,
      detail: this.detail,
      ...(this.errors && this.errors.length > 0 ? { errors: this.errors } : {}),
    };
  }
}

export const notFound = (what: string): ProblemError => new ProblemError(404, `${what} not found`);
export const badRequest = (detail: string, errors?: string[]): ProblemError => new ProblemError(400, detail, errors);

/** The item of `items` with the id `id`; the 404 naming `what` when there is none. */
export function findById<T extends { readonly id: string }>(items: readonly T[], id: string, what: string): T {
  const item = items.find((i) => i.id === id);
  if (!item) throw notFound(`${what} ${id}`);
  return item;
}

/** `"<jsonpath>: <message>"`, the `errors` entry format clients map back onto spec lines. */
export function errorEntry(path: readonly (string | number)[], message: string): string {
  return `${formatJsonPath(path)}: ${message}`;
}

/**
 * Rejects with the rule engine's errors; warnings never reject. A request that breaks a rule
 * (400) and fails validation (422) at once is answered 400: the conflict is the stronger claim.
 */
export function rejectIfErrors(problems: readonly SpecProblem[], fallbackStatus: 400 | 422 = 422): void {
  const errors = problems.filter((p) => p.severity === 'error');
  if (errors.length === 0) return;
  // A malformed or conflicting body is answered first, then a failed validation; a missing
  // referenced resource (an unknown template) only when the body itself is fine.
  const statuses = new Set(errors.map((p) => p.status ?? fallbackStatus));
  const status = statuses.has(400) ? 400 : statuses.has(422) ? 422 : 404;
  const entries = errors.map((p) => errorEntry(p.path, p.message));
  const detail =
    errors.length === 1
      ? `request validation failed: ${entries[0]}`
      : `request validation failed with ${errors.length} errors; the first: ${entries[0]}`;
  throw new ProblemError(status, detail, entries);
}

export function sendProblem(res: ServerResponse, problem: ProblemError, extraHeaders: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const text = JSON.stringify(problem.body());
  res.writeHead(problem.status, {
    ...extraHeaders,
    ...problem.headers,
    'Content-Type': 'application/problem+json',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

export function sendJson(res: ServerResponse, status: number, body: unknown, extraHeaders: Record<string, string> = {}): void {
  if (status === 204) {
    res.writeHead(204, extraHeaders);
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { ...extraHeaders, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}
