/**
 * The one API client the extension, the language server and the CLI share:
 *
 *   const api = createApiClient(configFromEnvironment());
 *   const endpoints = await api.serverless.list();
 *   api.onRateLimit((quota) => statusBar.show(quota.tightest));
 *
 * Every call throws `ApiError` and takes `{ signal, timeoutMs }`. Reads wait out a 429 (bounded)
 * and retry after 5xx/drops; PATCH and DELETE retry after 5xx/drops; POSTs are never repeated,
 * and `serverless.createReconciled` settles a create whose answer was lost by listing.
 */
import { BillingApi } from './billing';
import { CatalogApi } from './catalog';
import type { ApiClientConfig } from './config';
import { HttpCore } from './http';
import { JobsApi } from './jobs';
import { networkVolumesApi, type NetworkVolumesApi } from './networkVolumes';
import type { RateLimitSnapshot } from './rateLimit';
import type { RetryNotice } from './config';
import { registriesApi, type RegistriesApi } from './registries';
import { ServerlessApi } from './serverless';
import { templatesApi, type TemplatesApi } from './templates';
import type { CallOptions } from './http';

export interface ApiClient {
  readonly serverless: ServerlessApi;
  readonly catalog: CatalogApi;
  readonly templates: TemplatesApi;
  readonly networkVolumes: NetworkVolumesApi;
  readonly registries: RegistriesApi;
  readonly billing: BillingApi;
  readonly jobs: JobsApi;
  readonly apiUrl: string;
  readonly jobsUrl: string;
  /** Quota state from the latest answer that carried `RateLimit` headers. */
  readonly rateLimit: RateLimitSnapshot | undefined;
  /** Subscribes to quota updates; returns the unsubscribe function. */
  onRateLimit(listener: (snapshot: RateLimitSnapshot) => void): () => void;
  /** Subscribes to the waits before retries (a 429 waited out, backoff after a failure); returns the unsubscribe function. */
  onRetry(listener: (notice: RetryNotice) => void): () => void;
  /** Removes the key (and key-like tokens) from text before it is shown or logged. */
  redact(text: string): string;
  /** The service's machine-readable schema (`GET /v2/openapi.json`). */
  openApi(options?: CallOptions): Promise<unknown>;
}

export function createApiClient(config: ApiClientConfig): ApiClient {
  const http = new HttpCore(config);
  return {
    serverless: new ServerlessApi(http),
    catalog: new CatalogApi(http),
    templates: templatesApi(http),
    networkVolumes: networkVolumesApi(http),
    registries: registriesApi(http),
    billing: new BillingApi(http),
    jobs: new JobsApi(http),
    apiUrl: http.apiUrl,
    jobsUrl: http.jobsUrl,
    get rateLimit() {
      return http.rateLimit;
    },
    onRateLimit: (listener) => http.onRateLimit(listener),
    onRetry: (listener) => http.onRetry(listener),
    redact: (text) => http.redact(text),
    openApi: (options = {}) => http.request<unknown>({ method: 'GET', path: '/v2/openapi.json', ...options }),
  };
}

export { catalogFileFromEnvironment, configFromEnvironment, DEFAULT_API_URL, DEFAULT_JOBS_URL, DEFAULT_RETRY_POLICY } from './config';
export type { ApiClientConfig, ApiLogEntry, Environment, RetryNotice } from './config';
export { ApiError } from './errors';
export { parseRateLimitHeaders, parseRetryAfter } from './rateLimit';
export type { RateLimitSnapshot } from './rateLimit';
export type { CallOptions } from './http';
export type { CreateReconciledOptions, WorkerLogStream } from './serverless';
export { releaseSpecPath } from './releaseFields';
export type * from './types';
export { JobsApi, ServerlessApi };
