/**
 * `endpoint-studio mcp` as an MCP client sees it: dist/cli.js spawned over stdio, driven with the
 * SDK's own client against the emulator. Every tool is called with an assertion on its structured
 * result, which must be valid under the output schema the tool lists; bad input, unknown endpoints and
 * the service's problems come back as tool errors; writes are refused without --allow-writes; a plan
 * token is refused once the live endpoint or the spec file changed; an agent's plan → deploy ends
 * verified; and the key is in nothing that comes back.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import Ajv2020 from 'ajv/dist/2020';
import { parse } from 'yaml';
import { createApiClient, type ApiClient } from '../../core/api';
import { liveAsSpec } from '../../core/deploy/effective';
import { startEmulator } from '../../emulator';
import { eventually, TEST_KEY } from '../core/api/support';
import { structuredContentChecker } from './strictSchemas';

const CLI = resolve(__dirname, '../../dist/cli.js');
// Not execFileSync: the emulator runs in this process and must keep answering.
const run = promisify(execFile);
const TOOL_NAMES = [
  'validate_spec',
  'estimate_cost',
  'search_catalog',
  'plan_deploy',
  'deploy_spec',
  'watch_rollout',
  'plan_rollback',
  'rollback_endpoint',
  'plan_promotion',
  'list_endpoints',
  'get_endpoint',
  'read_worker_logs',
  'run_job',
  'get_job',
  'billing_summary',
];

const SPEC = `name: agent-worker
type: QUEUE
image: myorg/agent-worker:1.0
gpu:
  pools: [ADA_24, AMPERE_24]
workers: { min: 1, max: 2, idleTimeout: 600 }
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;

interface CallOutcome {
  readonly isError: boolean;
  readonly text: string;
  readonly structured: Record<string, unknown>;
}

interface Server {
  call(name: string, args: Record<string, unknown>): Promise<CallOutcome>;
  readonly client: Client;
  close(): Promise<void>;
}

/** Everything any server said, searched for the key at the end. */
const transcript: string[] = [];
type Emulator = Awaited<ReturnType<typeof startEmulator>>;
let emulator: Emulator;
let api: ApiClient;
let root: string;
let specFile: string;
const servers: Server[] = [];

async function startServer(args: string[] = [], env: Record<string, string> = {}): Promise<Server> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...args],
    cwd: root,
    stderr: 'pipe',
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      ENDPOINT_STUDIO_API_URL: emulator.restUrl,
      ENDPOINT_STUDIO_JOBS_URL: emulator.jobsUrl,
      ENDPOINT_STUDIO_API_KEY: TEST_KEY,
      ...env,
    },
  });
  transport.stderr?.on('data', (chunk: Buffer) => transcript.push(chunk.toString()));
  const client = new Client({ name: 'endpoint-studio-test', version: '1.0.0' });
  await client.connect(transport);
  const checkOutput = structuredContentChecker((await client.listTools()).tools);
  const server: Server = {
    client,
    async call(name, callArgs) {
      const result = await client.callTool({ name, arguments: callArgs });
      const content = (result.content as { type: string; text?: string }[]).map((c) => c.text ?? '');
      // An error carries its details as a JSON block after its message.
      const details = result.isError === true && content.length > 1 ? content.pop() : undefined;
      const text = content.join('\n');
      const structured = (details !== undefined ? JSON.parse(details) : (result.structuredContent ?? {})) as Record<string, unknown>;
      transcript.push(text, JSON.stringify(structured));
      // What a client checks too: the structured content is valid under the output schema listed.
      if (result.isError !== true) assert.equal(checkOutput(name, result.structuredContent), undefined);
      return { isError: result.isError === true, text, structured };
    },
    close: () => client.close(),
  };
  servers.push(server);
  return server;
}

const expectOk = (outcome: CallOutcome): CallOutcome => {
  assert.equal(outcome.isError, false, outcome.text);
  return outcome;
};

describe('endpoint-studio mcp over stdio', { timeout: 240_000 }, () => {
  let reader: Server;
  let writer: Server;

  before(async () => {
    emulator = await startEmulator({ port: 0, jobsPort: 0, timeScale: 50, seed: 5, apiKey: TEST_KEY });
    api = createApiClient({ apiUrl: emulator.restUrl, jobsUrl: emulator.jobsUrl, apiKey: TEST_KEY });
    root = mkdtempSync(join(tmpdir(), 'es-mcp-'));
    mkdirSync(join(root, '.git'));
    mkdirSync(join(root, 'specs'));
    specFile = join(root, 'specs', 'agent.endpoint.yaml');
    writeFileSync(specFile, SPEC);
    reader = await startServer();
    writer = await startServer(['--allow-writes']);
  });

  after(async () => {
    for (const server of servers) await server.close();
    await emulator.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('lists exactly the agent tools, with input and output schemas, and the two resources; the schema resolves on its own', async () => {
    const { tools } = await reader.client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      TOOL_NAMES,
    );
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, 'object', tool.name);
      assert.equal(tool.outputSchema?.type, 'object', tool.name);
      assert.ok((tool.description ?? '').length > 40, tool.name);
    }
    assert.equal(tools.find((t) => t.name === 'deploy_spec')?.annotations?.readOnlyHint, false);
    const { resources } = await reader.client.listResources();
    assert.deepEqual(resources.map((r) => r.uri).sort(), ['endpoint-studio://docs/rules', 'endpoint-studio://schemas/endpoint-create']);
    const schema = await reader.client.readResource({ uri: 'endpoint-studio://schemas/endpoint-create' });
    const schemaText = (schema.contents[0] as { text: string }).text;
    assert.ok((JSON.parse(schemaText) as { properties: Record<string, unknown> }).properties.workers);
    const refs = [...schemaText.matchAll(/"\$ref": "([^"]*)"/g)].map(([, ref]) => ref);
    assert.ok(refs.length > 0 && refs.every((ref) => ref.startsWith('#/$defs/')), refs.join(', '));
    // A library given this one document and nothing else resolves every reference. strict: false
    // because the x- vendor keywords are for hovers and messages, which validators ignore.
    const validate = new Ajv2020({ strict: false, allErrors: true }).compile(JSON.parse(schemaText) as object);
    assert.equal(validate(parse(SPEC)), true, JSON.stringify(validate.errors));
    assert.equal(validate(parse(`${SPEC.replace('pools: [ADA_24, AMPERE_24]', 'pools: []')}flashbot: true\n`)), false);
    assert.deepEqual(
      validate.errors?.map((e) => `${e.instancePath} ${e.keyword}`),
      ['/gpu/pools minItems', ' unevaluatedProperties'],
    );
    const rules = await reader.client.readResource({ uri: 'endpoint-studio://docs/rules' });
    assert.match((rules.contents[0] as { text: string }).text, /\| `idle-timeout-not-applicable` \| error \|/);
  });

  it('validate_spec: problems on 1-based lines and columns, from text or a file; bad input is a tool error', async () => {
    const requestCount = SPEC.replace('type: QUEUE_DELAY\n  queueDelay: 4', 'type: REQUEST_COUNT\n  requestCount: 4');
    const broken = expectOk(await reader.call('validate_spec', { text: requestCount, format: 'yaml' }));
    assert.equal(broken.structured.valid, false);
    const problems = broken.structured.problems as { line: number; column: number; code: string; path: string; severity: string }[];
    const idle = problems.find((p) => p.code === 'idle-timeout-not-applicable');
    assert.ok(idle, broken.text);
    assert.deepEqual([idle.line, idle.column, idle.severity, idle.path], [6, 28, 'error', 'workers.idleTimeout']);
    assert.match(broken.text, /<text>:6:28: error idle-timeout-not-applicable/);
    assert.equal(broken.structured.catalog, 'live');

    const fine = expectOk(await reader.call('validate_spec', { path: 'specs/agent.endpoint.yaml' }));
    assert.equal(fine.structured.valid, true, fine.text);
    assert.deepEqual(fine.structured.problems, []);

    const neither = await reader.call('validate_spec', {});
    assert.equal(neither.isError, true);
    assert.equal(neither.text, 'a spec is needed: give its text (with format) or the path of its file');
    const both = await reader.call('validate_spec', { text: SPEC, path: 'specs/agent.endpoint.yaml' });
    assert.equal(both.isError, true);
    assert.equal(both.text, 'give either text (with format) or path, not both');
    const wrongType = await reader.call('validate_spec', { text: 42 });
    assert.equal(wrongType.isError, true);
    const notSpec = await reader.call('validate_spec', { path: 'package.json' });
    assert.equal(notSpec.isError, true);
    assert.match(notSpec.text, /not a spec file/);
  });

  it('validate_spec reads a spec whatever the case of its suffix, as the editor and the CLI do', async () => {
    mkdirSync(join(root, 'cased'));
    writeFileSync(join(root, 'cased', 'upper.endpoint.YAML'), SPEC);
    writeFileSync(join(root, 'cased', 'upper.endpoint.JSON'), JSON.stringify(parse(SPEC)));
    for (const path of ['cased/upper.endpoint.YAML', 'cased/upper.endpoint.JSON']) {
      const checked = expectOk(await reader.call('validate_spec', { path }));
      assert.equal(checked.structured.valid, true, checked.text);
      assert.deepEqual(checked.structured.problems, [], path);
    }
  });

  it('estimate_cost: always-on and at-max cost per hour and per month from catalog prices', async () => {
    const cost = expectOk(await reader.call('estimate_cost', { text: SPEC }));
    const [doc] = cost.structured.documents as {
      priced: boolean;
      workersMin: number;
      alwaysOn: { perHour: { low: number; high: number }; perMonth: { low: number; high: number } };
      atMax: { perHour: { low: number; high: number } };
    }[];
    assert.equal(doc.priced, true);
    assert.equal(doc.workersMin, 1);
    assert.ok(doc.alwaysOn.perHour.low > 0);
    assert.ok(doc.alwaysOn.perHour.high >= doc.alwaysOn.perHour.low);
    assert.ok(Math.abs(doc.alwaysOn.perMonth.low - doc.alwaysOn.perHour.low * 730) < 0.01);
    assert.ok(Math.abs(doc.atMax.perHour.low - doc.alwaysOn.perHour.low * 2) < 0.001);
    assert.match(cost.text, /always-on \$[\d.]+.*\/h/);
  });

  it('search_catalog: pools with VRAM, stock and price; CPU flavors; data centers; CUDA versions', async () => {
    const found = expectOk(await reader.call('search_catalog', { query: 'ada_24' }));
    const pools = found.structured.pools as { id: string; vramGb: number; stock: string; pricePerGpuHour?: { low: number } }[];
    assert.deepEqual(
      pools.map((p) => p.id),
      ['ADA_24'],
    );
    assert.equal(pools[0].vramGb, 24);
    assert.match(pools[0].stock, /^(NONE|LOW|MEDIUM|HIGH)$/);
    assert.ok((pools[0].pricePerGpuHour?.low ?? 0) > 0);
    const all = expectOk(await reader.call('search_catalog', { query: '' }));
    const flavors = all.structured.cpuFlavors as { id: string; vcpu: { min: number; max: number }; ramGbPerVcpu: number }[];
    assert.ok(flavors.length > 0 && flavors.every((f) => f.vcpu.max >= f.vcpu.min && f.ramGbPerVcpu > 0));
    assert.ok((all.structured.dataCenters as unknown[]).length > 0);
    assert.ok((all.structured.cudaVersions as string[]).includes('12.4'));
  });

  it('writes are refused without --allow-writes, saying how to allow them', async () => {
    const plan = expectOk(await reader.call('plan_deploy', { path: 'specs/agent.endpoint.yaml' }));
    const refused = await reader.call('deploy_spec', { planToken: plan.structured.planToken });
    assert.equal(refused.isError, true);
    assert.match(refused.text, /--allow-writes/);
    const job = await reader.call('run_job', { endpointId: 'anything', input: {} });
    assert.equal(job.isError, true);
    assert.match(job.text, /--allow-writes/);
    assert.equal((await api.serverless.list()).length, 0, 'nothing was created');
  });

  it('plan → deploy ends verified and bound; a used or stale token, a changed spec file and unknown tokens are refused', async () => {
    const plan = expectOk(await writer.call('plan_deploy', { path: 'specs/agent.endpoint.yaml' }));
    assert.equal(plan.structured.kind, 'create');
    assert.equal(plan.structured.deployable, true);
    assert.match(String(plan.structured.plan), /create a new endpoint "agent-worker"/);
    assert.match(String(plan.structured.cost), /always-on cost/);
    const deployed = expectOk(await writer.call('deploy_spec', { planToken: plan.structured.planToken }));
    assert.equal(deployed.structured.action, 'created');
    assert.equal(deployed.structured.verified, true, deployed.text);
    assert.equal(deployed.structured.bound, true);
    const endpointId = String(deployed.structured.endpointId);
    const live = await api.serverless.get(endpointId);
    assert.equal(live.name, 'agent-worker');
    assert.deepEqual(live.workers, { min: 1, max: 2, idleTimeout: 600 });
    const bindings = JSON.parse(readFileSync(join(root, '.endpoint-studio', 'deployments.json'), 'utf8')) as {
      deployments: Record<string, Record<string, { endpointId: string }>>;
    };
    assert.equal(bindings.deployments['specs/agent.endpoint.yaml']['0'].endpointId, endpointId);

    const reused = await writer.call('deploy_spec', { planToken: plan.structured.planToken });
    assert.equal(reused.isError, true, 'a token is used once');
    assert.match(reused.text, /^the plan token was already used .*; run plan_deploy again$/);

    writeFileSync(specFile, SPEC.replace('max: 2', 'max: 3'));
    const update = expectOk(await writer.call('plan_deploy', { path: 'specs/agent.endpoint.yaml' }));
    assert.equal(update.structured.kind, 'update');
    assert.deepEqual(update.structured.changes, [{ path: 'workers.max', before: 2, after: 3 }]);
    await api.serverless.update(endpointId, { workers: { min: 1, max: 2, idleTimeout: 300 } });
    const stale = await writer.call('deploy_spec', { planToken: update.structured.planToken });
    assert.equal(stale.isError, true);
    assert.match(stale.text, /the live endpoint changed since the plan was made; nothing was sent/);
    assert.equal((await api.serverless.get(endpointId)).workers.max, 2, 'the stale plan was not applied');

    const again = expectOk(await writer.call('plan_deploy', { path: 'specs/agent.endpoint.yaml' }));
    writeFileSync(specFile, SPEC.replace('max: 2', 'max: 4'));
    const edited = await writer.call('deploy_spec', { planToken: again.structured.planToken });
    assert.equal(edited.isError, true);
    assert.match(edited.text, /the spec file changed since the plan was made/);

    const fresh = expectOk(await writer.call('plan_deploy', { path: 'specs/agent.endpoint.yaml' }));
    // The idle timeout set outside above is the spec's again only when the choice is stated.
    assert.match(fresh.text, /workers\.idleTimeout: 600 → 300; deploying sets it back to 600/);
    const unstated = await writer.call('deploy_spec', { planToken: fresh.structured.planToken });
    assert.match(unstated.text, /overwrites changes made outside since the last deploy \(workers\.idleTimeout\); nothing was sent/);
    const updated = expectOk(await writer.call('deploy_spec', { planToken: fresh.structured.planToken, outsideChanges: 'overwrite' }));
    assert.equal(updated.structured.action, 'updated');
    assert.equal(updated.structured.verified, true);
    assert.deepEqual((await api.serverless.get(endpointId)).workers, { min: 1, max: 4, idleTimeout: 600 });

    const forged = await writer.call('deploy_spec', { planToken: 'plan_made_up' });
    assert.equal(forged.isError, true);
    assert.match(forged.text, /unknown plan token/);
  });

  it('list_endpoints and get_endpoint, with drift against the bound spec; an unknown endpoint is a 404 tool error', async () => {
    const listed = expectOk(await reader.call('list_endpoints', {}));
    const [summary] = listed.structured.endpoints as { id: string; name: string }[];
    assert.equal(listed.structured.count, 1);
    assert.equal(summary.name, 'agent-worker');
    writeFileSync(specFile, SPEC.replace('max: 2', 'max: 5'));
    const one = expectOk(await reader.call('get_endpoint', { endpointId: summary.id }));
    assert.equal((one.structured.endpoint as { id: string }).id, summary.id);
    assert.deepEqual(one.structured.boundSpecs, [
      { file: 'specs/agent.endpoint.yaml', document: 0, matches: false, drift: [{ path: 'workers.max', before: 4, after: 5 }] },
    ]);
    const missing = await reader.call('get_endpoint', { endpointId: 'no-such-endpoint' });
    assert.equal(missing.isError, true);
    assert.match(missing.text, /cannot read endpoint no-such-endpoint: not found/);
    assert.equal((missing.structured.error as { status: number }).status, 404);
    assert.ok(!missing.text.includes('    at '), 'no stack trace');
  });

  it('a spec the service rejects: the problem is mapped to its line in the spec', async () => {
    const rejected = join(root, 'specs', 'rejected.endpoint.yaml');
    writeFileSync(rejected, SPEC.replace('agent-worker', 'rejected-worker').replace('[ADA_24, AMPERE_24]', '[ADA_24, NO_SUCH_POOL]'));
    const plan = expectOk(await writer.call('plan_deploy', { path: rejected }));
    const failed = await writer.call('deploy_spec', { planToken: plan.structured.planToken });
    assert.equal(failed.isError, true, failed.text);
    const problems = (failed.structured.error as { problems: { line: number; path: string }[] }).problems;
    const pool = problems.find((p) => p.path.startsWith('gpu.pools'));
    assert.ok(pool, failed.text);
    assert.equal(pool.line, 5);
    assert.match(failed.text, /rejected\.endpoint\.yaml:5:\d+: error service-rejected/);
  });

  it('run_job, get_job, read_worker_logs and billing_summary on the deployed endpoint', async () => {
    const [endpoint] = await api.serverless.list();
    await eventually(
      async () => ((await api.serverless.workers(endpoint.id)).workers.some((w) => w.status === 'IDLE') ? true : undefined),
      30_000,
    );
    const sync = expectOk(await writer.call('run_job', { endpointId: endpoint.id, input: { output: { answer: 42 } }, sync: true }));
    assert.equal(sync.structured.status, 'COMPLETED', sync.text);
    assert.deepEqual(sync.structured.output, { answer: 42 });
    const queued = expectOk(await writer.call('run_job', { endpointId: endpoint.id, input: { output: 'later' } }));
    const jobId = String(queued.structured.jobId);
    assert.ok(jobId.length > 0);
    const done = await eventually(async () => {
      const read = expectOk(await reader.call('get_job', { endpointId: endpoint.id, jobId }));
      return read.structured.status === 'COMPLETED' ? read : undefined;
    }, 30_000);
    assert.equal(done.structured.output, 'later');
    const unknownJob = await reader.call('get_job', { endpointId: endpoint.id, jobId: 'no-such-job' });
    assert.equal(unknownJob.isError, true);

    const logs = expectOk(await reader.call('read_worker_logs', { endpointId: endpoint.id, lines: 3 }));
    const lines = logs.structured.lines as { workerId: string; line: string }[];
    assert.ok(lines.length > 0 && lines.length <= 3, logs.text);
    assert.ok((logs.structured.workers as string[]).includes(lines[0].workerId));
    const tooMany = await reader.call('read_worker_logs', { endpointId: endpoint.id, lines: 100_000 });
    assert.equal(tooMany.isError, true);

    const billing = expectOk(await reader.call('billing_summary', { kind: 'serverless', bucketSize: 'hour' }));
    assert.equal((billing.structured.window as { bucketSize: string }).bucketSize, 'hour');
    assert.ok(Array.isArray(billing.structured.rows));
    const badWindow = await reader.call('billing_summary', { kind: 'pods', endpointId: endpoint.id });
    assert.equal(badWindow.isError, true);
    assert.match(badWindow.text, /no endpointId filter/);
  });

  it('namesakes "adopt" on an endpoint that already matches: the plan says its token only binds the spec, and it does', async () => {
    const twin = SPEC.replace('agent-worker', 'twin-worker');
    writeFileSync(join(root, 'specs', 'twin.endpoint.yaml'), twin);
    const existing = await api.serverless.create(parse(twin) as never);
    const blocked = expectOk(await writer.call('plan_deploy', { path: 'specs/twin.endpoint.yaml' }));
    assert.equal(blocked.structured.deployable, false);
    assert.match(String(blocked.structured.notDeployable), /namesakes "adopt"/);

    const adopt = expectOk(await writer.call('plan_deploy', { path: 'specs/twin.endpoint.yaml', namesakes: 'adopt' }));
    assert.equal(adopt.structured.kind, 'unchanged');
    assert.equal(adopt.structured.adopts, existing.id);
    assert.equal(adopt.structured.deployable, true);
    const says = `adopt: deploying binds the spec to endpoint ${existing.id} (in .endpoint-studio/deployments.json) and changes nothing on the endpoint`;
    assert.ok(String(adopt.structured.plan).includes(says), String(adopt.structured.plan));
    assert.ok(adopt.text.includes(says));

    const bound = expectOk(await writer.call('deploy_spec', { planToken: adopt.structured.planToken }));
    assert.equal(bound.structured.action, 'unchanged');
    assert.equal(bound.structured.bound, true);
    assert.equal(bound.structured.verified, true, bound.text);
    assert.match(bound.text, new RegExp(`^bound the spec to endpoint ${existing.id}$`, 'm'));
    const bindings = JSON.parse(readFileSync(join(root, '.endpoint-studio', 'deployments.json'), 'utf8')) as {
      deployments: Record<string, Record<string, { endpointId: string }>>;
    };
    assert.equal(bindings.deployments['specs/twin.endpoint.yaml']['0'].endpointId, existing.id);
    assert.deepEqual(liveAsSpec(await api.serverless.get(existing.id)), liveAsSpec(existing), 'the endpoint was not changed');

    const after = expectOk(await writer.call('plan_deploy', { path: 'specs/twin.endpoint.yaml' }));
    assert.equal(after.structured.kind, 'unchanged');
    assert.equal(after.structured.deployable, false);
    assert.equal(after.structured.notDeployable, 'the endpoint already matches the spec: nothing to deploy');
  });

  it('with ENDPOINT_STUDIO_CATALOG_FILE and no key, search_catalog, estimate_cost and validate_spec answer from the snapshot', async () => {
    const snapshot = join(root, 'catalog.snapshot.json');
    await run(process.execPath, [CLI, 'catalog', 'export', '--output', snapshot], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        ENDPOINT_STUDIO_API_URL: emulator.restUrl,
        ENDPOINT_STUDIO_API_KEY: TEST_KEY,
      },
    });
    // No key, and a service that is not there: whatever answers comes from the file.
    const offline = await startServer([], {
      ENDPOINT_STUDIO_API_KEY: '',
      ENDPOINT_STUDIO_API_URL: 'http://127.0.0.1:9',
      ENDPOINT_STUDIO_CATALOG_FILE: snapshot,
    });
    const listed = await offline.call('list_endpoints', {});
    assert.match(listed.text, /no API key/, 'the snapshot serves the catalog tools only');

    type Pool = { id: string; vramGb: number; pricePerGpuHour?: unknown; gpuTypes: string[] };
    const pools = (outcome: CallOutcome) =>
      (outcome.structured.pools as Pool[]).map(({ id, vramGb, pricePerGpuHour, gpuTypes }) => ({ id, vramGb, pricePerGpuHour, gpuTypes }));
    const found = expectOk(await offline.call('search_catalog', { query: 'ada_24' }));
    assert.deepEqual(pools(found), pools(expectOk(await reader.call('search_catalog', { query: 'ada_24' }))));
    assert.equal(pools(found).length, 1);
    assert.equal(found.structured.catalog, 'snapshot');
    assert.equal((found.structured.snapshot as { file: string }).file, snapshot);
    assert.match(found.text, new RegExp(`^catalog: snapshot ${snapshot}, fetched .* \\(just now\\)$`, 'm'));
    const all = expectOk(await offline.call('search_catalog', { query: '' }));
    assert.ok((all.structured.cpuFlavors as unknown[]).length > 0 && (all.structured.dataCenters as unknown[]).length > 0);

    const cost = expectOk(await offline.call('estimate_cost', { text: SPEC }));
    const live = expectOk(await reader.call('estimate_cost', { text: SPEC }));
    assert.equal(cost.structured.catalog, 'snapshot');
    assert.equal(live.structured.catalog, 'live');
    assert.deepEqual(cost.structured.documents, live.structured.documents);
    assert.equal((cost.structured.documents as { priced: boolean }[])[0].priced, true, cost.text);

    const unknownPool = expectOk(await offline.call('validate_spec', { text: SPEC.replace('AMPERE_24', 'NO_SUCH_POOL') }));
    assert.equal(unknownPool.structured.catalog, 'snapshot');
    assert.ok(
      (unknownPool.structured.problems as { code: string }[]).some((p) => p.code === 'pool-unknown'),
      unknownPool.text,
    );
    assert.match(unknownPool.text, /checked against the catalog: snapshot /);

    // Read at each call: a file that cannot be used is a refusal naming it, never a quiet fall back.
    writeFileSync(snapshot, '{ "gpuTypes": [');
    const broken = await offline.call('search_catalog', { query: '' });
    assert.equal(broken.isError, true);
    assert.ok(broken.text.startsWith(`cannot read catalog ${snapshot}: `), broken.text);
  });

  it('without a key, service tools say how to give one; the key is in no result and no stderr', async () => {
    const keyless = await startServer([], { ENDPOINT_STUDIO_API_KEY: '' });
    const listed = await keyless.call('list_endpoints', {});
    assert.equal(listed.isError, true);
    assert.match(listed.text, /ENDPOINT_STUDIO_API_KEY/);
    const offline = expectOk(await keyless.call('validate_spec', { text: SPEC }));
    assert.equal(offline.structured.catalog, 'none');
    assert.ok(transcript.length > 40, 'the sweep saw the conversation');
    for (const entry of transcript) assert.ok(!entry.includes(TEST_KEY), `the key leaked: ${entry.slice(0, 200)}`);
  });
});
