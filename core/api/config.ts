/**
 * Where the client talks to and with which key. The extension fills this from its settings; the
 * CLI and the standalone server from the environment (`configFromEnvironment`), where they also find
 * the catalog snapshot to check against (`catalogFileFromEnvironment`): every variable read in one place.
 */
import type { RateLimitSnapshot } from './rateLimit';

export const DEFAULT_API_URL = 'https://api.runpod.io';
export const DEFAULT_JOBS_URL = 'https://api.runpod.ai';
export const DEFAULT_TIMEOUT_MS = 30_000;

export interface RetryPolicy {
  /** Extra attempts for a request that is safe to repeat (reads; PATCH/DELETE) after a 5xx, timeout or network error. */
  maxRetries: number;
  /** First backoff delay; doubles each attempt, with jitter. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** How many 429s a read waits out before giving up. */
  maxRateLimitRetries: number;
  /** A read waits out `Retry-After` only up to this; longer waits are reported instead. */
  maxRateLimitWaitMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 2,
  baseDelayMs: 300,
  maxDelayMs: 5_000,
  maxRateLimitRetries: 2,
  maxRateLimitWaitMs: 30_000,
};

/**
 * The client is about to wait and send a request again: after a 429 (waiting out `Retry-After`), or
 * after a 5xx, timeout or drop of a request that is safe to repeat (backing off). A UI shows it as
 * "retrying in N s" so a wait never looks like a hang.
 */
export interface RetryNotice {
  reason: 'rateLimited' | 'server' | 'timeout' | 'network';
  method: string;
  /** Path and query, redacted. */
  path: string;
  /** The attempt that failed (1 for the first). */
  attempt: number;
  waitMs: number;
  /** Client clock (ms) when the next attempt goes out. */
  retryAt: number;
}

/** One line per HTTP exchange, for an output channel. Already redacted; never carries the key. */
export interface ApiLogEntry {
  method: string;
  /** Origin + path + query. */
  url: string;
  status?: number;
  durationMs: number;
  attempt: number;
  /** Set when the attempt failed without an answer, or is about to be retried. */
  note?: string;
}

export interface ApiClientConfig {
  /** REST API v2 base URL, without `/v2`. Default `https://api.runpod.io`. */
  apiUrl?: string;
  /** Job API base URL (the `requestUrls` host). Default `https://api.runpod.ai`. */
  jobsUrl?: string;
  apiKey: string;
  /** Per attempt, until the whole answer is read (for streams: until the headers). Default 30 s. */
  timeoutMs?: number;
  userAgent?: string;
  /** Defaults to the global `fetch` (Node 20, the VS Code extension host). */
  fetch?: typeof fetch;
  retry?: Partial<RetryPolicy>;
  /** Called with each new quota snapshot; see also `client.onRateLimit`. */
  onRateLimit?: (snapshot: RateLimitSnapshot) => void;
  log?: (entry: ApiLogEntry) => void;
  /** Called before each wait for a retry; see also `client.onRetry`. */
  onRetry?: (notice: RetryNotice) => void;
}

export type Environment = Record<string, string | undefined>;

/** A variable's value, blank counted as unset. */
function valueIn(env: Environment, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

/**
 * `ENDPOINT_STUDIO_API_URL`, `ENDPOINT_STUDIO_JOBS_URL`, `ENDPOINT_STUDIO_API_KEY` (falling back to
 * `RUNPOD_API_KEY`, the name the service's own tools use). Blank values count as unset.
 * `keyVariable` names the one variable an environment's key is read from instead (`ENDPOINT_STUDIO_API_KEY_PROD`),
 * with no fall back: a deploy to production never goes out on the default key because its own is missing.
 */
export function configFromEnvironment(env: Environment = process.env, options: { keyVariable?: string } = {}): ApiClientConfig {
  const value = (name: string): string | undefined => valueIn(env, name);
  const { keyVariable } = options;
  return {
    apiUrl: value('ENDPOINT_STUDIO_API_URL') ?? DEFAULT_API_URL,
    jobsUrl: value('ENDPOINT_STUDIO_JOBS_URL') ?? DEFAULT_JOBS_URL,
    apiKey: (keyVariable !== undefined ? value(keyVariable) : (value('ENDPOINT_STUDIO_API_KEY') ?? value('RUNPOD_API_KEY'))) ?? '',
  };
}

/** Names the catalog snapshot (`endpoint-studio catalog export`) that checks read instead of the service. */
const CATALOG_FILE_VARIABLE = 'ENDPOINT_STUDIO_CATALOG_FILE';

/**
 * The catalog snapshot file of `ENDPOINT_STUDIO_CATALOG_FILE`, for the language server, `validate`, `plan`,
 * `deploy`, `migrate` and the MCP server alike; undefined when it is unset or blank.
 */
export function catalogFileFromEnvironment(env: Environment = process.env): string | undefined {
  return valueIn(env, CATALOG_FILE_VARIABLE);
}

/**
 * Checks a base URL and drops a trailing slash. A URL carrying credentials or a query is refused:
 * both would end up in logs and error messages.
 */
export function normalizeBaseUrl(raw: string, setting: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${setting} is not a valid URL: ${JSON.stringify(raw.slice(0, 200))}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`${setting} must be an http or https URL; got ${url.protocol}`);
  if (url.username || url.password) throw new Error(`${setting} must not contain credentials; the API key is sent as a bearer token`);
  if (url.search || url.hash) throw new Error(`${setting} must not contain a query or fragment`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
