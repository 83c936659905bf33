/**
 * The third side of a plan. A two-way plan compares the spec with the live endpoint, so a change made outside
 * (the console, a teammate's script, a rollback from elsewhere) looks like something the spec wants to undo, and
 * the next deploy reverts it silently. With what the last deploy set (recorded in the binding), each difference
 * has an author: the spec was edited since that deploy, the endpoint was changed outside since then, or both.
 */
import type { Endpoint, Release } from '../api/types';
import { diffEffective, sameValue } from './diff';
import { effectiveLive, effectiveSpec, type Spec } from './effective';
import type { JsonPathSegment } from '../endpointSpec/tree';

/**
 * What deploying the spec does to a field changed outside: `reverts` it (the spec still says what was deployed),
 * overwrites it with a new value of the spec's (`conflict`: both changed it), or nothing (`agrees`: the spec
 * already says what the endpoint has).
 */
export type OutsideEffect = 'reverts' | 'conflict' | 'agrees';

export interface OutsideChange {
  readonly path: string;
  readonly segments: readonly JsonPathSegment[];
  /** What the last deploy set; undefined when it left the field out. */
  readonly deployed: unknown;
  /** What the endpoint has now. */
  readonly live: unknown;
  /** What the spec says now (defaults applied). */
  readonly spec: unknown;
  readonly effect: OutsideEffect;
}

/** A release the service made after the last deploy: who changed the endpoint outside, and when. */
export interface OutsideRelease {
  readonly version?: number;
  readonly createdAt?: string;
  readonly source?: string;
  /** The fields it changed, in the service's names. */
  readonly fields: readonly string[];
}

export interface ThreeWay {
  /** The last deploy's release version, when the service said. */
  readonly sinceVersion?: number;
  readonly deployedAt: string;
  /** Fields changed outside since the last deploy, in display order. */
  readonly outside: readonly OutsideChange[];
  /** Fields the spec changes since the last deploy. */
  readonly specEdits: readonly string[];
  /** The releases made since the last deploy, newest first; empty when they could not be read. */
  readonly releases: readonly OutsideRelease[];
}

/** The three sides compared: `deployed` is the body the last deploy sent. */
export function threeWay(spec: Spec, live: Endpoint | Spec, deployed: Spec, deployedAt: string, sinceVersion?: number): ThreeWay {
  const wanted = effectiveSpec(spec);
  const last = effectiveSpec(deployed);
  const outside = diffEffective(last, effectiveLive(live)).map((change): OutsideChange => {
    const specValue = wanted.fields.get(change.path)?.value;
    const effect = sameValue(specValue, change.before) ? 'agrees' : sameValue(specValue, change.after) ? 'reverts' : 'conflict';
    return { path: change.path, segments: change.segments, deployed: change.after, live: change.before, spec: specValue, effect };
  });
  const specEdits = diffEffective(wanted, last).map((change) => change.path);
  return { deployedAt, ...(sinceVersion !== undefined ? { sinceVersion } : {}), outside, specEdits, releases: [] };
}

/** The changes a deploy would undo or overwrite: what needs a person's choice before it is applied. */
export function overwrittenOutside(three: ThreeWay | undefined): OutsideChange[] {
  return (three?.outside ?? []).filter((change) => change.effect !== 'agrees');
}

/** The releases after `version` (or, without one, made after `deployedAt`), newest first, as the plan names them. */
export function releasesSince(releases: readonly Release[], version: number | undefined, deployedAt: string): OutsideRelease[] {
  const after = (release: Release): boolean =>
    version !== undefined ? (release.version ?? 0) > version : release.createdAt !== undefined && release.createdAt > deployedAt;
  return releases.filter(after).map((release) => ({
    ...(release.version !== undefined ? { version: release.version } : {}),
    ...(release.createdAt !== undefined ? { createdAt: release.createdAt } : {}),
    ...(release.source !== undefined ? { source: release.source } : {}),
    fields: release.diff.map((entry) => entry.field),
  }));
}

/** "changed outside (release 7, 2026-11-28 10:02)": who last changed the endpoint outside, as a lens or a plan says it. */
export function outsideAuthor(three: ThreeWay): string {
  const newest = three.releases.at(0);
  if (!newest) return 'changed outside';
  const when = newest.createdAt ? `, ${newest.createdAt.replace('T', ' ').slice(0, 16)}` : '';
  return `changed outside (release ${newest.version !== undefined ? String(newest.version) : '?'}${when})`;
}

/**
 * Who made a drift, for a lens: the fields the spec changed since the last deploy, and the changes made outside
 * that deploying would set back or overwrite. Undefined without a recorded release (who made it cannot be told).
 */
export function driftAuthors(
  spec: Spec,
  live: Endpoint | Spec,
  release: { readonly body: Spec; readonly version?: number } | undefined,
  deployedAt: string,
): { readonly specEdits: readonly string[]; readonly outside: readonly string[] } | undefined {
  if (!release) return undefined;
  const three = threeWay(spec, live, release.body, deployedAt, release.version);
  return { specEdits: three.specEdits, outside: overwrittenOutside(three).map((change) => change.path) };
}
