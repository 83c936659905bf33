/**
 * Which catalog a check ran against, and how old it was, in words and as JSON: a result that
 * passed without the catalog rules must say so, or a green CI run would promise more than it checked.
 */
import { plural } from '../util/plural';

export type CatalogUsed =
  | { readonly source: 'live'; readonly fetchedAt: string }
  /** From the disk cache: the service could not be reached (stale), or was not asked (--offline). */
  | { readonly source: 'cached'; readonly fetchedAt: string; readonly stale: boolean; readonly reason: string }
  | { readonly source: 'snapshot'; readonly file: string; readonly fetchedAt?: string }
  /** No catalog: the catalog rules were skipped, for `reason`. */
  | { readonly source: 'none'; readonly reason: string };

/** The JSON form: the same fields plus the age in whole seconds where it is known. */
export function catalogUsedJson(used: CatalogUsed, now: Date = new Date()): Record<string, unknown> {
  const fetchedAt = 'fetchedAt' in used ? used.fetchedAt : undefined;
  const age = fetchedAt === undefined ? undefined : ageMs(fetchedAt, now);
  return { ...used, ...(age === undefined ? {} : { ageSeconds: Math.floor(age / 1000) }) };
}

/** One line: `live catalog, fetched just now`, `catalog checks skipped: …`, … */
export function describeCatalogUsed(used: CatalogUsed, now: Date = new Date()): string {
  switch (used.source) {
    case 'live':
      return `catalog: live, fetched ${used.fetchedAt} (${describeAge(used.fetchedAt, now)})`;
    case 'cached':
      return `catalog: cached, fetched ${used.fetchedAt} (${describeAge(used.fetchedAt, now)})${used.stale ? ', stale' : ''}: ${used.reason}`;
    case 'snapshot':
      return `catalog: snapshot ${used.file}${used.fetchedAt ? `, fetched ${used.fetchedAt} (${describeAge(used.fetchedAt, now)})` : ' (no fetchedAt: age unknown)'}`;
    case 'none':
      return `catalog checks skipped (schema and rule checks only): ${used.reason}`;
  }
}

function ageMs(fetchedAt: string, now: Date): number | undefined {
  const at = Date.parse(fetchedAt);
  return Number.isNaN(at) ? undefined : Math.max(0, now.getTime() - at);
}

/** `just now`, `12 minutes old`, `3 hours old`, `5 days old`. */
export function describeAge(fetchedAt: string, now: Date = new Date()): string {
  const age = ageMs(fetchedAt, now);
  if (age === undefined) return 'age unknown';
  const minutes = Math.floor(age / 60_000);
  if (minutes < 1) return 'just now';
  const [amount, unit] =
    minutes < 120 ? [minutes, 'minute'] : minutes < 48 * 60 ? [Math.floor(minutes / 60), 'hour'] : [Math.floor(minutes / 1440), 'day'];
  return `${plural(amount, unit)} old`;
}
