import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Template } from '../../core/api/types';
import type { ProblemBody } from '../../emulator/http/problems';
import { call, withEmulator } from './helpers';

const template = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ name: 'with-mount', image: 'me/pod:1', ...extra });

test('template mounts are checked against TemplateMounts on create and PATCH, each failure named by its JSON path', async () => {
  await withEmulator({}, async (e) => {
    const rejected: [unknown, string][] = [
      ['big', '$.mounts: must be an object'],
      [[{ size: 20, path: '/workspace' }], '$.mounts: must be an object'],
      [{ persistent: 'yes' }, '$.mounts.persistent: must be an object'],
      [{ persistent: { size: 9, path: '/workspace' } }, '$.mounts.persistent.size: must be an integer from 10'],
      [{ persistent: { size: 20.5, path: '/workspace' } }, '$.mounts.persistent.size: must be an integer from 10'],
      [{ persistent: { size: '20', path: '/workspace' } }, '$.mounts.persistent.size: must be an integer from 10'],
      [{ persistent: { size: 20, path: 7 } }, '$.mounts.persistent.path: must be a string'],
      [{ persistent: { size: 20 } }, '$.mounts.persistent: missing required property: path'],
      [{ persistent: { path: '/workspace' } }, '$.mounts.persistent: missing required property: size'],
      [{ persistent: { size: 20, path: '/workspace', readOnly: true } }, '$.mounts.persistent.readOnly: unknown property: readOnly'],
      // Templates take no network mount: the schema rejects the key itself.
      [{ network: [{ volumeId: 'vol_1', path: '/runpod-volume' }] }, '$.mounts.network: unknown property: network'],
    ];
    for (const [mounts, entry] of rejected) {
      const answer = await call<ProblemBody>(e.restUrl, 'POST', '/v2/templates', template({ mounts }));
      assert.equal(answer.status, 422, JSON.stringify(mounts));
      assert.match(answer.headers.get('content-type') ?? '', /application\/problem\+json/);
      assert.deepEqual(answer.body.errors, [entry], JSON.stringify(mounts));
    }
    assert.equal((await call<{ templates: Template[] }>(e.restUrl, 'GET', '/v2/templates')).body.templates.length, 0, 'none was stored');

    const mount = { persistent: { size: 10, path: '/workspace' } };
    const created = await call<Template>(e.restUrl, 'POST', '/v2/templates', template({ mounts: mount }));
    assert.equal(created.status, 201);
    assert.deepEqual(created.body.mounts, mount);
    for (const [mounts, entry] of rejected) {
      const answer = await call<ProblemBody>(e.restUrl, 'PATCH', `/v2/templates/${created.body.id}`, { mounts });
      assert.equal(answer.status, 422, JSON.stringify(mounts));
      assert.deepEqual(answer.body.errors, [entry], JSON.stringify(mounts));
    }
    assert.deepEqual((await call<Template>(e.restUrl, 'GET', `/v2/templates/${created.body.id}`)).body.mounts, mount, 'unchanged');
  });
});

test('PATCH of a template: mounts omitted or {} leave the mount unchanged; a persistent mount sent whole replaces it', async () => {
  await withEmulator({}, async (e) => {
    const mount = { persistent: { size: 20, path: '/workspace' } };
    const { id } = (await call<Template>(e.restUrl, 'POST', '/v2/templates', template({ mounts: mount }))).body;
    const path = `/v2/templates/${id}`;
    const emptied = await call<Template>(e.restUrl, 'PATCH', path, { mounts: {} });
    assert.equal(emptied.status, 200);
    assert.deepEqual(emptied.body.mounts, mount);
    const renamed = await call<Template>(e.restUrl, 'PATCH', path, { name: 'renamed' });
    assert.deepEqual(renamed.body.mounts, mount);
    const moved = { persistent: { size: 40, path: '/data' } };
    assert.deepEqual((await call<Template>(e.restUrl, 'PATCH', path, { mounts: moved })).body.mounts, moved);
    assert.deepEqual((await call<Template>(e.restUrl, 'GET', path)).body.mounts, moved);
    // A template made without a mount can be given one.
    const bare = (await call<Template>(e.restUrl, 'POST', '/v2/templates', template())).body;
    assert.deepEqual(bare.mounts, {});
    assert.deepEqual((await call<Template>(e.restUrl, 'PATCH', `/v2/templates/${bare.id}`, { mounts: {} })).body.mounts, {});
    assert.deepEqual((await call<Template>(e.restUrl, 'PATCH', `/v2/templates/${bare.id}`, { mounts: mount })).body.mounts, mount);
  });
});
