/**
 * How the editor words a rollout: the badge beside the endpoint while it runs, and for each way it ends the
 * message and the buttons offered (Open Logs with exactly the workers named, Roll Back… only for a failure
 * on an endpoint that still exists, nothing at all when the user dismissed it). Progress comes from the
 * core's own `rolloutProgress` over records as core/api reads them, so the wording follows what it counts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { causeLabel, rolloutBadge, rolloutReport } from '../../../client/deploy/rolloutReport';
import { readReleaseList, readWorkerList } from '../../../core/api/records';
import { rolloutProgress, type RolloutOutcome, type RolloutProgress } from '../../../core/operations';

function progress(version: number | undefined, workers: { id: string; status: string; version?: number }[]): RolloutProgress {
  return rolloutProgress(
    'ep1',
    readReleaseList({ ...(version !== undefined ? { endpointVersion: version } : {}), releases: [] }),
    readWorkerList({ workers }),
  );
}

const rolling = progress(7, [
  { id: 'a', status: 'IDLE', version: 7 },
  { id: 'b', status: 'RUNNING', version: 7 },
  { id: 'c', status: 'INITIALIZING', version: 7 },
  { id: 'd', status: 'RUNNING', version: 6 },
  { id: 'e', status: 'IDLE', version: 6 },
]);
const crashing = progress(8, [
  { id: 'w1', status: 'UNHEALTHY', version: 8 },
  { id: 'w2', status: 'UNHEALTHY', version: 8 },
  { id: 'old', status: 'IDLE', version: 7 },
]);

describe('rolloutBadge', () => {
  it('counts the workers ready on the new release of all the endpoint has', () => {
    assert.equal(rolloutBadge(rolling), 'rolling out 2/5');
    assert.equal(rolloutBadge(progress(3, [])), 'rolling out 0/0');
  });
});

describe('rolloutReport', () => {
  it('done: the release, the endpoint and how many workers run it', () => {
    const done = progress(7, [
      { id: 'a', status: 'IDLE', version: 7 },
      { id: 'b', status: 'RUNNING', version: 7 },
    ]);
    assert.deepEqual(rolloutReport('sdxl', { kind: 'done', progress: done, elapsedMs: 4000 }), {
      level: 'info',
      message: 'rollout of release 7 of sdxl done: 2 workers on it',
      logWorkers: [],
      rollBack: false,
    });
    const one = progress(2, [{ id: 'a', status: 'IDLE', version: 2 }]);
    assert.equal(
      rolloutReport('sdxl', { kind: 'done', progress: one, elapsedMs: 1 })?.message,
      'rollout of release 2 of sdxl done: 1 worker on it',
    );
  });

  it('done with no workers says none were needed; an unknown version reads as ?', () => {
    const none = progress(undefined, []);
    assert.equal(
      rolloutReport('idle', { kind: 'done', progress: none, elapsedMs: 10 })?.message,
      'rollout of release ? of idle done: no workers (none needed)',
    );
  });

  it('failed: a warning with the core message, the workers to read the logs of, and a rollback', () => {
    const outcome: RolloutOutcome = {
      kind: 'failed',
      progress: crashing,
      elapsedMs: 61_000,
      culprits: crashing.unhealthy,
      message: 'every worker on release 8 has been unhealthy for 60 s (crash loop?): w1 (UNHEALTHY), w2 (UNHEALTHY)',
    };
    assert.deepEqual(rolloutReport('sdxl', outcome), {
      level: 'warning',
      message:
        'rollout of release 8 of sdxl failed: every worker on release 8 has been unhealthy for 60 s (crash loop?): w1 (UNHEALTHY), w2 (UNHEALTHY)',
      logWorkers: ['w1', 'w2'],
      rollBack: true,
    });
  });

  it('failed with its cause: the message ends with the line the crash-looping container died on', () => {
    const cause = {
      kind: 'crash-looping' as const,
      scope: 'release' as const,
      version: 8,
      workers: ['w1', 'w2'],
      workerId: 'w1',
      lastLine: "ModuleNotFoundError: No module named 'torch'",
      logs: [],
      message: "the workers of release 8 are crash-looping: ModuleNotFoundError: No module named 'torch'",
    };
    const message = 'every worker on release 8 has been unhealthy for 60 s (crash loop?): w1 (UNHEALTHY), w2 (UNHEALTHY)';
    const report = rolloutReport('sdxl', {
      kind: 'failed',
      progress: crashing,
      elapsedMs: 1,
      culprits: crashing.unhealthy,
      message,
      cause,
    });
    assert.equal(report?.message, `rollout of release 8 of sdxl failed: ${message}; ${cause.message}`);
    assert.equal(causeLabel(cause), 'crash-looping');
  });

  it('failed because the endpoint is gone: no logs to open, nothing to roll back', () => {
    const report = rolloutReport('sdxl', { kind: 'failed', elapsedMs: 3, culprits: [], message: 'endpoint ep1 no longer exists' });
    assert.deepEqual(report, {
      level: 'warning',
      message: 'rollout of sdxl failed: endpoint ep1 no longer exists',
      logWorkers: [],
      rollBack: false,
    });
  });

  it('stalled: the workers holding it up, their logs, no rollback offered', () => {
    const message = 'no progress for 180 s (release 7: 2 of 5 workers on it); held up by c (INITIALIZING)';
    const culprits = [{ id: 'c', status: 'INITIALIZING' as const, version: 7 }];
    assert.deepEqual(rolloutReport('sdxl', { kind: 'stalled', progress: rolling, elapsedMs: 200_000, culprits, message }), {
      level: 'warning',
      message: `rollout of release 7 of sdxl stalled: ${message}`,
      logWorkers: ['c'],
      rollBack: false,
    });
  });

  it('an error says the rollout is no longer watched and why; a dismissal says nothing', () => {
    assert.deepEqual(
      rolloutReport('sdxl', { kind: 'error', progress: rolling, elapsedMs: 9, message: 'cannot read the rollout: connection refused' }),
      {
        level: 'warning',
        message: 'rollout of release 7 of sdxl no longer watched: cannot read the rollout: connection refused',
        logWorkers: [],
        rollBack: false,
      },
    );
    assert.equal(rolloutReport('sdxl', { kind: 'dismissed', progress: rolling, elapsedMs: 9 }), undefined);
    assert.equal(rolloutReport('sdxl', { kind: 'dismissed', elapsedMs: 0 }), undefined);
  });
});
