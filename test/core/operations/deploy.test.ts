/**
 * `planDeploy` and `applyDeploy` against the emulator over HTTP: bound, unbound and deleted-elsewhere
 * specs, namesakes found and named, adopting one (an update of it, then a binding), creating another.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import YAML from 'yaml';
import type { CreateEndpointRequest } from '../../../core/api';
import {
  applyDeploy,
  decideNamesakes,
  needsApplying,
  planDeploy,
  readSpecBindings,
  saveBinding,
  type SpecDocumentRef,
} from '../../../core/operations';
import { toServiceBody } from '../../../core/endpointSpec/validate';
import { gpuQueueSpec, withEmulator } from '../deploy/support';
import { workspace } from './support';

const spec = gpuQueueSpec();
const ref = (root: string, file: string): SpecDocumentRef => {
  const read = readSpecBindings(file, root);
  assert.ok(read.ok);
  return { ...read.location, documentIndex: 0 };
};

describe('planDeploy', () => {
  it('plans a create for an unbound spec with no namesake, listing the endpoints first', async () => {
    await withEmulator({}, async (_emu, client) => {
      const planned = await planDeploy({ client: client(), spec });
      assert.ok(planned.ok);
      assert.equal(planned.plan.kind, 'create');
      assert.equal(planned.target.kind, 'unbound');
      assert.deepEqual(planned.namesakes, []);
      assert.deepEqual(planned.listed, []);
      assert.deepEqual(planned.plan.notes, []);
    });
  });

  it('names every namesake of an unbound spec in a note, and leaves other names alone', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const body = spec as unknown as CreateEndpointRequest;
      const first = await api.serverless.create(body);
      await api.serverless.create({ ...body, name: 'other' });
      const one = await planDeploy({ client: api, spec });
      assert.ok(one.ok);
      assert.deepEqual(one.namesakes, [{ id: first.id, name: 'sdxl-worker' }]);
      assert.equal(one.listed?.length, 2);
      assert.deepEqual(one.plan.notes, [
        `an endpoint named "sdxl-worker" already exists (${first.id}) but this spec is not bound to it; deploying creates another one`,
      ]);
      const second = await api.serverless.create(body);
      const two = await planDeploy({ client: api, spec });
      assert.ok(two.ok);
      assert.deepEqual(
        two.namesakes.map((e) => e.id),
        [first.id, second.id],
      );
      assert.match(two.plan.notes[0], new RegExp(`^2 endpoints named "sdxl-worker" already exist \\(${first.id}, ${second.id}\\)`));
    });
  });

  it('plans against the bound endpoint without looking for namesakes', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const live = await api.serverless.create(spec as unknown as CreateEndpointRequest);
      const binding = { endpointId: live.id, endpointName: live.name, deployedAt: '' };
      const same = await planDeploy({ client: api, spec, binding });
      assert.ok(same.ok);
      assert.equal(same.plan.kind, 'unchanged');
      assert.deepEqual(same.target, { kind: 'bound', binding });
      assert.deepEqual(same.namesakes, []);
      const changed = await planDeploy({ client: api, spec: gpuQueueSpec({ workers: { min: 1, max: 7, idleTimeout: 30 } }), binding });
      assert.ok(changed.ok && changed.plan.kind === 'update');
      assert.deepEqual(changed.plan.patch, { workers: { min: 1, max: 7, idleTimeout: 30 } });
    });
  });

  it('plans a create when the bound endpoint was deleted elsewhere, and says so', async () => {
    await withEmulator({}, async (_emu, client) => {
      const binding = { endpointId: 'gone123', endpointName: 'sdxl-worker', deployedAt: '' };
      const planned = await planDeploy({ client: client(), spec, binding });
      assert.ok(planned.ok);
      assert.equal(planned.plan.kind, 'create');
      assert.deepEqual(planned.target, { kind: 'missing', binding });
    });
  });

  it('adopting plans an update of the chosen endpoint', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const live = await api.serverless.create({ ...(spec as unknown as CreateEndpointRequest), workers: { min: 0, max: 2 } });
      const planned = await planDeploy({ client: api, spec, adopt: live.id });
      assert.ok(planned.ok);
      assert.deepEqual(planned.target, { kind: 'adopted', endpointId: live.id });
      assert.ok(planned.plan.kind === 'update');
      assert.equal(planned.plan.endpointId, live.id);
      const missing = await planDeploy({ client: api, spec, adopt: 'nosuch' });
      assert.ok(!missing.ok);
      assert.equal(missing.notFound, true);
    });
  });

  it('reports a service it cannot reach as a value', async () => {
    await withEmulator({}, async (_emu, client) => {
      const planned = await planDeploy({ client: client({ apiKey: 'es_wrong_key_0123456789' }), spec });
      assert.ok(!planned.ok);
      assert.match(planned.message, /401|nauthori/i);
      assert.ok(!planned.message.includes('es_wrong_key_0123456789'));
    });
  });
});

describe('decideNamesakes', () => {
  const one = [{ id: 'a1', name: 'n' }];
  const two = [...one, { id: 'b2', name: 'n' }];
  it('refuses by default, adopts only one, creates on purpose', () => {
    assert.deepEqual(decideNamesakes([], 'refuse'), { action: 'proceed' });
    assert.equal(decideNamesakes(one, 'refuse').action, 'refuse');
    assert.deepEqual(decideNamesakes(one, 'adopt'), { action: 'adopt', endpointId: 'a1' });
    const ambiguous = decideNamesakes(two, 'adopt');
    assert.ok(ambiguous.action === 'refuse');
    assert.match(ambiguous.reason, /a1, b2/);
    assert.deepEqual(decideNamesakes(two, 'create-new'), { action: 'proceed' });
  });
});

describe('applyDeploy', () => {
  it('creates, verifies and binds; the next plan is unchanged', async () => {
    await withEmulator({}, async (_emu, client) => {
      const ws = workspace(YAML.stringify(spec));
      try {
        const api = client();
        const planned = await planDeploy({ client: api, spec });
        assert.ok(planned.ok);
        const steps: string[] = [];
        const outcome = await applyDeploy({
          client: api,
          plan: planned.plan,
          target: planned.target,
          document: ref(ws.root, ws.file),
          ...(planned.listed ? { listed: planned.listed } : {}),
          onProgress: (step) => steps.push(step),
        });
        assert.ok(outcome.ok);
        assert.equal(outcome.applied.action, 'created');
        assert.ok(outcome.applied.verified);
        assert.ok(outcome.binding?.saved);
        assert.deepEqual(steps, ['creating', 'reading-back', 'verifying'], 'the listing made while planning is not repeated');
        const binding = ws.bindings()['specs/worker.endpoint.yaml']['0'];
        assert.equal(binding.endpointId, outcome.applied.endpoint.id);
        const read = readSpecBindings(ws.file, ws.root);
        assert.ok(read.ok);
        const again = await planDeploy({ client: api, spec, binding: read.binding(0) });
        assert.ok(again.ok);
        assert.equal(again.plan.kind, 'unchanged');
        assert.ok(!needsApplying(again.plan, again.target));
      } finally {
        ws.cleanup();
      }
    });
  });

  it('adopting a namesake updates it and binds it, leaving one endpoint', async () => {
    await withEmulator({}, async (_emu, client) => {
      const ws = workspace(YAML.stringify(spec));
      try {
        const api = client();
        const live = await api.serverless.create({ ...(spec as unknown as CreateEndpointRequest), workers: { min: 0, max: 2 } });
        const adopted = await planDeploy({ client: api, spec, adopt: live.id });
        assert.ok(adopted.ok);
        const outcome = await applyDeploy({ client: api, plan: adopted.plan, target: adopted.target, document: ref(ws.root, ws.file) });
        assert.ok(outcome.ok);
        assert.equal(outcome.applied.action, 'updated');
        assert.ok(outcome.applied.verified);
        assert.equal(ws.bindings()['specs/worker.endpoint.yaml']['0'].endpointId, live.id);
        assert.deepEqual(
          (await api.serverless.list()).map((e) => e.id),
          [live.id],
        );
      } finally {
        ws.cleanup();
      }
    });
  });

  it('adopting a namesake that already matches only binds it', async () => {
    await withEmulator({}, async (_emu, client) => {
      const ws = workspace(YAML.stringify(spec));
      try {
        const api = client();
        const live = await api.serverless.create(spec as unknown as CreateEndpointRequest);
        const adopted = await planDeploy({ client: api, spec, adopt: live.id });
        assert.ok(adopted.ok);
        assert.equal(adopted.plan.kind, 'unchanged');
        assert.ok(needsApplying(adopted.plan, adopted.target));
        const outcome = await applyDeploy({ client: api, plan: adopted.plan, target: adopted.target, document: ref(ws.root, ws.file) });
        assert.ok(outcome.ok);
        assert.equal(outcome.applied.action, 'unchanged');
        assert.ok(outcome.binding?.saved);
        assert.equal(ws.bindings()['specs/worker.endpoint.yaml']['0'].endpointId, live.id);
      } finally {
        ws.cleanup();
      }
    });
  });

  it('an unchanged bound endpoint keeps its binding as it was', async () => {
    await withEmulator({}, async (_emu, client) => {
      const ws = workspace(YAML.stringify(spec));
      try {
        const api = client();
        const live = await api.serverless.create(spec as unknown as CreateEndpointRequest);
        const document = ref(ws.root, ws.file);
        const saved = saveBinding(document, live, { version: 1, body: toServiceBody(spec) }, new Date('2026-01-02T03:04:05Z'));
        assert.ok(saved.saved);
        const read = readSpecBindings(ws.file, ws.root);
        assert.ok(read.ok);
        const planned = await planDeploy({ client: api, spec, binding: read.binding(0) });
        assert.ok(planned.ok);
        const outcome = await applyDeploy({ client: api, plan: planned.plan, target: planned.target, document });
        assert.ok(outcome.ok);
        assert.equal(outcome.binding, undefined);
        assert.equal(ws.bindings()['specs/worker.endpoint.yaml']['0'].deployedAt, '2026-01-02T03:04:05.000Z');
      } finally {
        ws.cleanup();
      }
    });
  });

  it('returns a rejected create as a failure with its problems on spec paths, and binds nothing', async () => {
    await withEmulator({}, async (_emu, client) => {
      const ws = workspace(YAML.stringify(spec));
      try {
        const api = client();
        const bad = gpuQueueSpec({ gpu: { pools: ['ADA_24'], excludedTypes: ['NVIDIA A40'] } });
        const planned = await planDeploy({ client: api, spec: bad });
        assert.ok(planned.ok);
        const outcome = await applyDeploy({ client: api, plan: planned.plan, target: planned.target, document: ref(ws.root, ws.file) });
        assert.ok(!outcome.ok);
        assert.equal(outcome.applied.action, 'create');
        assert.deepEqual(outcome.applied.failure.problems[0].segments, ['gpu', 'excludedTypes', 0]);
        assert.ok(!existsSync(join(ws.root, '.endpoint-studio')), 'no binding is written for a failed create');
      } finally {
        ws.cleanup();
      }
    });
  });
});
