/**
 * Billing: serverless spend accrues per worker per hour from the simulation; storage is billed
 * from each network volume's size over time. Queries resolve their window the way the service
 * documents it: `startTime` snapped down to its bucket, `endTime` snapped up unless already on a
 * boundary, `lastN` ending with the current bucket; weeks start on Monday, all in UTC.
 *
 * An answer holds a record per bucket per group and is built whole in memory, so windows and answers
 * are capped (docs/emulator.md states both limits, which the API does not): hours of a month grouped
 * by thousands of workers are a 400, not an exhausted heap.
 */
import type { EmulatorContext } from '../context';
import { badRequest } from '../http/problems';
import { route, type Route } from '../http/router';
import type { EmulatorState, UsageRecord } from '../state';
import type { BillingBucketSize } from '../../core/api/billing';
import { BUCKET_SIZES, floorBucket, nextBucket } from '../../core/billing/buckets';

const HOUR = 3600 * 1000;
/** A window's limit: hourly buckets for more than a year, daily for 27 years. */
const MAX_BUCKETS = 10000;
/** Ten times the one-group maximum: the demo's month of workers fits grouped by day, not by hour. */
const MAX_RECORDS = 100_000;
/** USD per GB-month (730 hours) of network volume storage. */
const STORAGE_RATE = { STANDARD: 0.07, HIGH_PERFORMANCE: 0.14 } as const;

export interface BillingWindow {
  start: number;
  end: number;
  bucketSize: BillingBucketSize;
  buckets: number[];
}

function parseTime(query: URLSearchParams, name: string): number | undefined {
  const value = query.get(name);
  if (value === null) return undefined;
  const t = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(t))
    throw badRequest(`${name} must be an RFC 3339 timestamp; got: ${JSON.stringify(value)}`, [`$.${name}: not an RFC 3339 timestamp`]);
  return t;
}

export function resolveWindow(query: URLSearchParams, now: number): BillingWindow {
  const bucketSize = choice(query, 'bucketSize', BUCKET_SIZES, 'day') as BillingBucketSize;
  const startParam = parseTime(query, 'startTime');
  const endParam = parseTime(query, 'endTime');
  const lastNParam = query.get('lastN');
  let start: number;
  let end: number;
  if (lastNParam !== null) {
    if (startParam !== undefined || endParam !== undefined)
      throw badRequest('lastN cannot be combined with startTime or endTime; send one or the other');
    const lastN = Number(lastNParam);
    if (!/^\d+$/.test(lastNParam) || lastN < 1 || lastN > MAX_BUCKETS)
      throw badRequest(`lastN must be an integer from 1 to ${MAX_BUCKETS}; got: ${JSON.stringify(lastNParam)}`, ['$.lastN: invalid value']);
    const current = floorBucket(now, bucketSize);
    end = nextBucket(current, bucketSize);
    start = current;
    for (let i = 1; i < lastN; i++) start = floorBucket(start - 1, bucketSize);
  } else {
    start = floorBucket(startParam ?? now - 30 * 24 * HOUR, bucketSize);
    const rawEnd = endParam ?? now;
    const floored = floorBucket(rawEnd, bucketSize);
    end = floored === rawEnd ? rawEnd : nextBucket(floored, bucketSize);
  }
  if (start >= end) throw badRequest('startTime must be before endTime');
  const buckets: number[] = [];
  for (let b = start; b < end; b = nextBucket(b, bucketSize)) {
    buckets.push(b);
    if (buckets.length > MAX_BUCKETS)
      throw badRequest(`the window spans more than ${MAX_BUCKETS} ${bucketSize} buckets; choose a larger bucketSize or a shorter window`);
  }
  return { start, end, bucketSize, buckets };
}

const iso = (t: number): string => new Date(t).toISOString().replace('.000Z', 'Z');
const money = (n: number): number => Math.round(n * 1e6) / 1e6;

/** Adds worker spend to its hour; the index keeps the per-tick cost constant. */
export class UsageLedger {
  private readonly index = new Map<string, UsageRecord>();

  constructor(private readonly state: EmulatorState) {
    for (const u of state.usage) this.index.set(this.key(u.endpointId, u.workerId, u.resourceId, u.hourStart), u);
  }

  private key(endpointId: string, workerId: string, resourceId: string, hourStart: number): string {
    return `${endpointId}|${workerId}|${resourceId}|${hourStart}`;
  }

  record(endpointId: string, workerId: string, resourceId: string, at: number, amounts: { gpu: number; cpu: number; disk: number }): void {
    const hourStart = Math.floor(at / HOUR) * HOUR;
    const key = this.key(endpointId, workerId, resourceId, hourStart);
    let usage = this.index.get(key);
    if (!usage) {
      usage = { endpointId, workerId, resourceId, hourStart, gpuAmount: 0, cpuAmount: 0, diskAmount: 0, feeAmount: 0 };
      this.index.set(key, usage);
      this.state.usage.push(usage);
    }
    usage.gpuAmount += amounts.gpu;
    usage.cpuAmount += amounts.cpu;
    usage.diskAmount += amounts.disk;
  }
}

type Amounts = Record<string, number>;

function bucketOf(window: BillingWindow, t: number): number | undefined {
  if (t < window.start || t >= window.end) return undefined;
  let lo = 0;
  let hi = window.buckets.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (window.buckets[mid] <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** One record per group per bucket, for every group that has any spend in the window. */
function groupedRecords(
  window: BillingWindow,
  entries: { group: string; t: number; amounts: Amounts }[],
  components: readonly string[],
  groupField: string | undefined,
) {
  // Only buckets with spend hold a row until the record count is known to be within the cap.
  const groups = new Map<string, Map<number, Amounts>>();
  for (const entry of entries) {
    const b = bucketOf(window, entry.t);
    if (b === undefined) continue;
    const rows = groups.get(entry.group) ?? new Map<number, Amounts>();
    groups.set(entry.group, rows);
    const row = rows.get(b) ?? {};
    rows.set(b, row);
    for (const c of components) row[c] = (row[c] ?? 0) + (entry.amounts[c] ?? 0);
  }
  const count = groups.size * window.buckets.length;
  if (count > MAX_RECORDS)
    throw badRequest(
      `the answer would hold ${count} records (${window.buckets.length} ${window.bucketSize} buckets for each of ${groups.size} ${groupField ?? 'group'}s); the emulator answers at most ${MAX_RECORDS}: choose a larger bucketSize, a shorter window or a filter`,
    );
  const totals: Amounts = Object.fromEntries([['totalAmount', 0], ...components.map((c): [string, number] => [c, 0])]);
  const records: Record<string, unknown>[] = [];
  for (const [group, rows] of groups) {
    window.buckets.forEach((start, i) => {
      const row = rows.get(i) ?? {};
      const amount = (c: string): number => row[c] ?? 0;
      const total = components.reduce((n, c) => n + amount(c), 0);
      totals.totalAmount += total;
      for (const c of components) totals[c] += amount(c);
      records.push({
        startTime: iso(start),
        endTime: iso(i + 1 < window.buckets.length ? window.buckets[i + 1] : window.end),
        ...(groupField ? { [groupField]: group } : {}),
        totalAmount: money(total),
        ...Object.fromEntries(components.map((c) => [c, money(amount(c))])),
      });
    });
  }
  return { records, totals: Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, money(v)])), groupCount: groups.size };
}

function serverlessEntries(ctx: EmulatorContext, filter: { serverlessId?: string; gpuId?: string }, grouping: string) {
  return ctx.state.usage
    .filter((u) => (!filter.serverlessId || u.endpointId === filter.serverlessId) && (!filter.gpuId || u.resourceId === filter.gpuId))
    .map((u) => ({
      group: grouping === 'gpuId' ? u.resourceId : grouping === 'podId' ? u.workerId : u.endpointId,
      endpointId: u.endpointId,
      t: u.hourStart,
      amounts: { gpuAmount: u.gpuAmount, cpuAmount: u.cpuAmount, diskAmount: u.diskAmount, feeAmount: u.feeAmount },
    }));
}

/** Storage spend spread hour by hour over each volume's lifetime within the window. */
function volumeEntries(ctx: EmulatorContext, window: BillingWindow, volumeId?: string) {
  const entries: { group: string; t: number; amounts: Amounts }[] = [];
  const now = ctx.now();
  for (const u of ctx.state.volumeUsage) {
    if (volumeId && u.volumeId !== volumeId) continue;
    const from = Math.max(u.from, window.start);
    const to = Math.min(u.to ?? now, window.end);
    for (let h = Math.floor(from / HOUR) * HOUR; h < to; h += HOUR) {
      const overlap = Math.min(to, h + HOUR) - Math.max(from, h);
      if (overlap <= 0) continue;
      const amount = ((u.size * STORAGE_RATE[u.type]) / 730) * (overlap / HOUR);
      entries.push({
        group: u.volumeId,
        t: Math.max(from, h),
        amounts: { standardAmount: u.type === 'STANDARD' ? amount : 0, highPerformanceAmount: u.type === 'HIGH_PERFORMANCE' ? amount : 0 },
      });
    }
  }
  return entries;
}

function queryEcho(window: BillingWindow, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { startTime: iso(window.start), endTime: iso(window.end), bucketSize: window.bucketSize, ...extra };
}

function choice(query: URLSearchParams, name: string, allowed: readonly string[], fallback: string): string {
  const value = query.get(name) ?? fallback;
  if (!allowed.includes(value))
    throw badRequest(`${name} must be one of ${allowed.join(', ')}; got: ${JSON.stringify(value)}`, [`$.${name}: invalid value`]);
  return value;
}

export function billingRoutes(ctx: EmulatorContext): Route[] {
  const serverless = (query: URLSearchParams) => {
    const window = resolveWindow(query, ctx.now());
    const grouping = choice(query, 'grouping', ['endpointId', 'podId', 'gpuId'], 'endpointId');
    const serverlessId = query.get('serverlessId') ?? query.get('endpointId') ?? undefined;
    const gpuId = query.get('gpuId') ?? undefined;
    const entries = serverlessEntries(ctx, { serverlessId, gpuId }, grouping);
    const field = grouping === 'endpointId' ? 'serverlessId' : grouping;
    const result = groupedRecords(window, entries, ['gpuAmount', 'cpuAmount', 'diskAmount', 'feeAmount'], field);
    const endpoints = new Set(entries.filter((e) => bucketOf(window, e.t) !== undefined).map((e) => e.endpointId));
    return {
      records: result.records,
      metadata: {
        query: queryEcho(window, { serverlessId: serverlessId ?? null, ...(gpuId ? { gpuId } : {}), grouping }),
        recordCount: result.records.length,
        uniqueServerlessCount: endpoints.size,
        totals: result.totals,
      },
    };
  };
  const volumes = (query: URLSearchParams) => {
    const window = resolveWindow(query, ctx.now());
    const networkVolumeId = query.get('networkVolumeId') ?? undefined;
    const result = groupedRecords(
      window,
      volumeEntries(ctx, window, networkVolumeId),
      ['standardAmount', 'highPerformanceAmount'],
      'networkVolumeId',
    );
    return {
      records: result.records,
      metadata: {
        query: queryEcho(window, { networkVolumeId: networkVolumeId ?? null }),
        recordCount: result.records.length,
        uniqueNetworkVolumeCount: result.groupCount,
        totals: result.totals,
      },
    };
  };
  return [
    route('GET', '/v2/billing', 'Aggregated billing history', ({ query }) => {
      const window = resolveWindow(query, ctx.now());
      const entries = [
        ...serverlessEntries(ctx, {}, 'endpointId').map((e) => ({
          group: 'all',
          t: e.t,
          amounts: {
            serverlessGpuAmount: e.amounts.gpuAmount,
            serverlessCpuAmount: e.amounts.cpuAmount,
            serverlessDiskAmount: e.amounts.diskAmount,
            serverlessFeeAmount: e.amounts.feeAmount,
          },
        })),
        ...volumeEntries(ctx, window).map((e) => ({
          group: 'all',
          t: e.t,
          amounts: { storageStandardAmount: e.amounts.standardAmount, storageHighPerformanceAmount: e.amounts.highPerformanceAmount },
        })),
        // Every bucket gets a record, spend or not.
        ...window.buckets.map((t) => ({ group: 'all', t, amounts: {} })),
      ];
      const components = [
        'podGpuAmount',
        'podCpuAmount',
        'podDiskAmount',
        'serverlessGpuAmount',
        'serverlessCpuAmount',
        'serverlessDiskAmount',
        'serverlessFeeAmount',
        'storageStandardAmount',
        'storageHighPerformanceAmount',
        'endpointAmount',
        'clusterGpuAmount',
        'clusterDiskAmount',
        'clusterNetworkingAmount',
      ];
      const result = groupedRecords(window, entries, components, undefined);
      return {
        status: 200,
        body: {
          records: result.records,
          metadata: { query: queryEcho(window), recordCount: result.records.length, totals: result.totals },
        },
      };
    }),
    route('GET', '/v2/billing/pods', 'Pod billing history', ({ query }) => {
      const window = resolveWindow(query, ctx.now());
      const grouping = choice(query, 'grouping', ['podId', 'gpuId'], 'gpuId');
      const gpuId = query.get('gpuId') ?? undefined;
      // The emulator runs no pods, so pod billing is empty but fully shaped; the filters applied are echoed as for serverless.
      return {
        status: 200,
        body: {
          records: [],
          metadata: {
            query: queryEcho(window, { podId: query.get('podId'), ...(gpuId ? { gpuId } : {}), grouping }),
            recordCount: 0,
            uniquePodCount: 0,
            totals: { totalAmount: 0, gpuAmount: 0, cpuAmount: 0, diskAmount: 0 },
          },
        },
      };
    }),
    route('GET', '/v2/billing/serverless', 'Serverless billing history', ({ query }) => ({ status: 200, body: serverless(query) })),
    route('GET', '/v2/billing/network-volumes', 'Network volume billing history', ({ query }) => ({ status: 200, body: volumes(query) })),
    route('GET', '/v2/billing/networkvolumes', 'Network volume billing history (older path)', ({ query }) => ({
      status: 200,
      body: volumes(query),
    })),
    route('GET', '/v2/billing/endpoints', 'Public endpoint billing history', ({ query }) => {
      const window = resolveWindow(query, ctx.now());
      const records = window.buckets.map((b, i) => ({
        startTime: iso(b),
        endTime: iso(window.buckets[i + 1] ?? window.end),
        totalAmount: 0,
      }));
      return {
        status: 200,
        body: { records, metadata: { query: queryEcho(window), recordCount: records.length, totals: { totalAmount: 0 } } },
      };
    }),
  ];
}
