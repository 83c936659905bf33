/**
 * Time to ready per release from the command line, in-process against the emulator over HTTP: two releases
 * deployed with `deploy --wait`, the second booting slower (the emulator's slow-boot images), each one's time to
 * ready recorded in deployments.json with the first kept beside the second, compared, and warned about; `rollout`
 * says it as text and JSON for a spec, and nothing for an endpoint named by its id.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runDeploy } from '../../cli/deploy';
import { runRollout } from '../../cli/rollout';
import { TEST_KEY, withEmulator, type Emulator } from '../core/api/support';
import { captureIo, type CapturedIo } from './support';

const specText = (image: string): string => `name: cold-start
type: QUEUE
image: ${image}
gpu:
  pools: [ADA_24, AMPERE_24]
workers:
  min: 1
  max: 1
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;

interface Steps {
  readonly firstWorkerStartingMs?: number | null;
  readonly firstWorkerReadyMs?: number | null;
  readonly firstJobCompletedMs?: number | null;
}

interface RecordedRelease {
  readonly version: number;
  readonly readiness?: Steps;
  readonly previous?: { readonly version: number; readonly readiness: Steps };
}

interface ReadinessJson extends Steps {
  readonly version: number;
  readonly previous: ({ readonly version: number | null } & Steps) | null;
  readonly change: { readonly ratio: number; readonly muchSlower: boolean } | null;
}

async function run(
  command: (args: string[], io: CapturedIo) => Promise<number>,
  emu: Emulator,
  args: string[],
): Promise<[number, CapturedIo]> {
  const io = captureIo(emu, { env: { ENDPOINT_STUDIO_JOBS_URL: emu.jobsUrl } });
  const code = await command(args, io);
  assert.ok(!`${io.stdout}${io.stderr}`.includes(TEST_KEY), 'the key is never printed');
  return [code, io];
}

const recorded = (root: string): RecordedRelease => {
  const file = JSON.parse(readFileSync(join(root, '.endpoint-studio', 'deployments.json'), 'utf8')) as {
    deployments: Record<string, Record<string, { release: RecordedRelease }>>;
  };
  return file.deployments['specs/worker.endpoint.yaml']['0'].release;
};

/** The steps as recorded, with the ones not seen as null, as --format json says them. */
const asJson = (steps: Steps | undefined): Required<Steps> => ({
  firstWorkerStartingMs: steps?.firstWorkerStartingMs ?? null,
  firstWorkerReadyMs: steps?.firstWorkerReadyMs ?? null,
  firstJobCompletedMs: steps?.firstJobCompletedMs ?? null,
});

describe('time to ready per release', () => {
  it('deploy --wait records each release, compares it with the one before and warns when it is much slower', async () => {
    await withEmulator({}, async (emu, client) => {
      const root = mkdtempSync(join(tmpdir(), 'es-readiness-cli-'));
      try {
        mkdirSync(join(root, '.git'));
        mkdirSync(join(root, 'specs'));
        const file = join(root, 'specs', 'worker.endpoint.yaml');
        const smoke = join(root, 'smoke.request.json');
        writeFileSync(smoke, JSON.stringify({ input: { prompt: 'a lighthouse' } }));
        // At the test emulator's 50x clock: ready 0.5 s after the container starts, then 4 s.
        writeFileSync(file, specText('myorg/worker:1.0-slowboot-25s'));

        const [created, first] = await run(runDeploy, emu, ['--yes', '--wait', '--smoke', smoke, '--format', 'json', file]);
        assert.equal(created, 0, first.stderr);
        const one = recorded(root);
        assert.equal(one.version, 1);
        const { firstWorkerStartingMs: started = -1, firstWorkerReadyMs: ready = -1, firstJobCompletedMs: job = -1 } = one.readiness ?? {};
        assert.ok(started !== null && ready !== null && job !== null);
        assert.ok(0 <= started && started <= ready && ready <= job, JSON.stringify(one));
        assert.equal(one.previous, undefined);
        const [document] = (JSON.parse(first.stdout) as { documents: { readiness: ReadinessJson }[] }).documents;
        assert.deepEqual(document.readiness, { version: 1, ...asJson(one.readiness), previous: null, change: null });
        assert.match(first.stderr, /time to ready: first worker started after [\d.]+ m?s; ready in [\d.]+ m?s\n/);
        assert.match(first.stderr, /first job completed [\d.]+ m?s after the deploy/);

        writeFileSync(file, specText('myorg/worker:1.1-slowboot-200s'));
        const [updated, second] = await run(runDeploy, emu, ['--yes', '--wait', file]);
        assert.equal(updated, 0, second.stderr);
        const two = recorded(root);
        assert.equal(two.version, 2);
        assert.deepEqual(two.previous, { version: 1, readiness: one.readiness }, 'the release before keeps its figure');
        const slower = two.readiness?.firstWorkerReadyMs ?? 0;
        assert.ok(slower >= ready * 1.5, `release 2 boots slower: ${JSON.stringify(two)}`);
        const percent = Math.round(((slower - ready) / ready) * 100);
        assert.match(second.stdout, new RegExp(`; ready in [\\d.]+ m?s \\(previous release [\\d.]+ m?s\\): ${percent}% slower\\n`));
        assert.match(
          second.stderr,
          new RegExp(`endpoint-studio deploy: warning: release 2 is ${percent}% slower to a ready worker than the release before: `),
        );

        const [read, json] = await run(runRollout, emu, ['--format', 'json', file]);
        assert.equal(read, 0, json.stderr);
        const { readiness } = JSON.parse(json.stdout) as { readiness: ReadinessJson };
        assert.deepEqual(readiness, {
          version: 2,
          ...asJson(two.readiness),
          previous: { version: 1, ...asJson(one.readiness) },
          change: { ratio: Math.round(((slower - ready) / ready) * 1000) / 1000, muchSlower: true },
        });

        const [readText, text] = await run(runRollout, emu, [file]);
        assert.equal(readText, 0, text.stderr);
        assert.match(
          text.stdout,
          new RegExp(`\\n {2}time to ready: .*ready in [\\d.]+ m?s \\(previous release [\\d.]+ m?s\\): ${percent}% slower\\n`),
        );

        const [endpoint] = await client().serverless.list();
        const [byId, idJson] = await run(runRollout, emu, ['--format', 'json', endpoint.id]);
        assert.equal(byId, 0, idJson.stderr);
        assert.equal((JSON.parse(idJson.stdout) as { readiness: unknown }).readiness, null, 'an endpoint id names no workspace');
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });
  });
});
