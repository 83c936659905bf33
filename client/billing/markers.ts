/**
 * Deploy markers on the billing chart: a change in cost usually follows a deploy, so each release of the
 * endpoints in view is drawn where it happened, between the bars. Pure: the request, the shaped table and
 * the releases in, positions and labels out, so what the chart marks is checked without an editor.
 */
import type { Release } from '../../core/api';
import type { BillingRequest } from '../../core/billing/query';
import type { BillingTable } from '../../core/billing/series';
import { releaseFields, scalingTypeAt } from '../explorer/endpointFacts';

export interface ReleaseMarker {
  /** Where on the time axis, in buckets from the window's start: 2.5 is halfway through the third bucket. */
  readonly position: number;
  /** `release 7: image, gpu.count`, led by the endpoint's name when the chart names endpoints (stacked by endpoint). */
  readonly label: string;
}

/** The releases of one endpoint in view, newest first as the service lists them. */
export interface EndpointReleases {
  readonly endpointId: string;
  /** Given when the chart is stacked by endpoint, so each marker says whose release it is. */
  readonly name?: string;
  /** The endpoint's scaling type now, which names a release's `scalerValue`; undefined when unknown. */
  readonly scalingType?: string;
  readonly releases: readonly Release[];
}

/**
 * The endpoints whose releases the chart marks: serverless billing only, the endpoint filtered on, else the
 * endpoints the chart stacks by (at most `max`, the largest; a folded "Other" is not marked).
 */
export function markedEndpoints(request: BillingRequest, table: BillingTable, max: number): string[] {
  if (request.kind !== 'serverless') return [];
  if (request.endpointId) return [request.endpointId];
  if (request.grouping !== 'endpointId') return [];
  const shown = table.groups.length <= max ? table.groups.length : max - 1;
  return table.groups
    .slice(0, shown)
    .map((g) => g.id)
    .filter((id) => id !== '(none)');
}

/** A marker for every release created inside the chart's buckets; one without a time (unknown) is left out. */
export function releaseMarkers(
  buckets: readonly { start: string; end: string }[],
  endpoints: readonly EndpointReleases[],
): ReleaseMarker[] {
  const spans = buckets.map((b) => ({ start: Date.parse(b.start), end: Date.parse(b.end) }));
  const markers: ReleaseMarker[] = [];
  for (const endpoint of endpoints) {
    for (const release of endpoint.releases) {
      const position = positionOf(spans, release.createdAt);
      if (position === undefined) continue;
      const fields = releaseFields(release, scalingTypeAt(endpoint.releases, release, endpoint.scalingType));
      const text = `release ${release.version ?? '?'}: ${fields}`;
      markers.push({ position, label: endpoint.name === undefined ? text : `${endpoint.name} ${text}` });
    }
  }
  return markers.sort((a, b) => a.position - b.position);
}

function positionOf(spans: readonly { start: number; end: number }[], createdAt: string | undefined): number | undefined {
  if (createdAt === undefined) return undefined;
  const t = Date.parse(createdAt);
  if (Number.isNaN(t)) return undefined;
  const index = spans.findIndex((s) => s.start <= t && t < s.end);
  if (index < 0) return undefined;
  const { start, end } = spans[index];
  return index + (t - start) / (end - start);
}
