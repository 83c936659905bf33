/**
 * `/v2/billing`: time-bucketed spend. Windows are half-open `[startTime, endTime)` and the service
 * snaps them to bucket boundaries; the resolved window comes back in `metadata.query`.
 */
import { callOptions, type CallOptions, type HttpCore, type QueryValue } from './http';

export type BillingBucketSize = 'hour' | 'day' | 'week' | 'month' | 'year';

/** Either an explicit range or the last N buckets (ending with the current one), never both. */
export type BillingWindow =
  { startTime?: string | Date; endTime?: string | Date; lastN?: never } | { lastN: number; startTime?: never; endTime?: never };

export type BillingQuery = BillingWindow & CallOptions & { bucketSize?: BillingBucketSize };

/** The bucket size and window every billing path takes, as its query fields. */
interface WindowQuery extends CallOptions {
  bucketSize?: BillingBucketSize;
  startTime?: string | Date;
  endTime?: string | Date;
  lastN?: number;
}

export interface PodBillingQuery extends WindowQuery {
  /** The command-line client's grouping; service default `gpuId`. */
  grouping?: 'podId' | 'gpuId';
  podId?: string;
  gpuId?: string;
}

export interface ServerlessBillingQuery extends WindowQuery {
  /** Service default `endpointId`. */
  grouping?: 'endpointId' | 'podId' | 'gpuId';
  /** Filter by serverless endpoint (sent as `serverlessId`, the REST v2 name). */
  endpointId?: string;
  gpuId?: string;
}

export interface BillingTimeRange {
  startTime: string;
  endTime: string;
}

export interface BillingAmounts {
  totalAmount: number;
  podGpuAmount: number;
  podCpuAmount: number;
  podDiskAmount: number;
  serverlessGpuAmount: number;
  serverlessCpuAmount: number;
  serverlessDiskAmount: number;
  serverlessFeeAmount: number;
  storageStandardAmount: number;
  storageHighPerformanceAmount: number;
  endpointAmount: number;
  clusterGpuAmount: number;
  clusterDiskAmount: number;
  clusterNetworkingAmount: number;
}

export interface PodBillingAmounts {
  totalAmount: number;
  gpuAmount: number;
  cpuAmount: number;
  diskAmount: number;
}

export interface ServerlessBillingAmounts {
  totalAmount: number;
  gpuAmount: number;
  cpuAmount: number;
  diskAmount: number;
  feeAmount: number;
}

export interface NetworkVolumeBillingAmounts {
  totalAmount: number;
  standardAmount: number;
  highPerformanceAmount: number;
}

interface ResolvedBillingQuery extends BillingTimeRange {
  bucketSize: BillingBucketSize;
  [filter: string]: unknown;
}

export interface BillingList<Record, Totals, Extra = object> {
  records: Record[];
  metadata: { query: ResolvedBillingQuery; recordCount: number; totals: Totals } & Extra;
}

export type BillingRecord = BillingTimeRange & BillingAmounts;
/** Records carry `podId` (or `gpuId` when grouped by GPU type). */
export type PodBillingRecord = BillingTimeRange & PodBillingAmounts & { podId?: string; gpuId?: string };
/** Records carry `serverlessId` (or `podId`/`gpuId` per grouping). */
export type ServerlessBillingRecord = BillingTimeRange &
  ServerlessBillingAmounts & { serverlessId?: string; podId?: string; gpuId?: string };
export type EndpointBillingRecord = BillingTimeRange & { totalAmount: number };
export type NetworkVolumeBillingRecord = BillingTimeRange & NetworkVolumeBillingAmounts & { networkVolumeId: string };

function time(value: string | Date | undefined): string | undefined {
  return value instanceof Date ? value.toISOString() : value;
}

function windowQuery(q: WindowQuery): Record<string, QueryValue> {
  if (q.lastN !== undefined && (q.startTime !== undefined || q.endTime !== undefined)) {
    // The service refuses the mix with a 400; saying so here names the caller's mistake precisely.
    throw new TypeError('billing: lastN cannot be combined with startTime or endTime');
  }
  return { bucketSize: q.bucketSize, startTime: time(q.startTime), endTime: time(q.endTime), lastN: q.lastN };
}

export class BillingApi {
  constructor(private readonly http: HttpCore) {}

  /** Everything billable, one record per bucket. */
  all(query: BillingQuery = {}): Promise<BillingList<BillingRecord, BillingAmounts>> {
    return this.http.request({ method: 'GET', path: '/v2/billing', query: windowQuery(query), ...callOptions(query) });
  }

  pods(query: PodBillingQuery = {}): Promise<BillingList<PodBillingRecord, PodBillingAmounts, { uniquePodCount: number }>> {
    return this.http.request({
      method: 'GET',
      path: '/v2/billing/pods',
      query: { ...windowQuery(query), grouping: query.grouping, podId: query.podId, gpuId: query.gpuId },
      ...callOptions(query),
    });
  }

  serverless(
    query: ServerlessBillingQuery = {},
  ): Promise<BillingList<ServerlessBillingRecord, ServerlessBillingAmounts, { uniqueServerlessCount: number }>> {
    return this.http.request({
      method: 'GET',
      path: '/v2/billing/serverless',
      query: { ...windowQuery(query), grouping: query.grouping, serverlessId: query.endpointId, gpuId: query.gpuId },
      ...callOptions(query),
    });
  }

  networkVolumes(
    query: BillingQuery = {},
  ): Promise<BillingList<NetworkVolumeBillingRecord, NetworkVolumeBillingAmounts, { uniqueNetworkVolumeCount: number }>> {
    return this.http.request({ method: 'GET', path: '/v2/billing/network-volumes', query: windowQuery(query), ...callOptions(query) });
  }

  /** Public endpoints (the service's hosted models), not the caller's serverless endpoints. */
  publicEndpoints(query: BillingQuery = {}): Promise<BillingList<EndpointBillingRecord, { totalAmount: number }>> {
    return this.http.request({ method: 'GET', path: '/v2/billing/endpoints', query: windowQuery(query), ...callOptions(query) });
  }
}
