/**
 * The stock warning as an MCP client meets it (`endpoint-studio mcp --allow-writes` over stdio, the emulator over
 * HTTP, whose H200 pool HOPPER_141 has no stock): plan_deploy names pools with stock and stays deployable, and its
 * token is still good when the stock reads differently by the time deploy_spec plans again.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startMcpSession, type McpSession } from './mcpSession';
import { DEFAULT_DEV_API_KEY, startEmulator, type RunningEmulator } from '../../emulator/index';

const SPEC = `name: stockless-worker
type: QUEUE
image: myorg/worker:1.0.0
gpu:
  pools: [HOPPER_141]
workers: { min: 0, max: 2 }
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;

describe('plan_deploy and a pool without stock', { timeout: 120_000 }, () => {
  let emulator: RunningEmulator;
  let root: string;
  let mcp: McpSession;
  const call = (name: string, args: Record<string, unknown>) => mcp.call(name, args);

  before(async () => {
    emulator = await startEmulator({ port: 0, jobsPort: 0 });
    root = mkdtempSync(join(tmpdir(), 'es-agent-stock-'));
    mkdirSync(join(root, '.git'));
    writeFileSync(join(root, 'worker.endpoint.yaml'), SPEC);
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

  it('warns with the alternatives, and deploys with a token made before the stock changed', async () => {
    const plan = await call('plan_deploy', { path: 'worker.endpoint.yaml' });
    assert.equal(plan.isError, false, plan.text);
    assert.match(plan.text, /warning: none of the GPUs chosen in HOPPER_141 has serverless stock, .*pools with stock: AMPERE_80 \(80 GB/);
    const stock = plan.structured.stock as { chosen: string[]; alternatives: { id: string; atMaxHour: { low: number } }[] };
    assert.deepEqual(stock.chosen, ['HOPPER_141']);
    assert.deepEqual(
      stock.alternatives.map((a) => a.id),
      ['AMPERE_80', 'ADA_80_PRO', 'AMPERE_48'],
    );
    assert.equal(plan.structured.deployable, true);

    // deploy_spec plans again; now the catalog cannot be read, so that plan has no stock warning.
    emulator.setFaults({ status5xx: 503, paths: ['/v2/catalog'] });
    const deployed = await call('deploy_spec', { planToken: plan.structured.planToken });
    emulator.setFaults(undefined);
    assert.equal(deployed.isError, false, deployed.text);
    assert.equal(deployed.structured.action, 'created');
  });
});
