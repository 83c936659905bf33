/**
 * From a panel query to a billing request, and from the shaped answer to what the webview draws.
 * No editor API here, so the panel's logic is tested on plain data.
 */
import { BUCKET_SIZES } from '../../core/billing/buckets';
import { formatAmount, formatUsd } from '../../core/billing/format';
import { KINDS, type BillingKind, type BillingRequest } from '../../core/billing/query';
import { chartSeries, type BillingTable } from '../../core/billing/series';
import { billingRequestOf } from '../../core/operations';
import type { ReleaseMarker } from './markers';
import type { PanelQuery, PanelView } from './messages';

/** Stacked series in the chart (and columns in the table): more cannot be told apart by colour. */
export const MAX_SERIES = 8;

/** A query with the command-line client's defaults: bucket `day`, the kind's default grouping, the service's default window. */
export function defaultQuery(kind: BillingKind = 'serverless', extra: Partial<PanelQuery> = {}): PanelQuery {
  return {
    kind,
    bucketSize: 'day',
    range: 'between',
    lastN: 30,
    startTime: '',
    endTime: '',
    grouping: KINDS[kind].groupings[0] ?? '',
    podId: '',
    endpointId: '',
    gpuId: '',
    ...extra,
  };
}

/** The query made consistent with its kind: a grouping the kind offers, only the filters it has. */
export function normalizeQuery(query: PanelQuery): PanelQuery {
  const info = KINDS[query.kind];
  const keep = (filter: 'podId' | 'endpointId' | 'gpuId'): string => (info.filters.includes(filter) ? query[filter].trim() : '');
  return {
    ...query,
    bucketSize: BUCKET_SIZES.includes(query.bucketSize) ? query.bucketSize : 'day',
    grouping: info.groupings.includes(query.grouping) ? query.grouping : (info.groupings[0] ?? ''),
    podId: keep('podId'),
    endpointId: keep('endpointId'),
    gpuId: keep('gpuId'),
  };
}

export function requestOf(query: PanelQuery): { request: BillingRequest } | { error: string } {
  const q = normalizeQuery(query);
  const checked = billingRequestOf({
    kind: q.kind,
    bucketSize: q.bucketSize,
    ...(q.range === 'last' ? { lastN: q.lastN } : { startTime: q.startTime.trim(), endTime: q.endTime.trim() }),
    grouping: q.grouping,
    podId: q.podId,
    endpointId: q.endpointId,
    gpuId: q.gpuId,
  });
  return checked.ok ? { request: checked.request } : { error: checked.message };
}

const GROUPED_BY: Record<string, string> = {
  serverlessId: 'endpoint',
  podId: 'pod',
  gpuId: 'GPU type',
  networkVolumeId: 'network volume',
  component: 'cost component',
};

/** `markers`: the releases of the endpoints in view (markers.ts), drawn across the bars. */
export function panelView(request: BillingRequest, table: BillingTable, markers: readonly ReleaseMarker[] = []): PanelView {
  const series = chartSeries(table, MAX_SERIES);
  const filters = (['podId', 'endpointId', 'gpuId'] as const).filter((f) => request[f]).map((f) => `${f} ${request[f]}`);
  const by = GROUPED_BY[table.groupedBy];
  const subtitle = [`${table.startTime} to ${table.endTime} (UTC), by ${table.bucketSize}`, by ? `stacked by ${by}` : '', ...filters]
    .filter(Boolean)
    .join(' · ');
  return {
    title: `${KINDS[request.kind].label} billing: ${formatUsd(table.total)}`,
    subtitle,
    buckets: table.buckets.map((b) => ({ label: b.label, start: b.start, end: b.end })),
    series: series.map((s) => ({ label: s.label, values: [...s.values] })),
    table: {
      columns: series.map((s) => s.label),
      rows: table.buckets.map((b, i) => ({
        label: b.label,
        cells: series.map((s) => formatAmount(s.values[i])),
        total: formatAmount(table.bucketTotals[i]),
      })),
      totals: series.map((s) => formatAmount(s.values.reduce((a, v) => a + v, 0))),
      total: formatAmount(table.total),
    },
    components: table.components.map((c) => ({ label: c.label, amount: formatUsd(c.amount) })),
    markers: markers.map((m) => ({ position: m.position, label: m.label })),
    empty: table.groups.length === 0 || table.groups.every((g) => g.total === 0),
  };
}
