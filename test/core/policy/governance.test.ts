/**
 * What a team says about its findings, through the workspace's owner of spec files: an ignore comment with a
 * reason silences its code on that line (kept aside with the reason, never counted), one without a reason
 * silences nothing and is a warning itself; the policy's exceptions silence a code in a file (JSON included),
 * wherever the finding shows; `severity` re-grades or turns off any code. The cost rule reads the catalog the
 * checks run against, and says when it could not check. A broken policy is an error in its file and in every
 * spec under it, and a change to the policy drops the checks it judged.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readCatalogSnapshot } from '../../../core/catalog/snapshot';
import { parsePolicy } from '../../../core/policy';
import { at, BASE, lineOf, memoryWorkspace, ofCode, POLICY_PATH, PROD, spanText } from './support';

const LIMITS = 'rules:\n  - name: limits\n    maxWorkers: 4\n';
const EIGHT = BASE.replace('  max: 2\n', '  max: 8\n');
const PRICED = readCatalogSnapshot(join(__dirname, '..', '..', 'fixtures', 'policy', 'priced-catalog.json')).catalog;

describe('ignore comments', () => {
  it('silence their code on the line below, with the reason kept and nothing counted', () => {
    const spec = EIGHT.replace('  max: 8\n', '  # endpoint-studio-ignore policy-max-workers: load test until 12-05\n  max: 8\n');
    const { workspace } = memoryWorkspace({ [POLICY_PATH]: LIMITS, [at('sdxl.endpoint.yaml')]: spec });
    const check = workspace.check(at('sdxl.endpoint.yaml'));
    assert.deepEqual(ofCode(check.diagnostics, 'policy-max-workers'), []);
    assert.deepEqual(
      check.suppressed.map((d) => [d.code, d.range.start.line, d.suppression]),
      [['policy-max-workers', lineOf(spec, 'max: 8'), { kind: 'inSource', reason: 'load test until 12-05' }]],
    );
  });

  it('silence their code at the end of the value’s line, any code, without a policy', () => {
    const spec = `${BASE}timeout: 300 # endpoint-studio-ignore timeout-units: the worker reads seconds\n`;
    const { workspace } = memoryWorkspace({ [at('sdxl.endpoint.yaml')]: spec });
    const check = workspace.check(at('sdxl.endpoint.yaml'));
    assert.deepEqual(check.diagnostics, []);
    assert.deepEqual(
      check.suppressed.map((d) => [d.code, d.suppression.reason]),
      [['timeout-units', 'the worker reads seconds']],
    );
  });

  it('without a reason silence nothing and are a warning on the comment', () => {
    const spec = EIGHT.replace('  max: 8\n', '  # endpoint-studio-ignore policy-max-workers\n  max: 8\n');
    const { workspace } = memoryWorkspace({ [POLICY_PATH]: LIMITS, [at('sdxl.endpoint.yaml')]: spec });
    const check = workspace.check(at('sdxl.endpoint.yaml'));
    assert.equal(ofCode(check.diagnostics, 'policy-max-workers').length, 1);
    const [warning] = ofCode(check.diagnostics, 'ignore-without-reason');
    assert.equal(warning.severity, 'warning');
    assert.equal(warning.range.start.line, lineOf(spec, '# endpoint-studio-ignore'));
    assert.equal(spanText(spec, warning), '# endpoint-studio-ignore policy-max-workers');
    assert.deepEqual(check.suppressed, []);
  });

  it("on the base's line silence an environment's finding there and on the overlay's extends line", () => {
    const base = EIGHT.replace('  max: 8\n', '  max: 8 # endpoint-studio-ignore policy-max-workers: prod runs a load test\n');
    const policy = 'rules:\n  - name: prod\n    environments: [prod]\n    maxWorkers: 4\n';
    const { workspace } = memoryWorkspace({
      [POLICY_PATH]: policy,
      [at('sdxl.endpoint.yaml')]: base,
      [at('sdxl.prod.endpoint.yaml')]: PROD,
    });
    const overlay = workspace.check(at('sdxl.prod.endpoint.yaml'));
    assert.deepEqual(ofCode(overlay.diagnostics, 'policy-max-workers'), []);
    assert.equal(overlay.suppressed[0]?.suppression.reason, 'prod runs a load test');
    const file = workspace.file(at('sdxl.endpoint.yaml'));
    assert.deepEqual(ofCode(file.diagnostics, 'policy-max-workers'), []);
    assert.deepEqual(
      file.suppressed.map((d) => d.message),
      ['in prod: workers.max 8 is above 4 (policy prod)'],
    );
  });
});

describe('exceptions of the policy', () => {
  const spec = { name: 'api', type: 'QUEUE', image: 'myorg/api:1.0.0', gpu: { pools: ['ADA_24'] }, workers: { max: 8 } };
  const json = JSON.stringify({ ...spec, scaling: { type: 'QUEUE_DELAY', queueDelay: 4 } }, null, 2);

  it('silence a code in a JSON spec named by its file name, with the reason', () => {
    const policy = `${LIMITS}exceptions:\n  - { file: api.endpoint.json, code: policy-max-workers, reason: "load test until 12-05" }\n`;
    const { workspace } = memoryWorkspace({ [POLICY_PATH]: policy, [at('api.endpoint.json')]: json });
    const check = workspace.check(at('api.endpoint.json'));
    assert.deepEqual(ofCode(check.diagnostics, 'policy-max-workers'), []);
    assert.deepEqual(
      check.suppressed.map((d) => [d.code, d.suppression]),
      [['policy-max-workers', { kind: 'external', reason: 'load test until 12-05' }]],
    );
  });

  it('name a file by its path from the workspace root, and silence nothing elsewhere', () => {
    const policy = `${LIMITS}exceptions:\n  - { file: specs/api.endpoint.json, code: policy-max-workers, reason: later }\n`;
    const { workspace } = memoryWorkspace({
      [POLICY_PATH]: policy,
      [at('specs/api.endpoint.json')]: json,
      [at('other/api.endpoint.json')]: json,
    });
    assert.equal(workspace.check(at('specs/api.endpoint.json')).suppressed.length, 1);
    assert.equal(ofCode(workspace.check(at('other/api.endpoint.json')).diagnostics, 'policy-max-workers').length, 1);
  });

  it("for an overlay silence its environment's finding in the overlay and on the base's line", () => {
    const policy = `rules:\n  - { name: prod, environments: [prod], maxWorkers: 4 }\nexceptions:\n  - { file: sdxl.prod.endpoint.yaml, code: policy-max-workers, reason: approved }\n`;
    const { workspace } = memoryWorkspace({
      [POLICY_PATH]: policy,
      [at('sdxl.endpoint.yaml')]: EIGHT,
      [at('sdxl.prod.endpoint.yaml')]: PROD,
    });
    assert.deepEqual(ofCode(workspace.check(at('sdxl.prod.endpoint.yaml')).diagnostics, 'policy-max-workers'), []);
    const file = workspace.file(at('sdxl.endpoint.yaml'));
    assert.deepEqual(ofCode(file.diagnostics, 'policy-max-workers'), []);
    assert.deepEqual(
      file.suppressed.map((d) => d.suppression.reason),
      ['approved'],
    );
  });
});

describe('severity overrides', () => {
  it('re-grade any code, the engine’s and the policy’s, and turn one off', () => {
    const spec = `${EIGHT.replace('pools: [ADA_24]', 'pools: [ADA_24, ADA_24]')}timeout: 300\n`;
    const policy = `${LIMITS}severity:\n  timeout-units: error\n  duplicate-id: off\n  policy-max-workers: warning\n`;
    const { workspace } = memoryWorkspace({ [POLICY_PATH]: policy, [at('sdxl.endpoint.yaml')]: spec });
    const { diagnostics } = workspace.check(at('sdxl.endpoint.yaml'));
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.severity]),
      [
        ['policy-max-workers', 'warning'],
        ['timeout-units', 'error'],
      ],
    );
    const { workspace: plain } = memoryWorkspace({ [at('sdxl.endpoint.yaml')]: spec });
    assert.deepEqual(
      plain.check(at('sdxl.endpoint.yaml')).diagnostics.map((d) => [d.code, d.severity]),
      [
        ['duplicate-id', 'warning'],
        ['timeout-units', 'warning'],
      ],
    );
  });
});

describe('the cost rule', () => {
  const policy = 'rules:\n  - name: budget\n    maxCostPerHour: 2.5\n';

  it('prices workers.max at the priciest placement, from the catalog the checks run with', () => {
    // ADA_24: L4 0.43 and RTX 4090 0.69 per GPU-hour; 8 workers of the priciest is $5.52 an hour.
    const { workspace } = memoryWorkspace({ [POLICY_PATH]: policy, [at('sdxl.endpoint.yaml')]: EIGHT }, { catalog: PRICED });
    const [found] = ofCode(workspace.check(at('sdxl.endpoint.yaml')).diagnostics, 'policy-max-cost');
    assert.equal(found.message, 'the cost at workers.max, $5.52 an hour, is above $2.50 (policy budget)');
    assert.equal(found.range.start.line, lineOf(EIGHT, 'max: 8'));
    const { workspace: cheap } = memoryWorkspace({ [POLICY_PATH]: policy, [at('sdxl.endpoint.yaml')]: BASE }, { catalog: PRICED });
    assert.deepEqual(cheap.check(at('sdxl.endpoint.yaml')).diagnostics, [], '2 × $0.69 is within $2.50');
  });

  it('says it could not check without a catalog, never passing in silence', () => {
    const { workspace } = memoryWorkspace({ [POLICY_PATH]: policy, [at('sdxl.endpoint.yaml')]: BASE });
    const { diagnostics } = workspace.check(at('sdxl.endpoint.yaml'));
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.severity, d.message]),
      [
        [
          'policy-cost-unchecked',
          'warning',
          'the cost at workers.max is not checked against $2.50 an hour: no catalog (sign in, or give a catalog snapshot) (policy budget)',
        ],
      ],
    );
  });
});

describe('the policy file', () => {
  it('is checked against its schema, with each problem on its line in the file', () => {
    const text = 'rules:\n  - name: prod\n    maxWorker: 4\n    allowedTypes: [QUEUES]\nseverity:\n  timeout-unit: error\n';
    const { policy, problems } = parsePolicy(text);
    assert.equal(policy, undefined);
    assert.deepEqual(
      problems.map((p) => [p.code, p.range.start.line, p.message]),
      [
        [
          'policy-invalid',
          2,
          'rules[0].maxWorker is not a policy setting (a rule sets name, environments and limits); did you mean maxWorkers?',
        ],
        ['policy-invalid', 3, 'rules[0].allowedTypes[0] must be equal to one of the allowed values'],
      ],
    );
    const codes = parsePolicy(
      'severity:\n  timeout-unit: error\nexceptions:\n  - { file: a.endpoint.json, code: policy-max-worker, reason: x }\n',
    );
    assert.deepEqual(
      codes.problems.map((p) => [p.range.start.line, p.message]),
      [
        [1, 'timeout-unit is not a diagnostic code (docs/rules.md); did you mean timeout-units?'],
        [3, 'policy-max-worker is not a diagnostic code (docs/rules.md); did you mean policy-max-workers?'],
      ],
    );
  });

  it('needs a reason for each exception', () => {
    const { problems } = parsePolicy('exceptions:\n  - { file: a.endpoint.json, code: policy-max-workers }\n');
    assert.deepEqual(
      problems.map((p) => p.message),
      ["exceptions[0] must have required property 'reason'"],
    );
  });

  it('when broken, makes every spec under it say it was not checked against it', () => {
    const { workspace } = memoryWorkspace({
      [POLICY_PATH]: 'rules:\n  - name: x\n    maxWorkers: lots\n',
      [at('sdxl.endpoint.yaml')]: EIGHT,
    });
    const [broken] = workspace.check(at('sdxl.endpoint.yaml')).diagnostics;
    assert.equal(broken.code, 'policy-invalid');
    assert.equal(broken.severity, 'error');
    assert.equal(
      broken.message,
      'not checked against the team policy: .endpoint-studio/policy.yaml is broken (line 3: rules[0].maxWorkers must be integer)',
    );
    assert.equal(broken.origin?.path, POLICY_PATH);
    assert.equal(workspace.check(at('sdxl.endpoint.yaml')).policy?.problems.length, 1);
  });

  it('is read through the view, and its change drops exactly the checks it judged', () => {
    const { view, workspace } = memoryWorkspace({ [at('sdxl.endpoint.yaml')]: EIGHT, [at('sdxl.prod.endpoint.yaml')]: PROD });
    assert.deepEqual(workspace.check(at('sdxl.endpoint.yaml')).diagnostics, []);
    assert.deepEqual(workspace.check(at('sdxl.prod.endpoint.yaml')).diagnostics, []);
    view.files[POLICY_PATH] = LIMITS;
    const dropped = workspace.createdOrDeleted(POLICY_PATH);
    assert.deepEqual(dropped.sort(), [at('sdxl.endpoint.yaml'), at('sdxl.prod.endpoint.yaml')]);
    assert.deepEqual(
      workspace.check(at('sdxl.endpoint.yaml')).diagnostics.map((d) => d.message),
      ['workers.max 8 is above 4 (policy limits)'],
    );
    view.files[POLICY_PATH] = LIMITS.replace('maxWorkers: 4', 'maxWorkers: 8');
    assert.ok(workspace.changed(POLICY_PATH).includes(at('sdxl.endpoint.yaml')));
    assert.deepEqual(workspace.check(at('sdxl.endpoint.yaml')).diagnostics, []);
  });
});
