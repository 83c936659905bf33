/**
 * What a base edit reaches, from the command line against the emulator over HTTP: after staging and prod are
 * deployed, an edit of the base makes `plan <base>` list each environment whose next deploy it changes (the
 * protected one marked), and `plan --env prod` tell the changes the base brings from the overlay's own.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runDeploy, runPlan } from '../../cli/deploy';
import { TEST_KEY, withEmulator } from '../core/deploy/support';
import { captureIo } from './support';

const BASE = `name: reach-worker
type: QUEUE
image: myorg/worker:1.0.0
gpu:
  pools: [ADA_24]
workers: { min: 0, max: 2, idleTimeout: 5 }
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;

describe('what a base edit reaches', () => {
  it('plan of a base names each environment it changes; plan --env says what comes from the base', async () => {
    await withEmulator({}, async (emu) => {
      const root = mkdtempSync(join(tmpdir(), 'es-reach-cli-'));
      try {
        mkdirSync(join(root, '.git'));
        mkdirSync(join(root, '.endpoint-studio'));
        writeFileSync(join(root, '.endpoint-studio', 'environments.yaml'), 'environments:\n  prod:\n    protected: true\n');
        const base = join(root, 'worker.endpoint.yaml');
        writeFileSync(base, BASE);
        writeFileSync(join(root, 'worker.staging.endpoint.yaml'), 'extends: ./worker.endpoint.yaml\nname: reach-worker-staging\n');
        writeFileSync(
          join(root, 'worker.prod.endpoint.yaml'),
          'extends: ./worker.endpoint.yaml\nname: reach-worker-prod\nworkers:\n  max: 8\n',
        );
        const env = { ENDPOINT_STUDIO_API_KEY_STAGING: TEST_KEY, ENDPOINT_STUDIO_API_KEY_PROD: TEST_KEY };
        for (const environment of ['staging', 'prod']) {
          const io = captureIo(emu, { env });
          assert.equal(await runDeploy(['--yes', '--env', environment, base], io), 0, io.stderr);
        }
        const before = captureIo(emu, { env });
        assert.equal(await runPlan([base], before), 0, before.stderr);
        assert.match(
          before.stdout,
          /environments this base reaches:\n {4}prod \(protected\): no change pending\n {4}staging: no change pending/,
        );

        writeFileSync(base, BASE.replace('queueDelay: 4', 'queueDelay: 6'));
        writeFileSync(
          join(root, 'worker.prod.endpoint.yaml'),
          readFileSync(join(root, 'worker.prod.endpoint.yaml'), 'utf8').replace('max: 8', 'max: 9'),
        );
        const after = captureIo(emu, { env });
        assert.equal(await runPlan([base], after), 0, after.stderr);
        assert.match(
          after.stdout,
          /prod \(protected\): 2 changes pending from the base \(scaling\.queueDelay\) and from its overlay \(workers\.max\)/,
        );
        assert.match(after.stdout, /staging: 1 change pending from the base \(scaling\.queueDelay\)/);

        const prod = captureIo(emu, { env });
        assert.equal(await runPlan(['--env', 'prod', base], prod), 0, prod.stderr);
        assert.match(prod.stdout, /from the base: scaling\.queueDelay; from the prod overlay: workers\.max/);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });
  });
});
