/**
 * `endpoint-studio promote` against two accounts behind one service URL (staging's and prod's emulators, each with
 * its own key): staging deployed with a new image tag is promoted into prod's overlay, its comments kept, and prod's
 * plan printed on prod's key with the image change; a release that was never recorded, or whose smoke job failed
 * (deploy --wait --smoke on staging), is refused with nothing written; --field promotes another value.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runDeploy } from '../../cli/deploy';
import { runPromote } from '../../cli/promote';
import { readBindings, updateBindings, withBinding, type BindingStore } from '../../core/deploy';
import { PROD_KEY, STAGING_KEY, twoAccounts, type TwoAccounts } from '../support/twoAccounts';
import { captureIo } from './support';

const BASE = `name: sdxl
type: QUEUE
image: myorg/sdxl:1.0
gpu:
  pools: [ADA_24, AMPERE_24]
workers:
  min: 0
  max: 2
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
env:
  MODEL_ID: sdxl-base
`;
const STAGING = `extends: ./sdxl.endpoint.yaml
name: sdxl-staging
image: myorg/sdxl:1.1
env:
  MODEL_ID: sdxl-turbo
`;
const PROD = `# Production: more headroom, one pool.
extends: ./sdxl.endpoint.yaml
name: sdxl-prod # the endpoint's own name
gpu:
  pools: [AMPERE_48]
workers:
  max: 4 # the budget allows four
`;

describe('endpoint-studio promote', { timeout: 120_000 }, () => {
  let root: string;
  let accounts: TwoAccounts;
  const cwd = process.cwd();
  const prodFile = () => join(root, 'specs', 'sdxl.prod.endpoint.yaml');
  const keys = { ENDPOINT_STUDIO_API_KEY_STAGING: STAGING_KEY, ENDPOINT_STUDIO_API_KEY_PROD: PROD_KEY };
  const io = (env: Record<string, string> = keys) => captureIo(undefined, { env: { ENDPOINT_STUDIO_API_URL: accounts.url, ...env } });
  const noKeysIn = (text: string) => {
    assert.ok(!text.includes(STAGING_KEY) && !text.includes(PROD_KEY), 'a key was printed');
  };
  const bindingsStore = (): BindingStore => {
    const read = readBindings(root);
    assert.ok(read.ok);
    return read.store;
  };

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'es-promote-cli-'));
    mkdirSync(join(root, '.git'));
    mkdirSync(join(root, '.endpoint-studio'));
    mkdirSync(join(root, 'specs'));
    writeFileSync(join(root, 'specs', 'sdxl.endpoint.yaml'), BASE);
    writeFileSync(join(root, 'specs', 'sdxl.staging.endpoint.yaml'), STAGING);
    writeFileSync(prodFile(), PROD);
    writeFileSync(join(root, '.endpoint-studio', 'environments.yaml'), 'environments:\n  prod:\n    protected: true\n');
    accounts = await twoAccounts();
    process.chdir(root);
  });
  after(async () => {
    process.chdir(cwd);
    await accounts.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('refuses while staging has not been deployed from here, and writes nothing', async () => {
    const refused = io();
    assert.equal(await runPromote(['--from', 'staging', '--to', 'prod', 'specs/sdxl.endpoint.yaml'], refused), 1);
    assert.match(refused.stderr, /specs\/sdxl\.endpoint\.yaml: not promoted: staging has not been deployed from here/);
    assert.equal(readFileSync(prodFile(), 'utf8'), PROD);
  });

  it('names the overlay to add when the base has none, whatever the case of its extension', async () => {
    const solo = join(root, 'specs', 'solo.endpoint.YAML');
    writeFileSync(solo, BASE.replace('name: sdxl', 'name: solo'));
    try {
      const refused = io();
      assert.equal(await runPromote(['--from', 'staging', '--to', 'prod', 'specs/solo.endpoint.YAML'], refused), 1);
      assert.match(refused.stderr, /has no staging overlay: add specs\/solo\.staging\.endpoint\.YAML \(extends the base/);
    } finally {
      rmSync(solo);
    }
  });

  it('refuses a binding written before releases were recorded', async () => {
    const key = 'specs/sdxl.staging.endpoint.yaml';
    updateBindings(root, (store) => withBinding(store, key, 0, { endpointId: 'old', endpointName: 'sdxl-staging', deployedAt: '' }));
    const refused = io();
    assert.equal(await runPromote(['--from', 'staging', '--to', 'prod', 'specs/sdxl.staging.endpoint.yaml'], refused), 1);
    assert.match(refused.stderr, /staging was deployed before releases were recorded/);
    updateBindings(root, () => ({}));
    assert.equal(readFileSync(prodFile(), 'utf8'), PROD);
  });

  it('refuses a release that did not read back as it was deployed', async () => {
    const key = 'specs/sdxl.staging.endpoint.yaml';
    const release = { version: 4, body: { name: 'sdxl-staging', image: 'myorg/sdxl:9.9' }, unverified: true as const };
    updateBindings(root, (store) =>
      withBinding(store, key, 0, { endpointId: 'ep', endpointName: 'sdxl-staging', deployedAt: '', release }),
    );
    const refused = io();
    assert.equal(await runPromote(['--from', 'staging', '--to', 'prod', key], refused), 1);
    assert.match(refused.stderr, /not promoted: staging's release 4 did not read back as it was deployed, so it is not verified/);
    updateBindings(root, () => ({}));
    assert.equal(readFileSync(prodFile(), 'utf8'), PROD);
  });

  it('promotes the image staging deployed into prod’s overlay, comments kept, and prints prod’s plan with the change', async () => {
    // Prod runs the old image; staging is deployed with the new tag.
    const prod = io();
    assert.equal(await runDeploy(['--env', 'prod', '--yes', 'specs/sdxl.endpoint.yaml'], prod), 0, prod.stderr);
    const staging = io();
    assert.equal(await runDeploy(['--env', 'staging', '--yes', 'specs/sdxl.endpoint.yaml'], staging), 0, staging.stderr);

    const dry = io();
    assert.equal(await runPromote(['--from', 'staging', '--to', 'prod', '--dry-run', 'specs/sdxl.endpoint.yaml'], dry), 0, dry.stderr);
    assert.match(dry.stdout, /~ image: "myorg\/sdxl:1\.0" → "myorg\/sdxl:1\.1"/);
    assert.match(dry.stdout, /would write specs\/sdxl\.prod\.endpoint\.yaml/);
    assert.equal(readFileSync(prodFile(), 'utf8'), PROD, '--dry-run writes nothing');

    const promoted = io();
    assert.equal(await runPromote(['--from', 'staging', '--to', 'prod', 'specs/sdxl.endpoint.yaml'], promoted), 0, promoted.stderr);
    const written = readFileSync(prodFile(), 'utf8');
    // The yaml library prints a flow list it re-emits with inner spaces; every comment and key stays where it was.
    assert.equal(written, `${PROD}image: myorg/sdxl:1.1\n`, 'the image added last');
    const out = promoted.stdout;
    assert.match(out, /^promote staging → prod \(protected\): specs\/sdxl\.endpoint\.yaml\n/);
    assert.match(out, /verified: staging's release 1, deployed [^;]+; no smoke job ran on it/);
    assert.match(out, /wrote specs\/sdxl\.prod\.endpoint\.yaml\n/);
    // Prod's own plan, on prod's key, as plan --env prod prints it: an update of the image only.
    const prodId = bindingsStore()['specs/sdxl.prod.endpoint.yaml']['0'].endpointId;
    assert.match(out, new RegExp(`environment prod \\(protected\\), key from \\$ENDPOINT_STUDIO_API_KEY_PROD, endpoint ${prodId}\\n`));
    assert.match(out, /~ image: "myorg\/sdxl:1\.0" → "myorg\/sdxl:1\.1"/);
    assert.doesNotMatch(out, /MODEL_ID/, 'only the image is promoted by default');
    assert.match(out, /prod is not deployed by promote: run endpoint-studio deploy --env prod specs\/sdxl\.endpoint\.yaml\n$/);
    noKeysIn(out + promoted.stderr);

    // Again: prod's overlay already says so, and nothing is written.
    const again = io();
    assert.equal(
      await runPromote(['--from', 'staging', '--to', 'prod', '--format', 'json', 'specs/sdxl.endpoint.yaml'], again),
      0,
      again.stderr,
    );
    const report = JSON.parse(again.stdout) as {
      promotions: { action: string; values: { field: string; changes: boolean }[]; source: { smoke: { state: string } } }[];
      written: string[];
      plan: { environment?: { name: string } }[];
    };
    assert.equal(report.promotions[0].action, 'unchanged');
    assert.deepEqual(
      report.promotions[0].values.map((v) => [v.field, v.changes]),
      [['image', false]],
    );
    assert.equal(report.promotions[0].source.smoke.state, 'none');
    assert.deepEqual(report.written, []);
    assert.equal(report.plan[0].environment?.name, 'prod');
    assert.equal(readFileSync(prodFile(), 'utf8'), written);
  });

  it('--field promotes another value; without prod’s key the overlay is written and the plan names the variable', async () => {
    const noKey = io({ ENDPOINT_STUDIO_API_KEY_STAGING: STAGING_KEY, ENDPOINT_STUDIO_API_KEY: STAGING_KEY });
    const code = await runPromote(['--from', 'staging', '--to', 'prod', '--field', 'env.MODEL_ID', 'specs/sdxl.prod.endpoint.yaml'], noKey);
    assert.equal(code, 2, noKey.stderr);
    assert.match(noKey.stdout, /~ env\.MODEL_ID: "sdxl-base" → "sdxl-turbo"/);
    assert.match(
      noKey.stderr,
      /prod's plan needs ENDPOINT_STUDIO_API_KEY_PROD .*: set it, then run endpoint-studio plan --env prod specs\/sdxl\.prod\.endpoint\.yaml/,
    );
    assert.match(readFileSync(prodFile(), 'utf8'), /\nenv:\n {2}MODEL_ID: sdxl-turbo\n$/);
    assert.match(readFileSync(prodFile(), 'utf8'), /max: 4 # the budget allows four\n/);

    const named = io();
    assert.equal(await runPromote(['--from', 'staging', '--to', 'prod', '--field', 'name', 'specs/sdxl.endpoint.yaml'], named), 1);
    assert.match(named.stderr, /name belongs to each environment and is never promoted/);
  });

  it('a release whose smoke job failed is not verified: refused, and nothing is written', async () => {
    writeFileSync(join(root, 'specs', 'sdxl.staging.endpoint.yaml'), STAGING.replace('myorg/sdxl:1.1', 'myorg/sdxl:1.2'));
    const request = join(root, 'fail.request.json');
    writeFileSync(request, JSON.stringify({ input: { fail: 'the model weights are missing' } }));
    const smoked = io({ ...keys, ENDPOINT_STUDIO_JOBS_URL: accounts.staging.jobsUrl });
    const code = await runDeploy(['--env', 'staging', '--yes', '--wait', '--smoke', request, 'specs/sdxl.endpoint.yaml'], smoked);
    assert.equal(code, 5, smoked.stderr);
    const release = bindingsStore()['specs/sdxl.staging.endpoint.yaml']['0'].release;
    assert.equal(release?.version, 2);
    assert.equal(release.smoke?.passed, false, 'the failed smoke job is kept with the release it ran on');
    assert.match(release.smoke.jobId ?? '', /.+/);

    const before = readFileSync(prodFile(), 'utf8');
    const refused = io();
    assert.equal(await runPromote(['--from', 'staging', '--to', 'prod', 'specs/sdxl.endpoint.yaml'], refused), 1);
    assert.match(
      refused.stderr,
      new RegExp(`not promoted: the smoke job ${release.smoke.jobId ?? ''} failed on staging's release 2, so it is not verified`),
    );
    assert.equal(readFileSync(prodFile(), 'utf8'), before);
  });

  it('a smoke job that passed is kept with its release and named by the promotion', async () => {
    const request = join(root, 'pass.request.json');
    writeFileSync(request, JSON.stringify({ input: { prompt: 'a lighthouse' } }));
    writeFileSync(join(root, 'specs', 'sdxl.staging.endpoint.yaml'), STAGING.replace('myorg/sdxl:1.1', 'myorg/sdxl:1.3'));
    const smoked = io({ ...keys, ENDPOINT_STUDIO_JOBS_URL: accounts.staging.jobsUrl });
    const code = await runDeploy(['--env', 'staging', '--yes', '--wait', '--smoke', request, 'specs/sdxl.endpoint.yaml'], smoked);
    assert.equal(code, 0, smoked.stderr);
    const release = bindingsStore()['specs/sdxl.staging.endpoint.yaml']['0'].release;
    assert.equal(release?.smoke?.passed, true);

    const promoted = io();
    assert.equal(
      await runPromote(['--from', 'staging', '--to', 'prod', '--dry-run', 'specs/sdxl.endpoint.yaml'], promoted),
      0,
      promoted.stderr,
    );
    assert.match(
      promoted.stdout,
      new RegExp(`verified: staging's release 3, deployed [^;]+; smoke job ${release.smoke.jobId ?? ''} passed at `),
    );
    assert.match(promoted.stdout, /~ image: "myorg\/sdxl:1\.1" → "myorg\/sdxl:1\.3"/);
  });
});
