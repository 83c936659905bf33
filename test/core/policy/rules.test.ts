/**
 * Each rule kind of the team policy through the workspace's owner of spec files, as the editor and `validate`
 * get it: on the line of the value that breaks it, in a plain spec, in an overlay that wrote the value, and in a
 * base whose value an environment's rule judges (on the base's line, and on the overlay's `extends` line
 * pointing at it). A spec that is not an overlay is judged by the rules without `environments` only.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { POLICY_RULE_KINDS } from '../../../core/policy';
import { at, BASE, lineOf, memoryWorkspace, ofCode, POLICY_PATH, PROD, spanText } from './support';

interface Case {
  readonly code: string;
  /** The rule's limit, a line of YAML. */
  readonly limit: string;
  /** The part of BASE the case changes, and what breaks the limit in its place. */
  readonly clean: string;
  readonly broken: string;
  /** What an overlay writes to break it (the broken part by default). */
  readonly overlay?: string;
  /** The text the finding covers. */
  readonly value: string;
  readonly message: string;
}

const CASES: readonly Case[] = [
  {
    code: 'policy-max-workers',
    limit: 'maxWorkers: 4',
    clean: '  max: 2\n',
    broken: '  max: 8\n',
    overlay: 'workers:\n  max: 8\n',
    value: '8',
    message: 'workers.max 8 is above 4 (policy team-limits)',
  },
  {
    code: 'policy-allowed-pools',
    limit: 'allowedPools: [ADA_24, AMPERE_80]',
    clean: 'pools: [ADA_24]',
    broken: 'pools: [ADA_48]',
    overlay: 'gpu:\n  pools: [ADA_48]\n',
    value: 'ADA_48',
    message: 'gpu pool ADA_48 is not allowed; allowed: ADA_24, AMPERE_80 (policy team-limits)',
  },
  {
    code: 'policy-allowed-cpu-flavors',
    limit: 'allowedCpuFlavors: [cpu3c]',
    clean: 'gpu:\n  pools: [ADA_24]\n',
    broken: 'cpu:\n  - id: cpu5g\n    vcpuCount: 2\n',
    overlay: 'gpu: null\ncpu:\n  - id: cpu5g\n    vcpuCount: 2\n',
    value: 'cpu5g',
    message: 'CPU flavor cpu5g is not allowed; allowed: cpu3c (policy team-limits)',
  },
  {
    code: 'policy-allowed-data-centers',
    limit: 'allowedDataCenters: [US-TX-3]',
    clean: 'dataCenterIds: [US-TX-3]',
    broken: 'dataCenterIds: [EU-RO-1]',
    value: 'EU-RO-1',
    message: 'data center EU-RO-1 is not allowed; allowed: US-TX-3 (policy team-limits)',
  },
  {
    code: 'policy-allowed-types',
    limit: 'allowedTypes: [QUEUE]',
    clean: 'type: QUEUE\n',
    broken: 'type: LOAD_BALANCER\n',
    value: 'LOAD_BALANCER',
    message: 'type LOAD_BALANCER is not allowed; allowed: QUEUE (policy team-limits)',
  },
  {
    code: 'policy-pinned-image',
    limit: 'pinnedImage: true',
    clean: 'image: myorg/sdxl:1.0.0',
    broken: 'image: myorg/sdxl:latest',
    value: 'myorg/sdxl:latest',
    message: 'image myorg/sdxl:latest is not pinned; a version tag (not latest) or a digest is required (policy team-limits)',
  },
  {
    code: 'policy-required-env',
    limit: 'requiredEnv: [LOG_LEVEL]',
    clean: 'env:\n  LOG_LEVEL: info\n',
    broken: 'env:\n  OTHER: x\n',
    overlay: 'env:\n  LOG_LEVEL: null\n',
    value: 'env',
    message: 'env LOG_LEVEL is not set; required: LOG_LEVEL (policy team-limits)',
  },
];

const policyWith = (limit: string, environments?: string): string =>
  `rules:\n  - name: team-limits\n${environments ? `    environments: [${environments}]\n` : ''}    ${limit}\n`;

describe('policy rule kinds, each on the line of the value that breaks it', () => {
  it('cover every rule kind but the cost, which has tests of its own', () => {
    assert.deepEqual(
      POLICY_RULE_KINDS.map((kind) => kind.code).filter((code) => code !== 'policy-max-cost'),
      CASES.map((c) => c.code),
    );
  });

  for (const c of CASES) {
    const broken = BASE.replace(c.clean, c.broken);

    it(`${c.code}: in a plain spec, judged by a rule without environments`, () => {
      const { workspace } = memoryWorkspace({ [POLICY_PATH]: policyWith(c.limit), [at('sdxl.endpoint.yaml')]: broken });
      const found = ofCode(workspace.check(at('sdxl.endpoint.yaml')).diagnostics, c.code);
      assert.equal(found.length, 1, JSON.stringify(found));
      assert.equal(found[0].severity, 'error');
      assert.equal(found[0].message, c.message);
      assert.equal(found[0].range.start.line, lineOf(broken, c.value));
      assert.equal(spanText(broken, found[0]), c.value);
    });

    it(`${c.code}: in an overlay that wrote the value, judged by its environment's rule`, () => {
      const overlay = `${PROD}${c.overlay ?? c.broken}`;
      const { workspace } = memoryWorkspace({
        [POLICY_PATH]: policyWith(c.limit, 'prod'),
        [at('sdxl.endpoint.yaml')]: BASE,
        [at('sdxl.prod.endpoint.yaml')]: overlay,
      });
      const found = ofCode(workspace.check(at('sdxl.prod.endpoint.yaml')).diagnostics, c.code);
      assert.equal(found.length, 1, JSON.stringify(found));
      assert.equal(found[0].message, c.message);
      assert.equal(spanText(overlay, found[0]), c.value);
      assert.deepEqual(ofCode(workspace.check(at('sdxl.endpoint.yaml')).diagnostics, c.code), [], 'the base alone breaks nothing');
      for (const shown of ofCode(workspace.file(at('sdxl.endpoint.yaml')).diagnostics, c.code))
        assert.match(shown.message, /\(set in sdxl\.prod\.endpoint\.yaml\)$/);
    });

    it(`${c.code}: in a base whose value an environment's rule judges`, () => {
      const { workspace } = memoryWorkspace({
        [POLICY_PATH]: policyWith(c.limit, 'prod'),
        [at('sdxl.endpoint.yaml')]: broken,
        [at('sdxl.prod.endpoint.yaml')]: PROD,
      });
      assert.deepEqual(ofCode(workspace.check(at('sdxl.endpoint.yaml')).diagnostics, c.code), [], 'no environment alone');
      const inBase = ofCode(workspace.file(at('sdxl.endpoint.yaml')).diagnostics, c.code);
      assert.equal(inBase.length, 1);
      assert.equal(inBase[0].message, `in prod: ${c.message}`);
      assert.equal(spanText(broken, inBase[0]), c.value);
      assert.equal(inBase[0].origin?.path, at('sdxl.prod.endpoint.yaml'));
      const inOverlay = ofCode(workspace.check(at('sdxl.prod.endpoint.yaml')).diagnostics, c.code);
      assert.equal(inOverlay.length, 1);
      assert.equal(spanText(PROD, inOverlay[0]), './sdxl.endpoint.yaml', "on the overlay's extends line");
      assert.equal(inOverlay[0].origin?.path, at('sdxl.endpoint.yaml'));
      assert.equal(inOverlay[0].origin.range.start.line, lineOf(broken, c.value));
    });
  }

  it('judges a spec that is not an overlay by the rules without environments only', () => {
    const policy = `rules:\n  - name: prod-only\n    environments: [prod]\n    maxWorkers: 1\n  - name: everywhere\n    maxWorkers: 5\n`;
    const spec = BASE.replace('  max: 2\n', '  max: 3\n');
    const { workspace } = memoryWorkspace({ [POLICY_PATH]: policy, [at('sdxl.endpoint.yaml')]: spec });
    assert.deepEqual(ofCode(workspace.check(at('sdxl.endpoint.yaml')).diagnostics, 'policy-max-workers'), []);
    const { workspace: stricter } = memoryWorkspace({
      [POLICY_PATH]: policy.replace('maxWorkers: 5', 'maxWorkers: 2'),
      [at('sdxl.endpoint.yaml')]: spec,
    });
    assert.deepEqual(
      ofCode(stricter.check(at('sdxl.endpoint.yaml')).diagnostics, 'policy-max-workers').map((d) => d.message),
      ['workers.max 3 is above 2 (policy everywhere)'],
    );
  });

  it("judges workers.max left out at the contract's default, on the workers key", () => {
    const spec = BASE.replace('  min: 0\n  max: 2\n', '  min: 0\n');
    const { workspace } = memoryWorkspace({ [POLICY_PATH]: policyWith('maxWorkers: 1'), [at('sdxl.endpoint.yaml')]: spec });
    const [found] = ofCode(workspace.check(at('sdxl.endpoint.yaml')).diagnostics, 'policy-max-workers');
    assert.match(found.message, /^workers\.max 3 \(the default\) is above 1/);
    assert.equal(found.range.start.line, lineOf(spec, 'workers:'));
  });

  it('asks for dataCenterIds when a rule allows some data centers only', () => {
    const spec = BASE.replace('dataCenterIds: [US-TX-3]\n', '');
    const { workspace } = memoryWorkspace({ [POLICY_PATH]: policyWith('allowedDataCenters: [US-TX-3]'), [at('sdxl.endpoint.yaml')]: spec });
    const found = ofCode(workspace.check(at('sdxl.endpoint.yaml')).diagnostics, 'policy-allowed-data-centers');
    assert.deepEqual(
      found.map((d) => d.message),
      ['dataCenterIds is not set, so workers may run in any data center; allowed: US-TX-3 (policy team-limits)'],
    );
  });

  it('judges each document of a file of several specs in its own place', () => {
    const text = `${BASE}---\n${BASE.replace('name: sdxl', 'name: other').replace('  max: 2\n', '  max: 9\n')}`;
    const { workspace } = memoryWorkspace({ [POLICY_PATH]: policyWith('maxWorkers: 4'), [at('many.endpoint.yaml')]: text });
    const found = ofCode(workspace.check(at('many.endpoint.yaml')).diagnostics, 'policy-max-workers');
    assert.deepEqual(
      found.map((d) => [d.documentIndex, d.range.start.line]),
      [[1, lineOf(text, 'max: 9')]],
    );
  });
});
