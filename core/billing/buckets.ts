/**
 * Billing time buckets on the client side. The service resolves a query to a window aligned to
 * bucket boundaries and answers records only for buckets (and groups) with data; the chart needs
 * every bucket of the window, spend or not, so the client enumerates them with the same rules:
 * UTC, weeks starting on Monday, months and years on the calendar.
 */
import type { BillingBucketSize } from '../api/billing';

export const BUCKET_SIZES: readonly BillingBucketSize[] = ['hour', 'day', 'week', 'month', 'year'];
export const DEFAULT_BUCKET_SIZE: BillingBucketSize = 'day';
const HOUR = 3600_000;
const DAY = 24 * HOUR;
/** A chart of more bars than this is unreadable and a sign of a wrong bucket size; enumeration stops. */
const MAX_BUCKETS = 2000;

export function isBucketSize(value: unknown): value is BillingBucketSize {
  return typeof value === 'string' && (BUCKET_SIZES as readonly string[]).includes(value);
}

/**
 * RFC 3339 date-time with a zone (`2026-05-01T00:00:00Z`, `…+02:00`, fractional seconds allowed).
 * Checked before sending, so a typo is named here instead of coming back as a 400.
 */
export function isRfc3339(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 60) return false;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day >= 1 && day <= daysInMonth && !Number.isNaN(Date.parse(value));
}

/** Start of the bucket that contains `t` (ms since the epoch). */
export function floorBucket(t: number, size: BillingBucketSize): number {
  const d = new Date(t);
  switch (size) {
    case 'hour':
      return Math.floor(t / HOUR) * HOUR;
    case 'day':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
    case 'week':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - ((d.getUTCDay() + 6) % 7) * DAY;
    case 'month':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    case 'year':
      return Date.UTC(d.getUTCFullYear(), 0, 1);
  }
}

/** Start of the bucket after the one starting at `start`. */
export function nextBucket(start: number, size: BillingBucketSize): number {
  const d = new Date(start);
  switch (size) {
    case 'hour':
      return start + HOUR;
    case 'day':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
    case 'week':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 7);
    case 'month':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    case 'year':
      return Date.UTC(d.getUTCFullYear() + 1, 0, 1);
  }
}

/** Bucket starts covering `[start, end)`, the first snapped down; at most MAX_BUCKETS. */
export function bucketStarts(start: number, end: number, size: BillingBucketSize): number[] {
  const starts: number[] = [];
  for (let b = floorBucket(start, size); b < end && starts.length < MAX_BUCKETS; b = nextBucket(b, size)) starts.push(b);
  return starts;
}

/** `2026-05-03T00:00:00Z`: the service's own spelling, without milliseconds. */
export function isoTime(t: number): string {
  return new Date(t).toISOString().replace('.000Z', 'Z');
}

/** How a bucket is named on an axis and in a table, all in UTC. */
export function bucketLabel(t: number, size: BillingBucketSize): string {
  const iso = new Date(t).toISOString();
  switch (size) {
    case 'hour':
      return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
    case 'day':
      return iso.slice(0, 10);
    case 'week':
      return `week of ${iso.slice(0, 10)}`;
    case 'month':
      return iso.slice(0, 7);
    case 'year':
      return iso.slice(0, 4);
  }
}
