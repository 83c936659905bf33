/**
 * The agent tools after a deploy, run as every front-end runs them (`runTool`) against the emulator over
 * HTTP: watch_rollout reads a rollout once, follows one to done within its wait (with the release's time to
 * ready), and names the workers of a crash-looping release; plan_rollback plans going back to a release with a
 * token, rollback_endpoint applies exactly that plan once, refuses it when the endpoint moved on, and neither
 * takes the other's tokens.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { agentTool, PlanTokenStore, runTool, type AgentContext, type ToolResult } from '../../agents';
import type { ApiClient, Endpoint } from '../../core/api';
import { readRollout } from '../../core/operations';
import { eventually, gpuEndpoint, TEST_KEY, withEmulator } from '../core/api/support';
import { structuredContentChecker } from './strictSchemas';

function contextOf(client: ApiClient, extra: Partial<AgentContext> = {}): AgentContext {
  return {
    client,
    noClientReason: 'no key here',
    writesAllowed: false,
    enableWrites: 'say --allow-writes',
    workspaceRoot: __dirname,
    plans: new PlanTokenStore(),
    ...extra,
  };
}

async function call(name: string, args: Record<string, unknown>, context: AgentContext): Promise<ToolResult> {
  const tool = agentTool(name);
  assert.ok(tool, name);
  const result = await runTool(tool, args, context);
  assert.ok(!result.text.includes(TEST_KEY) && !JSON.stringify(result.structured).includes(TEST_KEY));
  // The output schema as the MCP server lists it (the SDK converts it with these options).
  const outputSchema = z.toJSONSchema(tool.output, { target: 'draft-7', io: 'output' });
  if (result.isError !== true) assert.equal(structuredContentChecker([{ name, outputSchema }])(name, result.structured), undefined);
  return result;
}

async function readyEndpoint(client: ApiClient): Promise<Endpoint> {
  const endpoint = await client.serverless.create(gpuEndpoint({ workers: { min: 1, max: 1, idleTimeout: 600 } }));
  await eventually(async () => ((await readRollout(client, endpoint.id)).done ? true : undefined));
  return endpoint;
}

describe('watch_rollout', { timeout: 120_000 }, () => {
  it('reads a rollout once, follows an image change to done, and names a crash loop', async () => {
    await withEmulator({}, async (_emu, api) => {
      const client = api();
      const context = contextOf(client);
      const endpoint = await readyEndpoint(client);

      const once = await call('watch_rollout', { endpointId: endpoint.id, waitSeconds: 0 }, context);
      assert.equal(once.isError, undefined, once.text);
      assert.equal(once.structured.state, 'done');
      assert.equal(once.structured.version, 1);
      assert.match(once.text, /release 1: 1 of 1 worker on it/);

      await client.serverless.update(endpoint.id, { image: 'example/worker:2.0' });
      const followed = await call('watch_rollout', { endpointId: endpoint.id, waitSeconds: 60 }, context);
      assert.equal(followed.structured.state, 'done', followed.text);
      assert.equal(followed.structured.version, 2);
      assert.equal(followed.structured.ready, 1);
      // Measured by the watch; no binding of this endpoint in the workspace, so nothing is written.
      const readiness = followed.structured.readiness as { version: number; firstWorkerReadyMs?: number };
      assert.equal(readiness.version, 2);
      assert.equal(typeof readiness.firstWorkerReadyMs, 'number', followed.text);
      assert.match(followed.text, /time to ready of release 2: .*ready in [\d.]+ m?s/);

      await client.serverless.update(endpoint.id, { image: 'example/crashloop:3.0' });
      const failed = await call('watch_rollout', { endpointId: endpoint.id, waitSeconds: 30 }, context);
      assert.equal(failed.structured.state, 'failed', failed.text);
      const culprits = failed.structured.culprits as { workerId: string; status: string; version: number }[];
      assert.ok(culprits.length > 0);
      for (const worker of culprits) {
        assert.equal(worker.status, 'UNHEALTHY');
        assert.equal(worker.version, 3);
        assert.ok(failed.text.includes(worker.workerId), failed.text);
      }
      assert.match(failed.text, /read_worker_logs with endpointId/);
    });
  });

  it('says why when the endpoint does not exist, and needs a key', async () => {
    await withEmulator({}, async (_emu, api) => {
      const missing = await call('watch_rollout', { endpointId: 'nope', waitSeconds: 0 }, contextOf(api()));
      assert.equal(missing.isError, true);
      assert.match(missing.text, /cannot read the rollout of nope: not found/);
      const tool = agentTool('watch_rollout');
      assert.ok(tool);
      const keyless = await runTool(tool, { endpointId: 'x' }, { ...contextOf(api()), client: undefined });
      assert.equal(keyless.isError, true);
      assert.match(keyless.text, /no key here/);
    });
  });
});

describe('plan_rollback and rollback_endpoint', { timeout: 120_000 }, () => {
  it('plans a rollback with a token, applies it once, and refuses a deploy token or a stale plan', async () => {
    await withEmulator({}, async (_emu, api) => {
      const client = api();
      const context = contextOf(client, { writesAllowed: true });
      const endpoint = await readyEndpoint(client);
      await client.serverless.update(endpoint.id, { image: 'example/crashloop:2.0', workers: { max: 2 } });

      const planned = await call('plan_rollback', { endpointId: endpoint.id, toVersion: 1 }, context);
      assert.equal(planned.isError, undefined, planned.text);
      assert.equal(planned.structured.deployable, true);
      assert.equal(planned.structured.fromVersion, 2);
      assert.match(planned.text, /rollback of endpoint \S+ from release 2 to the configuration of release 1/);
      const changes = (planned.structured.changes as { path: string; before: unknown; after: unknown }[]).map((c) => [
        c.path,
        c.before,
        c.after,
      ]);
      assert.deepEqual(
        changes.sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
        [
          ['image', 'example/crashloop:2.0', 'example/worker:1.0'],
          ['workers.max', 2, 1],
        ],
      );
      const token = String(planned.structured.planToken);

      const wrongTool = await call('deploy_spec', { planToken: token }, context);
      assert.equal(wrongTool.isError, true);
      assert.match(wrongTool.text, /rollback plan from plan_rollback: rollback_endpoint applies it; nothing was sent/);

      const applied = await call('rollback_endpoint', { planToken: token }, context);
      assert.equal(applied.isError, undefined, applied.text);
      assert.equal(applied.structured.verified, true);
      assert.match(applied.text, /follow it with watch_rollout/);
      const live = await client.serverless.get(endpoint.id);
      assert.equal(live.image, 'example/worker:1.0');
      assert.equal(live.workers.max, 1);

      const again = await call('rollback_endpoint', { planToken: token }, context);
      assert.equal(again.isError, true);
      const used =
        'the plan token was already used (a token is good for one rollback_endpoint call, whatever its outcome); run plan_rollback again';
      assert.equal(again.text, used);
      assert.equal((await call('deploy_spec', { planToken: token }, context)).text, used, 'deploy_spec names the tool the token was for');

      const second = await call('plan_rollback', { endpointId: endpoint.id, toVersion: 2 }, context);
      await client.serverless.update(endpoint.id, { env: { MOVED: 'on' } });
      const stale = await call('rollback_endpoint', { planToken: String(second.structured.planToken) }, context);
      assert.equal(stale.isError, true);
      assert.match(stale.text, /the endpoint has a newer release since the rollback was planned; nothing was sent/);
      assert.equal((await client.serverless.get(endpoint.id)).image, 'example/worker:1.0');
    });
  });

  it('says why a rollback cannot be planned, and refuses to apply without writes', async () => {
    await withEmulator({}, async (_emu, api) => {
      const client = api();
      const endpoint = await readyEndpoint(client);
      const current = await call('plan_rollback', { endpointId: endpoint.id, toVersion: 1 }, contextOf(client));
      assert.equal(current.isError, true, current.text);
      assert.match(current.text, /cannot plan the rollback: /);
      const unknown = await call('plan_rollback', { endpointId: endpoint.id, toVersion: 9 }, contextOf(client));
      assert.equal(unknown.isError, true);
      const readOnly = await call('rollback_endpoint', { planToken: 'plan_x' }, contextOf(client));
      assert.equal(readOnly.isError, true);
      assert.match(readOnly.text, /writes are not allowed here/);
    });
  });
});
