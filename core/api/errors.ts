/**
 * The one error every API call throws. Problem bodies (RFC 9457) and the legacy `{message}` shape
 * are read into it; transport failures get a kind of their own, and writes whose outcome cannot
 * be known say so, so the caller reconciles instead of blindly repeating them.
 */
import { parseProblemFieldError, type ProblemFieldError } from './jsonPath';
import type { RateLimitSnapshot } from './rateLimit';

export type ApiErrorKind =
  | 'badRequest'
  | 'unauthorized'
  | 'forbidden'
  | 'notFound'
  | 'conflict'
  | 'unprocessable'
  | 'rateLimited'
  | 'client'
  | 'server'
  | 'network'
  | 'timeout'
  | 'aborted'
  | 'invalidResponse'
  | 'configuration';

export interface ApiErrorInit {
  kind: ApiErrorKind;
  /** HTTP status; absent when no answer arrived. */
  status?: number;
  title: string;
  detail: string;
  errors?: ProblemFieldError[];
  method?: string;
  /** Path and query of the request, never the origin's credentials. */
  path?: string;
  retryAfterSeconds?: number;
  outcomeUnknown?: boolean;
  rateLimit?: RateLimitSnapshot;
  cause?: unknown;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly status: number | undefined;
  readonly title: string;
  readonly detail: string;
  readonly errors: ProblemFieldError[];
  readonly method: string | undefined;
  readonly path: string | undefined;
  /** Set for 429: how long the service asked us to wait. */
  readonly retryAfterSeconds: number | undefined;
  /**
   * True when a write may or may not have taken effect (timeout, dropped connection, 5xx after
   * the request was sent). Repeating it could duplicate; reconcile first.
   */
  readonly outcomeUnknown: boolean;
  readonly rateLimit: RateLimitSnapshot | undefined;

  constructor(init: ApiErrorInit) {
    super(composeMessage(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.status = init.status;
    this.title = init.title;
    this.detail = init.detail;
    this.errors = init.errors ?? [];
    this.method = init.method;
    this.path = init.path;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.outcomeUnknown = init.outcomeUnknown ?? false;
    this.rateLimit = init.rateLimit;
  }

  get unauthorized(): boolean {
    return this.kind === 'unauthorized';
  }
  get forbidden(): boolean {
    return this.kind === 'forbidden';
  }
  get notFound(): boolean {
    return this.kind === 'notFound';
  }
  get rateLimited(): boolean {
    return this.kind === 'rateLimited';
  }
  get server(): boolean {
    return this.kind === 'server';
  }
  /** No HTTP answer at all: refused, reset, dropped, DNS. */
  get network(): boolean {
    return this.kind === 'network';
  }
  get timeout(): boolean {
    return this.kind === 'timeout';
  }
  get aborted(): boolean {
    return this.kind === 'aborted';
  }

  /** What logs and `JSON.stringify` see; the same redacted fields as the message. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      kind: this.kind,
      status: this.status,
      title: this.title,
      detail: this.detail,
      errors: this.errors,
      method: this.method,
      path: this.path,
      retryAfterSeconds: this.retryAfterSeconds,
      outcomeUnknown: this.outcomeUnknown,
    };
  }
}

function composeMessage(init: ApiErrorInit): string {
  const where = init.method && init.path ? ` (${init.method} ${init.path})` : '';
  const status = init.status !== undefined ? `${init.status} ` : '';
  const detail = init.detail && init.detail !== init.title ? `: ${init.detail}` : '';
  const fields =
    init.errors && init.errors.length > 0
      ? `; ${init.errors.map((e) => (e.pathSegments.length > 0 ? `${e.path}: ${e.message}` : e.message)).join('; ')}`
      : '';
  const unknown = init.outcomeUnknown ? ' (the change may or may not have been applied)' : '';
  return `${status}${init.title}${detail}${fields}${where}${unknown}`;
}

export function kindForStatus(status: number): ApiErrorKind {
  if (status === 400) return 'badRequest';
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404 || status === 410) return 'notFound';
  if (status === 409) return 'conflict';
  if (status === 422) return 'unprocessable';
  if (status === 429) return 'rateLimited';
  if (status >= 500) return 'server';
  return 'client';
}

/** Standard reason phrases, shared with the emulator's problem bodies. */
export const STATUS_TITLES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export interface ParsedProblem {
  title: string;
  detail: string;
  errors: ProblemFieldError[];
}

/**
 * Reads an error body of any shape the service (or a proxy in front of it) may send: a problem
 * document, the legacy `{message}`, the job host's `{error}`, or plain text.
 */
export function parseProblemBody(status: number, bodyText: string): ParsedProblem {
  const fallbackTitle = STATUS_TITLES[status] ?? (status >= 500 ? 'Server Error' : `HTTP ${status}`);
  let body: unknown;
  try {
    body = bodyText.trim() === '' ? undefined : JSON.parse(bodyText);
  } catch {
    const text = bodyText.trim().slice(0, 500);
    return { title: fallbackTitle, detail: text.startsWith('<') ? '' : text, errors: [] };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { title: fallbackTitle, detail: typeof body === 'string' ? body : '', errors: [] };
  const record = body as Record<string, unknown>;
  const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
  const title = text(record.title) ?? fallbackTitle;
  const detail = text(record.detail) ?? text(record.message) ?? text(record.error) ?? '';
  const errors = Array.isArray(record.errors) ? record.errors.flatMap((entry) => fieldErrorFrom(entry)) : [];
  return { title, detail, errors };
}

function fieldErrorFrom(entry: unknown): ProblemFieldError[] {
  if (typeof entry === 'string') return [parseProblemFieldError(entry)];
  // Some problem producers send `{location|path, message|detail}` objects; keep them too.
  if (typeof entry === 'object' && entry !== null) {
    const e = entry as Record<string, unknown>;
    const path = typeof e.location === 'string' ? e.location : typeof e.path === 'string' ? e.path : undefined;
    const message = typeof e.message === 'string' ? e.message : typeof e.detail === 'string' ? e.detail : '';
    if (path !== undefined) return [parseProblemFieldError(`${path}: ${message}`)];
    if (message) return [parseProblemFieldError(message)];
  }
  return [];
}
