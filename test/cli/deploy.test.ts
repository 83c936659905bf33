/** `endpoint-studio plan|deploy|pull` run in-process against the emulator: output, bindings and exit codes. */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import * as YAML from 'yaml';
import { runDeploy, runPlan, runPull } from '../../cli/deploy';
import { liveAsSpec, type BindingStore } from '../../core/deploy';
import { TEST_KEY, withEmulator } from '../core/deploy/support';
import { captureIo } from './support';

const SPEC = `# yaml-language-server: $schema=../schemas/endpoint-create.schema.json
name: cli-worker
type: QUEUE
image: myorg/worker:1.0
gpu:
  pools: [ADA_24, AMPERE_24]
  excludedTypes:
    - NVIDIA L4
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;

/** A throwaway repository with one spec in a subfolder. */
function workspace(spec = SPEC): { root: string; file: string; cleanup(): void } {
  const root = mkdtempSync(join(tmpdir(), 'es-deploy-cli-'));
  mkdirSync(join(root, '.git'));
  mkdirSync(join(root, 'specs'));
  const file = join(root, 'specs', 'worker.endpoint.yaml');
  writeFileSync(file, spec);
  return {
    root,
    file,
    cleanup: () => {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

const readBindingFile = (root: string): { deployments: BindingStore } =>
  JSON.parse(readFileSync(join(root, '.endpoint-studio', 'deployments.json'), 'utf8')) as { deployments: BindingStore };

/** One entry of `plan --format json`: the plan of a document, as far as these tests read it. */
interface PlanJsonEntry {
  kind: string;
  patch?: unknown;
}

describe('endpoint-studio plan, deploy, pull', () => {
  it('plans, refuses without --yes, deploys with it, then sees nothing to do', async () => {
    await withEmulator({}, async (emu, client) => {
      const ws = workspace();
      try {
        const plan = captureIo(emu);
        assert.equal(await runPlan([ws.file], plan), 0, plan.stderr);
        assert.match(plan.stdout, /^create a new endpoint "cli-worker" \(QUEUE on GPU\)/);

        const unconfirmed = captureIo(emu);
        assert.equal(await runDeploy([ws.file], unconfirmed), 3);
        assert.match(unconfirmed.stderr, /confirm with --yes/);
        assert.equal((await client().serverless.list()).length, 0, 'nothing was created');
        assert.ok(!existsSync(join(ws.root, '.endpoint-studio')));

        const deploy = captureIo(emu);
        assert.equal(await runDeploy([ws.file, '--yes'], deploy), 0, deploy.stderr);
        const [endpoint] = await client().serverless.list();
        assert.match(deploy.stdout, new RegExp(`created endpoint ${endpoint.id} "cli-worker"`));
        assert.match(deploy.stdout, /verified/);
        const bound = readBindingFile(ws.root).deployments['specs/worker.endpoint.yaml']['0'];
        assert.equal(bound.endpointId, endpoint.id);
        assert.equal(bound.endpointName, 'cli-worker');

        const again = captureIo(emu);
        assert.equal(await runDeploy([ws.file], again), 0, 'nothing to confirm when nothing changes');
        assert.match(again.stdout, /matches the spec: nothing to deploy/);
        for (const io of [plan, unconfirmed, deploy, again])
          assert.ok(!`${io.stdout}${io.stderr}`.includes(TEST_KEY), 'the key is never printed');
      } finally {
        ws.cleanup();
      }
    });
  });

  it('updates a bound endpoint with only the change, after asking', async () => {
    await withEmulator({}, async (emu, client) => {
      const ws = workspace();
      try {
        assert.equal(await runDeploy([ws.file, '--yes'], captureIo(emu)), 0);
        writeFileSync(ws.file, `${SPEC}workers:\n  max: 6\n`);
        const plan = captureIo(emu);
        assert.equal(await runPlan([ws.file], plan), 0);
        assert.match(plan.stdout, /1 change\n {2}~ workers\.max: 3 → 6\n/);

        const json = captureIo(emu);
        assert.equal(await runPlan(['--format', 'json', ws.file], json), 0);
        const [entry] = JSON.parse(json.stdout) as PlanJsonEntry[];
        assert.equal(entry.kind, 'update');
        assert.deepEqual(entry.patch, { workers: { min: 0, max: 6, idleTimeout: 10 } });

        const questions: string[] = [];
        const declined = captureIo(emu, {
          confirm: (q) => {
            questions.push(q);
            return Promise.resolve(false);
          },
        });
        assert.equal(await runDeploy([ws.file], declined), 3);
        assert.deepEqual(questions, ['Apply this plan?']);

        const accepted = captureIo(emu, { confirm: () => Promise.resolve(true) });
        assert.equal(await runDeploy([ws.file], accepted), 0, accepted.stderr);
        assert.match(accepted.stdout, /updated endpoint/);
        const [endpoint] = await client().serverless.list();
        assert.equal(endpoint.workers.max, 6);
        assert.equal((await client().serverless.list()).length, 1);
      } finally {
        ws.cleanup();
      }
    });
  });

  it('refuses an invalid spec with its problems and sends nothing', async () => {
    await withEmulator({}, async (emu, client) => {
      const ws = workspace(SPEC.replace('queueDelay: 4', 'queueDelay: 0.1'));
      try {
        const io = captureIo(emu);
        assert.equal(await runDeploy([ws.file, '--yes'], io), 1);
        assert.match(io.stderr, /worker\.endpoint\.yaml:11:15: error out-of-range/);
        assert.equal((await client().serverless.list()).length, 0);
      } finally {
        ws.cleanup();
      }
    });
  });

  it('puts a service problem on the spec line it names', async () => {
    await withEmulator({}, async (emu) => {
      const ws = workspace(SPEC.replace('NVIDIA L4', 'NVIDIA A40'));
      try {
        const io = captureIo(emu);
        assert.equal(await runDeploy([ws.file, '--yes'], io), 1);
        assert.match(io.stderr, /worker\.endpoint\.yaml:8:7: error api gpu\.excludedTypes\[0\]: /);
        assert.ok(!existsSync(join(ws.root, '.endpoint-studio', 'deployments.json')));
      } finally {
        ws.cleanup();
      }
    });
  });

  it('refuses a type change as a plan error', async () => {
    await withEmulator({}, async (emu) => {
      const ws = workspace();
      try {
        assert.equal(await runDeploy([ws.file, '--yes'], captureIo(emu)), 0);
        writeFileSync(
          ws.file,
          SPEC.replace('type: QUEUE', 'type: LOAD_BALANCER').replace(
            /scaling:\n.*\n.*\n/,
            'scaling:\n  type: REQUEST_COUNT\n  requestCount: 2\n',
          ),
        );
        const plan = captureIo(emu);
        assert.equal(await runPlan([ws.file], plan), 1);
        assert.match(plan.stdout, /! type: the type of an endpoint cannot change/);
        const deploy = captureIo(emu);
        assert.equal(await runDeploy([ws.file, '--yes'], deploy), 1);
        assert.match(deploy.stderr, /nothing was sent/);
      } finally {
        ws.cleanup();
      }
    });
  });

  it('creates anew when the bound endpoint was deleted elsewhere, and rebinds', async () => {
    await withEmulator({}, async (emu, client) => {
      const ws = workspace();
      try {
        assert.equal(await runDeploy([ws.file, '--yes'], captureIo(emu)), 0);
        const first = readBindingFile(ws.root).deployments['specs/worker.endpoint.yaml']['0'].endpointId;
        await client().serverless.delete(first);
        const plan = captureIo(emu);
        assert.equal(await runPlan([ws.file], plan), 0);
        assert.match(plan.stderr, new RegExp(`bound to endpoint ${first}, which no longer exists`));
        assert.match(plan.stdout, /^create a new endpoint/);
        assert.equal(await runDeploy([ws.file, '--yes'], captureIo(emu)), 0);
        const second = readBindingFile(ws.root).deployments['specs/worker.endpoint.yaml']['0'].endpointId;
        assert.notEqual(second, first);
        assert.deepEqual(
          (await client().serverless.list()).map((e) => e.id),
          [second],
        );
      } finally {
        ws.cleanup();
      }
    });
  });

  it('stops on a corrupt binding file instead of creating a duplicate', async () => {
    await withEmulator({}, async (emu) => {
      const ws = workspace();
      try {
        mkdirSync(join(ws.root, '.endpoint-studio'));
        writeFileSync(join(ws.root, '.endpoint-studio', 'deployments.json'), 'not json');
        const io = captureIo(emu);
        assert.equal(await runPlan([ws.file], io), 1);
        assert.match(io.stderr, /deployments\.json is not valid JSON/);
      } finally {
        ws.cleanup();
      }
    });
  });

  it('pulls a live endpoint as a spec in YAML or JSON', async () => {
    await withEmulator({}, async (emu, client) => {
      const ws = workspace();
      try {
        assert.equal(await runDeploy([ws.file, '--yes'], captureIo(emu)), 0);
        const [endpoint] = await client().serverless.list();
        const yaml = captureIo(emu);
        assert.equal(await runPull([endpoint.id], yaml), 0, yaml.stderr);
        assert.match(yaml.stdout, new RegExp(`^# endpoint ${endpoint.id}, read `));
        assert.deepEqual(YAML.parse(yaml.stdout), liveAsSpec(await client().serverless.get(endpoint.id)));
        const json = captureIo(emu);
        assert.equal(await runPull(['--format', 'json', endpoint.id], json), 0);
        assert.deepEqual(JSON.parse(json.stdout), liveAsSpec(endpoint));
        const missing = captureIo(emu);
        assert.equal(await runPull(['nosuchendpoint'], missing), 1);
        assert.match(missing.stderr, /404/);
      } finally {
        ws.cleanup();
      }
    });
  });

  it('exits 2 on usage errors and without a key', async () => {
    await withEmulator({}, async (emu) => {
      const ws = workspace();
      try {
        assert.equal(await runPlan([], captureIo(emu)), 2);
        assert.equal(await runPlan(['--bogus', ws.file], captureIo(emu)), 2);
        assert.equal(await runPlan(['--document', 'x', ws.file], captureIo(emu)), 2);
        assert.equal(await runPlan(['--document', '3', ws.file], captureIo(emu)), 2);
        assert.equal(await runPull(['--format', 'toml', 'abc'], captureIo(emu)), 2);
        assert.equal(await runPlan([join(ws.root, 'missing.endpoint.yaml')], captureIo(emu)), 2);
        const noKey = captureIo(emu, { env: { ENDPOINT_STUDIO_API_KEY: '' } });
        assert.equal(await runDeploy([ws.file, '--yes'], noKey), 2);
        assert.match(noKey.stderr, /no API key/);
        const help = captureIo(emu);
        assert.equal(await runDeploy(['--help'], help), 0);
        assert.match(help.stdout, /Exit status/);
      } finally {
        ws.cleanup();
      }
    });
  });

  it('binds each document of a multi-document file on its own', async () => {
    await withEmulator({}, async (emu, client) => {
      const ws = workspace(`${SPEC}---\n${SPEC.replace('cli-worker', 'cli-worker-b')}`);
      try {
        const io = captureIo(emu);
        assert.equal(await runDeploy([ws.file, '--yes'], io), 0, io.stderr);
        const bound = readBindingFile(ws.root).deployments['specs/worker.endpoint.yaml'];
        assert.deepEqual(Object.keys(bound), ['0', '1']);
        assert.deepEqual([bound['0'].endpointName, bound['1'].endpointName], ['cli-worker', 'cli-worker-b']);
        assert.equal((await client().serverless.list()).length, 2);
        const one = captureIo(emu);
        assert.equal(await runPlan(['--document', '1', ws.file], one), 0);
        assert.match(one.stdout, /\(document 1\): endpoint .* "cli-worker-b" matches the spec/);
      } finally {
        ws.cleanup();
      }
    });
  });
});
