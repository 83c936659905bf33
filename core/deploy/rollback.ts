/**
 * An earlier configuration of an endpoint, worked out from what it is now and its releases. The
 * service keeps no copy of old versions, only each release's diff (service field names, old and new
 * values), so version N is the current endpoint with every newer release undone, newest first. It is
 * refused rather than guessed whenever a release between now and N is missing or a change does not
 * say what it replaced; a field this client cannot name is reported, not silently kept.
 */
import { releaseSpecPath } from '../api/releaseFields';
import type { Endpoint, Release, ReleaseDiffEntry } from '../api/types';
import { liveAsSpec, type Spec } from './effective';
import { record } from '../endpointSpec/rules/rule';

export type ConfigurationAtResult =
  | {
      readonly ok: true;
      readonly spec: Spec;
      /** service fields no release could be reverted through (unknown names) */
      readonly unknownFields: readonly string[];
    }
  | { readonly ok: false; readonly reason: string };

/** A template is read only at create time and cannot be sent in an update, so its change cannot be undone. */
const NOT_REVERTIBLE = new Set(['templateId']);

/** Version N's configuration, as a spec (create-body shape, spec field names): the current endpoint with every newer release's diff undone, newest first. */
export function configurationAt(current: Endpoint, releases: readonly Release[], version: number): ConfigurationAtResult {
  const newer = releasesToUndo(releases, version);
  if (!newer.ok) return newer;
  const spec = liveAsSpec(current);
  const unknownFields: string[] = [];
  for (const release of newer.releases) {
    for (const entry of undoOrder(release.diff)) {
      const path = pathOf(entry.field, spec);
      if (path === undefined) {
        if (!unknownFields.includes(entry.field)) unknownFields.push(entry.field);
        continue;
      }
      setPath(spec, path, entry.old);
    }
    keepScalingConsistent(spec);
  }
  // Through the live record's reading once more: empty values dropped, derived ones (CPU memory) left out.
  return { ok: true, spec: liveAsSpec(spec), unknownFields };
}

type Newer = { readonly ok: true; readonly releases: readonly Release[] } | { readonly ok: false; readonly reason: string };

/** The releases after `version`, newest first, once it is certain that they are all there and each says what it replaced. */
function releasesToUndo(releases: readonly Release[], version: number): Newer {
  if (!Number.isInteger(version) || version < 1) return { ok: false, reason: `${String(version)} is not a release version (1, 2, 3, …)` };
  const listed = releases.flatMap((r) => (r.version !== undefined ? [r.version] : []));
  const latest = listed.length > 0 ? Math.max(...listed) : undefined;
  if (!listed.includes(version)) {
    const known = [...new Set(listed)].sort((a, b) => b - a).join(', ');
    return {
      ok: false,
      reason: `version ${version} is not among the endpoint's releases (${known === '' ? 'none listed' : `listed: ${known}`})`,
    };
  }
  if (version === latest) return { ok: false, reason: `version ${version} is already the current configuration` };
  const newer: Release[] = [];
  const missing: number[] = [];
  for (let v = latest ?? version; v > version; v--) {
    const found = releases.filter((r) => r.version === v);
    if (found.length === 0) missing.push(v);
    else if (found.length > 1)
      return { ok: false, reason: `release ${v} is listed ${found.length} times, so it is not certain what it changed` };
    else newer.push(found[0]);
  }
  if (missing.length > 0) {
    const which = missing.length === 1 ? `release ${missing[0]} is` : `releases ${[...missing].reverse().join(', ')} are`;
    return { ok: false, reason: `${which} missing from the list, so version ${version} cannot be worked out` };
  }
  for (const release of newer) {
    const unsaid = release.diff.find((entry) => entry.old === undefined);
    if (unsaid)
      return {
        ok: false,
        reason: `release ${release.version ?? '?'} does not say what ${unsaid.field} was before it, so version ${version} cannot be worked out`,
      };
  }
  return { ok: true, releases: newer };
}

const isScalerType = (entry: ReleaseDiffEntry): boolean => releaseSpecPath(entry.field) === 'scaling.type';

/** A release's scaler type is undone before its scaler value, which is read in the type it belonged to. */
function undoOrder(diff: readonly ReleaseDiffEntry[]): ReleaseDiffEntry[] {
  return [...diff.filter(isScalerType), ...diff.filter((entry) => !isScalerType(entry))];
}

/** The spec path of a diff field; undefined for a field this client cannot revert. */
function pathOf(field: string, spec: Spec): string | undefined {
  if (NOT_REVERTIBLE.has(field)) return undefined;
  const scalingType = record(spec.scaling)?.type;
  return releaseSpecPath(field, typeof scalingType === 'string' ? scalingType : undefined);
}

/** Sets `path` to `value`, or removes it when the value is null or absent (the field did not exist). */
function setPath(spec: Spec, path: string, value: unknown): void {
  const segments = path.split('.');
  const last = segments.pop() as string;
  let node = spec;
  for (const segment of segments) {
    const child = record(node[segment]);
    if (child) node = child;
    else if (value === null || value === undefined) return;
    else node = node[segment] = {};
  }
  if (value === null || value === undefined) Reflect.deleteProperty(node, last);
  else node[last] = structuredClone(value);
  // `args` is the command; a decoded copy read beside it would say the command it replaced.
  if (path === 'args') {
    delete spec.entrypoint;
    delete spec.cmd;
  }
}

/** Scaling holds one value, the one of its type: a value left under the other type's name moves to it. */
function keepScalingConsistent(spec: Spec): void {
  const scaling = record(spec.scaling);
  if (!scaling) return;
  const keys = { QUEUE_DELAY: 'queueDelay', REQUEST_COUNT: 'requestCount' } as const;
  const own = scaling.type === 'QUEUE_DELAY' || scaling.type === 'REQUEST_COUNT' ? keys[scaling.type] : undefined;
  if (own === undefined) return;
  const other = own === 'queueDelay' ? 'requestCount' : 'queueDelay';
  if (scaling[own] === undefined && scaling[other] !== undefined) scaling[own] = scaling[other];
  Reflect.deleteProperty(scaling, other);
}
