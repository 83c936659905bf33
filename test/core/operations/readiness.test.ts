/**
 * A release's time to ready worked out from worker records as the service answers them (times missing, null or
 * unreadable), recorded on the bindings with the release before's kept beside it, and compared.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Worker } from '../../../core/api';
import { getBinding, readBindings, withBinding, writeBindings, type Binding } from '../../../core/deploy/bindings';
import { compareReadiness, readinessSummary } from '../../../core/deploy/readiness';
import { earliestReadiness, READY_SEEN_WITHIN_MS, recordReadiness, releaseReadiness } from '../../../core/operations/readiness';

const DEPLOYED = Date.parse('2026-11-29T01:00:00.000Z');
const at = (ms: number): string => new Date(DEPLOYED + ms).toISOString();
const worker = (extra: Partial<Worker>): Worker => ({ id: 'w', status: 'INITIALIZING', ...extra });

describe('releaseReadiness', () => {
  it('takes the earliest start from startedAt, else from the uptime, and skips workers that say neither', () => {
    const workers = [
      worker({ id: 'throttled', status: 'THROTTLED' }),
      worker({ id: 'unreadable', startedAt: 'not a time' }),
      worker({ id: 'by-uptime', uptimeSeconds: 4 }),
      worker({ id: 'by-time', startedAt: at(7000) }),
    ];
    assert.deepEqual(releaseReadiness({ deployedAt: DEPLOYED, read: { observedAt: DEPLOYED + 10_000, workers } }), {
      firstWorkerStartingMs: 6000,
    });
  });

  it('says nothing for workers with no times at all, or none', () => {
    const unplaced = [worker({ status: 'THROTTLED' }), worker({ status: 'UNKNOWN', startedAt: '' })];
    assert.equal(releaseReadiness({ deployedAt: DEPLOYED, read: { observedAt: DEPLOYED + 5000, workers: unplaced } }), undefined);
    assert.equal(releaseReadiness({ deployedAt: DEPLOYED, read: { observedAt: DEPLOYED + 5000, workers: [] } }), undefined);
    assert.equal(releaseReadiness({ deployedAt: DEPLOYED }), undefined);
  });

  it('counts a worker seen ready only when the read before it (or the deploy) saw none shortly before', () => {
    const ready = [worker({ status: 'IDLE', startedAt: at(2000) })];
    const read = (ms: number) => ({ observedAt: DEPLOYED + ms, workers: ready });
    assert.deepEqual(releaseReadiness({ deployedAt: DEPLOYED, read: read(3000) }), {
      firstWorkerStartingMs: 2000,
      firstWorkerReadyMs: 3000,
    });
    const late = READY_SEEN_WITHIN_MS + 60_000;
    assert.deepEqual(
      releaseReadiness({ deployedAt: DEPLOYED, read: read(late) }),
      { firstWorkerStartingMs: 2000 },
      'a watch begun long after the deploy cannot tell when the worker became ready',
    );
    assert.deepEqual(releaseReadiness({ deployedAt: DEPLOYED, read: read(late), noneReadyAt: DEPLOYED + late - 4000 }), {
      firstWorkerStartingMs: 2000,
      firstWorkerReadyMs: late,
    });
  });

  it('measures a job from the deploy, and never before it (clocks apart)', () => {
    assert.deepEqual(releaseReadiness({ deployedAt: DEPLOYED, jobCompletedAt: DEPLOYED + 45_000 }), { firstJobCompletedMs: 45_000 });
    const early = [worker({ status: 'RUNNING', startedAt: at(-300) })];
    assert.deepEqual(releaseReadiness({ deployedAt: DEPLOYED, read: { observedAt: DEPLOYED + 100, workers: early } }), {
      firstWorkerStartingMs: 0,
      firstWorkerReadyMs: 100,
    });
  });

  it('keeps each step at its earliest across reads', () => {
    assert.deepEqual(
      earliestReadiness({ firstWorkerStartingMs: 5, firstWorkerReadyMs: 9 }, { firstWorkerStartingMs: 3, firstJobCompletedMs: 20 }),
      {
        firstWorkerStartingMs: 3,
        firstWorkerReadyMs: 9,
        firstJobCompletedMs: 20,
      },
    );
    assert.equal(earliestReadiness(undefined, undefined), undefined);
  });
});

describe('comparing with the release before', () => {
  it('says how much slower or faster, and calls 50% slower much slower', () => {
    const change = compareReadiness({ firstWorkerReadyMs: 42_000 }, { firstWorkerReadyMs: 30_000 });
    assert.deepEqual(change && [Math.round(change.change * 100), change.muchSlower], [40, false]);
    assert.equal(compareReadiness({ firstWorkerReadyMs: 45_000 }, { firstWorkerReadyMs: 30_000 })?.muchSlower, true);
    assert.equal(compareReadiness({ firstWorkerStartingMs: 1 }, { firstWorkerReadyMs: 30_000 }), undefined, 'no ready time: no comparison');
    assert.equal(
      readinessSummary({
        version: 4,
        readiness: { firstWorkerStartingMs: 3000, firstWorkerReadyMs: 42_000 },
        previous: { version: 3, readiness: { firstWorkerReadyMs: 30_000 } },
        change: compareReadiness({ firstWorkerReadyMs: 42_000 }, { firstWorkerReadyMs: 30_000 }),
      }),
      'first worker started after 3.0 s; ready in 42 s (previous release 30 s): 40% slower',
    );
  });
});

describe('recording on the bindings', () => {
  const bound = (version: number, extra: Partial<Binding['release']> = {}): Binding => ({
    endpointId: 'ep1',
    endpointName: 'a',
    deployedAt: at(0),
    release: { version, body: { name: 'a' }, ...extra },
  });

  it('adds what a watch saw at its earliest, and a new release keeps the one before as previous', () => {
    const root = mkdtempSync(join(tmpdir(), 'es-readiness-'));
    try {
      writeBindings(root, { 'a.endpoint.yaml': { '0': bound(3, { readiness: { firstWorkerReadyMs: 9000 } }) } });
      const report = recordReadiness([root], 'ep1', 3, { firstWorkerStartingMs: 1000, firstWorkerReadyMs: 12_000 });
      assert.deepEqual(report, { version: 3, readiness: { firstWorkerStartingMs: 1000, firstWorkerReadyMs: 9000 } });
      const read = readBindings(root);
      assert.ok(read.ok);
      assert.deepEqual(getBinding(read.store, 'a.endpoint.yaml', 0)?.release?.readiness, report.readiness);

      const next = withBinding(read.store, 'a.endpoint.yaml', 0, bound(4));
      assert.deepEqual(getBinding(next, 'a.endpoint.yaml', 0)?.release?.previous, { version: 3, readiness: report.readiness });
      const again = withBinding(read.store, 'a.endpoint.yaml', 0, bound(3));
      assert.deepEqual(getBinding(again, 'a.endpoint.yaml', 0)?.release?.readiness, report.readiness, 'the same release keeps its times');

      assert.deepEqual(
        recordReadiness([root], 'ep1', 7, { firstWorkerReadyMs: 5000 }),
        { version: 7, readiness: { firstWorkerReadyMs: 5000 } },
        'no binding recorded release 7: what was seen is said, nothing written',
      );
      const after = readBindings(root);
      assert.ok(after.ok);
      assert.deepEqual(after.store, read.store);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
