/**
 * What can be asked of billing, in one place for the CLI, the Billing view and panel: the five
 * kinds of record, their groupings and filters with the command-line client's defaults (bucket
 * `day`; pods grouped by `gpuId`; serverless by `endpointId`), checking a request before it is
 * sent, and sending it through the API client.
 */
import type { ApiClient } from '../api';
import type { BillingBucketSize } from '../api/billing';
import type { CallOptions } from '../api/http';
import { DEFAULT_BUCKET_SIZE, isBucketSize, isRfc3339, BUCKET_SIZES } from './buckets';

export type BillingKind = 'serverless' | 'pods' | 'networkVolumes' | 'publicEndpoints' | 'all';
export type BillingFilter = 'podId' | 'endpointId' | 'gpuId';

export interface KindInfo {
  readonly label: string;
  /** Groupings the service offers; the first is the default. Empty when records are not grouped. */
  readonly groupings: readonly string[];
  readonly filters: readonly BillingFilter[];
  /** The record field naming the group, per grouping (`endpointId` records carry `serverlessId`). */
  readonly groupField: (grouping: string | undefined) => string | undefined;
  /** Cost components of a record, in the order the service documents them. */
  readonly components: readonly { readonly key: string; readonly label: string }[];
}

/** What a pod's or a serverless worker's compute costs split into. */
const COMPUTE_COMPONENTS: KindInfo['components'] = [
  { key: 'gpuAmount', label: 'GPU' },
  { key: 'cpuAmount', label: 'CPU' },
  { key: 'diskAmount', label: 'Disk' },
];

export const KINDS: Readonly<Record<BillingKind, KindInfo>> = {
  serverless: {
    label: 'Serverless',
    groupings: ['endpointId', 'podId', 'gpuId'],
    filters: ['endpointId', 'gpuId'],
    groupField: (g) => (g === 'podId' || g === 'gpuId' ? g : 'serverlessId'),
    components: [...COMPUTE_COMPONENTS, { key: 'feeAmount', label: 'Fee' }],
  },
  pods: {
    label: 'Pods',
    groupings: ['gpuId', 'podId'],
    filters: ['podId', 'gpuId'],
    groupField: (g) => (g === 'podId' ? 'podId' : 'gpuId'),
    components: COMPUTE_COMPONENTS,
  },
  networkVolumes: {
    label: 'Network volumes',
    groupings: [],
    filters: [],
    groupField: () => 'networkVolumeId',
    components: [
      { key: 'standardAmount', label: 'Standard' },
      { key: 'highPerformanceAmount', label: 'High performance' },
    ],
  },
  publicEndpoints: { label: 'Public endpoints', groupings: [], filters: [], groupField: () => undefined, components: [] },
  all: {
    label: 'All',
    groupings: [],
    filters: [],
    groupField: () => undefined,
    components: [
      { key: 'podGpuAmount', label: 'Pod GPU' },
      { key: 'podCpuAmount', label: 'Pod CPU' },
      { key: 'podDiskAmount', label: 'Pod disk' },
      { key: 'serverlessGpuAmount', label: 'Serverless GPU' },
      { key: 'serverlessCpuAmount', label: 'Serverless CPU' },
      { key: 'serverlessDiskAmount', label: 'Serverless disk' },
      { key: 'serverlessFeeAmount', label: 'Serverless fee' },
      { key: 'storageStandardAmount', label: 'Storage (standard)' },
      { key: 'storageHighPerformanceAmount', label: 'Storage (high performance)' },
      { key: 'endpointAmount', label: 'Public endpoints' },
      { key: 'clusterGpuAmount', label: 'Cluster GPU' },
      { key: 'clusterDiskAmount', label: 'Cluster disk' },
      { key: 'clusterNetworkingAmount', label: 'Cluster networking' },
    ],
  },
};

export const BILLING_KINDS = Object.keys(KINDS) as BillingKind[];

function isBillingKind(value: unknown): value is BillingKind {
  return typeof value === 'string' && value in KINDS;
}

/** A checked request: exactly one way of choosing the window, a grouping the kind offers. */
export interface BillingRequest {
  readonly kind: BillingKind;
  readonly bucketSize: BillingBucketSize;
  /** Either `lastN`, or any of `startTime`/`endTime` (absent: the service's 30 days ago / now). */
  readonly lastN?: number;
  readonly startTime?: string;
  readonly endTime?: string;
  readonly grouping?: string;
  readonly podId?: string;
  readonly endpointId?: string;
  readonly gpuId?: string;
}

/** As typed by a person or sent by a form: anything may be missing, empty or wrong. */
export interface BillingRequestInput {
  kind?: unknown;
  bucketSize?: unknown;
  lastN?: unknown;
  startTime?: unknown;
  endTime?: unknown;
  grouping?: unknown;
  podId?: unknown;
  endpointId?: unknown;
  gpuId?: unknown;
}

export const MAX_LAST_N = 1000;
const MAX_ID_LENGTH = 200;

/** The request with defaults applied, or what is wrong with it (`--flag`-free wording; callers add theirs). */
export function checkBillingRequest(input: BillingRequestInput): { request: BillingRequest } | { error: string } {
  if (!isBillingKind(input.kind)) return { error: `kind must be one of ${BILLING_KINDS.join(', ')}` };
  const info = KINDS[input.kind];
  const present = (v: unknown): boolean => v !== undefined && v !== null && v !== '';
  const bucketSize = present(input.bucketSize) ? input.bucketSize : DEFAULT_BUCKET_SIZE;
  if (!isBucketSize(bucketSize))
    return { error: `bucket size must be one of ${BUCKET_SIZES.join(', ')}; got: ${String(input.bucketSize)}` };
  const request: { -readonly [K in keyof BillingRequest]: BillingRequest[K] } = { kind: input.kind, bucketSize };

  if (present(input.lastN)) {
    if (present(input.startTime) || present(input.endTime))
      return { error: 'the last N buckets cannot be combined with a start or end time; choose one or the other' };
    const n = typeof input.lastN === 'string' && /^\d+$/.test(input.lastN) ? Number(input.lastN) : input.lastN;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_LAST_N)
      return { error: `the last N buckets must be a whole number from 1 to ${MAX_LAST_N}; got: ${String(input.lastN)}` };
    request.lastN = n;
  }
  for (const name of ['startTime', 'endTime'] as const) {
    const value = input[name];
    if (!present(value)) continue;
    if (typeof value !== 'string' || !isRfc3339(value))
      return {
        error: `${name === 'startTime' ? 'start' : 'end'} time must be an RFC 3339 timestamp such as 2026-05-01T00:00:00Z; got: ${String(value).slice(0, 60)}`,
      };
    request[name] = value;
  }
  if (request.startTime && request.endTime && Date.parse(request.startTime) >= Date.parse(request.endTime))
    return { error: 'start time must be before end time' };

  if (info.groupings.length > 0) {
    const grouping = present(input.grouping) ? input.grouping : info.groupings[0];
    if (typeof grouping !== 'string' || !info.groupings.includes(grouping))
      return { error: `grouping for ${input.kind} must be one of ${info.groupings.join(', ')}; got: ${String(input.grouping)}` };
    request.grouping = grouping;
  } else if (present(input.grouping)) {
    return { error: `${info.label.toLowerCase()} billing has no grouping` };
  }
  for (const filter of ['podId', 'endpointId', 'gpuId'] as const) {
    const value = input[filter];
    if (!present(value)) continue;
    if (!info.filters.includes(filter)) return { error: `${info.label.toLowerCase()} billing has no ${filter} filter` };
    if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_ID_LENGTH)
      return { error: `${filter} must be an identifier of at most ${MAX_ID_LENGTH} characters` };
    request[filter] = value.trim();
  }
  return { request };
}

/** The answer of any billing path: records plus the resolved query and totals. */
export interface BillingResponse {
  records: Array<Record<string, unknown>>;
  metadata: {
    query: Record<string, unknown> & { startTime: string; endTime: string; bucketSize: BillingBucketSize };
    recordCount: number;
    totals: Record<string, number>;
  } & Record<string, unknown>;
}

/** Sends a checked request to the path of its kind. */
export async function fetchBilling(api: ApiClient, request: BillingRequest, options: CallOptions = {}): Promise<BillingResponse> {
  const window = request.lastN !== undefined ? { lastN: request.lastN } : { startTime: request.startTime, endTime: request.endTime };
  const common = { bucketSize: request.bucketSize, ...window, ...options };
  const { billing } = api;
  const send: Record<BillingKind, () => Promise<unknown>> = {
    serverless: () =>
      billing.serverless({
        ...common,
        grouping: request.grouping as 'endpointId' | 'podId' | 'gpuId',
        endpointId: request.endpointId,
        gpuId: request.gpuId,
      }),
    pods: () => billing.pods({ ...common, grouping: request.grouping as 'podId' | 'gpuId', podId: request.podId, gpuId: request.gpuId }),
    networkVolumes: () => billing.networkVolumes(common),
    publicEndpoints: () => billing.publicEndpoints(common),
    all: () => billing.all(common),
  };
  return readResponse(await send[request.kind]());
}

/** The answer read defensively: a service answer is input, and the chart must not trust its shape. */
function readResponse(answer: unknown): BillingResponse {
  const body = (typeof answer === 'object' && answer !== null ? answer : {}) as Record<string, unknown>;
  const records = Array.isArray(body.records)
    ? body.records.filter(
        (r): r is Record<string, unknown> =>
          typeof r === 'object' && r !== null && typeof (r as Record<string, unknown>).startTime === 'string',
      )
    : [];
  const metadata = (typeof body.metadata === 'object' && body.metadata !== null ? body.metadata : {}) as Record<string, unknown>;
  const query = (typeof metadata.query === 'object' && metadata.query !== null ? metadata.query : {}) as Record<string, unknown>;
  const totals = Object.fromEntries(
    Object.entries((metadata.totals ?? {}) as Record<string, unknown>).filter(
      (e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1]),
    ),
  );
  if (typeof query.startTime !== 'string' || typeof query.endTime !== 'string' || !isBucketSize(query.bucketSize)) {
    throw new Error('the service answered without the resolved window (metadata.query)');
  }
  return {
    records,
    metadata: {
      ...metadata,
      query: { ...query, startTime: query.startTime, endTime: query.endTime, bucketSize: query.bucketSize },
      recordCount: typeof metadata.recordCount === 'number' ? metadata.recordCount : records.length,
      totals,
    },
  };
}
