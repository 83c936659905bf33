/**
 * The messages between the billing panel and its webview. What the webview sends is untrusted
 * input: only the known types, with exactly the expected fields of the expected types and sizes,
 * are accepted; the query's meaning (dates, groupings per kind) is checked after that by the same
 * request check the CLI uses.
 */
import type { BillingBucketSize } from '../../core/api/billing';
import { BUCKET_SIZES } from '../../core/billing/buckets';
import { BILLING_KINDS, KINDS, MAX_LAST_N, type BillingKind } from '../../core/billing/query';

/** The panel's form, as the webview shows it. */
export interface PanelQuery {
  kind: BillingKind;
  bucketSize: BillingBucketSize;
  /** `last`: the last `lastN` buckets; `between`: start and end time (either may be empty: the service default). */
  range: 'last' | 'between';
  lastN: number;
  startTime: string;
  endTime: string;
  /** Empty for kinds without groupings. */
  grouping: string;
  podId: string;
  endpointId: string;
  gpuId: string;
}

/** The rendered answer: numbers for the chart, formatted text for the table and the labels. */
export interface PanelView {
  title: string;
  /** The resolved window and grouping, in words. */
  subtitle: string;
  buckets: { label: string; start: string; end: string }[];
  /** Stacked from the bottom, in legend order. */
  series: { label: string; values: number[] }[];
  table: { columns: string[]; rows: { label: string; cells: string[]; total: string }[]; totals: string[]; total: string };
  components: { label: string; amount: string }[];
  /** Releases of the endpoints in view: where on the time axis, in buckets from the start, and what changed. */
  markers: { position: number; label: string }[];
  empty: boolean;
}

export type ToWebview =
  | {
      type: 'init';
      query: PanelQuery;
      kinds: { id: BillingKind; label: string; groupings: string[]; filters: string[] }[];
      bucketSizes: string[];
      maxLastN: number;
    }
  | { type: 'loading'; query: PanelQuery }
  | { type: 'data'; view: PanelView; canExport: boolean }
  /** `retry`: whether asking again may help (a failed read), or the query itself must change. */
  | { type: 'error'; message: string; retry: boolean };

export type FromWebview = { type: 'ready' } | { type: 'query'; query: PanelQuery } | { type: 'exportCsv' };

const MAX_TEXT = 200;
const QUERY_KEYS = ['kind', 'bucketSize', 'range', 'lastN', 'startTime', 'endTime', 'grouping', 'podId', 'endpointId', 'gpuId'];

export function kindDescriptions(): Extract<ToWebview, { type: 'init' }>['kinds'] {
  return BILLING_KINDS.map((id) => ({ id, label: KINDS[id].label, groupings: [...KINDS[id].groupings], filters: [...KINDS[id].filters] }));
}

function parseQuery(raw: unknown): PanelQuery | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const q = raw as Record<string, unknown>;
  if (Object.keys(q).length !== QUERY_KEYS.length || !QUERY_KEYS.every((k) => k in q)) return undefined;
  const text = (v: unknown): v is string => typeof v === 'string' && v.length <= MAX_TEXT;
  if (!(BILLING_KINDS as unknown[]).includes(q.kind) || !(BUCKET_SIZES as unknown[]).includes(q.bucketSize)) return undefined;
  if (q.range !== 'last' && q.range !== 'between') return undefined;
  if (typeof q.lastN !== 'number' || !Number.isInteger(q.lastN) || q.lastN < 1 || q.lastN > MAX_LAST_N) return undefined;
  for (const key of ['startTime', 'endTime', 'grouping', 'podId', 'endpointId', 'gpuId']) if (!text(q[key])) return undefined;
  return q as unknown as PanelQuery;
}

/** The message, or undefined when it is not exactly one the panel understands. */
export function parseWebviewMessage(raw: unknown): FromWebview | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const m = raw as Record<string, unknown>;
  const keys = Object.keys(m);
  switch (m.type) {
    case 'ready':
    case 'exportCsv':
      return keys.length === 1 ? { type: m.type } : undefined;
    case 'query': {
      if (keys.length !== 2) return undefined;
      const query = parseQuery(m.query);
      return query ? { type: 'query', query } : undefined;
    }
    default:
      return undefined;
  }
}
