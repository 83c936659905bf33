/** `bindSpec` and `pullSpec` against the emulator: binding without deploying, and the live endpoint as spec text. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import YAML from 'yaml';
import type { CreateEndpointRequest } from '../../../core/api';
import { liveAsSpec } from '../../../core/deploy';
import { bindSpec, planDeploy, pullSpec, readSpecBindings } from '../../../core/operations';
import { gpuQueueSpec, withEmulator } from '../deploy/support';
import { workspace } from './support';

const spec = gpuQueueSpec();

describe('bindSpec', () => {
  it('binds to an existing endpoint, says how it differs, and the next plan updates it', async () => {
    await withEmulator({}, async (_emu, client) => {
      const ws = workspace(YAML.stringify(spec));
      try {
        const api = client();
        const live = await api.serverless.create({ ...(spec as unknown as CreateEndpointRequest), workers: { min: 0, max: 2 } });
        const read = readSpecBindings(ws.file, ws.root);
        assert.ok(read.ok);
        const bound = await bindSpec({ client: api, document: { ...read.location, documentIndex: 0 }, endpointId: live.id, spec });
        assert.ok(bound.ok);
        assert.equal(bound.endpoint.id, live.id);
        assert.deepEqual(
          bound.drift.map((c) => c.path),
          ['workers.min', 'workers.max', 'workers.idleTimeout'],
        );
        assert.equal(ws.bindings()['specs/worker.endpoint.yaml']['0'].endpointName, 'sdxl-worker');
        const reread = readSpecBindings(ws.file, ws.root);
        assert.ok(reread.ok);
        const planned = await planDeploy({ client: api, spec, binding: reread.binding(0) });
        assert.ok(planned.ok);
        assert.equal(planned.plan.kind, 'update');
        assert.deepEqual(planned.namesakes, []);
      } finally {
        ws.cleanup();
      }
    });
  });

  it('refuses an endpoint that does not exist and writes nothing', async () => {
    await withEmulator({}, async (_emu, client) => {
      const ws = workspace(YAML.stringify(spec));
      try {
        const read = readSpecBindings(ws.file, ws.root);
        assert.ok(read.ok);
        const bound = await bindSpec({ client: client(), document: { ...read.location, documentIndex: 0 }, endpointId: 'nosuch' });
        assert.ok(!bound.ok);
        assert.equal(bound.notFound, true);
        assert.equal(bound.message, 'no endpoint nosuch');
        assert.throws(() => ws.bindings(), /ENOENT/);
      } finally {
        ws.cleanup();
      }
    });
  });
});

describe('pullSpec', () => {
  it('reads the endpoint as spec text, with or without a header', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const live = await api.serverless.create(spec as unknown as CreateEndpointRequest);
      const now = new Date('2026-05-06T07:08:09Z');
      const yaml = await pullSpec({ client: api, endpointId: live.id, format: 'yaml', withHeader: true, now });
      assert.ok(yaml.ok);
      assert.ok(yaml.text.startsWith(`# endpoint ${live.id}, read 2026-05-06T07:08:09.000Z\n`));
      assert.deepEqual(YAML.parse(yaml.text), liveAsSpec(await api.serverless.get(live.id)));
      const json = await pullSpec({ client: api, endpointId: live.id, format: 'json' });
      assert.ok(json.ok);
      assert.deepEqual(JSON.parse(json.text), json.spec);
      const missing = await pullSpec({ client: api, endpointId: 'nosuch', format: 'yaml' });
      assert.ok(!missing.ok);
      assert.equal(missing.notFound, true);
    });
  });
});
