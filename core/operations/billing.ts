/**
 * Billing history as one use case for the CLI, the Billing view and panel, and any other front-end:
 * the request checked with the service's command-line client's defaults (bucket `day`; pods grouped
 * by `gpuId`, serverless by `endpointId`; the service's own 30-day window), sent to the path of its
 * kind, and answered as rows plus totals over the window the service resolved.
 */
import { ApiError, type ApiClient, type CallOptions } from '../api';
import type { BillingBucketSize } from '../api/billing';
import { checkBillingRequest, fetchBilling, type BillingKind, type BillingRequest, type BillingResponse } from '../billing/query';

/** `networkVolume` is the command-line client's singular (`billing network-volume`), taken as `networkVolumes`. */
type QueryBillingKind = BillingKind | 'networkVolume';

export interface QueryBillingInput {
  readonly kind: QueryBillingKind;
  /** `hour`, `day` (default), `week`, `month` or `year`. */
  readonly bucketSize?: string;
  /** RFC 3339; absent: 30 days ago. Not with `lastN`. */
  readonly startTime?: string;
  /** RFC 3339; absent: now. Not with `lastN`. */
  readonly endTime?: string;
  /** The last N buckets, ending with the current one (1 to 1000). */
  readonly lastN?: number | string;
  /** Pods: `gpuId` (default) or `podId`; serverless: `endpointId` (default), `podId` or `gpuId`. */
  readonly grouping?: string;
  /** Pods only. */
  readonly podId?: string;
  /** Serverless only. */
  readonly endpointId?: string;
  /** Pods and serverless. */
  readonly gpuId?: string;
}

export type BillingRequestResult =
  { readonly ok: true; readonly request: BillingRequest } | { readonly ok: false; readonly message: string };

export type QueryBillingResult =
  | {
      readonly ok: true;
      /** What was asked, defaults applied. */
      readonly request: BillingRequest;
      /** The window as the service resolved it (snapped to whole buckets). */
      readonly window: { readonly startTime: string; readonly endTime: string; readonly bucketSize: BillingBucketSize };
      /** One per bucket (and group), as the service sent them. */
      readonly rows: readonly Record<string, unknown>[];
      /** Per cost component over the window, `totalAmount` included. */
      readonly totals: Readonly<Record<string, number>>;
      /** The service's answer, read defensively, for a caller that shows it whole. */
      readonly response: BillingResponse;
    }
  /** `invalid`: the request was not sent; `failed`: the service refused or could not be reached. */
  | { readonly ok: false; readonly reason: 'invalid' | 'failed'; readonly message: string; readonly status?: number };

/** The request `input` asks for with the defaults applied, or what is wrong with it; sends nothing. */
export function billingRequestOf(input: QueryBillingInput): BillingRequestResult {
  const checked = checkBillingRequest({ ...input, kind: input.kind === 'networkVolume' ? 'networkVolumes' : input.kind });
  return 'error' in checked ? { ok: false, message: checked.error } : { ok: true, request: checked.request };
}

/**
 * Checks a billing query with the CLI's defaults and sends it to the path of its kind: rows plus
 * totals over the window the service resolved. Never throws for a bad query or a service error.
 */
export async function queryBilling(api: ApiClient, input: QueryBillingInput, call: CallOptions = {}): Promise<QueryBillingResult> {
  const checked = billingRequestOf(input);
  if (!checked.ok) return { ok: false, reason: 'invalid', message: checked.message };
  const { request } = checked;
  let response: BillingResponse;
  try {
    response = await fetchBilling(api, request, call);
  } catch (error) {
    const message = api.redact(error instanceof Error ? error.message : String(error));
    return {
      ok: false,
      reason: 'failed',
      message,
      ...(error instanceof ApiError && error.status !== undefined ? { status: error.status } : {}),
    };
  }
  const { query, totals } = response.metadata;
  return {
    ok: true,
    request,
    window: { startTime: query.startTime, endTime: query.endTime, bucketSize: query.bucketSize },
    rows: response.records,
    totals,
    response,
  };
}
