/**
 * The one HTTP core under every resource module: bearer auth, per-attempt timeouts, caller
 * cancellation, quota headers, problem bodies, and retries only where repeating is harmless.
 *
 * The key lives only in this closure-held header value and the redactor; nothing that leaves
 * this module (errors, log entries, URLs) can carry it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
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
import { ApiError, kindForStatus } from './errors';
import {
  abortedError,
  causeText,
  parseSuccessBody,
  problemError,
  transportError,
  type ErrorAnswer,
  type RequestShown,
  type TransportFailure,
} from './httpErrors';
import { fetchResolvingLocalhost } from './loopback';
import { parseRateLimitHeaders, parseRetryAfter, type RateLimitSnapshot } from './rateLimit';
import { createRedactor, type Redactor } from './redact';

export type QueryValue = string | number | boolean | readonly (string | number)[] | undefined | null;

/** Accepted by every call of every resource. */
export interface CallOptions {
  /** Cancels the call, including any wait between retries. */
  signal?: AbortSignal;
  /** Overrides the client's per-attempt timeout. */
  timeoutMs?: number;
}

export interface HttpRequest extends CallOptions {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  host?: 'rest' | 'jobs';
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
  body: T;
}

/** What `perform` hands back: the answer, its parsed body (none for a stream), and how to let a stream go. */
interface CallResult {
  response: Response;
  body: unknown;
  release: () => void;
}

/** One call across its attempts: what is sent, how errors show it, and what the attempts so far have counted. */
interface Call {
  readonly req: HttpRequest;
  readonly stream: boolean;
  readonly url: string;
  readonly shown: RequestShown;
  /** The client's redactor plus the request's own secrets. */
  readonly redact: Redactor;
  readonly headers: Record<string, string>;
  readonly payload: string | undefined;
  readonly timeoutMs: number;
  /** Safe to send again after a 5xx, timeout or drop. */
  readonly idempotent: boolean;
  /** Waits out a 429 instead of reporting it. */
  readonly isRead: boolean;
  failures: number;
  rateLimitWaits: number;
  /** An earlier attempt of a write failed after it was sent: it may have been applied. */
  earlierOutcomeUnknown: boolean;
}

interface RetryWait {
  readonly reason: RetryNotice['reason'];
  readonly waitMs: number;
}

/** What one attempt came to: the call's result, or a wait before the next attempt. */
type AttemptOutcome = { readonly result: CallResult } | { readonly retry: RetryWait };

const noRelease = (): void => undefined;

/** Encodes one path parameter; ids never get to add path segments or a query. */
export function segment(value: string): string {
  if (value === '')
    throw new ApiError({ kind: 'configuration', title: 'Invalid argument', detail: 'an identifier in the request path is empty' });
  return encodeURIComponent(value);
}

/** The list, get and delete every `/v2` collection answers the same way. */
export function collectionCalls<T>(http: HttpCore, key: string, path: string) {
  return {
    list: (options: CallOptions = {}): Promise<T[]> => http.list<T>(key, { method: 'GET', path, ...options }),
    get: (id: string, options: CallOptions = {}): Promise<T> =>
      http.request<T>({ method: 'GET', path: `${path}/${segment(id)}`, ...options }),
    delete: async (id: string, options: CallOptions = {}): Promise<void> => {
      await http.request<undefined>({ method: 'DELETE', path: `${path}/${segment(id)}`, ...options });
    },
  };
}

/** Only the call options of a query that also carries a resource's own parameters. */
export function callOptions(q: CallOptions): CallOptions {
  return { ...(q.signal ? { signal: q.signal } : {}), ...(q.timeoutMs !== undefined ? { timeoutMs: q.timeoutMs } : {}) };
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
    const key = config.apiKey.trim();
    this.redact = createRedactor(key ? [key] : []);
    this.apiUrl = this.baseUrl(config.apiUrl ?? DEFAULT_API_URL, 'the API URL');
    this.jobsUrl = this.baseUrl(config.jobsUrl ?? DEFAULT_JOBS_URL, 'the jobs URL');
    assertHeaderSafe(key);
    // A closure, not a field: the key must not show up when the client object is inspected or serialized.
    this.authorization = () => (key ? `Bearer ${key}` : undefined);
    // `fetch` for every host, except that `<endpoint id>.localhost` (a local emulator's load balancer) resolves to loopback.
    this.fetchImpl = config.fetch ?? fetchResolvingLocalhost;
    this.timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.retry = { ...DEFAULT_RETRY_POLICY, ...(config.retry ?? {}) };
    this.userAgent = config.userAgent ?? 'endpoint-studio';
    this.log = config.log;
    if (config.onRateLimit) this.listeners.add(config.onRateLimit);
    if (config.onRetry) this.retryListeners.add(config.onRetry);
  }

  /** A configured base URL, checked; its problem is a configuration error, redacted (a URL may hold the key). */
  private baseUrl(raw: string, setting: string): string {
    try {
      return normalizeBaseUrl(raw, setting);
    } catch (error) {
      throw new ApiError({ kind: 'configuration', title: 'Invalid configuration', detail: this.redact((error as Error).message) });
    }
  }

  /** Subscribes to retry waits (429 waited out, backoff after a failure); returns the unsubscribe function. */
  onRetry(listener: (notice: RetryNotice) => void): () => void {
    this.retryListeners.add(listener);
    return () => this.retryListeners.delete(listener);
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

  /** A list the service answers inside an object (`{ "endpoints": [...] }`); empty when the answer has none. */
  async list<T>(key: string, req: HttpRequest): Promise<T[]> {
    const body = await this.request<Record<string, T[] | undefined> | undefined>(req);
    return body?.[key] ?? [];
  }

  async exchange<T>(req: HttpRequest): Promise<HttpResponse<T>> {
    const result = await this.perform(req, false);
    return { status: result.response.status, body: result.body as T };
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
    const base = this.baseFor(req);
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(req.query ?? {})) {
      if (value === undefined || value === null) continue;
      // The service takes lists comma-separated (OpenAPI `style: form, explode: false`).
      params.append(name, Array.isArray(value) ? value.join(',') : String(value));
    }
    const query = params.toString();
    return `${base}${req.path}${query ? `?${query}` : ''}`;
  }

  private baseFor(req: Pick<HttpRequest, 'host' | 'origin'>): string {
    return req.origin ?? (req.host === 'jobs' ? this.jobsUrl : this.apiUrl);
  }

  private async perform(req: HttpRequest, stream: boolean): Promise<CallResult> {
    const call = this.startCall(req, stream);
    for (let attempt = 1; ; attempt++) {
      if (req.signal?.aborted) throw abortedError(call.shown, call.earlierOutcomeUnknown && call.shown.method !== 'GET');
      const outcome = await this.attempt(call, attempt);
      if ('result' in outcome) return outcome.result;
      const { reason, waitMs } = outcome.retry;
      const { method, path } = call.shown;
      notifyAll(this.retryListeners, { reason, method, path, attempt, waitMs, retryAt: Date.now() + waitMs });
      await this.pause(waitMs, req.signal, call.shown);
    }
  }

  /** Everything the attempts of one call share, worked out once. */
  private startCall(req: HttpRequest, stream: boolean): Call {
    const redact = this.redactorFor(req);
    const url = this.urlFor(req);
    return {
      req,
      stream,
      url,
      shown: { method: req.method, path: redact(url.slice(this.baseFor(req).length) || '/') },
      redact,
      headers: this.headersFor(req, stream),
      payload: req.body === undefined ? undefined : JSON.stringify(req.body),
      timeoutMs: req.timeoutMs ?? this.timeoutMs,
      idempotent: req.idempotent ?? req.method !== 'POST',
      isRead: req.read ?? req.method === 'GET',
      failures: 0,
      rateLimitWaits: 0,
      earlierOutcomeUnknown: false,
    };
  }

  /** The client's redactor, and the request's own secrets (a registry password) on top when it has any. */
  private redactorFor(req: HttpRequest): Redactor {
    if (!req.secrets || req.secrets.length === 0) return this.redact;
    const own = createRedactor(req.secrets);
    return (text) => this.redact(own(text));
  }

  /** One attempt: an answer, or a wait before the next attempt; a failure not worth repeating is thrown. */
  private async attempt(call: Call, attempt: number): Promise<AttemptOutcome> {
    const started = Date.now();
    const signal = linkSignals(call.req.signal, call.timeoutMs);
    let answer: { response: Response; text: string };
    try {
      answer = await this.send(call, signal.signal);
    } catch (error) {
      signal.release();
      const kind: TransportFailure = call.req.signal?.aborted ? 'aborted' : signal.timedOut() ? 'timeout' : 'network';
      return this.afterTransportFailure(call, attempt, started, kind, causeText(error, call.redact));
    }
    const { response, text } = answer;
    const rateLimit = this.noteRateLimit(response.headers);
    this.emitLog(call.redact, {
      method: call.shown.method,
      url: call.url,
      status: response.status,
      durationMs: Date.now() - started,
      attempt,
    });
    if (response.ok && call.stream) return { result: { response, body: undefined, release: signal.detachTimeout() } };
    signal.release();
    if (response.ok) return { result: { response, body: parseSuccessBody(text, response, call.shown), release: noRelease } };
    return this.afterErrorStatus(call, response, text, rateLimit);
  }

  /** The answer with its body read, except a stream's, which its caller reads. */
  private async send(call: Call, signal: AbortSignal): Promise<{ response: Response; text: string }> {
    const response = await this.fetchImpl(call.url, {
      method: call.req.method,
      headers: call.headers,
      ...(call.payload !== undefined ? { body: call.payload } : {}),
      signal,
    });
    const text = call.stream && response.ok ? '' : await response.text();
    return { response, text };
  }

  private afterTransportFailure(call: Call, attempt: number, started: number, kind: TransportFailure, cause: string): AttemptOutcome {
    const { method } = call.shown;
    this.emitLog(call.redact, { method, url: call.url, durationMs: Date.now() - started, attempt, note: `${kind}: ${cause}` });
    const retry = kind === 'aborted' ? undefined : this.retryAfterFailure(call, kind);
    if (retry) return { retry };
    // Without an answer nobody knows whether a write arrived.
    throw transportError(kind, call.shown, method !== 'GET', cause, call.timeoutMs);
  }

  private afterErrorStatus(call: Call, response: Response, text: string, rateLimit: RateLimitSnapshot | undefined): AttemptOutcome {
    // A repeated DELETE that finds nothing means an earlier attempt did delete it.
    if (response.status === 404 && call.shown.method === 'DELETE' && call.earlierOutcomeUnknown)
      return { result: { response, body: undefined, release: noRelease } };
    const kind = kindForStatus(response.status);
    const retryAfterSeconds = response.status === 429 ? parseRetryAfter(response.headers.get('retry-after')) : undefined;
    const retry =
      kind === 'rateLimited'
        ? this.retryAfterRateLimit(call, retryAfterSeconds)
        : kind === 'server'
          ? this.retryAfterFailure(call, 'server')
          : undefined;
    if (retry) return { retry };
    const answer: ErrorAnswer = {
      status: response.status,
      kind,
      text,
      ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
      ...(rateLimit ? { rateLimit } : {}),
    };
    throw problemError(call.shown, answer, call.redact, call.earlierOutcomeUnknown);
  }

  /**
   * A 5xx, timeout or drop is tried again, with backoff, only when sending twice is harmless and retries
   * are left. Counts the retry when there is one.
   */
  private retryAfterFailure(call: Call, reason: 'server' | 'timeout' | 'network'): RetryWait | undefined {
    if (!call.idempotent || call.failures >= this.retry.maxRetries) return undefined;
    call.failures++;
    // The failed attempt of a write may have been applied; a later 404 or error must not hide that.
    call.earlierOutcomeUnknown ||= call.shown.method !== 'GET';
    return { reason, waitMs: this.backoff(call.failures) };
  }

  /** Reads wait out a 429 for as long as the service asks (a second when it does not say), within bounds; writes report it. */
  private retryAfterRateLimit(call: Call, retryAfterSeconds: number | undefined): RetryWait | undefined {
    if (!call.isRead || call.rateLimitWaits >= this.retry.maxRateLimitRetries) return undefined;
    const waitMs = (retryAfterSeconds ?? 1) * 1000;
    if (waitMs > this.retry.maxRateLimitWaitMs) return undefined;
    call.rateLimitWaits++;
    return { reason: 'rateLimited', waitMs };
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

  private noteRateLimit(headers: Headers): RateLimitSnapshot | undefined {
    const snapshot = parseRateLimitHeaders(headers.get('ratelimit'), headers.get('ratelimit-policy'));
    if (!snapshot) return undefined;
    this.latestRateLimit = snapshot;
    notifyAll(this.listeners, snapshot);
    return snapshot;
  }

  private backoff(failures: number): number {
    const ceiling = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (failures - 1));
    return Math.round(ceiling * (0.5 + Math.random() * 0.5));
  }

  private async pause(ms: number, signal: AbortSignal | undefined, shown: RequestShown): Promise<void> {
    try {
      await sleep(ms, undefined, { signal });
    } catch {
      throw abortedError(shown, shown.method !== 'GET');
    }
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

function notifyAll<T>(listeners: Iterable<(value: T) => void>, value: T): void {
  for (const listener of listeners) {
    try {
      listener(value);
    } catch {
      // A broken status bar must not break the request it reports on.
    }
  }
}

/** Checked before the first request because fetch's own complaint about a bad header value quotes the value. */
function assertHeaderSafe(key: string): void {
  if (/[^\x21-\x7e]/.test(key))
    throw new ApiError({
      kind: 'configuration',
      title: 'Invalid configuration',
      detail: 'the API key contains whitespace, control or non-ASCII characters',
    });
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
