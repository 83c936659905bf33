/**
 * What a deleted spec leaves behind, from the command line against the emulator over HTTP: a spec deployed and then
 * deleted, `plan <folder>` (text, JSON and Markdown) and `deploy` list its endpoint as still running and billed
 * without changing their exit status; `orphans` lists it, `--forget` removes only the binding, and `--delete` deletes
 * the endpoint only with its name confirmed (typed, or `--confirm`), then forgets it. The main path runs through
 * dist/cli.js; the rest in-process through the command functions.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ApiClient } from '../../core/api';
import type { BindingStore } from '../../core/deploy';
import { runDeploy, runPlan } from '../../cli/deploy';
import { runOrphans } from '../../cli/orphans';
import { TEST_KEY, withEmulator, type Emulator } from '../core/deploy/support';
import { captureIo } from './support';

const spec = (name: string): string => `name: ${name}
type: QUEUE
image: myorg/worker:1.0
gpu:
  pools: [ADA_24, AMPERE_24]
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;

interface Setup {
  readonly emu: Emulator;
  readonly api: ApiClient;
  readonly root: string;
  readonly specs: string;
  /** The endpoint ids by name, as deployed. */
  readonly ids: Readonly<Record<string, string>>;
  readonly bindings: () => BindingStore;
}

/** A repository whose specs/ held `kept` and `old`, both deployed; old.endpoint.yaml has since been deleted. */
async function withDeletedSpec(fn: (setup: Setup) => Promise<void>): Promise<void> {
  await withEmulator({}, async (emu, client) => {
    const root = mkdtempSync(join(tmpdir(), 'es-orphans-cli-'));
    try {
      mkdirSync(join(root, '.git'));
      const specs = join(root, 'specs');
      mkdirSync(specs);
      const ids: Record<string, string> = {};
      for (const name of ['kept', 'old']) {
        const file = join(specs, `${name}.endpoint.yaml`);
        writeFileSync(file, spec(name));
        const io = captureIo(emu);
        assert.equal(await runDeploy(['--yes', file], io), 0, io.stderr);
      }
      const api = client();
      for (const endpoint of await api.serverless.list()) ids[endpoint.name] = endpoint.id;
      rmSync(join(specs, 'old.endpoint.yaml'));
      const bindings = () =>
        (JSON.parse(readFileSync(join(root, '.endpoint-studio', 'deployments.json'), 'utf8')) as { deployments: BindingStore }).deployments;
      await fn({ emu, api, root, specs, ids, bindings });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
}

/** dist/cli.js in `cwd`, signed in to the emulator; not spawnSync, which would block the emulator in this process. */
function cli(emu: Emulator, cwd: string, args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const env = { ...process.env, ENDPOINT_STUDIO_API_URL: emu.restUrl, ENDPOINT_STUDIO_API_KEY: TEST_KEY };
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(__dirname, '..', '..', 'dist', 'cli.js'), ...args], { env, cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => {
      resolve({ status, stdout, stderr });
    });
  });
}

const liveIds = async (api: ApiClient): Promise<string[]> => (await api.serverless.list()).map((e) => e.id).sort();

describe('endpoint-studio plan, deploy and orphans: what a deleted spec leaves behind', () => {
  it('plan <folder> lists it after the plans and exits as before; orphans --forget, then --delete with --confirm', async () => {
    await withDeletedSpec(async ({ emu, api, root, ids, bindings }) => {
      const plan = await cli(emu, root, ['plan', 'specs']);
      assert.equal(plan.status, 0, plan.stderr);
      assert.match(plan.stdout, /matches the spec: nothing to deploy/);
      assert.match(plan.stdout, /left behind: 1 endpoint whose spec is gone, still running and billed:\n/);
      assert.match(plan.stdout, new RegExp(`endpoint old \\(${ids.old}\\), deployed from specs/old\\.endpoint\\.yaml: the file is gone`));
      assert.match(plan.stdout, /endpoint-studio orphans --delete <name>/);

      const listed = await cli(emu, root, ['orphans', 'specs', '--format', 'json']);
      assert.equal(listed.status, 0, listed.stderr);
      const json = JSON.parse(listed.stdout) as { orphans: { file: string; endpointId: string }[]; deleted: unknown[] };
      assert.deepEqual(
        json.orphans.map((o) => [o.file, o.endpointId]),
        [['specs/old.endpoint.yaml', ids.old]],
      );
      assert.deepEqual(json.deleted, []);

      const unconfirmed = await cli(emu, root, ['orphans', 'specs', '--delete', 'old']);
      assert.equal(unconfirmed.status, 3, unconfirmed.stderr);
      assert.match(unconfirmed.stderr, /nothing changed: .* confirm with --confirm old$/m);
      assert.deepEqual(await liveIds(api), [ids.kept, ids.old].sort(), 'nothing is deleted without --confirm');

      const forgot = await cli(emu, root, ['orphans', 'specs', '--forget', ids.old]);
      assert.equal(forgot.status, 0, forgot.stderr);
      assert.match(
        forgot.stdout,
        /forgot the binding of specs\/old\.endpoint\.yaml .*; the endpoint keeps running\nnothing is left behind in specs\n/,
      );
      assert.deepEqual(Object.keys(bindings()), ['specs/kept.endpoint.yaml']);
      assert.deepEqual(await liveIds(api), [ids.kept, ids.old].sort(), '--forget sends nothing');

      rmSync(join(root, 'specs', 'kept.endpoint.yaml'));
      const deleted = await cli(emu, root, ['orphans', '--delete', 'kept', '--confirm', 'kept']);
      assert.equal(deleted.status, 0, deleted.stderr);
      assert.match(
        deleted.stdout,
        new RegExp(`deleted endpoint kept \\(${ids.kept}\\); forgot its binding \\(specs/kept\\.endpoint\\.yaml\\)`),
      );
      assert.deepEqual(await liveIds(api), [ids.old]);
      assert.deepEqual(bindings(), {});
      for (const run of [plan, listed, unconfirmed, forgot, deleted]) assert.ok(!`${run.stdout}${run.stderr}`.includes(TEST_KEY));
    });
  });

  it('plan --format json adds {"orphan": ...} entries after the plans, and markdown a section', async () => {
    await withDeletedSpec(async ({ emu, specs, ids }) => {
      const json = captureIo(emu);
      assert.equal(await runPlan(['--format', 'json', specs], json), 0, json.stderr);
      const entries = JSON.parse(json.stdout) as Record<string, unknown>[];
      assert.deepEqual(
        entries.map((e) => ('orphan' in e ? 'orphan' : e.action)),
        ['unchanged', 'orphan'],
      );
      const { orphan } = entries[1] as { orphan: Record<string, unknown> };
      assert.deepEqual(
        { ...orphan, deployedAt: typeof orphan.deployedAt },
        {
          file: 'specs/old.endpoint.yaml',
          document: 0,
          endpointId: ids.old,
          endpointName: 'old',
          deployedAt: 'string',
          reason: 'file-gone',
          message: `endpoint old (${ids.old}) is still running and billed: the file is gone`,
        },
      );

      const markdown = captureIo(emu);
      assert.equal(await runPlan(['--format', 'markdown', specs], markdown), 0, markdown.stderr);
      assert.match(markdown.stdout, /^## Endpoint deploy plan\n/);
      assert.match(markdown.stdout, /\n### Left behind: 1 endpoint whose spec is gone\n\nThis endpoint is still running and billed/);
      assert.match(markdown.stdout, new RegExp(`\\| old \\| \`${ids.old}\` \\| \`specs/old\\.endpoint\\.yaml\` \\| the file is gone \\|`));
    });
  });

  it('deploy of a spec beside it lists it too, in text and in its JSON, and deletes nothing', async () => {
    await withDeletedSpec(async ({ emu, api, specs, ids }) => {
      const kept = join(specs, 'kept.endpoint.yaml');
      const text = captureIo(emu);
      assert.equal(await runDeploy(['--yes', kept], text), 0, text.stderr);
      assert.match(text.stdout, /left behind: 1 endpoint whose spec is gone, still running and billed:\n {2}endpoint old/);
      const json = captureIo(emu);
      assert.equal(await runDeploy(['--yes', '--format', 'json', kept], json), 0, json.stderr);
      const report = JSON.parse(json.stdout) as { exitCode: number; orphans: { endpointId: string }[] };
      assert.equal(report.exitCode, 0);
      assert.deepEqual(
        report.orphans.map((o) => o.endpointId),
        [ids.old],
      );
      assert.equal((await api.serverless.list()).length, 2);
    });
  });

  it('a plan with nothing left behind says nothing of it, and its JSON keeps its shape', async () => {
    await withDeletedSpec(async ({ emu, specs, ids }) => {
      assert.equal(await runOrphans([specs, '--forget', 'old'], captureIo(emu)), 0);
      const text = captureIo(emu);
      assert.equal(await runPlan([specs], text), 0);
      assert.doesNotMatch(text.stdout, /left behind/);
      const json = captureIo(emu);
      assert.equal(await runPlan(['--format', 'json', specs], json), 0);
      assert.deepEqual(
        (JSON.parse(json.stdout) as { action: string }[]).map((e) => e.action),
        ['unchanged'],
      );
      assert.ok(ids.kept);
    });
  });

  it('--delete asks for the name typed on a terminal: a wrong name changes nothing, the right one deletes', async () => {
    await withDeletedSpec(async ({ emu, api, specs, ids, bindings }) => {
      const questions: string[] = [];
      // Object.assign, not a spread: the captured output lands on the object captureIo made.
      const typing = (answer: string) =>
        Object.assign(captureIo(emu), {
          ask: (question: string) => {
            questions.push(question);
            return Promise.resolve(answer);
          },
        });
      const wrong = typing('olf');
      assert.equal(await runOrphans([specs, '--delete', 'old', '--forget', 'kept'], wrong), 2, 'kept is not left behind');
      assert.match(wrong.stderr, /no endpoint left behind in .* has the name or id kept/);
      assert.equal(await runOrphans([specs, '--delete', 'old'], wrong), 3);
      assert.match(wrong.stderr, /nothing changed: typed "olf", not "old"/);
      assert.match(questions[0], new RegExp(`^Endpoint old \\(${ids.old}\\) will be deleted permanently: .* Type old to delete it:$`));
      assert.equal((await api.serverless.list()).length, 2);

      const right = typing('old');
      assert.equal(await runOrphans([specs, '--delete', ids.old], right), 0, right.stderr);
      assert.deepEqual(await liveIds(api), [ids.kept]);
      assert.deepEqual(Object.keys(bindings()), ['specs/kept.endpoint.yaml']);
    });
  });

  it('an endpoint deleted elsewhere is only forgotten, and said to be gone already', async () => {
    await withDeletedSpec(async ({ emu, api, specs, ids, bindings }) => {
      await api.serverless.delete(ids.old);
      const io = captureIo(emu);
      assert.equal(await runOrphans([specs, '--delete', 'old', '--confirm', 'old', '--format', 'json'], io), 0, io.stderr);
      assert.match(io.stderr, /endpoint old \(.*\) was already deleted; forgot its binding/);
      const report = JSON.parse(io.stdout) as { deleted: { outcome: string }[]; orphans: unknown[] };
      assert.deepEqual(
        report.deleted.map((d) => d.outcome),
        ['already-gone'],
      );
      assert.deepEqual(report.orphans, []);
      assert.deepEqual(Object.keys(bindings()), ['specs/kept.endpoint.yaml']);
    });
  });

  it('refuses usage it cannot act on, with exit status 2 and nothing changed', async () => {
    await withDeletedSpec(async ({ emu, specs, root }) => {
      for (const [args, problem] of [
        [['--format', 'yaml', specs], /--format takes text or json; got: yaml/],
        [[specs, root], /one folder at a time/],
        [[join(specs, 'kept.endpoint.yaml')], /not a folder: /],
        [[specs, '--forget', 'old', '--delete', 'old'], /--forget and --delete name the same endpoint: old/],
        [[specs, '--forget', 'nosuch'], /has the name or id nosuch$/m],
      ] as const) {
        const io = captureIo(emu);
        assert.equal(await runOrphans([...args], io), 2, args.join(' '));
        assert.match(io.stderr, problem);
      }
      const noKey = captureIo(undefined);
      assert.equal(await runOrphans([specs, '--delete', 'old', '--confirm', 'old'], noKey), 2);
      assert.match(noKey.stderr, /no API key/);
      const listed = captureIo(undefined);
      assert.equal(await runOrphans([specs], listed), 0, 'listing needs no key');
      assert.match(listed.stdout, /endpoint old/);
    });
  });
});
