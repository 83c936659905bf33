/**
 * The tool catalogue without a server: the editor's manifest declares exactly the catalogue's tools
 * with their schemas; writes are refused before anything runs; plan tokens expire, are used once, say
 * why when reused, and can be shown without being used up; the editor's confirmation shows the plan
 * and sends nothing.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { AGENT_TOOLS, agentTool, inputJsonSchema, PlanTokenStore, runTool, type AgentContext } from '../../agents';
import { prepareAgentTool, TOOL_PREFIX } from '../../client/agents/confirm';
import { readLocalizedManifest } from '../../scripts/manifest';

interface ManifestTool {
  name: string;
  displayName: string;
  modelDescription: string;
  toolReferenceName: string;
  canBeReferencedInPrompt: boolean;
  inputSchema: unknown;
  when?: string;
}

// As the editor reads it: display names live in package.nls.json.
const manifest = readLocalizedManifest(join(__dirname, '../..')) as {
  contributes: { languageModelTools: ManifestTool[]; mcpServerDefinitionProviders: { id: string }[] };
};

function offlineContext(extra: Partial<AgentContext> = {}): AgentContext {
  return {
    client: undefined,
    noClientReason: 'no key here',
    writesAllowed: false,
    enableWrites: 'say --allow-writes',
    workspaceRoot: __dirname,
    plans: new PlanTokenStore(),
    ...extra,
  };
}

describe('agent tool catalogue', () => {
  it('the manifest declares every tool as endpointStudio_<tool> with the catalogue schema and description', () => {
    const declared = manifest.contributes.languageModelTools;
    assert.deepEqual(
      declared.map((t) => t.name),
      AGENT_TOOLS.map((t) => `${TOOL_PREFIX}${t.name}`),
    );
    for (const tool of AGENT_TOOLS) {
      const entry = declared.find((t) => t.name === `${TOOL_PREFIX}${tool.name}`);
      assert.ok(entry);
      assert.deepEqual(entry.inputSchema, inputJsonSchema(tool), `${tool.name}: regenerate its inputSchema in package.json`);
      assert.equal(entry.modelDescription, tool.description);
      assert.equal(entry.displayName, tool.title);
      assert.equal(entry.canBeReferencedInPrompt, true);
      assert.match(entry.toolReferenceName, /^[a-zA-Z]+$/);
      // Write tools exist only in trusted workspaces, where the extension registers them.
      assert.equal(entry.when, tool.writes ? 'isWorkspaceTrusted' : undefined, tool.name);
    }
    assert.deepEqual(
      manifest.contributes.mcpServerDefinitionProviders.map((p) => p.id),
      ['endpointStudio.mcp'],
    );
    assert.deepEqual(
      AGENT_TOOLS.filter((t) => t.writes).map((t) => t.name),
      ['deploy_spec', 'rollback_endpoint', 'run_job'],
    );
  });

  it('refuses writes before running anything, and bad input with the field named', async () => {
    const deploy = agentTool('deploy_spec');
    assert.ok(deploy);
    const refused = await runTool(deploy, { planToken: 'x' }, offlineContext());
    assert.equal(refused.isError, true);
    assert.match(refused.text, /writes are not allowed here: say --allow-writes/);
    const validate = agentTool('validate_spec');
    assert.ok(validate);
    const bad = await runTool(validate, { format: 'toml', text: 'x' }, offlineContext());
    assert.equal(bad.isError, true);
    assert.match(bad.text, /invalid input for validate_spec: .*format/);
    const noKey = await runTool(deploy, { planToken: 'x' }, offlineContext({ writesAllowed: true }));
    assert.equal(noKey.text, 'no key here');
  });

  it('plan tokens: opaque, used once, expire, and can be shown without being used up', () => {
    let now = 1_000;
    const store = new PlanTokenStore(() => now, 60_000);
    const record = {
      specPath: '/w/a.endpoint.yaml',
      document: 0,
      specHash: 's',
      liveHash: 'l',
      planHash: 'p',
      planText: 'update endpoint ep1',
    };
    const { token } = store.issue(record);
    assert.match(token, /^plan_[\w-]{24}$/);
    assert.equal(store.peek(token)?.planText, 'update endpoint ep1');
    assert.equal(store.redeem(token).ok, true);
    const reused = store.redeem(token);
    assert.ok(!reused.ok, 'a token is used once');
    assert.match(reused.reason, /^the plan token was already used .*; run plan_deploy again$/);
    const late = store.issue(record).token;
    const forgotten = store.issue(record).token;
    now += 60_001;
    assert.equal(store.peek(late), undefined);
    const expired = store.redeem(late);
    assert.ok(!expired.ok && /expired/.test(expired.reason));
    const again = store.redeem(late);
    assert.ok(!again.ok && /expired/.test(again.reason), 'still expired, not used, the second time');
    // Issuing prunes expired tokens; one pruned before it was redeemed still reads as expired.
    store.issue(record);
    const pruned = store.redeem(forgotten);
    assert.ok(!pruned.ok && /expired/.test(pruned.reason), pruned.ok ? '' : pruned.reason);
    const unknown = store.redeem('plan_made_up');
    assert.ok(!unknown.ok && /^unknown plan token/.test(unknown.reason));
  });

  it('plan tokens: the oldest make room for new ones and say so; what is remembered stays bounded', () => {
    const store = new PlanTokenStore();
    const record = { specPath: '/w/a.endpoint.yaml', document: 0, specHash: 's', liveHash: 'l', planHash: 'p', planText: '' };
    const tokens = Array.from({ length: 401 }, () => store.issue(record).token);
    const dropped = store.redeem(tokens[200]);
    assert.ok(!dropped.ok && /dropped to make room for 200 newer plans/.test(dropped.reason), dropped.ok ? '' : dropped.reason);
    const longGone = store.redeem(tokens[0]);
    assert.ok(!longGone.ok && /^unknown plan token/.test(longGone.reason), 'only the last 200 retired tokens are remembered');
    assert.equal(store.redeem(tokens[400]).ok, true);
  });

  it("the editor's confirmation of a deploy shows the plan with its cost line, and leaves the token usable", () => {
    const plans = new PlanTokenStore();
    const planText =
      'update endpoint ep1 "w": 1 change\n  ~ workers.max: 2 → 3\n  always-on cost: $0.69/h → $0.69/h (+$0.00/h, +$0.00/month) from workers.max\n';
    const { token } = plans.issue({
      specPath: '/w/specs/a.endpoint.yaml',
      document: 0,
      specHash: 's',
      liveHash: 'l',
      planHash: 'p',
      planText,
    });
    const prepared = prepareAgentTool('deploy_spec', { planToken: token }, plans, '/w');
    assert.equal(prepared.confirmationMessages?.title, 'Deploy specs/a.endpoint.yaml?');
    assert.ok(prepared.confirmationMessages.message.startsWith(planText));
    assert.match(prepared.confirmationMessages.message, /always-on cost/);
    assert.ok(plans.peek(token), 'preparing does not use the token');
    const unknown = prepareAgentTool('deploy_spec', { planToken: 'plan_nope' }, plans, '/w');
    assert.match(unknown.confirmationMessages?.message ?? '', /already used, has expired or is unknown/);
    const job = prepareAgentTool('run_job', { endpointId: 'ep1', input: { prompt: 'hi' }, sync: true }, plans, '/w');
    assert.equal(job.confirmationMessages?.title, 'Run a job on endpoint ep1?');
    assert.match(job.confirmationMessages.message, /input: \{"prompt":"hi"\}/);
    assert.equal(prepareAgentTool('validate_spec', { path: 'a.endpoint.yaml' }, plans, '/w').confirmationMessages, undefined);
  });
});
