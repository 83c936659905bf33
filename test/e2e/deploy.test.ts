/**
 * Deploy from the editor against the emulator: the CodeLens creates the endpoint after a confirmed
 * plan, the binding is written, an edit turns the lens into an update of exactly that change.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after } from 'node:test';
import { createApiClient, type ApiClient } from '../../core/api';
import { startEmulator, DEFAULT_DEV_API_KEY, type RunningEmulator } from '../../emulator/index';
import { useEditorSession, type EditorSessionOptions } from './support/session';
import { waitUntil, type Workbench } from './support/workbench';

let emulator: RunningEmulator;
let api: ApiClient;
after(() => emulator.close());
const { editorTest } = useEditorSession('deploy', async (): Promise<EditorSessionOptions> => {
  emulator = await startEmulator({ port: 0, jobsPort: 0 });
  api = createApiClient({ apiUrl: emulator.restUrl, jobsUrl: emulator.jobsUrl, apiKey: DEFAULT_DEV_API_KEY });
  // The extension falls back to a key in its environment when no profile is stored.
  return {
    env: { ENDPOINT_STUDIO_API_KEY: DEFAULT_DEV_API_KEY },
    userSettings: { 'endpointStudio.api.url': emulator.restUrl, 'endpointStudio.api.jobsUrl': emulator.jobsUrl },
  };
});

async function clickCodeLens(workbench: Workbench, title: RegExp): Promise<void> {
  const lens = workbench.page.locator('.contentWidgets .codelens-decoration a, .codelens-decoration a').filter({ hasText: title }).first();
  await lens.waitFor({ state: 'visible' });
  await lens.click();
}

async function confirmModal(workbench: Workbench, button: string): Promise<string> {
  const dialog = workbench.page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible' });
  const text = (await dialog.innerText()).trim();
  await dialog
    .locator('a.monaco-button, button')
    .filter({ hasText: new RegExp(`^${button}$`) })
    .first()
    .click();
  return text;
}

editorTest('Deploy from the CodeLens creates the endpoint and binds the spec', async (workbench, session) => {
  await workbench.openFile('sdxl-worker.endpoint.yaml');
  await clickCodeLens(workbench, /Deploy/);
  const plan = await confirmModal(workbench, 'Create');
  assert.match(plan, /Create endpoint "sdxl-worker"/);
  assert.match(plan, /\+ gpu\.pools/);
  await waitUntil(async () => (await api.serverless.list()).some((e) => e.name === 'sdxl-worker'), 'the endpoint to exist on the emulator');
  await waitUntil(async () => {
    try {
      return /"endpointId"/.test(readFileSync(join(session.workspace, '.endpoint-studio', 'deployments.json'), 'utf8'));
    } catch {
      return false;
    }
  }, 'the binding file to be written');
  await workbench.page
    .locator('.codelens-decoration')
    .filter({ hasText: /Deployed as/ })
    .first()
    .waitFor({ state: 'visible' });
});

editorTest('an edit turns the lens into an update of exactly that change', async (workbench) => {
  await workbench.openFile('sdxl-worker.endpoint.yaml');
  const [endpoint] = (await api.serverless.list()).filter((e) => e.name === 'sdxl-worker');
  await workbench.goTo(10, 3);
  await workbench.page.keyboard.press('Shift+End');
  await workbench.page.keyboard.type('max: 5');
  await workbench.waitForEditorText(/max: 5/);
  await clickCodeLens(workbench, /Update/);
  const plan = await confirmModal(workbench, 'Update');
  assert.match(plan, /workers\.max: 3 → 5/);
  await waitUntil(async () => (await api.serverless.get(endpoint.id)).workers.max === 5, 'workers.max to be 5 on the emulator');
  const releases = await api.serverless.releases(endpoint.id);
  assert.ok(JSON.stringify(releases).includes('workers.max'), 'the release records the field diff');
  await workbench.page
    .locator('.codelens-decoration')
    .filter({ hasText: /Deployed as/ })
    .first()
    .waitFor({ state: 'visible' });
});
