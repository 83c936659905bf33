/**
 * The agent tools under a team policy, as an MCP client drives them (`endpoint-studio mcp` over stdio, the SDK's
 * client, against the emulator): validate_spec lists a policy finding naming its rule and a finding silenced by
 * an ignore comment under suppressed with the reason; plan_deploy gives no token for a body that breaks the
 * policy (a finding graded down to a warning no longer refuses, a cost limit is priced with the service's prices),
 * nor for any spec while the policy file is broken.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createApiClient } from '../../core/api';
import { startEmulator } from '../../emulator';
import { TEST_KEY, type Emulator } from '../core/api/support';
import { startMcpSession, type McpSession, type ToolOutcome } from './mcpSession';

const SPEC = `name: agent-policy
type: QUEUE
image: myorg/worker:latest # endpoint-studio-ignore policy-pinned-image: pinned by digest at deploy
gpu:
  pools: [ADA_24]
workers:
  min: 0
  max: 8
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;
const POLICY = `rules:
  - name: team-limits
    maxWorkers: 4
    pinnedImage: true
`;

interface Problem {
  line: number;
  severity: string;
  code: string;
  message: string;
  suppressed?: { kind: string; reason: string };
}

describe('the agent tools under a team policy', { timeout: 60_000 }, () => {
  let emu: Emulator;
  let root: string;
  let mcp: McpSession;
  let call: (name: string, args: Record<string, unknown>) => Promise<ToolOutcome>;
  const policy = () => join(root, '.endpoint-studio', 'policy.yaml');

  before(async () => {
    emu = await startEmulator({ port: 0, jobsPort: 0, apiKey: TEST_KEY, seed: 3 });
    root = mkdtempSync(join(tmpdir(), 'es-agent-policy-'));
    mkdirSync(join(root, '.git'));
    mkdirSync(join(root, '.endpoint-studio'));
    writeFileSync(policy(), POLICY);
    writeFileSync(join(root, 'worker.endpoint.yaml'), SPEC);
    mcp = await startMcpSession({ cwd: root, env: { ENDPOINT_STUDIO_API_URL: emu.restUrl, ENDPOINT_STUDIO_API_KEY: TEST_KEY } });
    call = (name, args) => mcp.call(name, args);
  });

  after(async () => {
    await mcp.close();
    await emu.close();
    rmSync(root, { recursive: true, force: true });
  });

  const endpoints = async () => (await createApiClient({ apiUrl: emu.restUrl, apiKey: TEST_KEY }).serverless.list()).map((e) => e.name);

  it('validate_spec lists the finding with its rule, and the silenced one under suppressed with the reason', async () => {
    const result = await call('validate_spec', { path: 'worker.endpoint.yaml' });
    assert.equal(result.isError, false, result.text);
    const {
      valid,
      errors,
      problems,
      suppressed,
      policy: found,
    } = result.structured as {
      valid: boolean;
      errors: number;
      problems: Problem[];
      suppressed: Problem[];
      policy: { path: string; broken: boolean };
    };
    assert.equal(valid, false);
    assert.equal(errors, 1);
    assert.deepEqual(
      problems.map((p) => [p.line, p.severity, p.code, p.message]),
      [[8, 'error', 'policy-max-workers', 'workers.max 8 is above 4 (policy team-limits)']],
    );
    assert.deepEqual(
      suppressed.map((p) => [p.line, p.code, p.suppressed]),
      [[3, 'policy-pinned-image', { kind: 'inSource', reason: 'pinned by digest at deploy' }]],
    );
    assert.deepEqual(found, { path: join('.endpoint-studio', 'policy.yaml'), broken: false });
    assert.match(result.text, /worker\.endpoint\.yaml: 1 error\(s\), 0 warning\(s\), 1 suppressed/);
    assert.match(result.text, /policy-pinned-image .* \(suppressed: pinned by digest at deploy\)$/m);
  });

  it('plan_deploy gives no token for a body that breaks the policy, naming the finding and its rule', async () => {
    const result = await call('plan_deploy', { path: 'worker.endpoint.yaml' });
    assert.equal(result.isError, true);
    assert.match(
      result.text,
      /^worker\.endpoint\.yaml breaks the team policy \(nothing was sent\); .*: workers\.max 8 is above 4 \(policy team-limits\)$/m,
    );
    const error = result.structured.error as { code: string; problems: Problem[]; planToken?: string };
    assert.equal(error.code, 'policy-violation');
    assert.deepEqual(
      error.problems.map((p) => p.code),
      ['policy-max-workers'],
    );
    assert.equal(JSON.stringify(result.structured).includes('planToken'), false);
    assert.deepEqual(await endpoints(), []);
  });

  it('plan_deploy gives a token once the policy grades the finding down to a warning', async () => {
    writeFileSync(policy(), `${POLICY}severity:\n  policy-max-workers: warning\n`);
    try {
      const result = await call('plan_deploy', { path: 'worker.endpoint.yaml' });
      assert.equal(result.isError, false, result.text);
      assert.match(String(result.structured.planToken), /\S/);
    } finally {
      writeFileSync(policy(), POLICY);
    }
  });

  it('plan_deploy prices a cost limit with the service’s prices, and gives no token over it', async () => {
    writeFileSync(join(root, 'priced.endpoint.yaml'), SPEC.replace('max: 8', 'max: 2').replace('agent-policy', 'agent-priced'));
    writeFileSync(policy(), 'rules:\n  - name: budget\n    maxCostPerHour: 0.5\n');
    try {
      const over = await call('plan_deploy', { path: 'priced.endpoint.yaml' });
      assert.equal(over.isError, true);
      assert.match(
        over.text,
        /breaks the team policy .*: the cost at workers\.max, \$[\d.]+ an hour, is above \$0\.50 \(policy budget\)$/m,
      );
      writeFileSync(policy(), 'rules:\n  - name: budget\n    maxCostPerHour: 500\n');
      const within = await call('plan_deploy', { path: 'priced.endpoint.yaml' });
      assert.equal(within.isError, false, within.text);
      assert.doesNotMatch(within.text, /policy-cost-unchecked/);
    } finally {
      writeFileSync(policy(), POLICY);
    }
  });

  it('a broken policy file refuses every plan and says so in validate_spec', async () => {
    writeFileSync(join(root, 'small.endpoint.yaml'), SPEC.replace('max: 8', 'max: 2').replace('agent-policy', 'agent-small'));
    writeFileSync(policy(), 'rules:\n  - name: team-limits\n    maxWorker: 4\n');
    try {
      const plan = await call('plan_deploy', { path: 'small.endpoint.yaml' });
      assert.equal(plan.isError, true);
      assert.match(
        plan.text,
        /^small\.endpoint\.yaml is refused \(nothing was sent\): \.endpoint-studio\/policy\.yaml is broken, so deploys are refused until it is fixed: line 3: rules\[0\]\.maxWorker is not a policy setting/,
      );
      assert.equal((plan.structured.error as { code: string }).code, 'policy-invalid');
      const checked = await call('validate_spec', { path: 'small.endpoint.yaml' });
      assert.deepEqual(checked.structured.policy, { path: join('.endpoint-studio', 'policy.yaml'), broken: true });
      assert.ok((checked.structured.problems as Problem[]).some((p) => p.code === 'policy-invalid' && p.severity === 'error'));
    } finally {
      writeFileSync(policy(), POLICY);
    }
    assert.deepEqual(await endpoints(), []);
  });
});
