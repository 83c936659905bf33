/**
 * No silent namesakes from the command line: `deploy` of an unbound spec whose name is taken refuses
 * (exit 1, naming the endpoints) unless --adopt or --create-new; `plan` shows the note; `bind`
 * binds without deploying. In-process through the command functions, and once through dist/cli.js.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ApiClient, CreateEndpointRequest } from '../../core/api';
import type { BindingStore } from '../../core/deploy';
import { runBind, runDeploy, runPlan } from '../../cli/deploy';
import { TEST_KEY, withEmulator, type Emulator } from '../core/deploy/support';
import { captureIo } from './support';

const SPEC = `name: cli-worker
type: QUEUE
image: myorg/worker:1.0
gpu:
  pools: [ADA_24, AMPERE_24]
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;
const BODY: CreateEndpointRequest = {
  name: 'cli-worker',
  type: 'QUEUE',
  image: 'myorg/worker:0.9',
  gpu: { pools: ['ADA_24', 'AMPERE_24'] },
  scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
};

/** A repository with the spec and, on the service, `count` endpoints already named like it. */
async function withNamesakes(
  count: number,
  fn: (ctx: { emu: Emulator; api: ApiClient; file: string; root: string; ids: string[] }) => Promise<void>,
) {
  await withEmulator({}, async (emu, client) => {
    const root = mkdtempSync(join(tmpdir(), 'es-namesakes-'));
    try {
      mkdirSync(join(root, '.git'));
      const file = join(root, 'worker.endpoint.yaml');
      writeFileSync(file, SPEC);
      const api = client();
      const ids: string[] = [];
      for (let i = 0; i < count; i++) ids.push((await api.serverless.create(BODY)).id);
      await fn({ emu, api, file, root, ids });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
}

const boundId = (root: string): string | undefined =>
  (JSON.parse(readFileSync(join(root, '.endpoint-studio', 'deployments.json'), 'utf8')) as { deployments: BindingStore }).deployments[
    'worker.endpoint.yaml'
  ]['0'].endpointId;

describe('endpoint-studio deploy with namesakes', () => {
  it('plan shows the note and the namesakes; deploy refuses with exit 1 naming the endpoint, and sends nothing', async () => {
    await withNamesakes(1, async ({ emu, api, file, ids }) => {
      const plan = captureIo(emu);
      assert.equal(await runPlan([file], plan), 0, plan.stderr);
      assert.match(
        plan.stdout,
        new RegExp(`note: an endpoint named "cli-worker" already exists \\(${ids[0]}\\) but this spec is not bound to it`),
      );
      const json = captureIo(emu);
      assert.equal(await runPlan(['--format', 'json', file], json), 0);
      const [entry] = JSON.parse(json.stdout) as { kind: string; namesakes: { id: string }[] }[];
      assert.equal(entry.kind, 'create');
      assert.deepEqual(
        entry.namesakes.map((e) => e.id),
        ids,
      );

      const refused = captureIo(emu);
      assert.equal(await runDeploy(['--yes', file], refused), 1);
      assert.match(refused.stderr, new RegExp(`already exists \\(${ids[0]}\\) and the spec is not bound to it; nothing was sent`));
      assert.match(refused.stderr, /--adopt to update .* --create-new to create another/);
      assert.equal((await api.serverless.list()).length, 1);
    });
  });

  it('--adopt binds the one namesake and updates it to the spec; the next deploy has nothing to do', async () => {
    await withNamesakes(1, async ({ emu, api, file, root, ids }) => {
      const io = captureIo(emu);
      assert.equal(await runDeploy(['--yes', '--adopt', file], io), 0, io.stderr);
      assert.match(io.stderr, new RegExp(`adopting endpoint ${ids[0]}`));
      assert.match(
        io.stdout,
        new RegExp(`update endpoint ${ids[0]} "cli-worker": 1 change\\n {2}~ image: "myorg/worker:0.9" → "myorg/worker:1.0"`),
      );
      assert.match(io.stdout, new RegExp(`updated endpoint ${ids[0]}`));
      assert.match(io.stdout, /bound the spec to endpoint/);
      assert.equal(boundId(root), ids[0]);
      const live = await api.serverless.list();
      assert.deepEqual(
        live.map((e) => [e.id, e.image]),
        [[ids[0], 'myorg/worker:1.0']],
      );
      const again = captureIo(emu);
      assert.equal(await runDeploy([file], again), 0);
      assert.match(again.stdout, /matches the spec: nothing to deploy/);
    });
  });

  it('--adopt refuses when several endpoints carry the name', async () => {
    await withNamesakes(2, async ({ emu, api, file, ids }) => {
      const io = captureIo(emu);
      assert.equal(await runDeploy(['--yes', '--adopt', file], io), 1);
      assert.match(io.stderr, new RegExp(`2 endpoints carry this name \\(${ids[0]}, ${ids[1]}\\)`));
      assert.match(io.stderr, /endpoint-studio bind .* <one of /);
      assert.equal((await api.serverless.list()).length, 2);
    });
  });

  it('--create-new creates another on purpose and binds it', async () => {
    await withNamesakes(1, async ({ emu, api, file, root, ids }) => {
      const io = captureIo(emu);
      assert.equal(await runDeploy(['--yes', '--create-new', file], io), 0, io.stderr);
      const live = await api.serverless.list();
      assert.equal(live.length, 2);
      const created = live.find((e) => e.id !== ids[0]);
      assert.ok(created);
      assert.equal(boundId(root), created.id);
      const usage = captureIo(emu);
      assert.equal(await runDeploy(['--adopt', '--create-new', file], usage), 2);
    });
  });

  it('bind records the endpoint without deploying; deploy then updates it', async () => {
    await withNamesakes(2, async ({ emu, api, file, root, ids }) => {
      const io = captureIo(emu);
      assert.equal(await runBind([file, ids[1]], io), 0, io.stderr);
      assert.match(io.stdout, new RegExp(`bound worker.endpoint.yaml \\(document 0\\) to endpoint ${ids[1]} "cli-worker"`));
      assert.match(io.stdout, /differs from the spec in 1 field\(s\)[^\n]*\n {2}~ image: "myorg\/worker:0\.9" → "myorg\/worker:1\.0"/);
      assert.equal(boundId(root), ids[1]);
      assert.equal((await api.serverless.get(ids[1])).image, 'myorg/worker:0.9', 'bind changes nothing on the service');
      const deploy = captureIo(emu);
      assert.equal(await runDeploy(['--yes', file], deploy), 0, deploy.stderr);
      assert.match(deploy.stdout, new RegExp(`updated endpoint ${ids[1]}`));
      assert.equal((await api.serverless.list()).length, 2);

      const missing = captureIo(emu);
      assert.equal(await runBind([file, 'nosuch'], missing), 1);
      assert.match(missing.stderr, /no endpoint nosuch/);
      assert.equal(boundId(root), ids[1], 'a failed bind keeps the binding');
      assert.equal(await runBind([file], captureIo(emu)), 2);
      assert.equal(await runBind(['--document', '3', file, ids[0]], captureIo(emu)), 2);
    });
  });

  it('runs as the built command line: refuse, then bind, then deploy', async () => {
    await withNamesakes(1, async ({ emu, api, file, root, ids }) => {
      const cli = join(__dirname, '..', '..', 'dist', 'cli.js');
      const env = { ...process.env, ENDPOINT_STUDIO_API_URL: emu.restUrl, ENDPOINT_STUDIO_API_KEY: TEST_KEY };
      // Not spawnSync: it would block the emulator, which runs in this same process.
      const run = (args: string[]) =>
        new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
          const child = spawn(process.execPath, [cli, ...args], { env });
          let stdout = '';
          let stderr = '';
          child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
          child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
          child.on('close', (status) => {
            resolve({ status, stdout, stderr });
          });
        });
      const refused = await run(['deploy', '--yes', file]);
      assert.equal(refused.status, 1, refused.stderr);
      assert.match(refused.stderr, new RegExp(`already exists \\(${ids[0]}\\)`));
      const bound = await run(['bind', file, ids[0]]);
      assert.equal(bound.status, 0, bound.stderr);
      assert.equal(boundId(root), ids[0]);
      const deployed = await run(['deploy', '--yes', file]);
      assert.equal(deployed.status, 0, deployed.stderr);
      assert.match(deployed.stdout, new RegExp(`updated endpoint ${ids[0]}`));
      assert.equal((await api.serverless.list()).length, 1);
    });
  });
});
