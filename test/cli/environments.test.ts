/**
 * Environments from the command line: overlays validated merged into their base (each problem in the file
 * that wrote it, the bundled CLI in a child process), and planned and deployed per environment against two
 * accounts, each an emulator with its own key behind one service URL, so the key each deploy carried shows in
 * which account its endpoint was made.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runDeploy, runPlan } from '../../cli/deploy';
import { createApiClient } from '../../core/api';
import { liveAsSpec, type BindingStore } from '../../core/deploy';
import { REPO_ROOT } from '../support/lspClient';
import { endpointNames, PROD_KEY, STAGING_KEY, twoAccounts } from '../support/twoAccounts';
import { captureIo } from './support';

const BASE = `name: sdxl
type: QUEUE
image: myorg/sdxl:1.0
gpu:
  pools: [ADA_24, AMPERE_24]
  excludedTypes: [NVIDIA L4]
workers:
  min: 2
  max: 3
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;
const STAGING = `extends: ./sdxl.endpoint.yaml
name: sdxl-staging
workers:
  min: 0
`;
const PROD = `extends: ./sdxl.endpoint.yaml
name: sdxl-prod
gpu:
  pools: [AMPERE_48]
  excludedTypes: null
`;

function workspace(): string {
  const root = mkdtempSync(join(tmpdir(), 'es-environments-cli-'));
  mkdirSync(join(root, '.git'));
  mkdirSync(join(root, '.endpoint-studio'));
  mkdirSync(join(root, 'specs'));
  writeFileSync(join(root, 'specs', 'sdxl.endpoint.yaml'), BASE);
  writeFileSync(join(root, 'specs', 'sdxl.staging.endpoint.yaml'), STAGING);
  writeFileSync(join(root, 'specs', 'sdxl.prod.endpoint.yaml'), PROD);
  writeFileSync(join(root, '.endpoint-studio', 'environments.yaml'), 'environments:\n  prod:\n    protected: true\n');
  return root;
}

describe('endpoint-studio with environments', () => {
  let root: string;
  let accounts: Awaited<ReturnType<typeof twoAccounts>>;
  const cwd = process.cwd();
  before(async () => {
    root = workspace();
    accounts = await twoAccounts();
    // Paths given relative to the workspace, as a CI step runs them from the repository root.
    process.chdir(root);
  });
  after(async () => {
    process.chdir(cwd);
    await accounts.close();
    rmSync(root, { recursive: true, force: true });
  });

  const keys = { ENDPOINT_STUDIO_API_KEY_STAGING: STAGING_KEY, ENDPOINT_STUDIO_API_KEY_PROD: PROD_KEY };
  const io = (env: Record<string, string> = keys, extra: Parameters<typeof captureIo>[1] = {}) =>
    captureIo(undefined, { ...extra, env: { ENDPOINT_STUDIO_API_URL: accounts.url, ...env } });
  const noKeysIn = (text: string) => {
    assert.ok(!text.includes(STAGING_KEY) && !text.includes(PROD_KEY), 'a key was printed');
  };

  it('plan --env picks that environment’s overlay among the files, names it, its key variable and endpoint, and the arrays it replaces', async () => {
    const plan = io();
    assert.equal(await runPlan(['--env', 'prod', 'specs'], plan), 0, plan.stderr);
    assert.match(plan.stdout, /^environment prod \(protected\), key from \$ENDPOINT_STUDIO_API_KEY_PROD, endpoint a new endpoint\n/);
    assert.match(plan.stdout, /create a new endpoint "sdxl-prod"/);
    assert.match(plan.stdout, /\+ gpu\.pools: \["AMPERE_48"\]/);
    assert.match(plan.stdout, /replaced whole by the prod overlay \(not merged with the base\): gpu\.pools\n/);
    assert.doesNotMatch(plan.stdout, /sdxl-staging|"sdxl"/);
    noKeysIn(plan.stdout + plan.stderr);
  });

  it('a missing key variable is an error naming it; the default key is never used for an environment', async () => {
    const missing = io({ ENDPOINT_STUDIO_API_KEY: STAGING_KEY, ENDPOINT_STUDIO_API_KEY_STAGING: STAGING_KEY });
    assert.equal(await runDeploy(['--env', 'prod', '--yes', 'specs/sdxl.endpoint.yaml'], missing), 2);
    assert.match(missing.stderr, /no API key for the prod environment: set ENDPOINT_STUDIO_API_KEY_PROD/);
    noKeysIn(missing.stdout + missing.stderr);
    assert.deepEqual(await endpointNames(accounts.prod, PROD_KEY), []);
    assert.deepEqual(await endpointNames(accounts.staging, STAGING_KEY), []);
  });

  it('deploys staging and prod to two endpoints on two keys; prod, protected, needs --yes without a terminal', async () => {
    const staging = io();
    assert.equal(await runDeploy(['--env', 'staging', '--yes', 'specs/sdxl.endpoint.yaml'], staging), 0, staging.stderr);
    assert.match(staging.stdout, /^environment staging, key from \$ENDPOINT_STUDIO_API_KEY_STAGING, endpoint a new endpoint\n/);
    assert.match(staging.stdout, /verified: the endpoint read back matches the spec/);

    const refused = io();
    assert.equal(await runDeploy(['--env', 'prod', 'specs/sdxl.endpoint.yaml'], refused), 3);
    assert.match(refused.stderr, /prod is a protected environment; confirm with --yes \(there is no terminal to type its name\)/);
    assert.deepEqual(await endpointNames(accounts.prod, PROD_KEY), []);

    // An overlay given directly deploys as its environment, --env or not.
    const prod = io();
    assert.equal(await runDeploy(['--yes', 'specs/sdxl.prod.endpoint.yaml'], prod), 0, prod.stderr);
    noKeysIn(staging.stdout + staging.stderr + prod.stdout + prod.stderr);

    // Each account holds only its environment's endpoint: each deploy carried its own key.
    assert.deepEqual(await endpointNames(accounts.staging, STAGING_KEY), ['sdxl-staging']);
    assert.deepEqual(await endpointNames(accounts.prod, PROD_KEY), ['sdxl-prod']);
    const [prodEndpoint] = await createApiClient({ apiUrl: accounts.prod.restUrl, apiKey: PROD_KEY }).serverless.list();
    // The merged body went out: the overlay's pools, the base's exclusions removed by its null.
    assert.deepEqual(liveAsSpec(prodEndpoint).gpu, { pools: ['AMPERE_48'], count: 1 });

    const bindings = (JSON.parse(readFileSync(join(root, '.endpoint-studio', 'deployments.json'), 'utf8')) as { deployments: BindingStore })
      .deployments;
    assert.deepEqual(Object.keys(bindings).sort(), ['specs/sdxl.prod.endpoint.yaml', 'specs/sdxl.staging.endpoint.yaml']);
    assert.equal(bindings['specs/sdxl.prod.endpoint.yaml']['0'].endpointId, prodEndpoint.id);

    // The next plan of prod is an update of its bound endpoint, named in the header.
    const again = io();
    assert.equal(await runPlan(['--env', 'prod', 'specs/sdxl.endpoint.yaml'], again), 0, again.stderr);
    assert.match(
      again.stdout,
      new RegExp(`^environment prod \\(protected\\), key from \\$ENDPOINT_STUDIO_API_KEY_PROD, endpoint ${prodEndpoint.id}\\n`),
    );
    assert.match(again.stdout, /nothing to deploy|matches/);
  });

  it('on a terminal a protected environment applies only once its name is typed, --yes or not', async () => {
    writeFileSync(join(root, 'specs', 'sdxl.prod.endpoint.yaml'), `${PROD}workers:\n  max: 4\n`);
    const asked: string[] = [];
    const wrong = io(keys, {});
    wrong.ask = (question) => {
      asked.push(question);
      return Promise.resolve('production');
    };
    assert.equal(await runDeploy(['--yes', '--env', 'prod', 'specs/sdxl.endpoint.yaml'], wrong), 3);
    assert.match(asked[0], /prod is a protected environment\. Type its name/);
    assert.match(wrong.stderr, /not applied: typed "production", not "prod"/);

    const typed = io(keys, {});
    typed.ask = () => Promise.resolve('prod');
    assert.equal(await runDeploy(['--env', 'prod', 'specs/sdxl.endpoint.yaml'], typed), 0, typed.stderr);
    assert.match(typed.stdout, /~ workers\.max: 3 → 4/);
    assert.match(typed.stdout, /updated endpoint/);
  });

  it('plan --format markdown has one section per environment, each naming it; --env one environment only', async () => {
    const all = io({ ...keys, ENDPOINT_STUDIO_API_KEY: STAGING_KEY });
    assert.equal(await runPlan(['--format', 'markdown', 'specs'], all), 0, all.stderr);
    const headings = all.stdout.split('\n').filter((line) => line.startsWith('### '));
    assert.deepEqual(headings, [
      '### specs/sdxl.endpoint.yaml: create',
      '### prod: specs/sdxl.prod.endpoint.yaml: unchanged',
      '### staging: specs/sdxl.staging.endpoint.yaml: unchanged',
    ]);
    assert.match(all.stdout, /\*\*Environment:\*\* `prod` \(protected\) · key from `ENDPOINT_STUDIO_API_KEY_PROD` · endpoint `\w+`/);
    assert.match(all.stdout, /\*\*Replaced whole by the overlay\*\* \(not merged with the base\): `gpu\.pools`/);

    const json = io();
    assert.equal(await runPlan(['--format', 'json', '--env', 'staging', 'specs'], json), 0, json.stderr);
    const entries = JSON.parse(json.stdout) as { file: string; environment: { name: string; keyVariable: string; protected: boolean } }[];
    assert.deepEqual(
      entries.map((e) => [e.file, e.environment.name, e.environment.keyVariable, e.environment.protected]),
      [['specs/sdxl.staging.endpoint.yaml', 'staging', 'ENDPOINT_STUDIO_API_KEY_STAGING', false]],
    );
  });

  it('--env refuses a named base without that overlay, another environment’s overlay, a merged spec with errors (on the base’s line too) and a broken environments file', async () => {
    const none = io();
    assert.equal(await runPlan(['--env', 'qa', 'specs/sdxl.endpoint.yaml'], none), 2);
    assert.match(
      none.stderr,
      /specs\/sdxl\.endpoint\.yaml has no qa overlay \(it has (prod, staging|staging, prod)\): add sdxl\.qa\.endpoint\.yaml/,
    );
    const other = io();
    assert.equal(await runDeploy(['--env', 'prod', 'specs/sdxl.staging.endpoint.yaml'], other), 2);
    assert.match(other.stderr, /is the staging overlay, not prod's/);

    // An error the base wrote, only in this environment: refused, and said on the base's line too.
    const qa = join(root, 'specs', 'sdxl.qa.endpoint.yaml');
    writeFileSync(qa, 'extends: ./sdxl.endpoint.yaml\nname: sdxl-qa\nscaling:\n  type: REQUEST_COUNT\n');
    try {
      const invalid = io({ ENDPOINT_STUDIO_API_KEY_QA: STAGING_KEY });
      assert.equal(await runDeploy(['--yes', '--env', 'qa', 'specs/sdxl.endpoint.yaml'], invalid), 1);
      assert.match(
        invalid.stderr,
        /^specs\/sdxl\.endpoint\.yaml:12:3: error unknown-property in qa: queueDelay belongs to QUEUE_DELAY scaling/m,
      );
      assert.match(invalid.stderr, /specs\/sdxl\.qa\.endpoint\.yaml has errors; fix them first \(nothing was sent\)/);
    } finally {
      rmSync(qa);
    }
    assert.deepEqual(await endpointNames(accounts.staging, STAGING_KEY), ['sdxl-staging']);

    const file = join(root, '.endpoint-studio', 'environments.yaml');
    writeFileSync(file, 'environments:\n  prod:\n    protected: yes please\n');
    try {
      const broken = io();
      assert.equal(await runDeploy(['--yes', 'specs/sdxl.prod.endpoint.yaml'], broken), 2);
      assert.match(broken.stderr, /environments\.yaml has problems .*; fix it first \(nothing was sent\)/);
    } finally {
      writeFileSync(file, 'environments:\n  prod:\n    protected: true\n');
    }
  });

  it('refuses an image without a pinned tag in a protected environment, and only warns in another', async () => {
    const base = join(root, 'specs', 'sdxl.endpoint.yaml');
    const prodImage = async () => (await createApiClient({ apiUrl: accounts.prod.restUrl, apiKey: PROD_KEY }).serverless.list())[0]?.image;
    const before = await prodImage();
    writeFileSync(base, BASE.replace('myorg/sdxl:1.0', 'myorg/sdxl:latest'));
    try {
      const prod = io();
      assert.equal(await runDeploy(['--yes', '--env', 'prod', 'specs/sdxl.endpoint.yaml'], prod), 1);
      assert.match(
        prod.stderr,
        /prod is a protected environment, which deploys only a pinned image: image myorg\/sdxl:latest is tagged latest: .* \(nothing was sent\)/,
      );
      const json = io();
      assert.equal(await runPlan(['--format', 'json', '--env', 'prod', 'specs/sdxl.endpoint.yaml'], json), 1);
      assert.equal((JSON.parse(json.stdout) as { code?: string }[])[0].code, 'unpinned-image', json.stdout);
      assert.equal(await prodImage(), before, 'prod was not changed');

      const staging = io();
      assert.equal(await runPlan(['--env', 'staging', 'specs/sdxl.endpoint.yaml'], staging), 0, staging.stderr);
      assert.match(staging.stdout, /image myorg\/sdxl:latest is tagged latest/);
    } finally {
      writeFileSync(base, BASE);
    }
  });

  it('validate checks an overlay merged, each problem in the file and on the line that wrote it', () => {
    writeFileSync(
      join(root, 'specs', 'sdxl.staging.endpoint.yaml'),
      'extends: ./sdxl.endpoint.yaml\nname: sdxl-staging\nworkers:\n  max: 1\nflashbot: FLASHBOOT\n',
    );
    const run = spawnSync(process.execPath, [join(REPO_ROOT, 'dist', 'cli.js'), 'validate', 'specs'], { cwd: root, encoding: 'utf8' });
    assert.equal(run.status, 1, run.stderr);
    const lines = run.stdout.trim().split('\n');
    // The base wrote workers.min (2), above the staging max: said on the base's line 8, naming the environment.
    assert.ok(
      lines.includes(
        'specs/sdxl.endpoint.yaml:8:8: warning workers-min-above-max in staging: workers.min (2) is above max (1): raise max or lower min',
      ),
      run.stdout,
    );
    assert.ok(
      lines.includes('specs/sdxl.staging.endpoint.yaml:5:1: error unknown-property unknown property: flashbot; did you mean flashboot?'),
      run.stdout,
    );
    assert.equal(lines.filter((l) => l.startsWith('specs/sdxl.endpoint.yaml')).length, 1, run.stdout);
    assert.equal(lines.at(-1), '3 files checked: 1 error, 2 warnings');
    // The formats for other programs place it the same way: the SARIF result is in the base.
    const sarif = spawnSync(
      process.execPath,
      [join(REPO_ROOT, 'dist', 'cli.js'), 'validate', '--format', 'sarif', 'specs/sdxl.staging.endpoint.yaml'],
      {
        cwd: root,
        encoding: 'utf8',
      },
    );
    const results = (
      JSON.parse(sarif.stdout) as {
        runs: {
          results: {
            ruleId: string;
            locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[];
          }[];
        }[];
      }
    ).runs[0].results;
    const placed = results.map((r) => [
      r.ruleId,
      r.locations[0].physicalLocation.artifactLocation.uri,
      r.locations[0].physicalLocation.region.startLine,
    ]);
    assert.deepEqual(placed.sort(), [
      ['unknown-property', 'specs/sdxl.staging.endpoint.yaml', 5],
      ['workers-min-above-max', 'specs/sdxl.endpoint.yaml', 8],
      ['workers-min-above-max', 'specs/sdxl.staging.endpoint.yaml', 1],
    ]);
  });
});
