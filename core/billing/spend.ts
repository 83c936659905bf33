/**
 * Each serverless endpoint's recent spend in one request: serverless billing by day for the last
 * N days (today included), grouped by endpoint, summed per endpoint. The Endpoints view asks once
 * per refresh, never once per endpoint.
 */
import type { ApiClient } from '../api';
import type { CallOptions } from '../api/http';
import { fetchBilling } from './query';
import { shapeBilling, totalsByGroup } from './series';

export const ENDPOINT_SPEND_DAYS = 7;

/** Endpoint id → USD over the last `days` daily buckets; endpoints without spend are absent. */
export async function endpointSpend(api: ApiClient, days = ENDPOINT_SPEND_DAYS, options: CallOptions = {}): Promise<Map<string, number>> {
  const response = await fetchBilling(api, { kind: 'serverless', bucketSize: 'day', lastN: days, grouping: 'endpointId' }, options);
  return totalsByGroup(shapeBilling('serverless', 'endpointId', response));
}
