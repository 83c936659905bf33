/**
 * `plan_promotion` as an MCP client drives it (`endpoint-studio mcp` over stdio, the SDK's client, no key, writes
 * not allowed): it says what promoting staging's recorded release into prod's overlay would write and what was
 * verified, writes nothing, and refuses a staging never deployed from here or a release whose smoke job failed.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { updateBindings, withBinding, type DeployedRelease } from '../../core/deploy';
import { startMcpSession, type McpSession, type ToolOutcome } from './mcpSession';

const BASE = `name: agent-sdxl
type: QUEUE
image: myorg/sdxl:1.0
gpu:
  pools: [ADA_24]
workers: { min: 0, max: 2 }
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
env:
  MODEL_ID: base
`;
const PROD = 'extends: ./sdxl.endpoint.yaml\n# prod keeps one worker warm\nname: agent-sdxl-prod\nworkers:\n  min: 1\n';
const STAGING_KEY = 'specs/sdxl.staging.endpoint.yaml';

describe('plan_promotion', { timeout: 60_000 }, () => {
  let root: string;
  let mcp: McpSession;
  let call: (args: Record<string, unknown>) => Promise<ToolOutcome>;

  const record = (release?: DeployedRelease) => {
    const written = updateBindings(root, (store) =>
      withBinding(store, STAGING_KEY, 0, {
        endpointId: 'ep-staging',
        endpointName: 'agent-sdxl-staging',
        deployedAt: '2026-11-28T10:02:00.000Z',
        ...(release ? { release } : {}),
      }),
    );
    assert.ok(written.ok);
  };
  const body = { name: 'agent-sdxl-staging', type: 'QUEUE', image: 'myorg/sdxl:1.1', env: { MODEL_ID: 'turbo' } };

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'es-agent-promotion-'));
    mkdirSync(join(root, '.git'));
    mkdirSync(join(root, '.endpoint-studio'));
    mkdirSync(join(root, 'specs'));
    writeFileSync(join(root, 'specs', 'sdxl.endpoint.yaml'), BASE);
    writeFileSync(join(root, 'specs', 'sdxl.staging.endpoint.yaml'), 'extends: ./sdxl.endpoint.yaml\nname: agent-sdxl-staging\n');
    writeFileSync(join(root, 'specs', 'sdxl.prod.endpoint.yaml'), PROD);
    writeFileSync(join(root, '.endpoint-studio', 'environments.yaml'), 'environments:\n  prod:\n    protected: true\n');
    mcp = await startMcpSession({ cwd: root });
    call = (args) => mcp.call('plan_promotion', args);
  });

  after(async () => {
    await mcp.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('is listed read-only', async () => {
    const { tools } = await mcp.client.listTools();
    assert.equal(tools.find((t) => t.name === 'plan_promotion')?.annotations?.readOnlyHint, true);
  });

  it('refuses a staging never deployed from here', async () => {
    const refused = await call({ path: 'specs/sdxl.endpoint.yaml', from: 'staging', to: 'prod' });
    assert.equal(refused.isError, false, refused.text);
    assert.equal(refused.structured.promotable, false);
    assert.equal(refused.structured.code, 'not-deployed');
    assert.match(refused.text, /staging has not been deployed from here/);
  });

  it('says what would be written and what was verified, and writes nothing', async () => {
    record({ version: 4, body, smoke: { passed: true, jobId: 'job-7', at: '2026-11-28T10:05:00.000Z' } });
    const planned = await call({ path: 'specs/sdxl.prod.endpoint.yaml', from: 'staging', to: 'prod' });
    assert.equal(planned.isError, false, planned.text);
    assert.equal(planned.structured.promotable, true);
    assert.equal(planned.structured.action, 'write');
    assert.equal(planned.structured.target, 'specs/sdxl.prod.endpoint.yaml');
    assert.equal(planned.structured.protected, true);
    assert.deepEqual(planned.structured.values, [{ field: 'image', value: 'myorg/sdxl:1.1', current: 'myorg/sdxl:1.0', changes: true }]);
    assert.match(planned.text, /verified: staging's release 4, deployed 2026-11-28T10:02:00\.000Z; smoke job job-7 passed/);
    assert.match(
      planned.text,
      /would write into specs\/sdxl\.prod\.endpoint\.yaml \(nothing written yet\): image: "myorg\/sdxl:1\.0" → "myorg\/sdxl:1\.1"/,
    );
    assert.match(String(planned.structured.written), /# prod keeps one worker warm\n[\s\S]*image: myorg\/sdxl:1\.1\n$/);
    assert.equal(readFileSync(join(root, 'specs', 'sdxl.prod.endpoint.yaml'), 'utf8'), PROD, 'nothing is written');

    const field = await call({ path: 'specs/sdxl.endpoint.yaml', from: 'staging', to: 'prod', fields: ['env.MODEL_ID'] });
    assert.deepEqual(field.structured.values, [{ field: 'env.MODEL_ID', value: 'turbo', current: 'base', changes: true }]);
  });

  it('refuses a release whose smoke job failed, and one without the field asked for', async () => {
    record({ version: 5, body, smoke: { passed: false, jobId: 'job-8', at: '2026-11-28T11:00:00.000Z' } });
    const failed = await call({ path: 'specs/sdxl.endpoint.yaml', from: 'staging', to: 'prod' });
    assert.equal(failed.structured.promotable, false);
    assert.equal(failed.structured.code, 'smoke-failed');
    assert.match(failed.text, /the smoke job job-8 failed on staging's release 5, so it is not verified/);

    record({ version: 6, body });
    const missing = await call({ path: 'specs/sdxl.endpoint.yaml', from: 'staging', to: 'prod', fields: ['env.HF_TOKEN'] });
    assert.equal(missing.structured.code, 'missing-value');
    assert.match(missing.text, /staging's release 6 has no env\.HF_TOKEN to promote/);
  });
});
