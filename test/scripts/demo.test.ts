/**
 * `npm start`'s demo state: the emulator seeds the example endpoints once, the workspace's demo specs
 * are bound to them, and the state is rebuilt on each run unless it is kept.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import type { ApiClient, CreateEndpointRequest } from '../../core/api';
import { DISK_FILE_VIEW } from '../../core/environments/overlays';
import { checkSpec, hasErrors, planDeploy, readSpecBindings } from '../../core/operations';
import { specFormatOf } from '../../core/protocol';
import { DEMO_ENDPOINTS } from '../../emulator/demo/index';
import { bindDemo, DEMO_SPECS, keepStateRequested, prepareState } from '../../scripts/demo';
import { EXAMPLES_DIR } from '../../scripts/editor/paths';
import { withEmulator, type Emulator } from '../core/deploy/support';

const specOf = (file: string): Record<string, unknown> => {
  const text = readFileSync(join(EXAMPLES_DIR, file), 'utf8');
  return (file.endsWith('.json') ? JSON.parse(text) : parseYaml(text)) as Record<string, unknown>;
};

/** What deploying an example file sends: its data, or an overlay merged into its base. */
async function bodyOf(file: string): Promise<Record<string, unknown>> {
  const path = join(EXAMPLES_DIR, file);
  const text = readFileSync(path, 'utf8');
  const checked = await checkSpec({
    text,
    format: specFormatOf(file),
    catalog: { kind: 'none' },
    file: { path, view: DISK_FILE_VIEW, roots: [EXAMPLES_DIR] },
  });
  assert.ok(!hasErrors(checked.diagnostics), `${file}: ${JSON.stringify(checked.diagnostics)}`);
  return checked.documents[0].body as Record<string, unknown>;
}

function seededBy(emu: Emulator): Readonly<Record<string, string>> {
  assert.ok(emu.demo, 'the emulator seeded the demo');
  return emu.demo.endpoints;
}

const names = async (api: ApiClient): Promise<string[]> => (await api.serverless.list()).map((e) => e.name).sort();

describe('the npm start demo', () => {
  it('deploys exactly the example specs, the staging and prod overlays merged into their base', async () => {
    for (const demo of DEMO_ENDPOINTS) assert.deepEqual(await bodyOf(demo.file), demo.spec, demo.file);
    assert.ok(DEMO_SPECS.includes('sdxl-worker.staging.endpoint.yaml') && DEMO_SPECS.includes('sdxl-worker.prod.endpoint.yaml'));
  });

  it('seeds each demo endpoint once and binds its spec, so each opens deployed and unchanged', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'es-demo-'));
    const statePath = join(dir, 'state.json');
    const workspace = join(dir, 'workspace');
    try {
      const seeded = await withEmulator({ demo: true, statePath }, async (emu, client) => {
        const api = client();
        const seeded = seededBy(emu);
        assert.deepEqual(Object.keys(seeded), DEMO_SPECS);
        assert.equal((await api.serverless.list()).length, DEMO_SPECS.length);
        cpSync(EXAMPLES_DIR, workspace, { recursive: true });
        await bindDemo(api, workspace, seeded);
        for (const file of DEMO_SPECS) {
          const read = readSpecBindings(join(workspace, file), workspace);
          assert.ok(read.ok);
          assert.equal(read.binding(0)?.endpointId, seeded[file]);
          const planned = await planDeploy({ client: api, spec: await bodyOf(file), binding: read.binding(0) });
          assert.ok(planned.ok);
          assert.equal(planned.plan.kind, 'unchanged', `${file}: ${JSON.stringify(planned.plan)}`);
        }
        return seeded;
      });
      await withEmulator({ demo: true, statePath }, async (emu, client) => {
        assert.deepEqual(seededBy(emu), seeded, 'a kept state is not seeded twice');
        assert.equal((await client().serverless.list()).length, DEMO_SPECS.length);
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('picks the oldest endpoint of a demo name when the kept state holds several', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'es-demo-'));
    const statePath = join(dir, 'state.json');
    try {
      const body = specOf('sdxl-worker.endpoint.yaml') as unknown as CreateEndpointRequest;
      const oldest = await withEmulator({ statePath }, async (_emu, client) => {
        const created = await client().serverless.create(body);
        await client().serverless.create(body);
        return created;
      });
      await withEmulator({ demo: true, statePath }, (emu) => {
        assert.equal(seededBy(emu)['sdxl-worker.endpoint.yaml'], oldest.id);
        return Promise.resolve();
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps an endpoint created in one run with --keep-state, and rebuilds the demo state by default', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'es-demo-'));
    const statePath = join(dir, 'state.json');
    const mine = { ...specOf('sdxl-worker.endpoint.yaml'), name: 'mine' } as unknown as CreateEndpointRequest;
    const demoNames = DEMO_ENDPOINTS.map((d) => String(d.spec.name)).sort();
    try {
      assert.equal(prepareState(statePath, true), 'fresh', 'nothing to keep on the first run');
      const first = await withEmulator({ demo: true, statePath }, async (emu, client) => {
        await client().serverless.create(mine);
        return seededBy(emu);
      });
      assert.equal(prepareState(statePath, keepStateRequested(['--keep-state'], {})), 'kept');
      await withEmulator({ demo: true, statePath }, async (emu, client) => {
        assert.deepEqual(await names(client()), [...demoNames, 'mine'].sort());
        assert.deepEqual(seededBy(emu), first);
      });
      assert.equal(prepareState(statePath, keepStateRequested([], {})), 'fresh');
      await withEmulator({ demo: true, statePath }, async (emu, client) => {
        assert.deepEqual(await names(client()), demoNames);
        assert.deepEqual(Object.keys(seededBy(emu)), DEMO_SPECS);
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the state when asked by flag or variable', () => {
    assert.equal(keepStateRequested(['--keep-state'], {}), true);
    assert.equal(keepStateRequested([], { ENDPOINT_STUDIO_KEEP_STATE: '1' }), true);
    assert.equal(keepStateRequested([], { ENDPOINT_STUDIO_KEEP_STATE: 'true' }), true);
    assert.equal(keepStateRequested([], {}), false);
    for (const off of ['', ' ', '0', 'false', 'FALSE'])
      assert.equal(keepStateRequested([], { ENDPOINT_STUDIO_KEEP_STATE: off }), false, off);
  });
});
