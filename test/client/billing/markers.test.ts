/**
 * The billing chart's deploy markers on plain data: which endpoints are marked for a request, where on the
 * time axis each release falls, what its label says, and that a release without a time is left out.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Release } from '../../../core/api';
import type { BillingRequest } from '../../../core/billing/query';
import type { BillingTable } from '../../../core/billing/series';
import { markedEndpoints, releaseMarkers } from '../../../client/billing/markers';
import { panelView } from '../../../client/billing/view';

const DAYS = [
  { start: '2026-05-04T00:00:00Z', end: '2026-05-05T00:00:00Z', label: '2026-05-04' },
  { start: '2026-05-05T00:00:00Z', end: '2026-05-06T00:00:00Z', label: '2026-05-05' },
];

function table(groups: string[]): BillingTable {
  return {
    kind: 'serverless',
    bucketSize: 'day',
    startTime: DAYS[0].start,
    endTime: DAYS[1].end,
    groupedBy: 'serverlessId',
    buckets: DAYS,
    groups: groups.map((id, i) => ({ id, label: id, total: 10 - i })),
    cells: DAYS.map(() => groups.map(() => 1)),
    bucketTotals: DAYS.map(() => groups.length),
    total: 2 * groups.length,
    components: [],
  };
}

const request = (extra: Partial<BillingRequest>): BillingRequest => ({ kind: 'serverless', bucketSize: 'day', ...extra });

const imageChange: Release = {
  version: 2,
  createdAt: '2026-05-05T06:00:00Z',
  diff: [
    { field: 'template.imageName', old: 'a:1', new: 'a:2' },
    { field: 'gpuCount', old: 1, new: 2 },
  ],
};
const created: Release = { version: 1, createdAt: '2026-05-04T12:00:00.000Z', diff: [] };

describe('deploy markers on the billing chart', () => {
  it('marks the endpoint filtered on, else the endpoints the chart stacks by; never other kinds or groupings', () => {
    assert.deepEqual(markedEndpoints(request({ endpointId: 'ep1', grouping: 'gpuId' }), table(['x']), 8), ['ep1']);
    assert.deepEqual(markedEndpoints(request({ grouping: 'endpointId' }), table(['ep1', 'ep2', '(none)']), 8), ['ep1', 'ep2']);
    // With more groups than series, the folded "Other" is not marked.
    assert.deepEqual(markedEndpoints(request({ grouping: 'endpointId' }), table(['a', 'b', 'c']), 2), ['a']);
    assert.deepEqual(markedEndpoints(request({ grouping: 'gpuId' }), table(['NVIDIA A40']), 8), []);
    assert.deepEqual(markedEndpoints({ ...request({}), kind: 'pods' }, table(['p']), 8), []);
  });

  it("places each release in its bucket, by the time of day, and says what changed by the spec's names", () => {
    const markers = releaseMarkers(DAYS, [{ endpointId: 'ep1', releases: [imageChange, created] }]);
    assert.deepEqual(markers, [
      { position: 0.5, label: 'release 1: initial' },
      { position: 1.25, label: 'release 2: image, gpu.count' },
    ]);
  });

  it("leads with the endpoint's name when the chart names endpoints, and its scaling type names a scalerValue", () => {
    const tuned: Release = { version: 3, createdAt: '2026-05-05T12:00:00Z', diff: [{ field: 'scalerValue', old: 4, new: 6 }] };
    const markers = releaseMarkers(DAYS, [
      { endpointId: 'ep1', name: 'sdxl', scalingType: 'QUEUE_DELAY', releases: [tuned] },
      { endpointId: 'ep2', name: 'http', releases: [created] },
    ]);
    assert.deepEqual(
      markers.map((m) => m.label),
      ['http release 1: initial', 'sdxl release 3: scaling.queueDelay'],
    );
  });

  it('leaves out a release without a time, with an unreadable one, or outside the window; an unknown version is "?"', () => {
    const markers = releaseMarkers(DAYS, [
      {
        endpointId: 'ep1',
        releases: [
          { version: 4, diff: [] },
          { version: 5, createdAt: 'yesterday', diff: [] },
          { version: 6, createdAt: '2026-05-06T00:00:00Z', diff: [] },
          { createdAt: '2026-05-04T00:00:00Z', diff: [{ field: 'newServiceField', old: 1, new: 2 }] },
        ],
      },
    ]);
    assert.deepEqual(markers, [{ position: 0, label: 'release ?: newServiceField' }]);
  });

  it('reaches the webview in the panel view', () => {
    const view = panelView(request({ grouping: 'endpointId' }), table(['ep1']), [{ position: 1.25, label: 'release 2: image' }]);
    assert.deepEqual(view.markers, [{ position: 1.25, label: 'release 2: image' }]);
    assert.deepEqual(panelView(request({ grouping: 'endpointId' }), table(['ep1'])).markers, []);
  });
});
