/**
 * `endpoint-studio policy show`, in-process on a workspace of files: the rules that judge a base and its prod
 * overlay, each with its limits, and the cost headroom at workers.max priced from a catalog snapshot by the
 * function the cost rule uses; without a catalog the cost limit is said not checked, never met; without specs
 * the rules of an environment; a broken policy is exit 1 with its problems.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runPolicy } from '../../cli/policy';
import { REPO_ROOT } from '../support/lspClient';
import { captureIo } from './support';

const CATALOG = join(REPO_ROOT, 'test', 'fixtures', 'policy', 'priced-catalog.json');

const BASE = `name: sdxl
type: QUEUE
image: myorg/sdxl:1.0.0
gpu:
  pools: [ADA_24]
workers:
  min: 0
  max: 2
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;
const POLICY = `rules:
  - name: everywhere
    pinnedImage: true
  - name: prod-limits
    environments: [prod]
    maxWorkers: 8
    maxCostPerHour: 12.5
    allowedPools: [ADA_24, AMPERE_80]
`;

interface Shown {
  file: string | null;
  environment: string | null;
  policy: { path: string; broken: boolean; problems: string[] } | null;
  rules: { name: string; environments?: string[]; limits: Record<string, unknown> }[];
  cost: { rule: string; document: number; limit: number; perHour?: number; headroom?: number; unchecked?: string }[];
}

describe('endpoint-studio policy show', () => {
  let root: string;
  const cwd = process.cwd();
  const offline = { ENDPOINT_STUDIO_API_KEY: '', RUNPOD_API_KEY: '', ENDPOINT_STUDIO_CATALOG_FILE: '' };
  const show = async (args: string[]) => {
    const io = captureIo(undefined, { env: { ...offline, ENDPOINT_STUDIO_CACHE_DIR: join(root, 'cache') } });
    const status = await runPolicy(['show', ...args], io);
    return { status, ...io };
  };

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'es-policy-show-'));
    mkdirSync(join(root, '.git'));
    mkdirSync(join(root, '.endpoint-studio'));
    writeFileSync(join(root, '.endpoint-studio', 'policy.yaml'), POLICY);
    writeFileSync(join(root, 'sdxl.endpoint.yaml'), BASE);
    writeFileSync(join(root, 'sdxl.prod.endpoint.yaml'), 'extends: ./sdxl.endpoint.yaml\nname: sdxl-prod\nworkers:\n  max: 6\n');
    process.chdir(root);
  });
  after(() => {
    process.chdir(cwd);
    rmSync(root, { recursive: true, force: true });
  });

  it('shows the rules of a base and of its prod overlay, and the cost headroom at workers.max from a snapshot', async () => {
    const run = await show(['--catalog', CATALOG, 'sdxl.endpoint.yaml', 'sdxl.prod.endpoint.yaml']);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(
      run.stdout,
      [
        'sdxl.endpoint.yaml: .endpoint-studio/policy.yaml',
        '  everywhere (every spec): pinnedImage true',
        '',
        'sdxl.prod.endpoint.yaml (environment prod): .endpoint-studio/policy.yaml',
        '  everywhere (every spec): pinnedImage true',
        '  prod-limits (prod): maxWorkers 8, maxCostPerHour $12.50/h, allowedPools ADA_24, AMPERE_80',
        '  cost at workers.max: prod: $4.14/h of $12.50 (policy prod-limits), $8.36/h to spare',
        '',
      ].join('\n'),
    );
    assert.match(run.stderr, /catalog: snapshot .*priced-catalog\.json/);

    const json = await show(['--format', 'json', '--catalog', CATALOG, '--env', 'prod', 'sdxl.endpoint.yaml']);
    assert.equal(json.status, 0, json.stderr);
    const { catalog, specs } = JSON.parse(json.stdout) as { catalog: { source: string }; specs: Shown[] };
    assert.equal(catalog.source, 'snapshot');
    assert.deepEqual(specs, [
      {
        file: 'sdxl.prod.endpoint.yaml',
        environment: 'prod',
        policy: { path: '.endpoint-studio/policy.yaml', broken: false, problems: [] },
        rules: [
          { name: 'everywhere', limits: { pinnedImage: true } },
          {
            name: 'prod-limits',
            environments: ['prod'],
            limits: { maxWorkers: 8, maxCostPerHour: 12.5, allowedPools: ['ADA_24', 'AMPERE_80'] },
          },
        ],
        cost: [{ rule: 'prod-limits', document: 0, limit: 12.5, perHour: 4.14, headroom: 8.36 }],
      },
    ]);
  });

  it('says the cost limit could not be checked without a catalog, in text and JSON', async () => {
    const run = await show(['--offline', 'sdxl.prod.endpoint.yaml']);
    assert.equal(run.status, 0, run.stderr);
    assert.match(
      run.stdout,
      /^ {2}cost at workers\.max: prod: not checked against \$12\.50\/h \(policy prod-limits\): no catalog \(sign in, or give a catalog snapshot\)$/m,
    );
    const json = await show(['--offline', '--format', 'json', 'sdxl.prod.endpoint.yaml']);
    const { catalog, specs } = JSON.parse(json.stdout) as { catalog: { source: string }; specs: Shown[] };
    assert.equal(catalog.source, 'none');
    assert.deepEqual(specs[0].cost, [
      { rule: 'prod-limits', document: 0, limit: 12.5, unchecked: 'no catalog (sign in, or give a catalog snapshot)' },
    ]);
  });

  it('without specs shows the rules that judge an environment', async () => {
    const run = await show(['--offline', '--env', 'staging']);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, 'environment staging: .endpoint-studio/policy.yaml\n  everywhere (every spec): pinnedImage true\n');
  });

  it('a broken policy is exit 1 with its problems, and a bad subcommand a usage error', async () => {
    writeFileSync(join(root, '.endpoint-studio', 'policy.yaml'), 'rules:\n  - name: x\n    maxWorker: 4\n');
    try {
      const run = await show(['--offline', 'sdxl.endpoint.yaml']);
      assert.equal(run.status, 1);
      assert.match(
        run.stdout,
        /^sdxl\.endpoint\.yaml: \.endpoint-studio\/policy\.yaml is broken, so deploys are refused until it is fixed:\n {2}line 3: rules\[0\]\.maxWorker is not a policy setting/,
      );
    } finally {
      writeFileSync(join(root, '.endpoint-studio', 'policy.yaml'), POLICY);
    }
    const folder = await show(['--offline']);
    assert.equal(folder.status, 0);
    assert.match(
      folder.stdout,
      /^this folder: \.endpoint-studio\/policy\.yaml\n {2}everywhere \(every spec\)[^\n]*\n {2}prod-limits \(prod\)/,
    );
    const wrong = captureIo(undefined);
    assert.equal(await runPolicy(['list'], wrong), 2);
    assert.match(wrong.stderr, /unknown subcommand: list/);
  });
});
