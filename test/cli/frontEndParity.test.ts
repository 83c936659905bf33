/**
 * The CLI is a front-end of the operations layer: the same cases, run once through `endpoint-studio
 * plan`/`deploy` and once straight through `planDeploy`, `decideNamesakes` and `applyDeploy`, each on
 * its own emulator, find the same plan, the same notes and the same outcome. Endpoint ids differ
 * between emulators, so both sides name them by their place in the list (`#0`, `#1`, `#new`).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import YAML from 'yaml';
import type { ApiClient, CreateEndpointRequest } from '../../core/api';
import { getBinding, type BindingStore, type DeploymentPlan } from '../../core/deploy';
import {
  applyDeploy,
  decideNamesakes,
  needsApplying,
  planDeploy,
  readSpecBindings,
  saveBinding,
  type NamesakePolicy,
} from '../../core/operations';
import { runDeploy, runPlan, type DeployIo } from '../../cli/deploy';
import { TEST_KEY, withEmulator, type Emulator } from '../core/deploy/support';

const SPEC = {
  name: 'parity',
  type: 'QUEUE',
  image: 'myorg/parity:2',
  gpu: { pools: ['ADA_24'] },
  scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
};
const OLD = { ...SPEC, image: 'myorg/parity:1' } as unknown as CreateEndpointRequest;

interface Case {
  readonly title: string;
  /** Endpoints on the service before the deploy, all with the spec's name. */
  readonly namesakes: number;
  /** Bind the spec to the first of them first (and delete it, for `deleted`). */
  readonly bound?: 'live' | 'deleted';
  readonly policy: NamesakePolicy;
}

const CASES: readonly Case[] = [
  { title: 'a new name', namesakes: 0, policy: 'refuse' },
  { title: 'one namesake, no flag', namesakes: 1, policy: 'refuse' },
  { title: 'one namesake, adopted', namesakes: 1, policy: 'adopt' },
  { title: 'one namesake, another created', namesakes: 1, policy: 'create-new' },
  { title: 'two namesakes, adopt asked', namesakes: 2, policy: 'adopt' },
  { title: 'bound, with a change', namesakes: 1, bound: 'live', policy: 'refuse' },
  { title: 'bound to an endpoint deleted elsewhere', namesakes: 1, bound: 'deleted', policy: 'refuse' },
];

/** What both front-ends must agree on. */
interface Seen {
  readonly plan: { kind: string; notes: string[]; namesakes: string[]; patch?: unknown };
  readonly outcome: { done: boolean; endpoints: string[]; boundTo: string | undefined };
}

interface Setup {
  readonly api: ApiClient;
  readonly file: string;
  readonly root: string;
  /** Replaces endpoint ids with their place among those made before the deploy. */
  readonly name: (text: string) => string;
}

async function inCase(c: Case, run: (emu: Emulator, setup: Setup) => Promise<Seen>): Promise<Seen> {
  return withEmulator({}, async (emu, client) => {
    const root = mkdtempSync(join(tmpdir(), 'es-parity-'));
    try {
      mkdirSync(join(root, '.git'));
      const file = join(root, 'parity.endpoint.yaml');
      writeFileSync(file, YAML.stringify(SPEC));
      const api = client();
      const ids: string[] = [];
      for (let i = 0; i < c.namesakes; i++) ids.push((await api.serverless.create(OLD)).id);
      if (c.bound) {
        const read = readSpecBindings(file, root);
        assert.ok(read.ok);
        // As a deploy of OLD left it: the release recorded, so the plan is three-way and only the spec moved.
        saveBinding({ ...read.location, documentIndex: 0 }, { id: ids[0], name: 'parity' }, { body: { ...OLD } });
        if (c.bound === 'deleted') await api.serverless.delete(ids[0]);
      }
      const name = (text: string): string => ids.reduce((named, id, index) => named.split(id).join(`#${index}`), text);
      return await run(emu, { api, file, root, name });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
}

async function outcomeOf({ api, root, name }: Setup, done: boolean): Promise<Seen['outcome']> {
  const endpoints = (await api.serverless.list()).map((e) => `${name(e.id).startsWith('#') ? name(e.id) : '#new'} ${e.image}`);
  const path = join(root, '.endpoint-studio', 'deployments.json');
  const store = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as { deployments: BindingStore }).deployments : {};
  const bound = Object.hasOwn(store, 'parity.endpoint.yaml') ? getBinding(store, 'parity.endpoint.yaml', 0)?.endpointId : undefined;
  return {
    done,
    endpoints: endpoints.sort(),
    boundTo: bound === undefined ? undefined : name(bound).startsWith('#') ? name(bound) : '#new',
  };
}

function planOf(
  plan: DeploymentPlan | Record<string, unknown>,
  namesakes: readonly { id: string }[],
  name: (text: string) => string,
): Seen['plan'] {
  const { kind, notes, patch } = plan as { kind: string; notes: string[]; patch?: unknown };
  return { kind, notes: notes.map(name), namesakes: namesakes.map((e) => name(e.id)), ...(patch === undefined ? {} : { patch }) };
}

const FLAGS: Record<NamesakePolicy, string[]> = { refuse: [], adopt: ['--adopt'], 'create-new': ['--create-new'] };

function quietIo(emu: Emulator): DeployIo & { stdout: string } {
  const io = {
    stdout: '',
    out: (text: string) => {
      io.stdout += text;
    },
    err: () => undefined,
    env: { ENDPOINT_STUDIO_API_URL: emu.restUrl, ENDPOINT_STUDIO_API_KEY: TEST_KEY },
  };
  return io;
}

/** Through the command line: `plan --format json` (with --adopt when adopting), then `deploy --yes`. */
function throughCli(c: Case): Promise<Seen> {
  return inCase(c, async (emu, setup) => {
    const planIo = quietIo(emu);
    const planFlags = c.policy === 'adopt' ? ['--adopt'] : [];
    // An adoption that cannot be made (several namesakes) exits 1, with the plan as it stands.
    assert.equal(await runPlan(['--format', 'json', ...planFlags, setup.file], planIo), c.policy === 'adopt' && c.namesakes > 1 ? 1 : 0);
    const [entry] = JSON.parse(planIo.stdout) as (Record<string, unknown> & { namesakes?: { id: string }[] })[];
    const status = await runDeploy(['--yes', ...FLAGS[c.policy], setup.file], quietIo(emu));
    return { plan: planOf(entry, entry.namesakes ?? [], setup.name), outcome: await outcomeOf(setup, status === 0) };
  });
}

/** Straight through the operations, deciding as a front-end without a person to ask does. */
function throughOperations(c: Case): Promise<Seen> {
  return inCase(c, async (_emu, setup) => {
    const { api, file, root } = setup;
    const read = readSpecBindings(file, root);
    assert.ok(read.ok);
    let planned = await planDeploy({ client: api, spec: SPEC, binding: read.binding(0) });
    assert.ok(planned.ok);
    const decision = decideNamesakes(planned.namesakes, c.policy);
    if (decision.action === 'adopt') {
      planned = await planDeploy({ client: api, spec: SPEC, adopt: decision.endpointId });
      assert.ok(planned.ok);
    }
    const seenPlan = planOf(planned.plan, planned.namesakes, setup.name);
    if (decision.action === 'refuse') return { plan: seenPlan, outcome: await outcomeOf(setup, false) };
    let done = true;
    if (needsApplying(planned.plan, planned.target)) {
      const outcome = await applyDeploy({
        client: api,
        plan: planned.plan,
        target: planned.target,
        document: { ...read.location, documentIndex: 0 },
        ...(planned.listed ? { listed: planned.listed } : {}),
      });
      done = outcome.ok && outcome.applied.verified && outcome.binding?.saved !== false;
    }
    return { plan: seenPlan, outcome: await outcomeOf(setup, done) };
  });
}

describe('the CLI and the operations layer agree', () => {
  for (const c of CASES) {
    it(c.title, async () => {
      const cli = await throughCli(c);
      const operations = await throughOperations(c);
      assert.deepEqual(cli, operations);
    });
  }

  it('and the cases say what the issue asks', async () => {
    const [fresh, refused, adopted, another, ambiguous, bound, deleted] = await Promise.all(CASES.map(throughOperations));
    assert.deepEqual(fresh.outcome, { done: true, endpoints: ['#new myorg/parity:2'], boundTo: '#new' });
    assert.deepEqual(refused.plan.namesakes, ['#0']);
    assert.match(refused.plan.notes[0], /already exists \(#0\)/);
    assert.deepEqual(refused.outcome, { done: false, endpoints: ['#0 myorg/parity:1'], boundTo: undefined });
    assert.equal(adopted.plan.kind, 'update');
    assert.deepEqual(adopted.outcome, { done: true, endpoints: ['#0 myorg/parity:2'], boundTo: '#0' });
    assert.deepEqual(another.outcome, { done: true, endpoints: ['#0 myorg/parity:1', '#new myorg/parity:2'], boundTo: '#new' });
    assert.equal(ambiguous.outcome.done, false);
    assert.deepEqual(bound.plan, { kind: 'update', notes: [], namesakes: [], patch: { image: 'myorg/parity:2' } });
    assert.deepEqual(bound.outcome, { done: true, endpoints: ['#0 myorg/parity:2'], boundTo: '#0' });
    assert.equal(deleted.plan.kind, 'create');
    assert.deepEqual(deleted.outcome, { done: true, endpoints: ['#new myorg/parity:2'], boundTo: '#new' });
  });
});
