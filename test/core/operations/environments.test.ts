import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { configFromEnvironment } from '../../../core/api';
import { environmentOfSpecFile, environmentSettings, filesForEnvironment, specForEnvironment } from '../../../core/operations';

const BASE = 'name: sdxl\ntype: QUEUE\nimage: org/sdxl:1\ngpu:\n  pools: [ADA_24]\n';

function workspace(): string {
  const root = mkdtempSync(join(tmpdir(), 'es-environments-'));
  mkdirSync(join(root, '.endpoint-studio'));
  mkdirSync(join(root, 'specs'));
  writeFileSync(join(root, 'specs', 'sdxl.endpoint.yaml'), BASE);
  writeFileSync(join(root, 'specs', 'sdxl.prod.endpoint.yaml'), 'extends: ./sdxl.endpoint.yaml\nname: sdxl-prod\n');
  writeFileSync(join(root, 'specs', 'sdxl.staging.endpoint.yaml'), 'extends: ./sdxl.endpoint.yaml\nname: sdxl-staging\n');
  writeFileSync(join(root, 'specs', 'other.endpoint.yaml'), BASE.replace('sdxl', 'other'));
  return root;
}

test('an overlay deploys to its environment, a base to none; a dotted base name without extends is a base', () => {
  assert.equal(environmentOfSpecFile('/w/sdxl.prod.endpoint.yaml', 'extends: ./sdxl.endpoint.yaml\n'), 'prod');
  assert.equal(environmentOfSpecFile('/w/sdxl.endpoint.yaml', BASE), undefined);
  assert.equal(environmentOfSpecFile('/w/team.sdxl.endpoint.yaml', BASE), undefined);
});

test('the environment of a base is its overlay; another environment’s overlay or a base without one is refused by name', () => {
  const root = workspace();
  const specs = join(root, 'specs');
  assert.deepEqual(specForEnvironment(join(specs, 'sdxl.endpoint.yaml'), 'prod'), {
    ok: true,
    path: join(specs, 'sdxl.prod.endpoint.yaml'),
    environment: 'prod',
  });
  const wrong = specForEnvironment(join(specs, 'sdxl.staging.endpoint.yaml'), 'prod');
  assert.ok(!wrong.ok);
  assert.match(wrong.message, /is the staging overlay, not prod's/);
  const none = specForEnvironment(join(specs, 'other.endpoint.yaml'), 'prod');
  assert.ok(!none.ok);
  assert.match(none.message, /has no prod overlay: add other\.prod\.endpoint\.yaml/);
  const all = ['sdxl.endpoint.yaml', 'sdxl.prod.endpoint.yaml', 'sdxl.staging.endpoint.yaml', 'other.endpoint.yaml'].map((f) =>
    join(specs, f),
  );
  assert.deepEqual(filesForEnvironment(all, 'staging'), [join(specs, 'sdxl.staging.endpoint.yaml')]);
});

test('settings come from the workspace’s environments file; the key variable defaults to ENDPOINT_STUDIO_API_KEY_<ENV>', () => {
  const root = workspace();
  writeFileSync(
    join(root, '.endpoint-studio', 'environments.yaml'),
    'environments:\n  prod:\n    protected: true\n    profile: production\n  staging:\n    keyVariable: STAGING_KEY\n',
  );
  const spec = join(root, 'specs', 'sdxl.prod.endpoint.yaml');
  assert.deepEqual(environmentSettings('prod', spec).environment, {
    name: 'prod',
    keyVariable: 'ENDPOINT_STUDIO_API_KEY_PROD',
    protected: true,
    profile: 'production',
  });
  assert.deepEqual(environmentSettings('staging', spec).environment, { name: 'staging', keyVariable: 'STAGING_KEY', protected: false });
  assert.equal(environmentSettings('staging', spec).root, root);
});

test('an environment’s key is read from its variable only, never from the default key', () => {
  const env = { ENDPOINT_STUDIO_API_KEY: 'default-key', ENDPOINT_STUDIO_API_KEY_PROD: ' prod-key ' };
  assert.equal(configFromEnvironment(env, { keyVariable: 'ENDPOINT_STUDIO_API_KEY_PROD' }).apiKey, 'prod-key');
  assert.equal(configFromEnvironment(env, { keyVariable: 'ENDPOINT_STUDIO_API_KEY_STAGING' }).apiKey, '');
  assert.equal(configFromEnvironment(env).apiKey, 'default-key');
});
