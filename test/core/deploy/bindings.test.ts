/** The committed binding file: tolerant reads, atomic and stable writes, and stale-binding repair. */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  bindingsPath,
  findWorkspaceRoot,
  getBinding,
  readBindings,
  repairBinding,
  serializeBindings,
  specKey,
  updateBindings,
  withBinding,
  withoutBinding,
  writeBindings,
  type Binding,
  type BindingStore,
} from '../../../core/deploy';
import type { CreateEndpointRequest } from '../../../core/api';
import { gpuQueueSpec, withEmulator } from './support';
import { noteOnRelease } from '../../../core/operations';

const binding = (endpointId: string): Binding => ({
  endpointId,
  endpointName: `name-${endpointId}`,
  deployedAt: '2025-06-01T12:00:00.000Z',
});

describe('binding store', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'es-bindings-'));
  });
  after(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('reads a missing file as no bindings', () => {
    const result = readBindings(join(root, 'nowhere'));
    assert.ok(result.ok);
    assert.deepEqual(result.store, {});
  });

  it('writes atomically and reads back what it wrote', () => {
    const folder = join(root, 'roundtrip');
    let store: BindingStore = {};
    store = withBinding(store, 'specs/b.endpoint.yaml', 1, binding('ep2'));
    store = withBinding(store, 'specs/b.endpoint.yaml', 0, binding('ep1'));
    store = withBinding(store, 'a.endpoint.json', 0, binding('ep0'));
    writeBindings(folder, store);
    const read = readBindings(folder);
    assert.ok(read.ok);
    assert.deepEqual(getBinding(read.store, 'specs/b.endpoint.yaml', 1), binding('ep2'));
    assert.equal(getBinding(read.store, 'specs/b.endpoint.yaml', 5), undefined);
    assert.deepEqual(readdirSync(join(folder, '.endpoint-studio')), ['deployments.json'], 'no temp file left behind');
  });

  it('writes the same text whatever order the bindings were added in, with a trailing newline', () => {
    const one = withBinding(withBinding({}, 'z.endpoint.yaml', 0, binding('z')), 'a.endpoint.yaml', 2, binding('a2'));
    const other = withBinding(withBinding({}, 'a.endpoint.yaml', 2, binding('a2')), 'z.endpoint.yaml', 0, binding('z'));
    assert.equal(serializeBindings(one), serializeBindings(other));
    const text = serializeBindings(withBinding(one, 'a.endpoint.yaml', 10, binding('a10')));
    assert.ok(text.endsWith('}\n'));
    assert.ok(text.indexOf('"2"') < text.indexOf('"10"'), 'document indexes in numeric order');
    assert.ok(text.indexOf('a.endpoint.yaml') < text.indexOf('z.endpoint.yaml'));
    const written = JSON.parse(text) as { deployments: BindingStore };
    assert.deepEqual(Object.keys(written.deployments['a.endpoint.yaml']['2']), ['endpointId', 'endpointName', 'deployedAt']);
  });

  it('changes one line when one binding is redeployed', () => {
    const store = withBinding(withBinding({}, 'a.endpoint.yaml', 0, binding('a')), 'b.endpoint.yaml', 0, binding('b'));
    const before = serializeBindings(store).split('\n');
    const afterText = serializeBindings(
      withBinding(store, 'b.endpoint.yaml', 0, { ...binding('b'), deployedAt: '2025-06-02T08:00:00.000Z' }),
    ).split('\n');
    assert.equal(before.length, afterText.length);
    assert.equal(before.filter((line, i) => line !== afterText[i]).length, 1);
  });

  it('removes a binding and a spec with none left', () => {
    const store = withBinding({}, 'a.endpoint.yaml', 0, binding('a'));
    assert.deepEqual(withoutBinding(store, 'a.endpoint.yaml', 0), {});
  });

  it('reports a corrupt file clearly and refuses to overwrite it', () => {
    const folder = join(root, 'corrupt');
    mkdirSync(join(folder, '.endpoint-studio'), { recursive: true });
    writeFileSync(bindingsPath(folder), '{"version": 1, "deployments": {<<<<<<< HEAD');
    const read = readBindings(folder);
    assert.ok(!read.ok);
    assert.match(read.error, /deployments\.json is not valid JSON.*merge conflict/);
    const update = updateBindings(folder, (store) => withBinding(store, 'x.endpoint.yaml', 0, binding('x')));
    assert.ok(!update.ok);
    assert.match(readFileSync(bindingsPath(folder), 'utf8'), /<<<<<<< HEAD/, 'left as it was');
  });

  it('reports a file of the wrong shape', () => {
    const folder = join(root, 'shape');
    mkdirSync(join(folder, '.endpoint-studio'), { recursive: true });
    for (const [content, message] of [
      ['[]', /expected a JSON object/],
      ['{"version": 7, "deployments": {}}', /unsupported version 7/],
      ['{"version": 1, "deployments": {"a.yaml": {"0": {"endpointName": "x"}}}}', /needs an endpointId/],
      ['{"version": 1, "deployments": {"a.yaml": {"first": {"endpointId": "x"}}}}', /not a document index/],
    ] as const) {
      writeFileSync(bindingsPath(folder), content);
      const read = readBindings(folder);
      assert.ok(!read.ok, content);
      assert.match(read.error, message);
    }
  });

  it('keys specs by their path from the root with forward slashes, and refuses one outside', () => {
    assert.equal(specKey(root, join(root, 'deploy', 'gpu', 'a.endpoint.yaml')), 'deploy/gpu/a.endpoint.yaml');
    assert.throws(() => specKey(join(root, 'deploy'), join(root, 'other.endpoint.yaml')), /not inside the workspace folder/);
  });

  it('finds the workspace root by walking up to .endpoint-studio or .git', () => {
    const repo = join(root, 'repo');
    mkdirSync(join(repo, '.git'), { recursive: true });
    mkdirSync(join(repo, 'svc', 'specs'), { recursive: true });
    assert.equal(findWorkspaceRoot(join(repo, 'svc', 'specs', 'a.endpoint.yaml')), repo);
    mkdirSync(join(repo, 'svc', '.endpoint-studio'));
    assert.equal(findWorkspaceRoot(join(repo, 'svc', 'specs', 'a.endpoint.yaml')), join(repo, 'svc'));
  });
});

describe('repairBinding', () => {
  it('tells a live endpoint from one deleted elsewhere', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const { $schema: _schema, ...body } = gpuQueueSpec();
      const endpoint = await api.serverless.create(body as unknown as CreateEndpointRequest);
      const bound = await repairBinding(api, binding(endpoint.id));
      assert.equal(bound.status, 'bound');
      assert.equal(bound.endpoint.id, endpoint.id);
      await api.serverless.delete(endpoint.id);
      const missing = await repairBinding(api, binding(endpoint.id));
      assert.equal(missing.status, 'missing');
      const unreachable = await repairBinding(client({ apiKey: 'wrong-key-123' }), binding(endpoint.id));
      assert.equal(unreachable.status, 'error');
    });
  });
});

describe('noteOnRelease', () => {
  it('adds readiness and a smoke job to the bindings that recorded that release, and reads them back', () => {
    const root = mkdtempSync(join(tmpdir(), 'es-note-release-'));
    try {
      const release = (version: number) => ({ version, body: { name: 'a' } });
      const at = '2026-11-29T01:00:00.000Z';
      writeBindings(root, {
        'a.staging.endpoint.yaml': { '0': { endpointId: 'ep1', endpointName: 'a', deployedAt: at, release: release(3) } },
        'b.endpoint.yaml': { '0': { endpointId: 'ep1', endpointName: 'a', deployedAt: at, release: release(2) } },
      });
      const smoke = { passed: true, jobId: 'job-1', at };
      assert.deepEqual(noteOnRelease(root, 'ep1', 3, { readiness: { firstWorkerReadyMs: 4200 }, smoke }), {
        saved: true,
        path: bindingsPath(root),
      });
      const read = readBindings(root);
      assert.ok(read.ok);
      assert.deepEqual(getBinding(read.store, 'a.staging.endpoint.yaml', 0)?.release, {
        ...release(3),
        readiness: { firstWorkerReadyMs: 4200 },
        smoke,
      });
      assert.deepEqual(getBinding(read.store, 'b.endpoint.yaml', 0)?.release, release(2), 'another release is left alone');
      assert.equal(noteOnRelease(root, 'ep1', 9, { smoke }), undefined, 'no binding recorded release 9');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('drops a hand-edited readiness or smoke record it cannot read, keeping the release', () => {
    const root = mkdtempSync(join(tmpdir(), 'es-note-release-'));
    try {
      const binding = {
        endpointId: 'ep1',
        endpointName: 'a',
        deployedAt: '',
        release: { version: 1, body: {}, readiness: { firstWorkerReadyMs: 'soon' }, smoke: { passed: 'yes' } },
      };
      mkdirSync(join(root, '.endpoint-studio'));
      writeFileSync(bindingsPath(root), JSON.stringify({ version: 1, deployments: { 'a.endpoint.yaml': { '0': binding } } }));
      const read = readBindings(root);
      assert.ok(read.ok);
      assert.deepEqual(getBinding(read.store, 'a.endpoint.yaml', 0)?.release, { version: 1, body: {} });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
