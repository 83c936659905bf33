/**
 * How a request that did not succeed becomes the `ApiError` it throws: a cancellation, a timeout or a
 * dropped connection, an error status with its problem body, or a success whose body is not JSON.
 * Everything a server or the network says passes through the call's redactor on the way in.
 */
import { ApiError, parseProblemBody, type ApiErrorKind, type ParsedProblem } from './errors';
import type { RateLimitSnapshot } from './rateLimit';
import type { Redactor } from './redact';

/** A failure without an answer: the caller cancelled, the attempt ran out of time, or the network failed. */
export type TransportFailure = 'aborted' | 'timeout' | 'network';

/** Where a request went, as errors show it. */
export interface RequestShown {
  readonly method: string;
  /** Path and query, redacted. */
  readonly path: string;
}

export function abortedError(request: RequestShown, outcomeUnknown: boolean): ApiError {
  return new ApiError({ kind: 'aborted', title: 'Cancelled', detail: 'the request was cancelled', ...request, outcomeUnknown });
}

/** `causeText` is already redacted; the error gets a fresh cause built from it, never the original. */
export function transportError(
  kind: TransportFailure,
  request: RequestShown,
  outcomeUnknown: boolean,
  causeText: string,
  timeoutMs: number,
): ApiError {
  // The original may quote the request it failed to send.
  const cause = new Error(causeText);
  const titles: Record<TransportFailure, { title: string; detail: string }> = {
    aborted: { title: 'Cancelled', detail: 'the request was cancelled' },
    timeout: { title: 'Timed out', detail: `no complete answer within ${timeoutMs} ms` },
    network: { title: 'Network error', detail: `the service could not be reached or dropped the connection: ${cause.message}` },
  };
  return new ApiError({ kind, ...titles[kind], ...request, outcomeUnknown, cause });
}

/** What the service's answer to a failed attempt adds to its error. */
export interface ErrorAnswer {
  readonly status: number;
  readonly kind: ApiErrorKind;
  /** The body as text: a problem document, legacy JSON or whatever a proxy sent. */
  readonly text: string;
  readonly retryAfterSeconds?: number;
  readonly rateLimit?: RateLimitSnapshot;
}

/**
 * The error for an error status. After a 5xx a write may have been applied before the failure; a 4xx
 * refuses only this attempt, so an earlier attempt whose answer was lost still leaves the outcome open.
 */
export function problemError(request: RequestShown, answer: ErrorAnswer, redact: Redactor, earlierOutcomeUnknown: boolean): ApiError {
  const { status, kind, retryAfterSeconds, rateLimit } = answer;
  return new ApiError({
    kind,
    status,
    ...redactProblem(parseProblemBody(status, answer.text), redact),
    ...request,
    ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
    outcomeUnknown: (kind === 'server' && request.method !== 'GET') || earlierOutcomeUnknown,
    ...(rateLimit ? { rateLimit } : {}),
  });
}

/** A problem body may echo what was sent (a header, a field value): every text in it is redacted. */
function redactProblem(problem: ParsedProblem, redact: Redactor): ParsedProblem {
  return {
    title: redact(problem.title),
    detail: redact(problem.detail),
    errors: problem.errors.map((e) => ({
      path: redact(e.path),
      pathSegments: e.pathSegments.map((s) => (typeof s === 'string' ? redact(s) : s)),
      message: redact(e.message),
    })),
  };
}

/** A successful answer's JSON body; `undefined` for 204 or an empty body. */
export function parseSuccessBody(text: string, response: Response, request: RequestShown): unknown {
  if (response.status === 204 || text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError({
      kind: 'invalidResponse',
      status: response.status,
      title: 'Invalid response',
      detail: `the service answered ${response.status} with a body that is not JSON (${response.headers.get('content-type') ?? 'no content type'})`,
      ...request,
      // The write went through, but we cannot tell what it made; treat it like a lost answer.
      outcomeUnknown: request.method !== 'GET',
    });
  }
}

/** The innermost useful message of a fetch failure (`fetch failed` alone says nothing), redacted. */
export function causeText(error: unknown, redact: Redactor): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const e = current as { message?: unknown; code?: unknown; cause?: unknown };
    const text = [typeof e.code === 'string' ? e.code : '', typeof e.message === 'string' ? e.message : ''].filter(Boolean).join(' ');
    if (text && !parts.includes(text)) parts.push(text);
    current = e.cause;
  }
  return redact(parts.slice(-1)[0] ?? 'unknown error');
}
