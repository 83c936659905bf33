/**
 * The lifecycle after a deploy from the command line, in-process against the emulator over HTTP (its simulated
 * time runs fast): `deploy --wait` to the end of the rollout, a crash-looping image (failed, naming the unhealthy
 * worker), a GPU pool without stock (stalled, naming the throttled worker), a smoke job that passes or fails,
 * with and without `--rollback-on-failure`, `rollback --to` with and without `--write-spec` (an overlay refused),
 * an environment's deploy on its own key, and `rollout` as text and JSON. Every outcome is read back through the API.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import * as YAML from 'yaml';
import { runDeploy, runPlan } from '../../cli/deploy';
import { runRollback } from '../../cli/rollback';
import { runRollout } from '../../cli/rollout';
import { EXIT_FAILED, EXIT_STALLED } from '../../cli/rolloutReport';
import type { ApiClient } from '../../core/api';
import { getBinding, liveAsSpec, readBindings } from '../../core/deploy';
import { TEST_KEY, withEmulator, type Emulator } from '../core/api/support';
import { captureIo, type CapturedIo } from './support';

interface SpecOptions {
  readonly image?: string;
  readonly workers?: number;
  readonly pools?: string;
}

const HEADER = '# yaml-language-server: $schema=../schemas/endpoint-create.schema.json\n';

const specText = ({
  image = 'myorg/worker:1.0',
  workers = 1,
  pools = '[ADA_24, AMPERE_24]',
}: SpecOptions = {}): string => `${HEADER}name: rollout-worker
type: QUEUE
image: ${image}
gpu:
  pools: ${pools}
workers:
  min: ${workers}
  max: ${workers}
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;

interface Workspace {
  readonly root: string;
  readonly file: string;
  write(options: SpecOptions): void;
  /** Writes a job request file and returns its path. */
  request(name: string, body: unknown): string;
  cleanup(): void;
}

function workspace(options: SpecOptions = {}): Workspace {
  const root = mkdtempSync(join(tmpdir(), 'es-rollout-cli-'));
  mkdirSync(join(root, '.git'));
  mkdirSync(join(root, 'specs'));
  const file = join(root, 'specs', 'worker.endpoint.yaml');
  writeFileSync(file, specText(options));
  return {
    root,
    file,
    write: (next) => {
      writeFileSync(file, specText(next));
    },
    request: (name, body) => {
      const path = join(root, `${name}.request.json`);
      writeFileSync(path, JSON.stringify(body));
      return path;
    },
    cleanup: () => {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Runs `body` against a fresh emulator, with a workspace holding the spec; removes the workspace either way. */
async function scenario(options: SpecOptions, body: (emu: Emulator, api: ApiClient, ws: Workspace) => Promise<void>): Promise<void> {
  await withEmulator({}, async (emu, client) => {
    const ws = workspace(options);
    try {
      await body(emu, client(), ws);
    } finally {
      ws.cleanup();
    }
  });
}

/** A signed-in run with the job API too (for --smoke). */
const io = (emu: Emulator, env: Record<string, string> = {}): CapturedIo =>
  captureIo(emu, { env: { ENDPOINT_STUDIO_JOBS_URL: emu.jobsUrl, ...env } });

async function run(
  command: (args: string[], io: CapturedIo) => Promise<number>,
  emu: Emulator,
  args: string[],
): Promise<[number, CapturedIo]> {
  const captured = io(emu);
  const code = await command(args, captured);
  assert.ok(!`${captured.stdout}${captured.stderr}`.includes(TEST_KEY), 'the key is never printed');
  return [code, captured];
}

async function onlyEndpoint(api: ApiClient) {
  const [endpoint, ...others] = await api.serverless.list();
  assert.equal(others.length, 0);
  return api.serverless.get(endpoint.id);
}

const versionOf = async (api: ApiClient, endpointId: string): Promise<number | undefined> =>
  (await api.serverless.releases(endpointId)).endpointVersion;

/** The progress lines a watch printed: `  release N: ...`. */
const progressLines = (stderr: string): string[] => stderr.split('\n').filter((line) => /^ {2}release \d+: /.test(line));

describe('endpoint-studio deploy --wait, rollout, rollback', () => {
  it('deploy --wait follows the rollout to its end, a line per change; rollout reports it as text and JSON', async () => {
    await scenario({ workers: 2 }, async (emu, api, ws) => {
      const [created, first] = await run(runDeploy, emu, ['--yes', '--wait', ws.file]);
      assert.equal(created, 0, first.stderr);
      assert.match(first.stdout, /rollout done after [\d.]+ m?s: release 1: 2 of 2 workers on it\n/);

      ws.write({ workers: 2, image: 'myorg/worker:1.1' });
      const [updated, second] = await run(runDeploy, emu, ['--yes', '--wait', ws.file]);
      assert.equal(updated, 0, second.stderr);
      assert.match(
        second.stdout,
        /updated endpoint \w+ "rollout-worker"\nverified: the endpoint read back matches the spec\nrollout done after [\d.]+ m?s: release 2: 2 of 2 workers on it\n/,
      );
      const lines = progressLines(second.stderr);
      assert.ok(lines.length >= 1, second.stderr);
      assert.ok(
        lines.every((line, i) => i === 0 || line !== lines[i - 1]),
        'one line per change, never the same twice in a row',
      );
      assert.equal(lines.at(-1), '  release 2: 2 of 2 workers on it');

      const endpoint = await onlyEndpoint(api);
      const workers = (await api.serverless.workers(endpoint.id)).workers;
      assert.deepEqual(
        workers.map((w) => [w.version, w.status === 'IDLE' || w.status === 'RUNNING']),
        [
          [2, true],
          [2, true],
        ],
      );

      const [read, json] = await run(runRollout, emu, ['--format', 'json', ws.file]);
      assert.equal(read, 0, json.stderr);
      const progress = JSON.parse(json.stdout) as Record<string, unknown>;
      assert.deepEqual(progress, {
        endpointId: endpoint.id,
        version: 2,
        ready: 2,
        starting: 0,
        unhealthy: [],
        stale: 0,
        draining: 0,
        total: 2,
        done: true,
        text: 'release 2: 2 of 2 workers on it',
        cause: null,
        readiness: progress.readiness,
      });
      const readiness = progress.readiness as { version: number; previous: { version: number } | null };
      assert.deepEqual(
        [readiness.version, readiness.previous?.version],
        [2, 1],
        "the time to ready its watch recorded, beside release 1's",
      );

      const [readText, text] = await run(runRollout, emu, [endpoint.id]);
      assert.equal(readText, 0);
      assert.equal(
        text.stdout,
        `endpoint ${endpoint.id}: release 2: 2 of 2 workers on it\n  rolled out: every worker runs it and is ready\n`,
      );

      const [watched, watch] = await run(runRollout, emu, ['--watch', '--format', 'json', ws.file]);
      assert.equal(watched, 0, watch.stderr);
      const outcome = JSON.parse(watch.stdout) as { endpointId: string; outcome: string; progress: { version: number; done: boolean } };
      assert.deepEqual(
        [outcome.endpointId, outcome.outcome, outcome.progress.version, outcome.progress.done],
        [endpoint.id, 'done', 2, true],
      );
    });
  });

  it('a crash-looping image fails the rollout naming the unhealthy worker; --rollback-on-failure goes back to the release before', async () => {
    await scenario({}, async (emu, api, ws) => {
      assert.equal((await run(runDeploy, emu, ['--yes', '--wait', ws.file]))[0], 0);
      const { id } = await onlyEndpoint(api);

      ws.write({ image: 'myorg/worker-crashloop:2.0' });
      const [failed, crash] = await run(runDeploy, emu, ['--yes', '--wait', '--fail-after', '1', ws.file]);
      assert.equal(failed, EXIT_FAILED, crash.stderr);
      const unhealthy = (await api.serverless.workers(id)).workers.filter((w) => w.status === 'UNHEALTHY' && w.version === 2);
      assert.ok(unhealthy.length > 0, 'the new release crash-loops');
      assert.match(crash.stderr, /rollout failed after [\d.]+ m?s: every worker on release 2 has been unhealthy/);
      assert.ok(
        unhealthy.some((w) => crash.stderr.includes(`  worker ${w.id}: UNHEALTHY on release 2`)),
        `names an unhealthy worker:\n${crash.stderr}`,
      );
      assert.ok(crash.stderr.includes(`endpoint-studio logs --worker ${unhealthy[0].id} ${ws.file}`));
      assert.ok(crash.stderr.includes(`to go back to the release before this deploy: endpoint-studio rollback ${ws.file} --to 1`));
      assert.equal((await api.serverless.get(id)).image, 'myorg/worker-crashloop:2.0', 'not rolled back without the flag');

      const [watched, watch] = await run(runRollout, emu, ['--watch', '--fail-after', '1', id]);
      assert.equal(watched, EXIT_FAILED, 'rollout --watch ends with the same code');
      assert.match(watch.stderr, /endpoint-studio rollout: rollout failed/);

      // Back to the good release by hand (release 3), then a crash loop again, this time rolled back on failure.
      assert.equal((await run(runRollback, emu, ['--to', '1', '--yes', ws.file]))[0], 0);
      ws.write({ image: 'myorg/worker-crashloop:3.0' });
      const [rolledBack, back] = await run(runDeploy, emu, ['--yes', '--wait', '--fail-after', '1', '--rollback-on-failure', ws.file]);
      assert.equal(rolledBack, EXIT_FAILED, 'a rollback still exits with the failure');
      assert.match(back.stderr, /rolling back to release 3, the release before this deploy/);
      assert.match(back.stdout, /~ image: "myorg\/worker-crashloop:3\.0" → "myorg\/worker:1\.0"/);
      assert.match(back.stdout, /rollout done after [\d.]+ m?s: release 5: 1 of 1 worker on it/);
      assert.match(back.stderr, /rolled back to release 3; the spec still describes the release that failed/);
      assert.equal((await api.serverless.get(id)).image, 'myorg/worker:1.0', 'the image of the release before');
      assert.equal(await versionOf(api, id), 5, 'the rollback is a release of its own');
    });
  });

  it('a pool without stock stalls the rollout naming the throttled worker, and says how to roll back', async () => {
    await scenario({}, async (emu, api, ws) => {
      assert.equal((await run(runDeploy, emu, ['--yes', '--wait', ws.file]))[0], 0);
      const { id } = await onlyEndpoint(api);
      ws.write({ pools: '[HOPPER_141]' });
      const [stalled, stall] = await run(runDeploy, emu, ['--yes', '--wait', '--stall-after', '1', '--format', 'json', ws.file]);
      assert.equal(stalled, EXIT_STALLED, stall.stderr);
      const throttled = (await api.serverless.workers(id)).workers.filter((w) => w.status === 'THROTTLED');
      assert.ok(throttled.length > 0);
      assert.ok(stall.stderr.includes(`  worker ${throttled[0].id}: THROTTLED on release 2`), stall.stderr);
      assert.match(stall.stderr, /rollout stalled after [\d.]+ m?s: no progress for/);
      assert.ok(stall.stderr.includes(`endpoint-studio rollback ${ws.file} --to 1`));
      const report = JSON.parse(stall.stdout) as {
        exitCode: number;
        documents: {
          plan: string;
          endpointId: string;
          applied: { action: string; verified: boolean };
          rollout: { outcome: string; culprits: { id: string }[] };
          smoke: null;
          rollback: null;
        }[];
      };
      assert.equal(report.exitCode, EXIT_STALLED);
      const [document] = report.documents;
      assert.deepEqual(
        [document.plan, document.endpointId, document.applied.action, document.applied.verified],
        ['update', id, 'updated', true],
      );
      assert.equal(document.rollout.outcome, 'stalled');
      assert.ok(document.rollout.culprits.some((w) => w.id === throttled[0].id));
      assert.deepEqual([document.smoke, document.rollback], [null, null]);
    });
  });

  it('--smoke runs a job on the new release: a pass exits 0, a failure 5, and with --rollback-on-failure goes back', async () => {
    await scenario({}, async (emu, api, ws) => {
      const pass = ws.request('pass', { input: { prompt: 'a lighthouse' } });
      const fail = ws.request('fail', { input: { fail: 'the model weights are missing' } });
      const [passed, first] = await run(runDeploy, emu, ['--yes', '--wait', '--smoke', pass, ws.file]);
      assert.equal(passed, 0, first.stderr);
      assert.match(first.stdout, /smoke check passed: .*COMPLETED/);
      const { id } = await onlyEndpoint(api);

      ws.write({ image: 'myorg/worker:1.1' });
      const [failed, second] = await run(runDeploy, emu, ['--yes', '--wait', '--smoke', fail, ws.file]);
      assert.equal(failed, EXIT_FAILED, second.stderr);
      assert.match(second.stderr, /smoke check failed: .*the model weights are missing/);
      assert.ok(second.stderr.includes(`endpoint-studio rollback ${ws.file} --to 1`));
      assert.equal((await api.serverless.get(id)).image, 'myorg/worker:1.1');

      ws.write({ image: 'myorg/worker:1.2' });
      const [back, third] = await run(runDeploy, emu, [
        '--yes',
        '--wait',
        '--smoke',
        fail,
        '--rollback-on-failure',
        '--format',
        'json',
        ws.file,
      ]);
      assert.equal(back, EXIT_FAILED, third.stderr);
      const [document] = (
        JSON.parse(third.stdout) as {
          documents: {
            rollout: { outcome: string };
            smoke: { passed: boolean; status: string; workerVersion: number | null };
            rollback: { toVersion: number; fromVersion: number; rolledBack: boolean; rollout: { outcome: string } };
          }[];
        }
      ).documents;
      assert.equal(document.rollout.outcome, 'done');
      assert.deepEqual([document.smoke.passed, document.smoke.status], [false, 'FAILED']);
      assert.deepEqual(
        [document.rollback.toVersion, document.rollback.fromVersion, document.rollback.rolledBack, document.rollback.rollout.outcome],
        [2, 3, true, 'done'],
      );
      assert.equal((await api.serverless.get(id)).image, 'myorg/worker:1.1', 'the image of the release before this deploy');

      const bad = ws.request('bad', { endpoint: id });
      const [refused, refusal] = await run(runDeploy, emu, ['--yes', '--wait', '--smoke', bad, ws.file]);
      assert.equal(refused, 2);
      assert.match(refusal.stderr, /--smoke .*\$\.endpoint: unknown member.*nothing was sent/);
      const [stray, strayIo] = await run(runDeploy, emu, ['--yes', '--smoke', pass, ws.file]);
      assert.equal(stray, 2);
      assert.match(strayIo.stderr, /--smoke goes with --wait/);
    });
  });

  it('rollback --to N restores release N read back; the spec stays unless --write-spec, which makes it describe N', async () => {
    await scenario({ workers: 2 }, async (emu, api, ws) => {
      assert.equal((await run(runDeploy, emu, ['--yes', '--wait', ws.file]))[0], 0);
      const releaseOne = liveAsSpec(await onlyEndpoint(api));
      ws.write({ workers: 3, image: 'myorg/worker:2.0' });
      assert.equal((await run(runDeploy, emu, ['--yes', ws.file]))[0], 0);
      const { id } = await onlyEndpoint(api);
      const releaseTwoText = readFileSync(ws.file, 'utf8');

      const [unconfirmed, asked] = await run(runRollback, emu, ['--to', '1', ws.file]);
      assert.equal(unconfirmed, 3);
      assert.match(asked.stderr, /not applied: confirm with --yes/);
      assert.equal((await api.serverless.get(id)).image, 'myorg/worker:2.0');

      const [rolledBack, back] = await run(runRollback, emu, ['--to', '1', '--yes', '--wait', ws.file]);
      assert.equal(rolledBack, 0, back.stderr);
      assert.match(
        back.stdout,
        new RegExp(`^endpoint ${id} \\(bound to specs/worker\\.endpoint\\.yaml\\): back to release 1 from release 2\n`),
      );
      assert.match(back.stdout, /update endpoint \w+ "rollout-worker": \d changes?\n/);
      assert.match(back.stdout, /~ image: "myorg\/worker:2\.0" → "myorg\/worker:1\.0"/);
      assert.match(back.stdout, /verified: the endpoint read back matches release 1\n/);
      assert.match(back.stdout, /the spec still describes release 2: deploying it again undoes the rollback; run with --write-spec/);
      assert.match(back.stdout, /rollout done after [\d.]+ m?s: release 3: 2 of 2 workers on it/);
      // The rollback's release is recorded with the time its workers took, the release before it kept beside it.
      const read = readBindings(ws.root);
      assert.ok(read.ok);
      const recorded = getBinding(read.store, 'specs/worker.endpoint.yaml', 0)?.release;
      assert.equal(recorded?.version, 3);
      assert.ok(recorded.readiness?.firstWorkerStartingMs !== undefined, JSON.stringify(recorded));
      assert.deepEqual(liveAsSpec(await api.serverless.get(id)), releaseOne, 'the endpoint is release 1 again');
      assert.equal(readFileSync(ws.file, 'utf8'), releaseTwoText, 'the spec is untouched');

      assert.equal((await run(runDeploy, emu, ['--yes', ws.file]))[0], 0, 'forward again: release 4');
      const [written, write] = await run(runRollback, emu, ['--to', '1', '--yes', '--write-spec', ws.file]);
      assert.equal(written, 0, write.stderr);
      assert.match(write.stdout, /wrote release 1 into /);
      assert.deepEqual(liveAsSpec(await api.serverless.get(id)), releaseOne);
      const text = readFileSync(ws.file, 'utf8');
      assert.ok(text.startsWith(HEADER), 'the comment above the mapping stays');
      assert.deepEqual(YAML.parse(text), releaseOne, 'the spec now describes release 1');
      const [planned, plan] = await run(runPlan, emu, [ws.file]);
      assert.equal(planned, 0);
      assert.match(plan.stdout, /matches the spec: nothing to deploy/);

      const [missing, none] = await run(runRollback, emu, ['--to', '99', '--yes', ws.file]);
      assert.equal(missing, 1);
      assert.match(none.stderr, /endpoint-studio rollback: .*99/);
      const [usage, wrong] = await run(runRollback, emu, ['--to', '1', '--write-spec', id]);
      assert.equal(usage, 2);
      assert.match(wrong.stderr, /--write-spec writes into a spec file/);
      assert.equal((await run(runRollback, emu, [ws.file]))[0], 2, '--to is needed');
    });
  });

  it('refuses usage errors with exit 2 and the usage, before anything is read or sent', async () => {
    const refusals: [(args: string[], io: CapturedIo) => Promise<number>, string[], RegExp][] = [
      [runRollout, [], /a spec file or an endpoint id is needed/],
      [runRollout, ['--format', 'yaml', 'ep1'], /--format takes text or json; got: yaml/],
      [runRollout, ['--stall-after', '5', 'ep1'], /--stall-after and --fail-after go with --watch/],
      [runRollout, ['--watch', '--fail-after', 'soon', 'ep1'], /--fail-after takes a number of seconds greater than 0; got: soon/],
      [runRollout, ['ep1', 'ep2'], /one spec or endpoint at a time/],
      [runRollback, ['--to', '0', 'ep1'], /--to takes a release number \(1, 2, \.\.\.\); got: 0/],
      [runRollback, ['--to', '2', '--stall-after', '5', 'ep1'], /--stall-after and --fail-after go with --wait/],
      [runRollback, ['--to', '2', '--document', 'x', 'ep1'], /--document takes a document index/],
    ];
    for (const [command, args, message] of refusals) {
      const captured = captureIo(undefined);
      assert.equal(await command(args, captured), 2, args.join(' '));
      assert.match(captured.stderr, message, args.join(' '));
      assert.match(captured.stderr, /Usage:/);
    }
    const help = captureIo(undefined);
    assert.equal(await runRollback(['--help'], help), 0);
    assert.match(help.stdout, /Exit status: 0 rolled back/);
  });

  it('an environment deploys and rolls back on its own key; --write-spec refuses an overlay and names the fields', async () => {
    await scenario({}, async (emu, api, ws) => {
      const overlay = join(ws.root, 'specs', 'worker.staging.endpoint.yaml');
      const env = { ENDPOINT_STUDIO_API_KEY: '', ENDPOINT_STUDIO_API_KEY_STAGING: TEST_KEY };
      writeFileSync(overlay, 'extends: ./worker.endpoint.yaml\nname: rollout-worker-staging\n');
      const staged = io(emu, env);
      assert.equal(await runDeploy(['--env', 'staging', '--yes', '--wait', ws.file], staged), 0, staged.stderr);
      assert.match(staged.stdout, /^environment staging, key from \$ENDPOINT_STUDIO_API_KEY_STAGING/);
      assert.match(staged.stdout, /rollout done after [\d.]+ m?s: release 1: 1 of 1 worker on it\n/);
      const { id, name } = await onlyEndpoint(api);
      assert.equal(name, 'rollout-worker-staging');

      writeFileSync(overlay, 'extends: ./worker.endpoint.yaml\nname: rollout-worker-staging\nimage: myorg/worker:2.0\n');
      assert.equal(await runDeploy(['--yes', overlay], io(emu, env)), 0);
      const overlayText = readFileSync(overlay, 'utf8');
      const refused = io(emu, env);
      assert.equal(await runRollback(['--to', '1', '--yes', '--write-spec', overlay], refused), 2);
      assert.match(refused.stderr, /--write-spec cannot rewrite .*worker\.staging\.endpoint\.yaml: an overlay holds only/);
      assert.match(refused.stderr, / {4}~ image: "myorg\/worker:1\.0" → "myorg\/worker:2\.0"/);
      assert.equal((await api.serverless.get(id)).image, 'myorg/worker:2.0', 'nothing was sent');

      const back = io(emu, env);
      assert.equal(await runRollback(['--to', '1', '--yes', overlay], back), 0, back.stderr);
      assert.equal((await api.serverless.get(id)).image, 'myorg/worker:1.0');
      assert.equal(readFileSync(overlay, 'utf8'), overlayText);
      const noKey = io(emu, { ENDPOINT_STUDIO_API_KEY: '' });
      assert.equal(await runRollback(['--to', '1', '--yes', overlay], noKey), 2, 'never on another key');
      assert.match(noKey.stderr, /set ENDPOINT_STUDIO_API_KEY_STAGING/);
    });
  });
});
