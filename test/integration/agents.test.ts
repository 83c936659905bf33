/**
 * The agent tools inside the editor: registered as language-model tools named endpointStudio_<tool>,
 * invoked through `vscode.lm.invokeTool` as a chat participant would, first offline (validate_spec
 * needs no key) and then signed in to the local emulator: the catalogue, cost, a plan, its deploy
 * ending verified, the endpoint with its bound spec, a job, logs and billing. A tool's confirmation
 * is only shown inside a chat session, so the write tools' confirmation text is checked through the
 * prepare function the extension registers. Signs out and removes what it wrote when done.
 */
import * as assert from 'node:assert/strict';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import { PlanTokenStore } from '../../agents/planTokens';
import { prepareAgentTool, TOOL_PREFIX } from '../../client/agents/confirm';
import { eventually, EXTENSION_ID, workspaceFile } from './helpers';

interface ToolResult {
  readonly content: readonly { readonly value?: unknown }[];
}

interface LmApi {
  readonly tools?: readonly { readonly name: string }[];
  readonly invokeTool?: (name: string, options: { input: object; toolInvocationToken: undefined }) => Thenable<ToolResult>;
}

const lm = (vscode as unknown as { lm?: LmApi }).lm;
const READ_TOOLS = [
  'validate_spec',
  'estimate_cost',
  'search_catalog',
  'plan_deploy',
  'watch_rollout',
  'plan_rollback',
  'plan_promotion',
  'list_endpoints',
  'get_endpoint',
];
const SCRATCH = 'agents-scratch.endpoint.yaml';
const SCRATCH_SPEC = `name: agents-scratch
type: QUEUE
image: myorg/agents-scratch:1.0
gpu:
  pools: [ADA_24]
workers: { min: 0, max: 2, idleTimeout: 30 }
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;

/** The tool's text and its structured data (the JSON part after the text). */
async function invoke(tool: string, input: object): Promise<{ text: string; data: Record<string, unknown> }> {
  assert.ok(lm?.invokeTool, 'vscode.lm.invokeTool is not available');
  const result = await lm.invokeTool(`${TOOL_PREFIX}${tool}`, { input, toolInvocationToken: undefined });
  const parts = result.content.map((part) => (typeof part.value === 'string' ? part.value : ''));
  assert.equal(parts.length, 2, `${tool} answers text then data`);
  return { text: parts[0], data: JSON.parse(parts[1]) as Record<string, unknown> };
}

async function rejection(tool: string, input: object): Promise<string> {
  try {
    await invoke(tool, input);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  throw new Error(`${tool} was expected to fail`);
}

suite('Endpoint Studio agent tools', () => {
  let signedIn = false;

  suiteSetup(async function () {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not loaded`);
    await eventually(() => extension.isActive, 'the extension to activate');
    if (!lm?.invokeTool) this.skip();
  });

  suiteTeardown(async () => {
    rmSync(workspaceFile(SCRATCH).fsPath, { force: true });
    const bindings = workspaceFile('.endpoint-studio').fsPath;
    if (existsSync(join(bindings, 'deployments.json'))) rmSync(bindings, { recursive: true, force: true });
    if (signedIn) await vscode.commands.executeCommand('endpointStudio.auth.signOut');
  });

  test('registers every tool as endpointStudio_<tool>; the write tools only in a trusted workspace', () => {
    const names = new Set((lm?.tools ?? []).map((t) => t.name).filter((n) => n.startsWith(TOOL_PREFIX)));
    for (const tool of READ_TOOLS) assert.ok(names.has(`${TOOL_PREFIX}${tool}`), `${tool} is not registered`);
    for (const tool of ['deploy_spec', 'rollback_endpoint', 'run_job'])
      assert.equal(names.has(`${TOOL_PREFIX}${tool}`), vscode.workspace.isTrusted, tool);
    assert.equal(names.size, vscode.workspace.isTrusted ? 15 : 12);
  });

  test('validate_spec reports the problems of a workspace spec on 1-based lines, with no key needed', async () => {
    const { data, text } = await invoke('validate_spec', { path: 'broken-worker.endpoint.yaml' });
    assert.equal(data.valid, false);
    const problems = data.problems as { code: string; line: number }[];
    const unknown = problems.find((p) => p.code === 'unknown-property');
    assert.ok(unknown, text);
    assert.equal(unknown.line, 10, 'idelTimeout is on line 10');
    const missing = await rejection('validate_spec', { path: 'no-such.endpoint.yaml' });
    assert.match(missing, /cannot read no-such\.endpoint\.yaml: no such file/);
  });

  test('signed in to the local emulator: catalog, cost, endpoints', async function () {
    if (!vscode.workspace.isTrusted) this.skip();
    await vscode.commands.executeCommand('endpointStudio.emulator.use');
    signedIn = true;
    const deadline = Date.now() + 30_000;
    let listed: Record<string, unknown> | undefined;
    while (!listed) {
      listed = await invoke('list_endpoints', {}).then(
        (r) => r.data,
        (error: unknown) => {
          if (Date.now() > deadline) throw error;
          return undefined;
        },
      );
      if (!listed) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.equal(typeof listed.count, 'number');
    const catalog = await invoke('search_catalog', { query: 'AMPERE_24' });
    const pools = catalog.data.pools as { id: string; vramGb: number }[];
    assert.deepEqual(
      pools.map((p) => [p.id, p.vramGb]),
      [['AMPERE_24', 24]],
    );
    const cost = await invoke('estimate_cost', { path: 'sdxl-worker.endpoint.yaml' });
    const [doc] = cost.data.documents as { priced: boolean; workersMin: number; atMax: { perHour: { low: number } } }[];
    assert.equal(doc.priced, true, cost.text);
    assert.equal(doc.workersMin, 0);
    assert.ok(doc.atMax.perHour.low > 0);
  });

  test('plan → confirmation text → deploy ends verified; the endpoint, a job, logs and billing', async function () {
    if (!signedIn) this.skip();
    writeFileSync(workspaceFile(SCRATCH).fsPath, SCRATCH_SPEC);
    const plan = await invoke('plan_deploy', { path: SCRATCH });
    assert.equal(plan.data.kind, 'create');
    assert.equal(typeof plan.data.planToken, 'string');

    // What the editor's confirmation shows for this plan: the same text through the registered prepare function.
    const plans = new PlanTokenStore();
    const shown = plans.issue({
      specPath: workspaceFile(SCRATCH).fsPath,
      document: 0,
      specHash: '',
      liveHash: '',
      planHash: '',
      planText: String(plan.data.plan),
    });
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
    const prepared = prepareAgentTool('deploy_spec', { planToken: shown.token }, plans, folder);
    assert.equal(prepared.confirmationMessages?.title, `Deploy ${SCRATCH}?`);
    assert.match(prepared.confirmationMessages.message, /create a new endpoint "agents-scratch"/);
    assert.match(prepared.confirmationMessages.message, /always-on cost|\+ workers\.max: 2/);

    const deployed = await invoke('deploy_spec', { planToken: plan.data.planToken as string });
    assert.equal(deployed.data.action, 'created');
    assert.equal(deployed.data.verified, true, deployed.text);
    const endpointId = String(deployed.data.endpointId);
    const stale = await rejection('deploy_spec', { planToken: plan.data.planToken as string });
    assert.match(stale, /already used/);

    const endpoint = await invoke('get_endpoint', { endpointId });
    assert.deepEqual(endpoint.data.boundSpecs, [{ file: SCRATCH, document: 0, matches: true, drift: [] }]);
    const missing = await rejection('get_endpoint', { endpointId: 'no-such-endpoint' });
    assert.match(missing, /not found/);

    const job = await invoke('run_job', { endpointId, input: { output: 'ok' } });
    assert.match(String(job.data.status), /^(IN_QUEUE|IN_PROGRESS|COMPLETED)$/);
    const read = await invoke('get_job', { endpointId, jobId: String(job.data.jobId) });
    assert.equal(read.data.jobId, job.data.jobId);
    const logs = await invoke('read_worker_logs', { endpointId, lines: 5 });
    assert.ok((logs.data.lines as unknown[]).length <= 5);
    assert.ok(Array.isArray(logs.data.workers));
    const billing = await invoke('billing_summary', { kind: 'serverless', bucketSize: 'day' });
    assert.equal((billing.data.window as { bucketSize: string }).bucketSize, 'day');
  });
});
