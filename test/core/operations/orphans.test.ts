/**
 * What deleted specs leave behind: `orphanedBindings` finds the bindings whose spec file or document is gone (and
 * no others), `forgetOrphan` removes one binding and nothing else, and `deleteOrphanedEndpoint` deletes the endpoint
 * on the emulator before forgetting it, takes a 404 as already gone, and refuses an endpoint a present spec names.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { bindingsPath, writeBindings, type Binding, type BindingStore } from '../../../core/deploy';
import { deleteOrphanedEndpoint, forgetOrphan, orphanedBindings } from '../../../core/operations';
import { gpuEndpoint, withEmulator } from '../api/support';
import { workspace, type Workspace } from './support';

const SPEC = 'name: worker\ntype: QUEUE\nimage: myorg/worker:1\n';
const bound = (endpointId: string, endpointName = `name-of-${endpointId}`): Binding => ({
  endpointId,
  endpointName,
  deployedAt: '2025-01-02T03:04:05.000Z',
});

/** specs/worker.endpoint.yaml (two documents) is there; specs/old.endpoint.yaml and other/gone.endpoint.yaml are not. */
function withLeftovers(fn: (ws: Workspace) => Promise<void> | void): () => Promise<void> {
  return async () => {
    const ws = workspace(`${SPEC}---\n${SPEC.replace('worker', 'second')}`);
    try {
      const store: BindingStore = {
        'specs/worker.endpoint.yaml': { '0': bound('ep_kept'), '1': bound('ep_second'), '2': bound('ep_third') },
        'specs/old.endpoint.yaml': { '0': bound('ep_old', 'old-api') },
        'other/gone.endpoint.yaml': { '0': bound('ep_other') },
      };
      writeBindings(ws.root, store);
      await fn(ws);
    } finally {
      ws.cleanup();
    }
  };
}

describe('orphanedBindings', () => {
  it(
    'lists the bindings whose file is gone or no longer holds the document, and none whose spec is there',
    withLeftovers((ws) => {
      const found = orphanedBindings(ws.root);
      assert.ok(found.ok);
      assert.deepEqual(
        found.orphans.map((o) => [o.key, o.documentIndex, o.endpointId, o.reason]),
        [
          ['other/gone.endpoint.yaml', 0, 'ep_other', 'file-gone'],
          ['specs/old.endpoint.yaml', 0, 'ep_old', 'file-gone'],
          ['specs/worker.endpoint.yaml', 2, 'ep_third', 'document-gone'],
        ],
      );
      const old = found.orphans.find((o) => o.endpointId === 'ep_old');
      assert.ok(old);
      assert.equal(old.endpointName, 'old-api');
      assert.equal(old.deployedAt, '2025-01-02T03:04:05.000Z');
    }),
  );

  it(
    'keeps to the folders given, subfolders included, and lists nothing for a folder outside the root',
    withLeftovers((ws) => {
      const inSpecs = orphanedBindings(ws.root, [join(ws.root, 'specs')]);
      assert.ok(inSpecs.ok);
      assert.deepEqual(inSpecs.orphans.map((o) => o.endpointId).sort(), ['ep_old', 'ep_third']);
      const both = orphanedBindings(ws.root, [join(ws.root, 'specs'), join(ws.root, 'other')]);
      assert.ok(both.ok);
      assert.equal(both.orphans.length, 3);
      const whole = orphanedBindings(ws.root, [ws.root]);
      assert.ok(whole.ok);
      assert.equal(whole.orphans.length, 3);
      const outside = orphanedBindings(ws.root, [join(ws.root, '..')]);
      assert.ok(outside.ok);
      assert.deepEqual(outside.orphans, []);
    }),
  );

  it(
    'calls a spec that became a folder gone, and says why it cannot read a broken bindings file',
    withLeftovers((ws) => {
      mkdirSync(join(ws.root, 'specs', 'old.endpoint.yaml'));
      const found = orphanedBindings(ws.root);
      assert.ok(found.ok);
      assert.ok(found.orphans.some((o) => o.endpointId === 'ep_old'));
      writeFileSync(bindingsPath(ws.root), '{ "version": 1, "deployments": ');
      const broken = orphanedBindings(ws.root);
      assert.ok(!broken.ok);
      assert.match(broken.error, /not valid JSON/);
    }),
  );

  it('is empty where there is no bindings file', () => {
    const ws = workspace(SPEC);
    try {
      assert.deepEqual(orphanedBindings(ws.root), { ok: true, root: ws.root, orphans: [] });
    } finally {
      ws.cleanup();
    }
  });
});

describe('forgetOrphan', () => {
  it(
    'removes that one binding and keeps every other, the file dropping out once it has none',
    withLeftovers((ws) => {
      const forgotten = forgetOrphan(ws.root, 'specs/worker.endpoint.yaml', 2);
      assert.ok(forgotten.forgotten);
      assert.deepEqual(Object.keys(ws.bindings()['specs/worker.endpoint.yaml']), ['0', '1']);
      assert.ok(forgetOrphan(ws.root, 'specs/old.endpoint.yaml', 0).forgotten);
      assert.deepEqual(Object.keys(ws.bindings()).sort(), ['other/gone.endpoint.yaml', 'specs/worker.endpoint.yaml']);
      assert.equal(ws.bindings()['other/gone.endpoint.yaml']['0'].endpointId, 'ep_other');
    }),
  );

  it(
    'refuses a binding whose spec document is there, and leaves the file as it was',
    withLeftovers((ws) => {
      const before = readFileSync(bindingsPath(ws.root), 'utf8');
      const refused = forgetOrphan(ws.root, 'specs/worker.endpoint.yaml', 1);
      assert.ok(!refused.forgotten);
      assert.match(refused.error, /not left behind/);
      writeFileSync(join(ws.root, 'specs', 'old.endpoint.yaml'), SPEC);
      assert.ok(!forgetOrphan(ws.root, 'specs/old.endpoint.yaml', 0).forgotten, 'restored since it was listed');
      assert.equal(readFileSync(bindingsPath(ws.root), 'utf8'), before);
    }),
  );
});

describe('deleteOrphanedEndpoint', () => {
  it('deletes the endpoint on the service, then forgets every binding left behind that names it', async () => {
    await withEmulator({}, async (_emu, client) => {
      const ws = workspace(SPEC);
      try {
        const api = client();
        const doomed = await api.serverless.create(gpuEndpoint({ name: 'old-api' }));
        const kept = await api.serverless.create(gpuEndpoint({ name: 'kept' }));
        writeBindings(ws.root, {
          'specs/worker.endpoint.yaml': { '0': bound(kept.id, 'kept') },
          'specs/old.endpoint.yaml': { '0': bound(doomed.id, 'old-api') },
          'specs/older.endpoint.yaml': { '0': bound(doomed.id, 'old-api') },
        });
        const result = await deleteOrphanedEndpoint({ client: api, root: ws.root, endpointId: doomed.id });
        assert.ok(result.ok);
        assert.equal(result.outcome, 'deleted');
        assert.deepEqual(result.forgotten.map((o) => o.key).sort(), ['specs/old.endpoint.yaml', 'specs/older.endpoint.yaml']);
        assert.deepEqual(
          (await api.serverless.list()).map((e) => e.id),
          [kept.id],
        );
        assert.deepEqual(Object.keys(ws.bindings()), ['specs/worker.endpoint.yaml']);
      } finally {
        ws.cleanup();
      }
    });
  });

  it('takes a 404 as already deleted and forgets the binding all the same', async () => {
    await withEmulator({}, async (_emu, client) => {
      const ws = workspace(SPEC);
      try {
        const api = client();
        const gone = await api.serverless.create(gpuEndpoint({ name: 'old-api' }));
        await api.serverless.delete(gone.id);
        writeBindings(ws.root, { 'specs/old.endpoint.yaml': { '0': bound(gone.id, 'old-api') } });
        const result = await deleteOrphanedEndpoint({ client: api, root: ws.root, endpointId: gone.id });
        assert.ok(result.ok);
        assert.equal(result.outcome, 'already-gone');
        assert.deepEqual(ws.bindings(), {});
      } finally {
        ws.cleanup();
      }
    });
  });

  it('refuses an endpoint a present spec is bound to, or one no binding left behind names, and sends nothing', async () => {
    await withEmulator({}, async (_emu, client) => {
      const ws = workspace(SPEC);
      try {
        const api = client();
        const shared = await api.serverless.create(gpuEndpoint({ name: 'shared' }));
        writeBindings(ws.root, {
          'specs/worker.endpoint.yaml': { '0': bound(shared.id, 'shared') },
          'specs/old.endpoint.yaml': { '0': bound(shared.id, 'shared') },
        });
        const stillBound = await deleteOrphanedEndpoint({ client: api, root: ws.root, endpointId: shared.id });
        assert.ok(!stillBound.ok);
        assert.equal(stillBound.code, 'still-bound');
        assert.match(stillBound.error, /still bound to specs\/worker\.endpoint\.yaml document 0$/);
        rmSync(join(ws.root, 'specs', 'old.endpoint.yaml'), { force: true });
        writeBindings(ws.root, { 'specs/worker.endpoint.yaml': { '0': bound(shared.id, 'shared') } });
        const notLeft = await deleteOrphanedEndpoint({ client: api, root: ws.root, endpointId: shared.id });
        assert.ok(!notLeft.ok);
        assert.equal(notLeft.code, 'not-left-behind');
        assert.equal((await api.serverless.list()).length, 1, 'nothing was deleted');
      } finally {
        ws.cleanup();
      }
    });
  });
});
