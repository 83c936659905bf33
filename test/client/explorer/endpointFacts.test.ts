/**
 * How a release reads in the Endpoints view: the service's field names shown as the spec's, a field this
 * client does not know as the service names it, and a value the service left out as "?", never guessed; why
 * a release's or a worker's workers are not serving, as the core names it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Release } from '../../../core/api';
import {
  diffLine,
  diffTooltip,
  releaseDescription,
  releaseChoices,
  releaseFields,
  releaseScalingType,
  releaseCause,
  releaseTooltip,
  scalingTypeAt,
  workerCause,
  workerTooltip,
} from '../../../client/explorer/endpointFacts';
import { readWorkerList } from '../../../core/api/records';

const release = (version: number | undefined, diff: Release['diff'], extra: Partial<Release> = {}): Release => ({
  ...(version === undefined ? {} : { version }),
  diff,
  ...extra,
});

describe('release diffs in the Endpoints view', () => {
  it("names a field by the spec's path, with the service's name in the tooltip", () => {
    const entry = { field: 'template.imageName', old: 'myorg/app:1.0', new: 'myorg/app:1.1' };
    assert.equal(diffLine(entry), 'image: myorg/app:1.0 → myorg/app:1.1');
    assert.equal(diffTooltip(entry), 'image (the service\'s template.imageName)\nbefore: "myorg/app:1.0"\nafter: "myorg/app:1.1"');
    assert.equal(diffLine({ field: 'gpuCount', old: 1, new: 2 }), 'gpu.count: 1 → 2');
    assert.equal(
      diffLine({ field: 'locations', old: ['US-TX-3'], new: ['US-TX-3', 'EU-RO-1'] }),
      'dataCenterIds: ["US-TX-3"] → ["US-TX-3","EU-RO-1"]',
    );
  });

  it('shows a field this client does not know as the service names it', () => {
    const entry = { field: 'modelCacheId', old: 'a', new: 'b' };
    assert.equal(diffLine(entry), 'modelCacheId: a → b');
    assert.equal(diffTooltip(entry), 'modelCacheId\nbefore: "a"\nafter: "b"');
  });

  it('shows a value the service left out as "?", and one it unset as (unset)', () => {
    assert.equal(diffLine({ field: 'template.imageName', old: undefined, new: 'x:1' }), 'image: ? → x:1');
    assert.equal(diffLine({ field: 'idleTimeout', old: 5, new: null }), 'workers.idleTimeout: 5 → (unset)');
    assert.match(diffTooltip({ field: 'gpuCount', old: undefined, new: 2 }), /^before: \? \(not given by the service\)$/m);
  });

  it('names scalerValue by the scaling type in force at the release, and leaves it as it is when that is unknown', () => {
    const value = { field: 'scalerValue', old: 4, new: 6 };
    assert.equal(diffLine(value), 'scalerValue: 4 → 6');
    assert.equal(diffLine(value, 'QUEUE_DELAY'), 'scaling.queueDelay: 4 → 6');
    const switched = release(3, [
      { field: 'scalerType', old: 'QUEUE_DELAY', new: 'REQUEST_COUNT' },
      { field: 'scalerValue', old: 4, new: 10 },
    ]);
    assert.equal(releaseScalingType(switched), 'REQUEST_COUNT');
    assert.equal(releaseFields(switched), 'scaling.type, scaling.requestCount');
  });

  it('undoes newer switches of scaler to find the scaling type at an older release', () => {
    const v3 = release(3, [{ field: 'scalerType', old: 'QUEUE_DELAY', new: 'REQUEST_COUNT' }]);
    const v2 = release(2, [{ field: 'scalerValue', old: 4, new: 6 }]);
    const v1 = release(1, []);
    const releases = [v3, v2, v1];
    assert.equal(scalingTypeAt(releases, v3, 'REQUEST_COUNT'), 'REQUEST_COUNT');
    assert.equal(scalingTypeAt(releases, v2, 'REQUEST_COUNT'), 'QUEUE_DELAY');
    assert.equal(releaseFields(v2, scalingTypeAt(releases, v2, 'REQUEST_COUNT')), 'scaling.queueDelay');
    // A switch whose old type the service left out: unknown from there on.
    const unknownSwitch = release(3, [{ field: 'scalerType', old: undefined, new: 'REQUEST_COUNT' }]);
    assert.equal(scalingTypeAt([unknownSwitch, v2, v1], v2, 'REQUEST_COUNT'), undefined);
    assert.equal(scalingTypeAt(releases, release(9, []), 'QUEUE_DELAY'), undefined, 'a release not in the list');
  });

  it('describes a release with "?" for what the record lacks', () => {
    const full = release(
      2,
      [
        { field: 'template.imageName', old: 'a:1', new: 'a:2' },
        { field: 'gpuCount', old: 1, new: 2 },
      ],
      {
        source: 'MANUAL',
        workerCount: 3,
        createdAt: '2026-05-04T10:00:00.123Z',
      },
    );
    assert.equal(releaseDescription(full), 'MANUAL · image, gpu.count · 2026-05-04 10:00:00 UTC');
    assert.equal(
      releaseTooltip(full),
      'Release v2 (MANUAL), 3 worker(s) on it\nCreated 2026-05-04T10:00:00.123Z\nimage: a:1 → a:2\ngpu.count: 1 → 2',
    );
    const bare = release(undefined, []);
    assert.equal(releaseDescription(bare), 'source unknown · initial · time unknown');
    assert.equal(releaseTooltip(bare), 'Release v? (source ?), ? worker(s) on it\nCreated ?');
  });

  it('lists the releases to roll back to newest first with what each changed, without the current one or one of unknown version', () => {
    const list = {
      endpointVersion: 3,
      releases: [
        release(3, [{ field: 'template.imageName', old: 'a:2', new: 'a:3' }], { source: 'MANUAL', createdAt: '2026-05-06T00:00:00Z' }),
        release(undefined, [{ field: 'gpuCount', old: 1, new: 2 }]),
        release(1, [], { createdAt: '2026-05-04T00:00:00Z' }),
        release(2, [{ field: 'scalerValue', old: 4, new: 6 }], { source: 'GIT_BUILD' }),
      ],
    };
    assert.deepEqual(releaseChoices(list, 'QUEUE_DELAY'), [
      { version: 2, label: 'v2', description: 'scaling.queueDelay', detail: 'GIT_BUILD · time unknown' },
      { version: 1, label: 'v1', description: 'initial', detail: 'source unknown · 2026-05-04 00:00:00 UTC' },
    ]);
    // When the service does not say which release is current, every release with a version is offered.
    assert.deepEqual(
      releaseChoices({ releases: list.releases }, undefined).map((c) => c.version),
      [3, 2, 1],
    );
  });
});

describe('why workers are not serving, in the Endpoints view', () => {
  const workers = (list: { id: string; status: string; version?: number }[]) => readWorkerList({ workers: list }).workers;

  it('names a release whose workers all crash-loop, wait for stock or start; none when one of them serves', () => {
    const crashing = releaseCause(
      release(2, [], { createdAt: '2026-05-04T10:00:00Z' }),
      workers([
        { id: 'new', status: 'UNHEALTHY', version: 2 },
        { id: 'old', status: 'IDLE', version: 1 },
      ]),
    );
    assert.deepEqual([crashing?.kind, crashing?.workers], ['crash-looping', ['new']]);
    assert.equal(releaseCause(release(1, []), workers([{ id: 'old', status: 'IDLE', version: 1 }])), undefined);
    assert.equal(releaseCause(release(3, []), workers([{ id: 'old', status: 'IDLE', version: 1 }])), undefined, 'no workers on it');
    assert.equal(releaseCause(release(2, []), undefined), undefined, 'no worker list read');
    assert.equal(releaseCause(release(2, []), workers([{ id: 't', status: 'THROTTLED', version: 2 }]))?.kind, 'no-capacity');
    const starting = releaseCause(
      release(2, [], { createdAt: '2026-05-04T10:00:00Z' }),
      workers([{ id: 'i', status: 'INITIALIZING', version: 2 }]),
      Date.parse('2026-05-04T10:01:30Z'),
    );
    assert.equal(starting?.message, 'the workers of release 2 are still starting (image pull or boot): 1 min 30 s so far');
  });

  it("says in a worker's tooltip why it is not serving", () => {
    const [unhealthy] = workers([{ id: 'w', status: 'UNHEALTHY', version: 2 }]);
    assert.match(workerCause(unhealthy) ?? '', /^Not serving: crash-looping/);
    assert.ok(workerTooltip(unhealthy, 2).endsWith(workerCause(unhealthy) ?? '?'));
    const [idle] = workers([{ id: 'w', status: 'IDLE', version: 2 }]);
    assert.equal(workerCause(idle), undefined);
  });
});
