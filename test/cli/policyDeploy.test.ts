/**
 * `plan` and `deploy` under a team policy, in-process against the emulator: a spec that breaks a rule is refused
 * before anything is sent (the emulator lists no endpoint), naming the finding and its rule, with the JSON code
 * `policy-violation`; the same finding silenced by an ignore comment with a reason, or graded down to a warning
 * by the policy's `severity`, deploys; a broken policy file refuses every deploy (`policy-invalid`), even where
 * a comment silences its error on the spec's line. A cost limit is priced with the service's prices when no
 * catalog snapshot is given, so a key is enough to hold a deploy to it.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { runDeploy, runPlan } from '../../cli/deploy';
import { createApiClient } from '../../core/api';
import { startEmulator } from '../../emulator';
import { TEST_KEY, type Emulator } from '../core/api/support';
import { captureIo } from './support';

const SPEC = `name: policy-sdxl
type: QUEUE
image: myorg/sdxl:1.0.0
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
`;
const FINDING = /workers\.max 8 is above 4 \(policy team-limits\)/;

describe('plan and deploy under a team policy', { timeout: 60_000 }, () => {
  let emu: Emulator;
  let root: string;
  const cwd = process.cwd();
  const spec = () => join(root, 'sdxl.endpoint.yaml');
  const policy = () => join(root, '.endpoint-studio', 'policy.yaml');
  const endpoints = async () => (await createApiClient({ apiUrl: emu.restUrl, apiKey: TEST_KEY }).serverless.list()).map((e) => e.name);

  before(async () => {
    emu = await startEmulator({ port: 0, jobsPort: 0, apiKey: TEST_KEY, seed: 5 });
    root = mkdtempSync(join(tmpdir(), 'es-policy-deploy-'));
    mkdirSync(join(root, '.git'));
    mkdirSync(join(root, '.endpoint-studio'));
    process.chdir(root);
  });
  beforeEach(async () => {
    writeFileSync(policy(), POLICY);
    writeFileSync(spec(), SPEC);
    rmSync(join(root, '.endpoint-studio', 'deployments.json'), { force: true });
    const api = createApiClient({ apiUrl: emu.restUrl, apiKey: TEST_KEY });
    for (const endpoint of await api.serverless.list()) await api.serverless.delete(endpoint.id);
  });
  after(async () => {
    process.chdir(cwd);
    await emu.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('refuses a deploy that breaks the policy, naming the finding and its rule, and sends nothing', async () => {
    const io = captureIo(emu);
    assert.equal(await runDeploy(['--yes', 'sdxl.endpoint.yaml'], io), 1);
    assert.match(io.stderr, /sdxl\.endpoint\.yaml:8:8: error policy-max-workers workers\.max 8 is above 4 \(policy team-limits\)/);
    assert.match(io.stderr, /endpoint-studio deploy: sdxl\.endpoint\.yaml breaks the team policy \(nothing was sent\): workers\.max 8/);
    assert.deepEqual(await endpoints(), []);

    const json = captureIo(emu);
    assert.equal(await runPlan(['--format', 'json', 'sdxl.endpoint.yaml'], json), 1);
    const [entry] = JSON.parse(json.stdout) as { action: string; code: string; message: string; diagnostics: { code: string }[] }[];
    assert.equal(entry.action, 'not planned');
    assert.equal(entry.code, 'policy-violation');
    assert.match(entry.message, FINDING);
    assert.deepEqual(
      entry.diagnostics.map((d) => d.code),
      ['policy-max-workers'],
    );
  });

  it('an invalid spec that also breaks the policy stays spec-invalid, its policy finding listed', async () => {
    writeFileSync(spec(), SPEC.replace('queueDelay: 4', 'queueDelay: 4\nflashbot: FLASHBOOT'));
    const json = captureIo(emu);
    assert.equal(await runPlan(['--format', 'json', 'sdxl.endpoint.yaml'], json), 1);
    const [entry] = JSON.parse(json.stdout) as { code: string; diagnostics: { code: string }[] }[];
    assert.equal(entry.code, 'spec-invalid');
    assert.deepEqual(entry.diagnostics.map((d) => d.code).sort(), ['policy-max-workers', 'unknown-property']);
  });

  it('deploys the same spec with the finding silenced by an ignore comment with a reason', async () => {
    writeFileSync(spec(), SPEC.replace('  max: 8', '  # endpoint-studio-ignore policy-max-workers: load test until 12-05\n  max: 8'));
    const io = captureIo(emu);
    assert.equal(await runDeploy(['--yes', 'sdxl.endpoint.yaml'], io), 0, io.stderr);
    assert.deepEqual(await endpoints(), ['policy-sdxl']);
  });

  it('deploys it when the policy grades the finding down to a warning, and says the warning', async () => {
    writeFileSync(policy(), `${POLICY}severity:\n  policy-max-workers: warning\n`);
    const io = captureIo(emu);
    assert.equal(await runDeploy(['--yes', 'sdxl.endpoint.yaml'], io), 0, io.stderr);
    assert.match(io.stderr, /warning policy-max-workers workers\.max 8 is above 4 \(policy team-limits\)/);
    assert.deepEqual(await endpoints(), ['policy-sdxl']);
  });

  it('prices a cost limit with the service’s prices when no snapshot is given, and refuses a deploy over it', async () => {
    writeFileSync(spec(), SPEC.replace('  max: 8', '  max: 2'));
    writeFileSync(policy(), 'rules:\n  - name: budget\n    maxCostPerHour: 0.5\n');
    const io = captureIo(emu);
    assert.equal(await runDeploy(['--yes', 'sdxl.endpoint.yaml'], io), 1);
    assert.match(
      io.stderr,
      /error policy-max-cost the cost at workers\.max, \$[\d.]+ an hour, is above \$0\.50 \(policy budget\)\n.*breaks the team policy/,
    );
    assert.doesNotMatch(io.stderr, /policy-cost-unchecked/);
    assert.deepEqual(await endpoints(), []);

    writeFileSync(policy(), 'rules:\n  - name: budget\n    maxCostPerHour: 500\n');
    const within = captureIo(emu);
    assert.equal(await runDeploy(['--yes', 'sdxl.endpoint.yaml'], within), 0, within.stderr);
    assert.doesNotMatch(within.stderr, /policy-cost-unchecked/);
    assert.deepEqual(await endpoints(), ['policy-sdxl']);
  });

  it('refuses every deploy while the policy file is broken, even with its error silenced on the spec', async () => {
    writeFileSync(spec(), SPEC.replace('  max: 8', '  max: 2'));
    writeFileSync(policy(), 'rules:\n  - name: team-limits\n    maxWorker: 4\n');
    const io = captureIo(emu);
    assert.equal(await runDeploy(['--yes', 'sdxl.endpoint.yaml'], io), 1);
    assert.match(io.stderr, /error policy-invalid not checked against the team policy/);
    assert.match(
      io.stderr,
      /endpoint-studio deploy: sdxl\.endpoint\.yaml is refused \(nothing was sent\): \.endpoint-studio\/policy\.yaml is broken, so deploys are refused until it is fixed: line 3: rules\[0\]\.maxWorker is not a policy setting/,
    );
    assert.deepEqual(await endpoints(), []);

    writeFileSync(
      spec(),
      SPEC.replace('  max: 8', '  max: 2').replace(
        'name: policy-sdxl',
        'name: policy-sdxl # endpoint-studio-ignore policy-invalid: not ours',
      ),
    );
    const silenced = captureIo(emu);
    assert.equal(await runPlan(['--format', 'json', 'sdxl.endpoint.yaml'], silenced), 1);
    assert.equal((JSON.parse(silenced.stdout) as { code: string }[])[0].code, 'policy-invalid', silenced.stdout);
    assert.deepEqual(await endpoints(), []);
  });
});
