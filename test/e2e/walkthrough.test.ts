/**
 * The getting-started walkthrough as a new user meets it: it opens by itself the first time the extension
 * activates (and not again after a reload), and each of its steps gets its checkmark once the user has done
 * the thing, on the local emulator the walkthrough's first button starts: create a spec from a starter,
 * apply a quick fix, deploy through the plan, run a request file, open a worker's logs, open billing.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { EXAMPLES_DIR } from '../../scripts/editor/paths';
import { extensionLog } from './support/editorProcesses';
import { useEditorSession } from './support/session';
import {
  PROFILE_STATUS_ITEM,
  showsWithin,
  START_TIMEOUT_MS,
  WALKTHROUGH_TAB,
  waitUntil,
  type PageNode,
  type Workbench,
} from './support/workbench';

const WALKTHROUGH = 'endpoint-studio.endpoint-studio#endpointStudio.gettingStarted';
const FIRST_OPEN_LINE = 'opening the getting-started walkthrough (first activation)';

const { editorTest, session } = useEditorSession('walkthrough', {
  // Signed out, as a first start is; the walkthrough's first step starts the emulator. VS Code's own Welcome
  // page stays shut (1.139 may show it on the reload, under the same tab label): only ours is looked for.
  userSettings: { 'workbench.welcomePage.walkthroughs.openOnInstall': true, 'workbench.startupEditor': 'none' },
});

/**
 * Set in the page whenever one of the walkthrough's steps gets the focus. The page gives its selected step the
 * focus a moment after it opens (once its slide animation is over, 250 ms): a Quick Input a test opened in
 * that moment would close, for it closes when it loses the focus. A string, so nothing of tsx's output
 * reaches the page.
 */
const WATCH_STEP_FOCUS = `(() => {
  window.__walkthroughStepFocused = false;
  if (window.__watchingStepFocus) return;
  window.__watchingStepFocus = true;
  document.addEventListener('focusin', (event) => {
    if (event.target instanceof Element && event.target.matches('.getting-started-step')) window.__walkthroughStepFocused = true;
  }, true);
})()`;

/**
 * Shows the walkthrough from the Command Palette (the way back to it after it was closed), and waits until
 * the page has settled: its step focused, so nothing it does later takes the focus from what the test opens
 * next. Asked again when the palette closes before the command is chosen: a webview that has just loaded
 * (the logs, the billing chart) takes the focus, which closes the palette.
 */
async function showWalkthrough(workbench: Workbench): Promise<void> {
  const page = workbench.page;
  const steps = page.locator('.gettingStartedContainer .getting-started-step').first();
  if (await steps.isVisible()) return;
  await page.evaluate(WATCH_STEP_FOCUS);
  await waitUntil(
    async () => {
      if (await steps.isVisible()) return true;
      await page.keyboard.press('Escape');
      await workbench.runCommand('Endpoint Studio: Open Walkthrough').catch(() => undefined);
      return showsWithin(steps, 5_000);
    },
    'the walkthrough to show',
    () => '',
    START_TIMEOUT_MS,
  );
  await waitUntil(() => page.evaluate<boolean>('window.__walkthroughStepFocused'), 'the walkthrough to focus its step');
}

/** Waits for a step's checkmark on the walkthrough page. */
async function stepCompleted(workbench: Workbench, step: string): Promise<void> {
  await showWalkthrough(workbench);
  const mark = workbench.page.locator(`[data-done-step-id="${WALKTHROUGH}#${step}"]`);
  let seen = '';
  await waitUntil(
    async () => /getting-started-step-checked/.test((seen = (await mark.getAttribute('class')) ?? '')),
    `the walkthrough step ${step} to be checked`,
    () => seen,
  );
  // Closed again: the page moves on to the next step by itself, some time after a step completes, and
  // takes the focus as it does, which would close a Quick Input the test opened meanwhile.
  const tab = workbench.page.locator(WALKTHROUGH_TAB);
  await tab.hover();
  await tab.locator('.tab-actions .action-label').first().click();
  await tab.waitFor({ state: 'hidden' });
}

/** Clicks a button in a step's text: the step the walkthrough opens on, the first one not done yet. */
async function stepButton(workbench: Workbench, step: string, label: string): Promise<void> {
  await showWalkthrough(workbench);
  const entry = workbench.page.locator(`.getting-started-step[data-step-id="${WALKTHROUGH}#${step}"]`);
  // Another step chosen here would start the page's delayed focus again, after showWalkthrough waited for it.
  assert.equal(await entry.getAttribute('aria-expanded'), 'true', `the walkthrough opens on the step ${step}`);
  await entry
    .locator('a, button')
    .filter({ hasText: new RegExp(`^${label}$`) })
    .first()
    .click();
}

/** Waits until a webview frame shows `selector`; a webview may take the focus when it loads. */
async function frameShowing(workbench: Workbench, selector: string, description: string): Promise<void> {
  await waitUntil(async () => {
    for (const frame of workbench.page.frames())
      if (
        (await frame
          .locator(selector)
          .count()
          .catch(() => 0)) > 0
      )
        return true;
    return false;
  }, description);
}

async function clickCodeLens(workbench: Workbench, title: RegExp): Promise<void> {
  const lens = workbench.page.locator('.codelens-decoration a').filter({ hasText: title }).first();
  await lens.waitFor({ state: 'visible' });
  await lens.click();
}

test('the walkthrough opens by itself on the first activation, and not after a reload', async () => {
  const current = session();
  if (!current) throw new Error('the editor session did not start');
  const { workbench, server } = current;
  await workbench.page.locator(WALKTHROUGH_TAB).waitFor();
  await workbench.page.locator('.gettingStartedContainer', { hasText: 'Get Started with Endpoint Studio' }).waitFor();
  await workbench.screenshot('walkthrough--first-activation');
  await workbench.reset();
  // Closed before the reload, or the new window may restore the tab (VS Code 1.139 labels it Welcome).
  await workbench.page.locator(WALKTHROUGH_TAB).waitFor({ state: 'detached' });
  // The first activation runs to its end (its language server started) before the window reloads.
  const activations = () => (extensionLog(server).match(/activated in/g) ?? []).length;
  await waitUntil(
    () => activations() === 1,
    'the first activation to finish',
    () => extensionLog(server),
    START_TIMEOUT_MS,
  );
  // A reload is a new extension host: the extension activates again but remembers the walkthrough was shown.
  // The editor's own Reload Window, not the browser's: it saves the closed tab before it reloads, where a page
  // reload may leave the tab to be restored.
  await workbench.runCommand('Developer: Reload Window');
  await waitUntil(
    () => activations() === 2,
    'the second activation',
    () => extensionLog(server),
    START_TIMEOUT_MS,
  );
  await workbench.page.locator(`.statusbar-item[id$="${PROFILE_STATUS_ITEM}"]`).waitFor({ timeout: START_TIMEOUT_MS });
  assert.equal(extensionLog(server).split(FIRST_OPEN_LINE).length - 1, 1, extensionLog(server));
  const tabs = await workbench.page
    .locator('.tab')
    .evaluateAll((els) => (els as unknown as PageNode[]).map((e) => e.getAttribute('aria-label')));
  assert.equal(await workbench.page.locator(WALKTHROUGH_TAB).count(), 0, `tabs after the reload: ${tabs.join(', ')}`);
});

editorTest('each step is checked once it is done, on the local emulator', async (workbench, { workspace }) => {
  const page = workbench.page;
  await stepButton(workbench, 'connect', 'Use Local Emulator');
  await workbench.notification(/Using the local emulator at/);
  await stepCompleted(workbench, 'connect');

  await workbench.runCommand('Endpoint Studio: New Endpoint Spec');
  await workbench.pickQuickInputRow('Queue endpoint on GPU');
  await workbench.answerInput('walkthrough-starter');
  await workbench.waitForActiveEditor('walkthrough-starter.endpoint.yaml');
  await stepCompleted(workbench, 'createSpec');

  await workbench.openNewFile(
    workspace,
    'walkthrough-fix.endpoint.yaml',
    readFileSync(join(EXAMPLES_DIR, 'broken-worker.endpoint.yaml'), 'utf8'),
  );
  await workbench.problems('walkthrough-fix.endpoint.yaml', (rows) => rows.some((p) => p.code === 'unknown-property'), 'the misspelt key');
  await workbench.goTo(10, 4);
  await workbench.applyQuickFix('Rename to idleTimeout');
  await workbench.waitForEditorText(/^ {2}idleTimeout: 10$/m);
  await stepCompleted(workbench, 'quickFix');

  // A worker that stays up, so its logs can be opened after the job.
  const spec = readFileSync(join(EXAMPLES_DIR, 'sdxl-worker.endpoint.yaml'), 'utf8')
    .replace(/^name: sdxl-worker$/m, 'name: walkthrough-worker')
    .replace(/^ {2}min: 0$/m, '  min: 1');
  assert.match(spec, /^ {2}min: 1$/m, 'the example spec still says workers.min: 0');
  await workbench.openNewFile(workspace, 'walkthrough-worker.endpoint.yaml', spec);
  await clickCodeLens(workbench, /Deploy/);
  assert.match(await workbench.answerDialog('Create'), /Create endpoint "walkthrough-worker"/);
  await page
    .locator('.codelens-decoration')
    .filter({ hasText: /Deployed as/ })
    .first()
    .waitFor({ timeout: START_TIMEOUT_MS });
  await stepCompleted(workbench, 'deploy');

  // Beside the spec it was deployed from, a request file runs on that endpoint.
  await workbench.openNewFile(workspace, 'walkthrough-worker.request.json', '{ "input": { "prompt": "a lighthouse at dusk" } }\n');
  await clickCodeLens(workbench, /Run on walkthrough-worker/);
  await page.locator('.editor-instance .view-lines', { hasText: '"status": "COMPLETED"' }).first().waitFor();
  await stepCompleted(workbench, 'runJob');

  // From the step's own button, as a user following the walkthrough would.
  await stepButton(workbench, 'workerLogs', 'Open Worker Logs');
  await workbench.pickQuickInputRow('walkthrough-worker');
  // Chosen by its label, the worker's id (the row's text runs label, status and GPU together).
  const firstWorker = page.locator('.quick-input-widget .monaco-list-row').first();
  await firstWorker.waitFor();
  await workbench.pickQuickInputRow((await firstWorker.getAttribute('aria-label'))?.split(', ')[0] ?? '');
  await frameShowing(workbench, '#lines[role="log"]', 'the Logs panel');
  await stepCompleted(workbench, 'workerLogs');

  await stepButton(workbench, 'billing', 'Open Billing Chart');
  // The chart's webview takes the focus once loaded, which would close a Command Palette opened before.
  await frameShowing(workbench, '#table', 'the billing chart');
  await stepCompleted(workbench, 'billing');

  await showWalkthrough(workbench);
  const checked = await page.locator(`[data-done-step-id^="${WALKTHROUGH}#"].codicon-getting-started-step-checked`).count();
  assert.equal(checked, 7, 'every step of the walkthrough is checked');
});
