/**
 * A change made outside, from the command line against the emulator over HTTP: after `deploy`, the endpoint is
 * changed through the API as the console would. `plan` names the change and the release that made it; `deploy`
 * will not revert it unasked (exit 6, nothing sent, and its JSON says why); `--overwrite-outside` does.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { OVERWRITES_OUTSIDE_EXIT, runDeploy } from '../../cli/deploy';
import { runPlan } from '../../cli/plan';
import { withEmulator } from '../core/deploy/support';
import { captureIo } from './support';

const SPEC = `name: outside-cli
type: QUEUE
image: myorg/worker:1.0.0
gpu:
  pools: [ADA_24]
workers: { min: 0, max: 2, idleTimeout: 5 }
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;

describe('deploy and a change made outside', () => {
  it('plan names it; deploy refuses to revert it unasked, and --overwrite-outside reverts it', async () => {
    await withEmulator({}, async (emu, client) => {
      const root = mkdtempSync(join(tmpdir(), 'es-outside-cli-'));
      try {
        mkdirSync(join(root, '.git'));
        const file = join(root, 'worker.endpoint.yaml');
        writeFileSync(file, SPEC);
        const first = captureIo(emu);
        assert.equal(await runDeploy(['--yes', file], first), 0, first.stderr);
        const api = client();
        const [endpoint] = await api.serverless.list();
        await api.serverless.update(endpoint.id, { workers: { min: 0, max: 6, idleTimeout: 5 } });

        const plan = captureIo(emu);
        assert.equal(await runPlan([file], plan), 0, plan.stderr);
        assert.match(plan.stdout, /changed outside \(release \d+, \d{4}-\d\d-\d\d \d\d:\d\d\) since the last deploy/);
        assert.match(plan.stdout, /workers\.max: 2 → 6; deploying sets it back to 2/);

        const refused = captureIo(emu);
        assert.equal(await runDeploy(['--yes', file], refused), OVERWRITES_OUTSIDE_EXIT);
        assert.match(refused.stderr, /overwrites changes made outside since the last deploy \(workers\.max; see above\).*nothing was sent/);
        const json = captureIo(emu);
        assert.equal(await runDeploy(['--yes', '--format', 'json', file], json), OVERWRITES_OUTSIDE_EXIT);
        const report = JSON.parse(json.stdout) as {
          exitCode: number;
          documents: { outside: { changes: { path: string; effect: string }[] } }[];
        };
        assert.equal(report.exitCode, OVERWRITES_OUTSIDE_EXIT);
        assert.deepEqual(
          report.documents[0].outside.changes.map((c) => [c.path, c.effect]),
          [['workers.max', 'reverts']],
        );
        assert.equal((await api.serverless.get(endpoint.id)).workers.max, 6, 'nothing was sent');

        const overwrite = captureIo(emu);
        assert.equal(await runDeploy(['--yes', '--overwrite-outside', file], overwrite), 0, overwrite.stderr);
        assert.equal((await api.serverless.get(endpoint.id)).workers.max, 2);
        const after = captureIo(emu);
        assert.equal(await runPlan([file], after), 0);
        assert.doesNotMatch(after.stdout, /changed outside/);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });
  });
});
