/**
 * Billing records shaped for reading: one row per bucket of the resolved window (buckets without
 * spend included, so the time axis has no gaps), one column per group, totals per bucket, per
 * group and overall. The chart stacks the biggest groups and folds the rest into "Other", since
 * twelve shades of one theme colour cannot be told apart; the table and CSV keep every group.
 */
import { bucketLabel, bucketStarts, isoTime } from './buckets';
import { KINDS, type BillingKind, type BillingResponse } from './query';

export interface BillingGroup {
  /** The group's id as the records carry it (endpoint id, GPU type id, component key, ...). */
  readonly id: string;
  readonly label: string;
  readonly total: number;
}

export interface BillingTable {
  readonly kind: BillingKind;
  readonly bucketSize: BillingResponse['metadata']['query']['bucketSize'];
  /** The window the service resolved (aligned to buckets), RFC 3339. */
  readonly startTime: string;
  readonly endTime: string;
  /** What the groups are: `serverlessId`, `gpuId`, ..., or `component` / `total`. */
  readonly groupedBy: string;
  readonly buckets: readonly { readonly start: string; readonly end: string; readonly label: string }[];
  /** Sorted by total spend, largest first (ties by id, so the order is stable). */
  readonly groups: readonly BillingGroup[];
  /** `cells[bucket][group]`, in the order of `buckets` and `groups`. */
  readonly cells: readonly (readonly number[])[];
  readonly bucketTotals: readonly number[];
  readonly total: number;
  /** Cost components summed over the window, as the service's metadata totals them. */
  readonly components: readonly { readonly key: string; readonly label: string; readonly amount: number }[];
}

const amount = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
/** The group a record counts toward: its id as text, or "(none)" when the service named none. */
const groupId = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '(none)' : JSON.stringify(v));

/** The total of a record: its `totalAmount`, else the sum of its components. */
function recordTotal(record: Record<string, unknown>, components: readonly { key: string }[]): number {
  if (typeof record.totalAmount === 'number' && Number.isFinite(record.totalAmount)) return record.totalAmount;
  return components.reduce((sum, c) => sum + amount(record[c.key]), 0);
}

export function shapeBilling(kind: BillingKind, grouping: string | undefined, response: BillingResponse): BillingTable {
  const info = KINDS[kind];
  const { query } = response.metadata;
  const start = Date.parse(query.startTime);
  const end = Date.parse(query.endTime);
  // Every bucket of the window, plus any bucket a record names that the enumeration missed.
  const starts = new Set(bucketStarts(start, end, query.bucketSize));
  for (const record of response.records) {
    const t = Date.parse(String(record.startTime));
    if (!Number.isNaN(t)) starts.add(t);
  }
  const sorted = [...starts].sort((a, b) => a - b);
  const index = new Map(sorted.map((t, i) => [t, i]));
  const ends = new Map<number, string>();
  for (const record of response.records)
    if (typeof record.endTime === 'string') ends.set(Date.parse(String(record.startTime)), record.endTime);

  // Aggregate records have one component per stack segment; the others one group per id.
  const field = info.groupField(grouping);
  const byComponent = kind === 'all';
  const groupIds: string[] = byComponent ? info.components.map((c) => c.key) : [];
  const columnOf = new Map(groupIds.map((id, i) => [id, i]));
  const rows: number[][] = sorted.map(() => groupIds.map(() => 0));
  const add = (bucket: number, id: string, value: number): void => {
    let column = columnOf.get(id);
    if (column === undefined) {
      column = groupIds.length;
      groupIds.push(id);
      columnOf.set(id, column);
      for (const row of rows) row.push(0);
    }
    rows[bucket][column] += value;
  };
  for (const record of response.records) {
    const bucket = index.get(Date.parse(String(record.startTime)));
    if (bucket === undefined) continue;
    if (byComponent) {
      for (const c of info.components) add(bucket, c.key, amount(record[c.key]));
    } else {
      const id = field ? groupId(record[field]) : 'total';
      add(bucket, id, recordTotal(record, info.components));
    }
  }

  const labelOf = (id: string): string =>
    byComponent ? (info.components.find((c) => c.key === id)?.label ?? id) : field ? id : info.label;
  const groupTotals = groupIds.map((_, column) => rows.reduce((sum, row) => sum + row[column], 0));
  // Components with nothing spent say nothing; drop them from the aggregate chart.
  const keep = groupIds.map((_, column) => !byComponent || groupTotals[column] !== 0);
  const order = groupIds
    .map((id, column) => ({ id, column }))
    .filter(({ column }) => keep[column])
    .sort((a, b) => groupTotals[b.column] - groupTotals[a.column] || (byComponent ? a.column - b.column : a.id.localeCompare(b.id)));

  const cells = rows.map((row) => order.map(({ column }) => row[column]));
  const bucketTotals = cells.map((row) => row.reduce((a, b) => a + b, 0));
  const componentTotals = info.components.length > 0 ? info.components : [{ key: 'totalAmount', label: 'Total' }];
  return {
    kind,
    bucketSize: query.bucketSize,
    startTime: query.startTime,
    endTime: query.endTime,
    groupedBy: byComponent ? 'component' : (field ?? 'total'),
    buckets: sorted.map((t, i) => ({
      start: isoTime(t),
      end: ends.get(t) ?? (i + 1 < sorted.length ? isoTime(sorted[i + 1]) : query.endTime),
      label: bucketLabel(t, query.bucketSize),
    })),
    groups: order.map(({ id, column }) => ({ id, label: labelOf(id), total: groupTotals[column] })),
    cells,
    bucketTotals,
    total: bucketTotals.reduce((a, b) => a + b, 0),
    components: componentTotals.map((c) => ({ key: c.key, label: c.label, amount: amount(response.metadata.totals[c.key]) })),
  };
}

export interface ChartSeries {
  readonly label: string;
  /** One value per bucket. */
  readonly values: readonly number[];
}

/** At most `max` stacked series: the largest groups, the rest summed as "Other (n)". */
export function chartSeries(table: BillingTable, max = 8): ChartSeries[] {
  const shown = table.groups.length <= max ? table.groups.length : max - 1;
  const series: ChartSeries[] = table.groups
    .slice(0, shown)
    .map((g, column) => ({ label: g.label, values: table.cells.map((row) => row[column]) }));
  if (shown < table.groups.length) {
    series.push({
      label: `Other (${table.groups.length - shown})`,
      values: table.cells.map((row) => row.slice(shown).reduce((a, b) => a + b, 0)),
    });
  }
  return series;
}

/** Spend per group over the whole window, e.g. each endpoint's spend for the Endpoints view. */
export function totalsByGroup(table: BillingTable): Map<string, number> {
  return new Map(table.groups.map((g) => [g.id, g.total]));
}

/**
 * Groups relabelled by `names` (endpoint id → endpoint name): people know endpoints by name. An id
 * the map lacks (a deleted endpoint) keeps the id; a name two groups share gets its id added.
 */
export function withGroupNames(table: BillingTable, names: ReadonlyMap<string, string>): BillingTable {
  const uses = new Map<string, number>();
  for (const g of table.groups) {
    const name = names.get(g.id);
    if (name) uses.set(name, (uses.get(name) ?? 0) + 1);
  }
  return {
    ...table,
    groups: table.groups.map((g) => {
      const name = names.get(g.id);
      return name ? { ...g, label: (uses.get(name) ?? 0) > 1 ? `${name} (${g.id})` : name } : g;
    }),
  };
}
