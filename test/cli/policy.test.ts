/**
 * `endpoint-studio validate` under a team policy, from the bundled CLI as CI runs it: policy findings counted
 * as errors on the value's line, an overlay's on its base's line, findings silenced by an ignore comment or an
 * exception listed as suppressed with the reason in JSON and as SARIF suppressions (one SARIF rule per policy
 * code), an ignore comment without a reason still failing with its warning, the cost rule checked against a
 * catalog snapshot, and a broken policy reported in the policy file.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Ajv from 'ajv';
import type { Log } from 'sarif';
import { policyDocumentedCodes } from '../../core/policy';
import { REPO_ROOT } from '../support/lspClient';
import { SARIF_2_1_0_REQUIREMENTS } from './sarifRequirements';

const CLI = join(REPO_ROOT, 'dist', 'cli.js');
const PRICED_CATALOG = join(REPO_ROOT, 'test', 'fixtures', 'policy', 'priced-catalog.json');

const BASE = `name: sdxl
type: QUEUE
image: myorg/sdxl:1.0.0
gpu:
  pools: [ADA_24]
workers:
  min: 0
  max: 6
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;
const POLICY = `rules:
  - name: everywhere
    pinnedImage: true
  - name: prod-limits
    environments: [prod]
    maxWorkers: 4
exceptions:
  - { file: api.endpoint.json, code: policy-pinned-image, reason: "base image retired 12-05" }
`;
const API = JSON.stringify(
  { name: 'api', type: 'QUEUE', image: 'myorg/api:latest', gpu: { pools: ['ADA_24'] }, scaling: { type: 'QUEUE_DELAY', queueDelay: 4 } },
  null,
  2,
);

interface JsonEntry {
  file: string;
  range: { start: { line: number } };
  severity: string;
  code: string;
  message: string;
  suppressed?: { kind: string; reason: string };
}

describe('endpoint-studio validate with a team policy', () => {
  let dir: string;
  const run = (args: string[]) =>
    spawnSync(process.execPath, [CLI, 'validate', '--offline', ...args], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, ENDPOINT_STUDIO_API_KEY: '', ENDPOINT_STUDIO_CACHE_DIR: join(dir, 'cache') },
    });
  const write = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
  };

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'es-validate-policy-'));
    mkdirSync(join(dir, '.endpoint-studio'));
    mkdirSync(join(dir, '.git'));
    write('.endpoint-studio/policy.yaml', POLICY);
    write(
      'sdxl.endpoint.yaml',
      BASE.replace('myorg/sdxl:1.0.0', 'myorg/sdxl:latest # endpoint-studio-ignore policy-pinned-image: pinned by digest at deploy'),
    );
    write('sdxl.prod.endpoint.yaml', 'extends: ./sdxl.endpoint.yaml\nname: sdxl-prod\n');
    write('api.endpoint.json', API);
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('fails on a finding, and lists the silenced ones with their reason in JSON', () => {
    const result = run(['--format', 'json', '.']);
    assert.equal(result.status, 1, result.stderr);
    const entries = JSON.parse(result.stdout) as JsonEntry[];
    const policy = entries.filter((e) => e.code.startsWith('policy-'));
    assert.deepEqual(
      policy.map((e) => [e.file, e.range.start.line, e.code, e.message, e.suppressed]),
      [
        [
          './api.endpoint.json',
          3,
          'policy-pinned-image',
          'image myorg/api:latest is not pinned; a version tag (not latest) or a digest is required (policy everywhere)',
          { kind: 'external', reason: 'base image retired 12-05' },
        ],
        ['./sdxl.endpoint.yaml', 7, 'policy-max-workers', 'in prod: workers.max 6 is above 4 (policy prod-limits)', undefined],
        [
          './sdxl.endpoint.yaml',
          2,
          'policy-pinned-image',
          'image myorg/sdxl:latest is not pinned; a version tag (not latest) or a digest is required (policy everywhere)',
          { kind: 'inSource', reason: 'pinned by digest at deploy' },
        ],
        [
          './sdxl.prod.endpoint.yaml',
          0,
          'policy-max-workers',
          'workers.max 6 is above 4 (policy prod-limits) (workers.max in sdxl.endpoint.yaml)',
          undefined,
        ],
      ],
    );
    const text = run(['.']);
    assert.match(
      text.stdout,
      /^\.\/sdxl\.endpoint\.yaml:8:\d+: error policy-max-workers in prod: workers\.max 6 is above 4 \(policy prod-limits\)$/m,
    );
    assert.match(text.stdout, /3 files checked: 2 errors, 0 warnings, 2 suppressed\n$/);
  });

  it('writes SARIF with one rule per policy code and the silenced findings as suppressions', () => {
    const result = run(['--format', 'sarif', '.']);
    assert.equal(result.status, 1, result.stderr);
    const log = JSON.parse(result.stdout) as Log;
    const validate = new Ajv({ allErrors: true }).compile(SARIF_2_1_0_REQUIREMENTS);
    assert.ok(validate(log), JSON.stringify(validate.errors, null, 2));
    const [run0] = log.runs;
    const ruleIds = (run0.tool.driver.rules ?? []).map((rule) => rule.id);
    for (const { code } of policyDocumentedCodes()) assert.equal(ruleIds.filter((id) => id === code).length, 1, code);
    const suppressed = (run0.results ?? []).filter((r) => r.suppressions);
    assert.deepEqual(
      suppressed.map((r) => [r.ruleId, r.suppressions]),
      [
        ['policy-pinned-image', [{ kind: 'external', justification: 'base image retired 12-05' }]],
        ['policy-pinned-image', [{ kind: 'inSource', justification: 'pinned by digest at deploy' }]],
      ],
    );
    assert.equal((run0.results ?? []).filter((r) => r.ruleId === 'policy-max-workers' && !r.suppressions).length, 2);
  });

  it('keeps failing on a finding whose ignore comment gives no reason, with a warning on the comment', () => {
    write(
      'bare.endpoint.yaml',
      BASE.replace('myorg/sdxl:1.0.0', 'myorg/sdxl:latest # endpoint-studio-ignore policy-pinned-image').replace('sdxl', 'bare'),
    );
    const result = run(['--format', 'json', 'bare.endpoint.yaml']);
    assert.equal(result.status, 1);
    const entries = JSON.parse(result.stdout) as JsonEntry[];
    assert.deepEqual(
      entries.map((e) => [e.code, e.severity, e.range.start.line, e.suppressed]),
      [
        ['policy-pinned-image', 'error', 2, undefined],
        ['ignore-without-reason', 'warning', 2, undefined],
      ],
    );
  });

  it('checks the cost rule against a catalog snapshot, and says when there is none', () => {
    const dir2 = mkdtempSync(join(tmpdir(), 'es-validate-cost-'));
    try {
      mkdirSync(join(dir2, '.endpoint-studio'));
      writeFileSync(join(dir2, '.endpoint-studio', 'policy.yaml'), 'rules:\n  - name: budget\n    maxCostPerHour: 2\n');
      writeFileSync(join(dir2, 'sdxl.endpoint.yaml'), BASE);
      const cli = (args: string[]) =>
        spawnSync(process.execPath, [CLI, 'validate', '--format', 'json', ...args, 'sdxl.endpoint.yaml'], {
          cwd: dir2,
          encoding: 'utf8',
          env: { ...process.env, ENDPOINT_STUDIO_API_KEY: '', ENDPOINT_STUDIO_CACHE_DIR: join(dir2, 'cache') },
        });
      const priced = cli(['--catalog', PRICED_CATALOG]);
      assert.equal(priced.status, 1, priced.stderr);
      assert.deepEqual(
        (JSON.parse(priced.stdout) as JsonEntry[]).map((e) => [e.code, e.range.start.line, e.message]),
        [['policy-max-cost', 7, 'the cost at workers.max, $4.14 an hour, is above $2.00 (policy budget)']],
      );
      const none = cli(['--offline']);
      assert.equal(none.status, 0, none.stderr);
      assert.deepEqual(
        (JSON.parse(none.stdout) as JsonEntry[]).map((e) => [e.code, e.severity]),
        [['policy-cost-unchecked', 'warning']],
      );
    } finally {
      rmSync(dir2, { recursive: true, force: true });
    }
  });

  it('reports a broken policy in the policy file, and fails every spec under it', () => {
    write('.endpoint-studio/policy.yaml', 'rules:\n  - name: x\n    maxWorker: 4\n');
    try {
      const result = run(['--format', 'json', 'api.endpoint.json']);
      assert.equal(result.status, 1);
      const entries = JSON.parse(result.stdout) as JsonEntry[];
      assert.deepEqual(
        entries.map((e) => [e.file, e.code, e.range.start.line]),
        [
          ['api.endpoint.json', 'policy-invalid', 0],
          ['.endpoint-studio/policy.yaml', 'policy-invalid', 2],
        ],
      );
      assert.match(entries[1].message, /rules\[0\]\.maxWorker is not a policy setting .*did you mean maxWorkers\?/);
    } finally {
      write('.endpoint-studio/policy.yaml', POLICY);
    }
  });
});
