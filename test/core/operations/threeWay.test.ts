/**
 * The three-way plan against the emulator over HTTP: a deploy records the release it made in the binding, and
 * the next plan tells a spec edit from a change made outside since then (through the API, as a console would),
 * names the release that made it, and says whether deploying reverts it, overwrites it or already agrees.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import YAML from 'yaml';
import type { ApiClient } from '../../../core/api';
import { overwrittenOutside, type ThreeWay } from '../../../core/deploy/outside';
import { toServiceBody } from '../../../core/endpointSpec/validate';
import { applyDeploy, planDeploy, readSpecBindings, saveBinding, UNTRACKED_NOTE, type SpecDocumentRef } from '../../../core/operations';
import { gpuQueueSpec, withEmulator } from '../deploy/support';
import { workspace, type Workspace } from './support';

const spec = gpuQueueSpec();
/** What a deploy sends and records: the spec without its editor-only keys. */
const sent = (body: Record<string, unknown>) => toServiceBody(body);
const withWorkers = (max: number, extra: Record<string, unknown> = {}) =>
  gpuQueueSpec({ workers: { ...(spec.workers as Record<string, unknown>), max }, ...extra });

function documentOf(ws: Workspace): SpecDocumentRef {
  const read = readSpecBindings(ws.file, ws.root);
  assert.ok(read.ok);
  return { ...read.location, documentIndex: 0 };
}

/** Deploys `body` for the workspace's spec, as every front-end does: plan against the binding, apply, bind. */
async function deploy(api: ApiClient, ws: Workspace, body: Record<string, unknown>) {
  const read = readSpecBindings(ws.file, ws.root);
  assert.ok(read.ok);
  const planned = await planDeploy({ client: api, spec: body, binding: read.binding(0) });
  assert.ok(planned.ok);
  const outcome = await applyDeploy({ client: api, plan: planned.plan, target: planned.target, document: documentOf(ws) });
  assert.ok(outcome.ok);
  return { planned, outcome };
}

async function plan(api: ApiClient, ws: Workspace, body: Record<string, unknown>) {
  const read = readSpecBindings(ws.file, ws.root);
  assert.ok(read.ok);
  const planned = await planDeploy({ client: api, spec: body, binding: read.binding(0) });
  assert.ok(planned.ok);
  return planned.plan;
}

async function deployedThenChangedOutside(run: (api: ApiClient, ws: Workspace, id: string) => Promise<void>) {
  await withEmulator({}, async (_emu, client) => {
    const ws = workspace(YAML.stringify(spec));
    try {
      const api = client();
      const { outcome } = await deploy(api, ws, spec);
      const id = outcome.applied.endpoint.id;
      await api.serverless.update(id, { workers: { min: 0, max: 7, idleTimeout: 5 } });
      await run(api, ws, id);
    } finally {
      ws.cleanup();
    }
  });
}

describe('the three-way plan', () => {
  it('a deploy records the release it made and the body it sent', async () => {
    await withEmulator({}, async (_emu, client) => {
      const ws = workspace(YAML.stringify(spec));
      try {
        const api = client();
        const { outcome } = await deploy(api, ws, spec);
        const { endpointVersion } = await api.serverless.releases(outcome.applied.endpoint.id);
        const binding = ws.bindings()['specs/worker.endpoint.yaml']['0'];
        assert.equal(binding.release?.version, endpointVersion);
        assert.deepEqual(binding.release?.body, sent(spec));
      } finally {
        ws.cleanup();
      }
    });
  });

  it('marks the recorded release unverified when the endpoint did not read back as sent', async () => {
    await withEmulator({}, async (_emu, client) => {
      const ws = workspace(YAML.stringify(spec));
      try {
        const api = client();
        await deploy(api, ws, spec);
        assert.equal(ws.bindings()['specs/worker.endpoint.yaml']['0'].release?.unverified, undefined, 'a verified deploy');
        const wanted = gpuQueueSpec({ workers: { min: 1, max: 8, idleTimeout: 30 } });
        const planned = await planDeploy({ client: api, spec: wanted, binding: ws.bindings()['specs/worker.endpoint.yaml']['0'] });
        assert.ok(planned.ok);
        // A PATCH that forgets a field stands in for a service that did not take it.
        const partial = { ...planned.plan, patch: {} };
        const applied = await applyDeploy({ client: api, plan: partial, target: planned.target, document: documentOf(ws) });
        assert.ok(applied.ok && !applied.applied.verified);
        const release = ws.bindings()['specs/worker.endpoint.yaml']['0'].release;
        assert.equal(release?.unverified, true);
      } finally {
        ws.cleanup();
      }
    });
  });

  it('names a change made outside, with its release, and says the unchanged spec would revert it', async () => {
    await deployedThenChangedOutside(async (api, ws) => {
      const planned = await plan(api, ws, spec);
      assert.equal(planned.kind, 'update');
      const three = planned.threeWay;
      assert.ok(three);
      const maxChange = three.outside.find((c) => c.path === 'workers.max');
      assert.deepEqual(maxChange && [maxChange.deployed, maxChange.live, maxChange.effect], [
        (spec.workers as { max: number }).max,
        7,
        'reverts',
      ]);
      assert.deepEqual(three.specEdits, []);
      assert.ok(three.releases.length >= 1, 'the release that made the change is named');
      assert.ok((three.releases[0].version ?? 0) > (three.sinceVersion ?? Infinity));
      assert.ok(overwrittenOutside(three).some((c) => c.path === 'workers.max'));
    });
  });

  it('tells a spec edit from the outside change, and both on one field from either', async () => {
    await deployedThenChangedOutside(async (api, ws) => {
      const edited = await plan(api, ws, gpuQueueSpec({ scaling: { type: 'QUEUE_DELAY', queueDelay: 9 } }));
      const effectOnMax = (three: ThreeWay | undefined) => three?.outside.find((c) => c.path === 'workers.max')?.effect;
      assert.deepEqual(edited.threeWay?.specEdits, ['scaling.queueDelay']);
      assert.equal(effectOnMax(edited.threeWay), 'reverts');
      const both = await plan(api, ws, withWorkers(6));
      assert.equal(effectOnMax(both.threeWay), 'conflict');
      assert.deepEqual(both.threeWay?.specEdits, ['workers.max']);
    });
  });

  it('a spec edited to the outside value agrees: nothing to deploy, and the binding then records it', async () => {
    await deployedThenChangedOutside(async (api, ws) => {
      const kept = withWorkers(7, { workers: { min: 0, max: 7, idleTimeout: 5 } });
      const planned = await plan(api, ws, kept);
      assert.equal(planned.kind, 'unchanged');
      assert.deepEqual(overwrittenOutside(planned.threeWay), []);
      await deploy(api, ws, kept);
      assert.deepEqual(ws.bindings()['specs/worker.endpoint.yaml']['0'].release?.body, sent(kept));
      assert.deepEqual((await plan(api, ws, kept)).threeWay?.outside, []);
    });
  });

  it('a binding that recorded no release plans two-way and says so; its next deploy records one', async () => {
    await withEmulator({}, async (_emu, client) => {
      const ws = workspace(YAML.stringify(spec));
      try {
        const api = client();
        const live = await api.serverless.create(spec as never);
        assert.ok(saveBinding(documentOf(ws), live).saved);
        const planned = await plan(api, ws, spec);
        assert.equal(planned.threeWay, undefined);
        assert.ok(planned.notes.includes(UNTRACKED_NOTE));
        await deploy(api, ws, spec);
        assert.deepEqual(ws.bindings()['specs/worker.endpoint.yaml']['0'].release?.body, sent(spec));
        assert.ok(!(await plan(api, ws, spec)).notes.includes(UNTRACKED_NOTE));
      } finally {
        ws.cleanup();
      }
    });
  });
});
