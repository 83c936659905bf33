/**
 * The team policy in the editor against the emulator: a finding on the line of the value that breaks the rule,
 * its hover naming the rule, its limit and where the policy writes it, a deploy refused on it, the quick fix that
 * lowers the value, the ignore comment whose reason is typed in place, and an unsaved edit of the open policy
 * judging the open spec again (a broken policy is an error in its own file). Each test writes the policy and the
 * spec it needs, so any one passes alone.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after } from 'node:test';
import { createApiClient, type ApiClient } from '../../core/api';
import { startEmulator, DEFAULT_DEV_API_KEY, type RunningEmulator } from '../../emulator/index';
import { logLinesMatching } from './support/editorProcesses';
import { useEditorSession, type EditorSessionOptions } from './support/session';
import { formatProblems, waitUntil, type Problem, type Workbench } from './support/workbench';

const SPEC = 'policed-worker.endpoint.yaml';
const POLICY = 'rules:\n  - name: team-limits\n    maxWorkers: 2\n';
/** `  max: 3` in the copy of the sdxl-worker example. */
const MAX_LINE = 10;

let emulator: RunningEmulator;
let api: ApiClient;
after(() => emulator.close());
const { editorTest } = useEditorSession('policy', async (): Promise<EditorSessionOptions> => {
  emulator = await startEmulator({ port: 0, jobsPort: 0 });
  api = createApiClient({ apiUrl: emulator.restUrl, jobsUrl: emulator.jobsUrl, apiKey: DEFAULT_DEV_API_KEY });
  return {
    env: { ENDPOINT_STUDIO_API_KEY: DEFAULT_DEV_API_KEY },
    userSettings: { 'endpointStudio.api.url': emulator.restUrl, 'endpointStudio.api.jobsUrl': emulator.jobsUrl },
  };
});

/** The policy on disk and a copy of the sdxl-worker example (workers.max 3) under its own name. */
function writePolicyAndSpec(workspace: string, policy = POLICY): void {
  mkdirSync(join(workspace, '.endpoint-studio'), { recursive: true });
  writeFileSync(join(workspace, '.endpoint-studio', 'policy.yaml'), policy);
  const example = readFileSync(join(workspace, 'sdxl-worker.endpoint.yaml'), 'utf8');
  writeFileSync(join(workspace, SPEC), example.replace(/^name: sdxl-worker$/m, 'name: policed-worker'));
}

const policyRow = (rows: readonly Problem[]): Problem | undefined => rows.find((row) => row.code.includes('policy-max-workers'));

async function clickCodeLens(workbench: Workbench, title: RegExp): Promise<void> {
  const lens = workbench.page.locator('.codelens-decoration a').filter({ hasText: title }).first();
  await lens.waitFor({ state: 'visible' });
  await lens.click();
}

editorTest('a finding on its line, its hover, a refused deploy, and the quick fix that lowers the value', async (workbench, session) => {
  writePolicyAndSpec(session.workspace);
  await workbench.openFile(SPEC);
  const rows = await workbench.problems(SPEC, (r) => policyRow(r) !== undefined, 'the policy finding');
  const finding = policyRow(rows);
  assert.ok(finding);
  assert.equal(finding.position, `[Ln ${MAX_LINE}, Col 8]`, formatProblems(rows));
  assert.equal(finding.severity, 'error');
  assert.match(finding.message, /workers\.max 3 is above 2 \(policy team-limits\)/);

  await workbench.goTo(MAX_LINE, 8);
  // The problem's own line shows first; the rule's explanation is the server's hover, which follows it.
  const hover = await workbench.hoverText('maxWorkers: 2');
  assert.match(hover, /maxWorkers: 2/);
  assert.match(hover, /\.endpoint-studio\/policy\.yaml, line 3/);
  assert.match(hover, /endpoint-studio-ignore policy-max-workers/);
  await workbench.page.keyboard.press('Escape');

  // The deploy's last step is its log line: whatever it did, it has done by then.
  const stopped = /deploy stopped:/;
  const before = logLinesMatching(session.server, stopped);
  await clickCodeLens(workbench, /Deploy/);
  const refusal = await workbench.notification(/deploy refused/);
  assert.match(refusal, /workers\.max 3 is above 2|team-limits|policy/);
  await waitUntil(() => logLinesMatching(session.server, stopped) > before, 'the refused deploy to end');
  assert.ok(!(await api.serverless.list()).some((e) => e.name === 'policed-worker'), 'nothing was created');
  await workbench.clearNotifications();

  await workbench.openFile(SPEC);
  await workbench.goTo(MAX_LINE, 8);
  await workbench.applyQuickFix('Lower workers.max to 2');
  // The value's cost hint follows it on the line.
  await workbench.waitForEditorText(/^ {2}max: 2\b/m);
  await workbench.problems(SPEC, (r) => policyRow(r) === undefined, 'the finding to be gone after the fix');
});

editorTest(
  'the ignore comment quick fix puts the cursor on its reason, and the typed reason silences the finding',
  async (workbench, session) => {
    writePolicyAndSpec(session.workspace);
    await workbench.openFile(SPEC);
    await workbench.problems(SPEC, (r) => policyRow(r) !== undefined, 'the policy finding');
    await workbench.goTo(MAX_LINE, 8);
    await workbench.applyQuickFix('Ignore policy-max-workers here');
    // The placeholder `reason` is selected: typing replaces it.
    await workbench.waitForEditorText(/# endpoint-studio-ignore policy-max-workers: reason$/m);
    await workbench.page.keyboard.type('load test until 12-05');
    await workbench.waitForEditorText(/^ {2}# endpoint-studio-ignore policy-max-workers: load test until 12-05$/m);
    await workbench.waitForEditorText(/^ {2}max: 3\b/m);
    // A silenced finding is a hint, which the Problems panel does not list.
    await workbench.problems(SPEC, (r) => policyRow(r) === undefined, 'the finding to be silenced');
  },
);

editorTest(
  'an unsaved edit of the open policy judges the open spec again, and a broken policy is an error in its file',
  async (workbench, session) => {
    writePolicyAndSpec(session.workspace);
    await workbench.openFile(SPEC);
    await workbench.problems(SPEC, (r) => policyRow(r) !== undefined, 'the policy finding');
    await workbench.openFile('policy.yaml');
    await workbench.goTo(3, 17);
    await workbench.page.keyboard.press('Shift+End');
    await workbench.page.keyboard.type('5');
    await workbench.waitForEditorText(/maxWorkers: 5/);
    // Not saved: the spec is judged by the editor's text of the policy.
    await workbench.problems(SPEC, (r) => policyRow(r) === undefined, 'the spec within the edited policy');
    await workbench.focusEditor();
    await workbench.page.keyboard.type('x');
    await workbench.waitForEditorText(/maxWorkers: 5x/);
    // Every spec under the broken policy says so on its first line; the policy's own problem is on its value.
    const onValue = (rows: readonly Problem[]): Problem | undefined =>
      rows.find((row) => row.code.includes('policy-invalid') && row.position === '[Ln 3, Col 17]');
    const inPolicy = await workbench.problems('policy.yaml', (r) => onValue(r) !== undefined, 'the policy broken, on its value');
    assert.match(onValue(inPolicy)?.message ?? '', /maxWorkers/, formatProblems(inPolicy));
  },
);
