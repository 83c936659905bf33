/**
 * A change made outside, as an MCP client meets it (`endpoint-studio mcp --allow-writes` over stdio, the SDK's
 * client, the emulator over HTTP): after deploy_spec, the endpoint is changed through the API as a console would.
 * The next plan_deploy names the change and says deploying reverts it; deploy_spec refuses that token until the
 * choice to overwrite is stated, sending nothing, and then applies the same token.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createApiClient } from '../../core/api';
import { startMcpSession, succeeded, type McpSession } from './mcpSession';
import { DEFAULT_DEV_API_KEY, startEmulator, type RunningEmulator } from '../../emulator/index';

const SPEC = `name: outside-worker
type: QUEUE
image: myorg/worker:1.0.0
gpu:
  pools: [ADA_24]
workers: { min: 0, max: 2, idleTimeout: 5 }
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;

describe('deploy_spec and a change made outside', { timeout: 120_000 }, () => {
  let emulator: RunningEmulator;
  let root: string;
  let mcp: McpSession;
  const call = (name: string, args: Record<string, unknown>) => mcp.call(name, args);

  before(async () => {
    emulator = await startEmulator({ port: 0, jobsPort: 0 });
    root = mkdtempSync(join(tmpdir(), 'es-agent-outside-'));
    mkdirSync(join(root, '.git'));
    mkdirSync(join(root, 'specs'));
    writeFileSync(join(root, 'specs', 'worker.endpoint.yaml'), SPEC);
    mcp = await startMcpSession({
      cwd: root,
      allowWrites: true,
      env: { ENDPOINT_STUDIO_API_URL: emulator.restUrl, ENDPOINT_STUDIO_API_KEY: DEFAULT_DEV_API_KEY },
    });
  });

  after(async () => {
    await mcp.close();
    await emulator.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('names the change, and deploys over it only once the choice is stated', async () => {
    const first = succeeded(await call('plan_deploy', { path: 'specs/worker.endpoint.yaml' }));
    const created = succeeded(await call('deploy_spec', { planToken: first.structured.planToken }));
    const id = String(created.structured.endpointId);
    const api = createApiClient({ apiUrl: emulator.restUrl, apiKey: DEFAULT_DEV_API_KEY });
    await api.serverless.update(id, { workers: { min: 0, max: 6, idleTimeout: 5 } });

    const plan = succeeded(await call('plan_deploy', { path: 'specs/worker.endpoint.yaml' }));
    const outside = plan.structured.outside as { changes: { path: string; live: unknown; effect: string }[]; releases: unknown[] };
    assert.deepEqual(
      outside.changes.map((c) => [c.path, c.live, c.effect]),
      [['workers.max', 6, 'reverts']],
    );
    assert.ok(outside.releases.length > 0, 'the release that made the change is named');
    assert.match(plan.text, /changed outside \(release \d+.*since the last deploy/);
    assert.match(plan.text, /workers\.max: 2 → 6; deploying sets it back to 2/);
    assert.match(plan.text, /deploy_spec with outsideChanges "overwrite"/);

    const refused = await call('deploy_spec', { planToken: plan.structured.planToken });
    assert.equal(refused.isError, true);
    assert.match(refused.text, /overwrites changes made outside since the last deploy \(workers\.max\); nothing was sent/);
    assert.equal((await api.serverless.get(id)).workers.max, 6, 'nothing was sent');

    const applied = succeeded(await call('deploy_spec', { planToken: plan.structured.planToken, outsideChanges: 'overwrite' }));
    assert.equal(applied.structured.action, 'updated');
    assert.equal((await api.serverless.get(id)).workers.max, 2);
  });
});
