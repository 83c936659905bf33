/**
 * The README's pictures, taken from the real extension in code-server against the emulator's demo state
 * (a month of billing, a worker writing logs). Each test checks that its screen shows what the picture is
 * meant to show before taking it, so a picture can never be of a broken screen. Every run leaves them in
 * .test-output/screenshots/; `npm run pictures` sets ENDPOINT_STUDIO_PICTURES=1, which also writes them
 * to docs/images/, where README.md links them.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after } from 'node:test';
import { createApiClient } from '../../core/api';
import { startEmulator, DEFAULT_DEV_API_KEY, type RunningEmulator } from '../../emulator/index';
import { bindDemo } from '../../scripts/demo';
import { EXAMPLES_DIR, REPO_ROOT } from '../../scripts/editor/paths';
import { useEditorSession, type EditorSessionOptions } from './support/session';
import { expandRow, refreshEndpoints, rowText, showEndpointStudio, treeRow } from './support/views';
import { waitUntil, type Workbench } from './support/workbench';

const PICTURES_DIR = join(REPO_ROOT, 'docs', 'images');
const WRITE_PICTURES = process.env.ENDPOINT_STUDIO_PICTURES === '1';

let emulator: RunningEmulator;
after(() => emulator.close());
const { editorTest } = useEditorSession('pictures', async (): Promise<EditorSessionOptions> => {
  emulator = await startEmulator({ port: 0, jobsPort: 0, demo: true });
  return {
    env: { ENDPOINT_STUDIO_API_KEY: DEFAULT_DEV_API_KEY },
    userSettings: { 'endpointStudio.api.url': emulator.restUrl, 'endpointStudio.api.jobsUrl': emulator.jobsUrl },
  };
});

/** Takes the picture; with ENDPOINT_STUDIO_PICTURES=1 it also becomes docs/images/<name>.png. */
async function picture(workbench: Workbench, name: string): Promise<void> {
  const taken = await workbench.screenshot(`pictures--${name}`);
  if (!WRITE_PICTURES) return;
  mkdirSync(PICTURES_DIR, { recursive: true });
  copyFileSync(taken, join(PICTURES_DIR, `${name}.png`));
}

/** Waits until a webview frame shows `selector` and returns that frame's text. */
async function webviewText(workbench: Workbench, selector: string, until: (text: string) => boolean, description: string): Promise<string> {
  let text = '';
  await waitUntil(
    async () => {
      for (const frame of workbench.page.frames()) {
        const found = frame.locator(selector);
        if ((await found.count().catch(() => 0)) === 0) continue;
        text = await found.first().innerText();
        if (until(text)) return true;
      }
      return false;
    },
    description,
    () => text,
  );
  return text;
}

async function hidePanel(workbench: Workbench): Promise<void> {
  if (await workbench.page.locator('.part.panel').isVisible()) await workbench.runCommand('View: Hide Panel');
}

editorTest('overview: the problems of a broken spec', async (workbench) => {
  await workbench.openFile('broken-worker.endpoint.yaml');
  const problems = await workbench.problems('broken-worker.endpoint.yaml', (rows) => rows.length >= 4, 'the four problems');
  assert.ok(problems.some((p) => p.message.includes('did you mean idleTimeout')));
  await workbench.focusEditor();
  await picture(workbench, 'overview');
});

editorTest('completion: GPU pools from the catalog, with VRAM and prices', async (workbench, session) => {
  await hidePanel(workbench);
  const text = readFileSync(join(EXAMPLES_DIR, 'sdxl-worker.endpoint.yaml'), 'utf8');
  await workbench.openNewFile(session.workspace, 'completion-worker.endpoint.yaml', text);
  const line = text.split('\n').findIndex((l) => l.trim().startsWith('pools:'));
  assert.ok(line >= 0, 'the example spec lists GPU pools');
  // Inside the list, after the first pool and its comma: what else could go there.
  const column = (text.split('\n')[line] ?? '').indexOf(',') + 2;
  await workbench.goTo(line + 1, column + 1);
  const labels = await workbench.suggestions(['AMPERE_48', 'ADA_48_PRO']);
  assert.ok(labels.length >= 5, labels.join(', '));
  // Each row says what the catalog says about the pool: VRAM, GPU types and the price range.
  const details = await workbench.page.locator('.suggest-widget.visible .monaco-list-row .details-label').allTextContents();
  assert.ok(
    details.some((text) => /\d+ GB .*\$\d/.test(text)),
    details.join(' | '),
  );
  await picture(workbench, 'completion');
  await workbench.page.keyboard.press('Escape');
});

editorTest('deploy plan: the diff of an update, to confirm', async (workbench, session) => {
  await hidePanel(workbench);
  const api = createApiClient({ apiUrl: emulator.restUrl, jobsUrl: emulator.jobsUrl, apiKey: DEFAULT_DEV_API_KEY });
  const seeded = emulator.demo?.endpoints ?? {};
  await bindDemo(api, session.workspace, { 'sdxl-worker.endpoint.yaml': seeded['sdxl-worker.endpoint.yaml'] ?? '' });
  await workbench.openFile('sdxl-worker.endpoint.yaml');
  await workbench.page
    .locator('.codelens-decoration')
    .filter({ hasText: /Deployed as/ })
    .first()
    .waitFor();
  const text = await workbench.editorText();
  const maxLine = text.split('\n').findIndex((l) => /^\s*max: 3$/.test(l) || /max: 3/.test(l));
  assert.ok(maxLine >= 0, text);
  await workbench.goTo(maxLine + 1, (text.split('\n')[maxLine] ?? '').indexOf('3') + 1);
  await workbench.page.keyboard.press('Delete');
  await workbench.page.keyboard.type('5');
  const lens = workbench.page
    .locator('.codelens-decoration a')
    .filter({ hasText: /Update .*live differs/ })
    .first();
  await lens.waitFor();
  await lens.click();
  const dialog = workbench.page.locator('.monaco-dialog-box');
  await dialog.waitFor();
  assert.match(await dialog.innerText(), /workers\.max/);
  await workbench.page.locator('.monaco-diff-editor').first().waitFor();
  await picture(workbench, 'deploy-plan');
  await workbench.answerDialog('Cancel');
});

editorTest('logs: the demo worker writing its log lines', async (workbench) => {
  await workbench.runCommand('Endpoint Studio: Open Endpoint Logs');
  await workbench.pickQuickInputRow('sdxl-worker');
  // Once the webview has loaded (it takes the focus, which would close a palette opened earlier), the whole
  // window for the panel, so the picture is of log lines rather than an empty editor area.
  await webviewText(workbench, '#lines[role="log"]', (t) => t.trim() !== '', 'the first log line');
  await workbench.runCommand('View: Toggle Maximized Panel');
  try {
    const lines = await webviewText(workbench, '#lines[role="log"]', (t) => t.split('\n').length >= 30, 'thirty log lines');
    // Each line is tagged [<worker>/<source>].
    assert.match(lines, /\[\w+\/(container|system)\]/);
    await picture(workbench, 'logs');
  } finally {
    await workbench.runCommand('View: Toggle Maximized Panel');
  }
});

editorTest('billing: a month of the demo endpoints, by day', async (workbench) => {
  await hidePanel(workbench);
  await workbench.runCommand('Endpoint Studio: Open Billing Chart');
  const chart = await webviewText(workbench, 'body', (t) => /billing: \$\d/.test(t) && t.includes('sdxl-worker'), 'the billing chart');
  assert.match(chart, /http-service/);
  await picture(workbench, 'billing');
});

editorTest('endpoints: the demo endpoints with a live worker and two releases', async (workbench) => {
  await hidePanel(workbench);
  await showEndpointStudio(workbench);
  await refreshEndpoints(workbench, 'sdxl-worker');
  await treeRow(workbench, 'Endpoints', /^http-service/).waitFor();
  await expandRow(workbench, 'Endpoints', /^sdxl-worker/);
  await expandRow(workbench, 'Endpoints', /^Workers/);
  assert.match(await rowText(workbench, 'Endpoints', /(IDLE|RUNNING) · NVIDIA/), /(IDLE|RUNNING) · NVIDIA .+ · [A-Z]{2}-/);
  await expandRow(workbench, 'Endpoints', /^Releases/);
  assert.match(await rowText(workbench, 'Endpoints', /^v2/), /^v2 .*image/);
  await treeRow(workbench, 'Endpoints', /^v1/).waitFor();
  await expandRow(workbench, 'Endpoints', /^v2/);
  await treeRow(workbench, 'Endpoints', /^image: .+1\.4\.1 → .+1\.4\.2$/).waitFor();
  await widenSideBar(workbench, 760);
  await picture(workbench, 'endpoints');
});

/** Drags the side bar's edge, so a tree's rows show whole in the picture. */
async function widenSideBar(workbench: Workbench, width: number): Promise<void> {
  const box = await workbench.page.locator('.part.sidebar').boundingBox();
  if (!box) return;
  const y = box.y + box.height / 2;
  await workbench.page.mouse.move(box.x + box.width - 1, y);
  await workbench.page.mouse.down();
  await workbench.page.mouse.move(box.x + width, y, { steps: 5 });
  await workbench.page.mouse.up();
  // Off the edge, which stays highlighted while the pointer is on it.
  await workbench.page.mouse.move(box.x + width / 2, box.y + box.height - 10);
}
