/**
 * The warnings a plan carries in its notes, which every front-end prints with the plan: an image
 * that is not pinned (no tag, `latest`; a digest and a registry port read right), a change that
 * restarts workers while the image stays the same, `workers.max` set to 0, and none where nothing
 * of the kind happens. The list of fields that restart workers is checked against its uses.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  liveAsSpec,
  planDeployment,
  renderPlan,
  renderPlanMarkdown,
  restartsWorkers,
  unpinnedImage,
  WORKER_RESTART_FIELDS,
  type Spec,
} from '../../../core/deploy';
import type { Endpoint } from '../../../core/api';
import { liveEndpoint } from './liveEndpoint';

const live = liveEndpoint({ image: 'example/worker:1.0', env: { MODE: 'fast' } });

const specWith = (extra: Spec): Spec => ({ ...liveAsSpec(live), ...extra });
const notesOf = (spec: Spec, against: Endpoint | undefined): readonly string[] => planDeployment(spec, against).notes;

describe('unpinnedImage', () => {
  it('takes a version tag or a digest as pinned', () => {
    for (const image of [
      'example/worker:1.0',
      'registry.example.com:5000/team/worker:2024-06-01',
      'example/worker@sha256:' + 'a'.repeat(64),
      'example/worker:latest@sha256:' + '0f'.repeat(32),
    ])
      assert.equal(unpinnedImage(image), undefined, image);
  });

  it('names an image with no tag or tagged latest', () => {
    assert.match(unpinnedImage('example/worker') ?? '', /^image example\/worker has no tag \(so it means latest\): /);
    assert.match(
      unpinnedImage('example/worker:latest') ?? '',
      /^image example\/worker:latest is tagged latest: .*pin a version tag or a digest/,
    );
    // The port of a registry host is not a tag.
    assert.match(unpinnedImage('host:5000/img') ?? '', /has no tag/);
    assert.match(unpinnedImage('host:5000/img:latest') ?? '', /is tagged latest/);
    // A digest that is not one (too short) pins nothing.
    assert.match(unpinnedImage('img@sha256:abc') ?? '', /has no tag/);
  });
});

describe('plan warnings', () => {
  it('warns of an unpinned image on create and of an endpoint created with no workers', () => {
    const notes = notesOf(specWith({ image: 'example/worker:latest', workers: { max: 0 } }), undefined);
    assert.equal(notes.length, 2);
    assert.match(notes[0], /is tagged latest/);
    assert.equal(notes[1], 'workers.max is 0: the endpoint starts no workers, and jobs sent to it wait in its queue');
    assert.deepEqual(notesOf(specWith({}), undefined), []);
  });

  it('warns when workers restart although the image stays the same', () => {
    const notes = notesOf(specWith({ env: { MODE: 'slow' }, gpu: { pools: ['ADA_24'], count: 2 } }), live);
    assert.deepEqual(notes, ['the image stays the same, but this restarts every worker (a rolling release) for: env.MODE, gpu.count']);
    assert.deepEqual(notesOf(specWith({ image: 'example/worker:2.0', env: { MODE: 'slow' } }), live), []);
    assert.deepEqual(notesOf(specWith({ args: 'python -u handler.py' }), live), [
      'the image stays the same, but this restarts every worker (a rolling release) for: cmd',
    ]);
  });

  it('warns of an unpinned image only when workers start', () => {
    const restart = notesOf(specWith({ image: 'example/worker', flashboot: 'FLASHBOOT' }), live);
    assert.equal(restart.length, 1);
    assert.match(restart[0], /has no tag/);
    const inPlace = { ...live, image: 'example/worker' };
    assert.deepEqual(notesOf({ ...liveAsSpec(inPlace), workers: { min: 1, max: 3, idleTimeout: 10 } }, inPlace), []);
  });

  it('warns that workers.max 0 drains the endpoint, and says nothing of a change that restarts nothing', () => {
    assert.deepEqual(notesOf(specWith({ workers: { min: 0, max: 0, idleTimeout: 10 } }), live), [
      'workers.max set to 0 drains the endpoint: its workers stop once their jobs end, and new jobs wait in the queue',
    ]);
    assert.deepEqual(notesOf(specWith({ scaling: { type: 'QUEUE_DELAY', queueDelay: 8 }, timeout: 600000, name: 'renamed' }), live), []);
  });

  it('leaves a change of type to the refusal that already names it', () => {
    const plan = planDeployment(specWith({ type: 'LOAD_BALANCER', scaling: { type: 'REQUEST_COUNT', requestCount: 2 } }), live);
    assert.equal(plan.kind, 'refused');
    assert.match(plan.problems[0].message, /the type of an endpoint cannot change/);
    assert.deepEqual(plan.notes, []);
  });

  it('reaches the text and Markdown plans as notes', () => {
    const plan = planDeployment(specWith({ env: { MODE: 'slow' } }), live);
    assert.match(renderPlan(plan), /\n {2}note: the image stays the same, but this restarts every worker/);
    assert.match(renderPlanMarkdown(plan, { title: 'sdxl.endpoint.yaml' }), /> \*\*Note:\*\* the image stays the same/);
  });
});

describe('WORKER_RESTART_FIELDS', () => {
  it('names fields of the create body, and reads nested paths and the command by their field', () => {
    for (const field of WORKER_RESTART_FIELDS) assert.ok(restartsWorkers(field), field);
    assert.ok(restartsWorkers('gpu.excludedTypes'));
    assert.ok(restartsWorkers('env["my.key"]'));
    assert.ok(restartsWorkers('entrypoint'));
    for (const path of ['name', 'workers.max', 'scaling.queueDelay', 'timeout', 'templateId', 'type'])
      assert.equal(restartsWorkers(path), false, path);
  });
});
