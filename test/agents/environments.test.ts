/**
 * The deploy tools with environments, as an MCP client drives them (`endpoint-studio mcp --allow-writes` over
 * stdio, the SDK's client) against two accounts behind one service URL: the environment input picks a base's
 * overlay, an overlay deploys on its environment's key, and a protected environment's token deploys only when
 * the call names that environment, never another.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { PlanTokenStore } from '../../agents';
import { endpointNames, PROD_KEY, STAGING_KEY, twoAccounts, type TwoAccounts } from '../support/twoAccounts';
import { structuredContentChecker } from './strictSchemas';

const CLI = resolve(__dirname, '../../dist/cli.js');

const BASE = `name: agent-sdxl
type: QUEUE
image: myorg/sdxl:1.0
gpu:
  pools: [ADA_24, AMPERE_24]
workers: { min: 0, max: 2 }
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;

interface Outcome {
  readonly isError: boolean;
  readonly text: string;
  readonly structured: Record<string, unknown>;
}

describe('plan_deploy and deploy_spec with environments', { timeout: 120_000 }, () => {
  let accounts: TwoAccounts;
  let root: string;
  const clients: Client[] = [];
  const transcript: string[] = [];

  async function server(env: Record<string, string>): Promise<(name: string, args: Record<string, unknown>) => Promise<Outcome>> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--allow-writes'],
      cwd: root,
      stderr: 'pipe',
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ENDPOINT_STUDIO_API_URL: accounts.url, ...env },
    });
    transport.stderr?.on('data', (chunk: Buffer) => transcript.push(chunk.toString()));
    const client = new Client({ name: 'endpoint-studio-test', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    const checkOutput = structuredContentChecker((await client.listTools()).tools);
    return async (name, args) => {
      const result = await client.callTool({ name, arguments: args });
      const content = (result.content as { text?: string }[]).map((c) => c.text ?? '');
      const details = result.isError === true && content.length > 1 ? content.pop() : undefined;
      const outcome = {
        isError: result.isError === true,
        text: content.join('\n'),
        structured: (details !== undefined ? JSON.parse(details) : (result.structuredContent ?? {})) as Record<string, unknown>,
      };
      transcript.push(outcome.text, JSON.stringify(outcome.structured));
      if (!outcome.isError) assert.equal(checkOutput(name, result.structuredContent), undefined);
      return outcome;
    };
  }

  const ok = (outcome: Outcome): Outcome => {
    assert.equal(outcome.isError, false, outcome.text);
    return outcome;
  };
  const keys = { ENDPOINT_STUDIO_API_KEY_STAGING: STAGING_KEY, ENDPOINT_STUDIO_API_KEY_PROD: PROD_KEY };

  before(async () => {
    accounts = await twoAccounts();
    root = mkdtempSync(join(tmpdir(), 'es-agent-environments-'));
    mkdirSync(join(root, '.git'));
    mkdirSync(join(root, '.endpoint-studio'));
    mkdirSync(join(root, 'specs'));
    writeFileSync(join(root, 'specs', 'sdxl.endpoint.yaml'), BASE);
    writeFileSync(join(root, 'specs', 'sdxl.staging.endpoint.yaml'), 'extends: ./sdxl.endpoint.yaml\nname: agent-sdxl-staging\n');
    writeFileSync(
      join(root, 'specs', 'sdxl.prod.endpoint.yaml'),
      'extends: ./sdxl.endpoint.yaml\nname: agent-sdxl-prod\ngpu:\n  pools: [AMPERE_48]\nworkers:\n  min: 1\n',
    );
    writeFileSync(join(root, '.endpoint-studio', 'environments.yaml'), 'environments:\n  prod:\n    protected: true\n');
  });

  after(async () => {
    for (const client of clients) await client.close();
    await accounts.close();
    rmSync(root, { recursive: true, force: true });
    const said = transcript.join('\n');
    assert.ok(!said.includes(STAGING_KEY) && !said.includes(PROD_KEY), 'a key reached a result or the log');
  });

  it('environment picks the base’s overlay, planned merged and deployed on that environment’s key', async () => {
    const call = await server({ ...keys, ENDPOINT_STUDIO_API_KEY: STAGING_KEY });
    const plan = ok(await call('plan_deploy', { path: 'specs/sdxl.endpoint.yaml', environment: 'staging' }));
    assert.equal(plan.structured.file, 'specs/sdxl.staging.endpoint.yaml');
    assert.deepEqual(plan.structured.environment, {
      name: 'staging',
      keyVariable: 'ENDPOINT_STUDIO_API_KEY_STAGING',
      protected: false,
      replacedArrays: [],
    });
    assert.match(plan.text, /^environment staging, endpoint a new endpoint\ncreate a new endpoint "agent-sdxl-staging"/);
    assert.match(String(plan.structured.planToken), /^plan_staging_/);
    const deployed = ok(await call('deploy_spec', { planToken: plan.structured.planToken }));
    assert.match(deployed.text, /^created endpoint \w+ "agent-sdxl-staging" in the staging environment/);
    assert.equal(deployed.structured.environment, 'staging');
    assert.deepEqual(await endpointNames(accounts.staging, STAGING_KEY), ['agent-sdxl-staging']);
    assert.deepEqual(await endpointNames(accounts.prod, PROD_KEY), []);

    // The overlay bound to the endpoint is compared as it deploys, merged: it matches.
    const endpoint = ok(await call('get_endpoint', { endpointId: deployed.structured.endpointId }));
    assert.match(endpoint.text, /bound spec specs\/sdxl\.staging\.endpoint\.yaml \(document 0\): matches/);
    // Checked and priced merged too: the overlay alone is no spec.
    const checked = ok(await call('validate_spec', { path: 'specs/sdxl.staging.endpoint.yaml' }));
    assert.equal(checked.structured.valid, true, checked.text);
    const cost = ok(await call('estimate_cost', { path: 'specs/sdxl.prod.endpoint.yaml' }));
    assert.deepEqual(
      (cost.structured.documents as { name: string; workersMin: number }[]).map((d) => [d.name, d.workersMin]),
      [['agent-sdxl-prod', 1]],
    );

    const other = await call('plan_deploy', { path: 'specs/sdxl.prod.endpoint.yaml', environment: 'staging' });
    assert.equal(other.isError, true);
    assert.match(other.text, /is the prod overlay, not staging's/);
  });

  it('a protected environment: the token names it, deploys only with environment set to it, never another', async () => {
    // The default key plans the base; each environment still goes out on its own.
    const call = await server({ ...keys, ENDPOINT_STUDIO_API_KEY: STAGING_KEY });
    const plan = async (): Promise<Outcome> => ok(await call('plan_deploy', { path: 'specs/sdxl.prod.endpoint.yaml' }));

    const first = await plan();
    assert.match(first.text, /^environment prod \(protected\), endpoint a new endpoint\n/);
    assert.match(first.text, /replaced whole by the prod overlay \(not merged with the base\): gpu\.pools/);
    assert.match(first.text, /prod is a protected environment: deploy only after the user confirmed deploying to prod/);
    assert.match(String(first.structured.planToken), /^plan_prod_/);
    const unnamed = await call('deploy_spec', { planToken: first.structured.planToken });
    assert.equal(unnamed.isError, true);
    assert.match(unnamed.text, /prod is a protected environment: deploy_spec needs environment "prod"/);
    // The refused token is spent: a protected deploy always starts from a fresh plan.
    const reused = await call('deploy_spec', { planToken: first.structured.planToken, environment: 'prod' });
    assert.match(reused.text, /already used/);

    const second = await plan();
    const elsewhere = await call('deploy_spec', { planToken: second.structured.planToken, environment: 'staging' });
    assert.equal(elsewhere.isError, true);
    assert.match(elsewhere.text, /this plan was made for the prod environment, not staging; nothing was sent/);
    assert.deepEqual(await endpointNames(accounts.prod, PROD_KEY), []);

    const third = await plan();
    const deployed = ok(await call('deploy_spec', { planToken: third.structured.planToken, environment: 'prod' }));
    assert.match(deployed.text, /"agent-sdxl-prod" in the prod environment/);
    assert.match(deployed.text, /verified/);
    assert.deepEqual(await endpointNames(accounts.prod, PROD_KEY), ['agent-sdxl-prod']);
    assert.deepEqual(await endpointNames(accounts.staging, STAGING_KEY), ['agent-sdxl-staging']);

    const baseToken = ok(await call('plan_deploy', { path: 'specs/sdxl.endpoint.yaml' })).structured.planToken;
    const asEnvironment = await call('deploy_spec', { planToken: baseToken, environment: 'prod' });
    assert.match(asEnvironment.text, /this plan deploys a base spec, not the prod environment/);
  });

  it('refuses a plan for a protected environment whose image is not pinned; another environment gets a token', async () => {
    const call = await server({ ...keys, ENDPOINT_STUDIO_API_KEY: STAGING_KEY });
    const prod = join(root, 'specs', 'sdxl.prod.endpoint.yaml');
    const overlay = readFileSync(prod, 'utf8');
    writeFileSync(prod, `${overlay}image: myorg/sdxl\n`);
    writeFileSync(
      join(root, 'specs', 'sdxl.staging.endpoint.yaml'),
      'extends: ./sdxl.endpoint.yaml\nname: agent-sdxl-staging\nimage: myorg/sdxl\n',
    );
    try {
      const refused = await call('plan_deploy', { path: 'specs/sdxl.endpoint.yaml', environment: 'prod' });
      assert.equal(refused.isError, true);
      assert.match(refused.text, /prod is a protected environment, which deploys only a pinned image: image myorg\/sdxl has no tag/);
      assert.equal(refused.structured.planToken, undefined);
      const staging = ok(await call('plan_deploy', { path: 'specs/sdxl.endpoint.yaml', environment: 'staging' }));
      assert.match(staging.text, /image myorg\/sdxl has no tag \(so it means latest\)/);
      assert.match(String(staging.structured.planToken), /^plan_/);
    } finally {
      writeFileSync(prod, overlay);
      writeFileSync(join(root, 'specs', 'sdxl.staging.endpoint.yaml'), 'extends: ./sdxl.endpoint.yaml\nname: agent-sdxl-staging\n');
    }
  });

  it('an environment without its key variable is a tool error naming the variable', async () => {
    const call = await server({ ENDPOINT_STUDIO_API_KEY: STAGING_KEY });
    const refused = await call('plan_deploy', { path: 'specs/sdxl.endpoint.yaml', environment: 'prod' });
    assert.equal(refused.isError, true);
    assert.match(refused.text, /no API key for the prod environment: the server needs ENDPOINT_STUDIO_API_KEY_PROD/);
  });

  it('a protected environment’s token is good for 5 minutes, another’s for 15', () => {
    let now = 0;
    const store = new PlanTokenStore(() => now);
    const record = { specPath: '/w/a.prod.endpoint.yaml', document: 0, specHash: 'a', liveHash: 'b', planHash: 'c', planText: '' };
    const prod = store.issue({ ...record, environment: 'prod', protected: true });
    const staging = store.issue({ ...record, environment: 'staging', protected: false });
    now = 6 * 60 * 1000;
    assert.deepEqual(store.redeem(prod.token), { ok: false, reason: 'the plan token has expired; run plan_deploy again' });
    assert.equal(store.redeem(staging.token).ok, true);
  });
});
