/**
 * The one HTTP core under every resource module: bearer auth, per-attempt timeouts, caller
 * cancellation, quota headers, problem bodies, and retries only where repeating is harmless.
 *
 * The key lives only in this closure-held header value and the redactor; nothing that leaves
 * this module (errors, log entries, URLs) can carry it.
 */
import {
  DEFAULT_API_URL,
  DEFAULT_JOBS_URL,
  DEFAULT_RETRY_POLICY,
  DEFAULT_TIMEOUT_MS,
  normalizeBaseUrl,
  type ApiClientConfig,
  type ApiLogEntry,
  type RetryNotice,
  type RetryPolicy,
} from './config';
import { ApiError, kindForStatus, parseProblemBody } from './errors';
import { parseRateLimitHeaders, parseRetryAfter, type RateLimitSnapshot } from './rateLimit';
import { createRedactor, type Redactor } from './redact';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';
export type ApiHost = 'rest' | 'jobs';
export type QueryValue = string | number | boolean | readonly (string | number)[] | undefined | null;

/** Accepted by every call of every resource. */
export interface CallOptions {
  /** Cancels the call, including any wait between retries. */
  signal?: AbortSignal;
  /** Overrides the client's per-attempt timeout. */
  timeoutMs?: number;
}

export interface HttpRequest extends CallOptions {
  method: HttpMethod;
  host?: ApiHost;
  /**
   * An absolute origin to send to instead of `host`'s base: a load balancer's own subdomain of the
   * jobs host. The caller checks that it belongs to the service, since the key goes with it.
   */
  origin?: string;
  /** Starts with `/v2`; path parameters already encoded (see `segment`). */
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  headers?: Record<string, string>;
  /**
   * Whether sending it twice leaves the same state as sending it once. Defaults: GET, PATCH and
   * DELETE yes; POST no. Only idempotent requests are retried after a 5xx, timeout or drop.
   */
  idempotent?: boolean;
  /** Reads wait out a 429 (bounded); writes report it. Default: GET only. */
  read?: boolean;
  /** Values of this request (a registry password) that an error or log must not echo either. */
  secrets?: readonly string[];
}

export interface HttpResponse<T> {
  status: number;
  headers: Headers;
  body: T;
}

/** Encodes one path parameter; ids never get to add path segments or a query. */
export function segment(value: string): string {
  if (value === '')
    throw new ApiError({ kind: 'configuration', title: 'Invalid argument', detail: 'an identifier in the request path is empty' });
  return encodeURIComponent(value);
}

export class HttpCore {
  readonly apiUrl: string;
  readonly jobsUrl: string;
  private readonly fetchImpl: typeof fetch;
  private readonly timeoutMs: number;
  private readonly retry: RetryPolicy;
  private readonly userAgent: string;
  private readonly log: ((entry: ApiLogEntry) => void) | undefined;
  private readonly listeners = new Set<(snapshot: RateLimitSnapshot) => void>();
  private readonly retryListeners = new Set<(notice: RetryNotice) => void>();
  private latestRateLimit: RateLimitSnapshot | undefined;
  readonly redact: Redactor;
  private readonly authorization: () => string | undefined;

  constructor(config: ApiClientConfig) {
    const key = (config.apiKey ?? '').trim();
    this.redact = createRedactor(key ? [key] : []);
    try {
      this.apiUrl = normalizeBaseUrl(config.apiUrl ?? DEFAULT_API_URL, 'the API URL');
      this.jobsUrl = normalizeBaseUrl(config.jobsUrl ?? DEFAULT_JOBS_URL, 'the jobs URL');
    } catch (error) {
      throw new ApiError({ kind: 'configuration', title: 'Invalid configuration', detail: this.redact((error as Error).message) });
    }
    // Checked here because fetch's own complaint about a bad header value quotes the value.
    if (/[^\x21-\x7e]/.test(key))
      throw new ApiError({
        kind: 'configuration',
        title: 'Invalid configuration',
        detail: 'the API key contains whitespace, control or non-ASCII characters',
      });
    // A closure, not a field: the key must not show up when the client object is inspected or serialized.
    this.authorization = () => (key ? `Bearer ${key}` : undefined);
    this.fetchImpl = config.fetch ?? globalThis.fetch.bind(globalThis);
    this.timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.retry = { ...DEFAULT_RETRY_POLICY, ...(config.retry ?? {}) };
    this.userAgent = config.userAgent ?? 'endpoint-studio';
    this.log = config.log;
    if (config.onRateLimit) this.listeners.add(config.onRateLimit);
    if (config.onRetry) this.retryListeners.add(config.onRetry);
  }

  /** Subscribes to retry waits (429 waited out, backoff after a failure); returns the unsubscribe function. */
  onRetry(listener: (notice: RetryNotice) => void): () => void {
    this.retryListeners.add(listener);
    return () => this.retryListeners.delete(listener);
  }

  private announceRetry(reason: RetryNotice['reason'], method: string, path: string, attempt: number, waitMs: number): void {
    const notice: RetryNotice = { reason, method, path, attempt, waitMs, retryAt: Date.now() + waitMs };
    for (const listener of this.retryListeners) {
      try {
        listener(notice);
      } catch {
        // A broken status bar must not break the request it reports on.
      }
    }
  }

  /** The quota state from the latest answer that carried it. */
  get rateLimit(): RateLimitSnapshot | undefined {
    return this.latestRateLimit;
  }

  onRateLimit(listener: (snapshot: RateLimitSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async request<T>(req: HttpRequest): Promise<T> {
    return (await this.exchange<T>(req)).body;
  }

  async exchange<T>(req: HttpRequest): Promise<HttpResponse<T>> {
    const result = await this.perform(req, false);
    return { status: result.response.status, headers: result.response.headers, body: result.body as T };
  }

  /**
   * Opens a streaming GET and hands back the unread response once its headers arrive (the timeout
   * covers only that far). The caller must call `release` when it stops reading.
   */
  async openStream(req: HttpRequest): Promise<{ response: Response; release: () => void }> {
    const result = await this.perform(req, true);
    return { response: result.response, release: result.release };
  }

  urlFor(req: Pick<HttpRequest, 'host' | 'origin' | 'path' | 'query'>): string {
    const base = req.origin ?? (req.host === 'jobs' ? this.jobsUrl : this.apiUrl);
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(req.query ?? {})) {
      if (value === undefined || value === null) continue;
      // The service takes lists comma-separated (OpenAPI `style: form, explode: false`).
      params.append(name, Array.isArray(value) ? value.join(',') : String(value));
    }
    const query = params.toString();
    return `${base}${req.path}${query ? `?${query}` : ''}`;
  }

  private async perform(req: HttpRequest, stream: boolean): Promise<{ response: Response; body: unknown; release: () => void }> {
    const method = req.method;
    const redact = req.secrets && req.secrets.length > 0 ? chainRedactors(createRedactor(req.secrets), this.redact) : this.redact;
    const idempotent = req.idempotent ?? method !== 'POST';
    const isRead = req.read ?? method === 'GET';
    const url = this.urlFor(req);
    const shownPath = redact(url.slice((req.origin ?? (req.host === 'jobs' ? this.jobsUrl : this.apiUrl)).length) || '/');
    const headers = this.headersFor(req, stream);
    const payload = req.body === undefined ? undefined : JSON.stringify(req.body);
    let failures = 0;
    let rateLimitWaits = 0;
    let earlierOutcomeUnknown = false;
    for (let attempt = 1; ; attempt++) {
      if (req.signal?.aborted) throw this.abortedError(method, shownPath, earlierOutcomeUnknown && method !== 'GET');
      const started = Date.now();
      const attemptSignal = linkSignals(req.signal, req.timeoutMs ?? this.timeoutMs);
      let response: Response;
      let text = '';
      try {
        response = await this.fetchImpl(url, {
          method,
          headers,
          ...(payload !== undefined ? { body: payload } : {}),
          signal: attemptSignal.signal,
        });
        if (!stream || !response.ok) text = await response.text();
      } catch (error) {
        attemptSignal.release();
        const kind = req.signal?.aborted ? 'aborted' : attemptSignal.timedOut() ? 'timeout' : 'network';
        const outcomeUnknown = method !== 'GET';
        this.emitLog(redact, { method, url, durationMs: Date.now() - started, attempt, note: `${kind}: ${this.causeText(error, redact)}` });
        if (kind !== 'aborted' && idempotent && failures < this.retry.maxRetries) {
          failures++;
          earlierOutcomeUnknown ||= outcomeUnknown;
          const waitMs = this.backoff(failures);
          this.announceRetry(kind, method, shownPath, attempt, waitMs);
          await this.pause(waitMs, req.signal, method, shownPath);
          continue;
        }
        throw this.transportError(kind, method, shownPath, outcomeUnknown, this.causeText(error, redact), req.timeoutMs ?? this.timeoutMs);
      }
      const snapshot = this.noteRateLimit(response.headers);
      this.emitLog(redact, { method, url, status: response.status, durationMs: Date.now() - started, attempt });
      if (response.ok) {
        if (stream) return { response, body: undefined, release: attemptSignal.detachTimeout() };
        attemptSignal.release();
        return { response, body: this.parseBody(text, response, method, shownPath), release: () => undefined };
      }
      attemptSignal.release();
      // A repeated DELETE that finds nothing means an earlier attempt did delete it.
      if (response.status === 404 && method === 'DELETE' && earlierOutcomeUnknown)
        return { response, body: undefined, release: () => undefined };
      const problem = parseProblemBody(response.status, text);
      const kind = kindForStatus(response.status);
      const retryAfterSeconds = response.status === 429 ? parseRetryAfter(response.headers.get('retry-after')) : undefined;
      if (kind === 'rateLimited' && isRead && rateLimitWaits < this.retry.maxRateLimitRetries) {
        const waitMs = (retryAfterSeconds ?? 1) * 1000;
        if (waitMs <= this.retry.maxRateLimitWaitMs) {
          rateLimitWaits++;
          this.announceRetry('rateLimited', method, shownPath, attempt, waitMs);
          await this.pause(waitMs, req.signal, method, shownPath);
          continue;
        }
      }
      if (kind === 'server' && idempotent && failures < this.retry.maxRetries) {
        failures++;
        earlierOutcomeUnknown ||= method !== 'GET';
        const waitMs = this.backoff(failures);
        this.announceRetry('server', method, shownPath, attempt, waitMs);
        await this.pause(waitMs, req.signal, method, shownPath);
        continue;
      }
      throw new ApiError({
        kind,
        status: response.status,
        title: redact(problem.title),
        detail: redact(problem.detail),
        errors: problem.errors.map((e) => ({
          path: redact(e.path),
          pathSegments: e.pathSegments.map((s) => (typeof s === 'string' ? redact(s) : s)),
          message: redact(e.message),
        })),
        method,
        path: shownPath,
        ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
        // After a 5xx a write may have been applied before the failure; a 4xx refuses only this
        // attempt, so an earlier attempt whose answer was lost still leaves the outcome open.
        outcomeUnknown: (kind === 'server' && method !== 'GET') || earlierOutcomeUnknown,
        ...(snapshot ? { rateLimit: snapshot } : {}),
      });
    }
  }

  private headersFor(req: HttpRequest, stream: boolean): Record<string, string> {
    const headers: Record<string, string> = {
      Accept: stream ? 'text/event-stream, application/problem+json' : 'application/json, application/problem+json',
      'User-Agent': this.userAgent,
      ...(req.headers ?? {}),
    };
    const authorization = this.authorization();
    if (authorization) headers.Authorization = authorization;
    if (req.body !== undefined) headers['Content-Type'] = 'application/json';
    return headers;
  }

  private parseBody(text: string, response: Response, method: string, path: string): unknown {
    if (response.status === 204 || text.trim() === '') return undefined;
    try {
      return JSON.parse(text);
    } catch {
      throw new ApiError({
        kind: 'invalidResponse',
        status: response.status,
        title: 'Invalid response',
        detail: `the service answered ${response.status} with a body that is not JSON (${response.headers.get('content-type') ?? 'no content type'})`,
        method,
        path,
        // The write went through, but we cannot tell what it made; treat it like a lost answer.
        outcomeUnknown: method !== 'GET',
      });
    }
  }

  private noteRateLimit(headers: Headers): RateLimitSnapshot | undefined {
    const snapshot = parseRateLimitHeaders(headers.get('ratelimit'), headers.get('ratelimit-policy'));
    if (!snapshot) return undefined;
    this.latestRateLimit = snapshot;
    for (const listener of this.listeners) {
      try {
        listener(snapshot);
      } catch {
        // A broken status bar must not break the request that fed it.
      }
    }
    return snapshot;
  }

  private backoff(failures: number): number {
    const ceiling = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (failures - 1));
    return Math.round(ceiling * (0.5 + Math.random() * 0.5));
  }

  private async pause(ms: number, signal: AbortSignal | undefined, method: string, path: string): Promise<void> {
    try {
      await sleep(ms, signal);
    } catch {
      throw this.abortedError(method, path, method !== 'GET');
    }
  }

  private abortedError(method: string, path: string, outcomeUnknown: boolean): ApiError {
    return new ApiError({ kind: 'aborted', title: 'Cancelled', detail: 'the request was cancelled', method, path, outcomeUnknown });
  }

  private transportError(
    kind: 'aborted' | 'timeout' | 'network',
    method: string,
    path: string,
    outcomeUnknown: boolean,
    causeText: string,
    timeoutMs: number,
  ): ApiError {
    // A fresh, redacted cause: the original may quote the request it failed to send.
    const cause = new Error(causeText);
    if (kind === 'aborted')
      return new ApiError({ kind, title: 'Cancelled', detail: 'the request was cancelled', method, path, outcomeUnknown, cause });
    if (kind === 'timeout')
      return new ApiError({
        kind,
        title: 'Timed out',
        detail: `no complete answer within ${timeoutMs} ms`,
        method,
        path,
        outcomeUnknown,
        cause,
      });
    return new ApiError({
      kind,
      title: 'Network error',
      detail: `the service could not be reached or dropped the connection: ${cause.message}`,
      method,
      path,
      outcomeUnknown,
      cause,
    });
  }

  /** The innermost useful message of a fetch failure (`fetch failed` alone says nothing), redacted. */
  private causeText(error: unknown, redact: Redactor): string {
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

  private emitLog(redact: Redactor, entry: ApiLogEntry): void {
    if (!this.log) return;
    try {
      this.log({ ...entry, url: redact(entry.url), ...(entry.note ? { note: redact(entry.note) } : {}) });
    } catch {
      // Logging is best effort.
    }
  }
}

interface LinkedSignal {
  signal: AbortSignal;
  timedOut(): boolean;
  /** Stops the timer and unhooks from the caller's signal. */
  release(): void;
  /** Stops the timer only (the body is still being read); returns the full release. */
  detachTimeout(): () => void;
}

/** One attempt's signal: aborted by the caller's signal or by the timeout, whichever is first. */
function linkSignals(external: AbortSignal | undefined, timeoutMs: number): LinkedSignal {
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = (): void => {
    controller.abort(external?.reason);
  };
  external?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`timed out after ${timeoutMs} ms`));
  }, timeoutMs);
  const stopTimer = (): void => {
    clearTimeout(timer);
  };
  const release = (): void => {
    stopTimer();
    external?.removeEventListener('abort', onAbort);
  };
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    release,
    detachTimeout: () => {
      stopTimer();
      return () => {
        release();
        // Ends a body read the consumer abandoned, so the connection is not left open.
        if (!controller.signal.aborted) controller.abort();
      };
    },
  };
}

function chainRedactors(first: Redactor, second: Redactor): Redactor {
  return (text) => second(first(text));
}

/** Resolves after `ms`, or rejects as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason ?? new Error('aborted'));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason ?? new Error('aborted'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
