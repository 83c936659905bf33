/**
 * Differences between a spec and a live endpoint, field by field, in one format shared by the
 * deploy plan, the read-back check and drift detection. `before` is always what the endpoint
 * has now and `after` what the spec says, so a plan's changes and the drift of the same pair
 * are the same list.
 */
import type { JsonPathSegment } from '../endpointSpec/tree';
import type { Endpoint } from '../api/types';
import { effectiveLive, effectiveSpec, type EffectiveSpec, type Spec } from './effective';
import { fieldRank } from './fieldOrder';

export interface Change {
  /** Readable path, as in `gpu.pools` or `env.DEBUG` (`env["my.key"]` for odd keys). */
  readonly path: string;
  /** The same path as segments, to place the change on a spec line. */
  readonly segments: readonly JsonPathSegment[];
  /** The live value; `undefined` when the endpoint lacks the field. */
  readonly before: unknown;
  /** The spec's value (defaults applied); `undefined` when the spec lacks the field. */
  readonly after: unknown;
}

/** JSON with sorted object keys, so equal values always serialize the same way. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Spec).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

export function sameValue(a: unknown, b: unknown): boolean {
  return stableJson(a) === stableJson(b);
}

/** Whether the spec decides this field (rather than its template or the service). */
export function specManages(spec: EffectiveSpec, path: string, segments: readonly JsonPathSegment[]): boolean {
  if (spec.unmanaged.has(path)) return false;
  if (segments[0] === 'env' && spec.envBeyondSpecUnmanaged && !spec.fields.has(path)) return false;
  return true;
}

export function diffEffective(spec: EffectiveSpec, live: EffectiveSpec): Change[] {
  const paths = new Map<string, readonly JsonPathSegment[]>();
  for (const [path, field] of [...spec.fields, ...live.fields]) if (!paths.has(path)) paths.set(path, field.segments);
  const changes: Change[] = [];
  for (const [path, segments] of paths) {
    if (!specManages(spec, path, segments)) continue;
    if (path === 'type' && live.type === undefined) continue;
    const after = spec.fields.get(path)?.value;
    const before = live.fields.get(path)?.value;
    if (!sameValue(before, after)) changes.push({ path, segments, before, after });
  }
  return changes.sort((a, b) => fieldRank(a.segments) - fieldRank(b.segments) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * How a live endpoint differs from its spec, e.g. after an edit in the console. Empty when
 * the endpoint is what the spec describes.
 */
export function driftBetween(spec: Spec, live: Endpoint | Spec): Change[] {
  return diffEffective(effectiveSpec(spec), effectiveLive(live));
}
