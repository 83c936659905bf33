/**
 * Deploy from the editor against the emulator: the CodeLens creates the endpoint after a confirmed
 * plan, the binding is written, an edit turns the lens into an update of exactly that change. The
 * update starts from a spec of its own, deployed and bound before the editor opens it, so it does not
 * depend on the create test having run.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { createApiClient, type ApiClient, type CreateEndpointRequest } from '../../core/api';
import { updateBindings, withBinding } from '../../core/deploy';
import { startEmulator, DEFAULT_DEV_API_KEY, type RunningEmulator } from '../../emulator/index';
import { EXAMPLES_DIR } from '../../scripts/editor/paths';
import { extensionLog, runningLanguageServerEnvironment } from './support/editorProcesses';
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

/** Writes a copy of the sdxl-worker example named `name`, deploys it and binds it, as an earlier deploy would have. */
async function deployedSpec(workspace: string, name: string): Promise<{ file: string; endpointId: string }> {
  const file = `${name}.endpoint.yaml`;
  const text = readFileSync(join(EXAMPLES_DIR, 'sdxl-worker.endpoint.yaml'), 'utf8').replace(/^name: sdxl-worker$/m, `name: ${name}`);
  writeFileSync(join(workspace, file), text);
  const endpoint = await api.serverless.create(parseYaml(text) as CreateEndpointRequest);
  const bound = updateBindings(workspace, (store) =>
    withBinding(store, file, 0, { endpointId: endpoint.id, endpointName: name, deployedAt: new Date().toISOString() }),
  );
  assert.ok(bound.ok, JSON.stringify(bound));
  return { file, endpointId: endpoint.id };
}

async function clickCodeLens(workbench: Workbench, title: RegExp): Promise<void> {
  const lens = workbench.page.locator('.contentWidgets .codelens-decoration a, .codelens-decoration a').filter({ hasText: title }).first();
  await lens.waitFor({ state: 'visible' });
  await lens.click();
}

editorTest('Deploy from the CodeLens creates the endpoint and binds the spec', async (workbench, session) => {
  await workbench.openFile('sdxl-worker.endpoint.yaml');
  await clickCodeLens(workbench, /Deploy/);
  const plan = await workbench.answerDialog('Create');
  assert.match(plan, /Create endpoint "sdxl-worker"/);
  assert.match(plan, /\+ gpu\.pools/);
  await waitUntil(async () => (await api.serverless.list()).some((e) => e.name === 'sdxl-worker'), 'the endpoint to exist on the emulator');
  await waitUntil(() => {
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

editorTest('an edit turns the lens into an update of exactly that change', async (workbench, session) => {
  const { file, endpointId } = await deployedSpec(session.workspace, 'update-worker');
  await workbench.openNewFile(session.workspace, file, readFileSync(join(session.workspace, file), 'utf8'));
  await workbench.page
    .locator('.codelens-decoration')
    .filter({ hasText: /Deployed as/ })
    .first()
    .waitFor({ state: 'visible' });
  await workbench.goTo(10, 3);
  await workbench.page.keyboard.press('Shift+End');
  await workbench.page.keyboard.type('max: 5');
  await workbench.waitForEditorText(/max: 5/);
  await clickCodeLens(workbench, /Update/);
  const plan = await workbench.answerDialog('Update');
  assert.match(plan, /workers\.max: 3 → 5/);
  await waitUntil(async () => (await api.serverless.get(endpointId)).workers.max === 5, 'workers.max to be 5 on the emulator');
  const releases = await api.serverless.releases(endpointId);
  assert.ok(JSON.stringify(releases).includes('workersMax'), 'the release records the field diff');
  await workbench.page
    .locator('.codelens-decoration')
    .filter({ hasText: /Deployed as/ })
    .first()
    .waitFor({ state: 'visible' });
});

editorTest(
  'the language server reads the live catalog with the profile, whose key is not in its starting environment',
  async (workbench, session) => {
    await workbench.openFile('sdxl-worker.endpoint.yaml');
    // The profile reaches the server over the fork's IPC channel (core/protocol/serverStart.ts).
    await waitUntil(
      () => /GET \S*\/v2\/catalog\/gpus\S* 200/.test(extensionLog(session.server)),
      'the live catalog read with the key',
      () => extensionLog(session.server),
    );
    const environment = await runningLanguageServerEnvironment(session.server);
    for (const name of ['ENDPOINT_STUDIO_API_KEY', 'RUNPOD_API_KEY', 'ENDPOINT_STUDIO_API_URL'])
      assert.equal(environment.get(name)?.trim() ?? '', '', `${name} is in the server's starting environment`);
    assert.ok(![...environment.values()].some((value) => value.includes(DEFAULT_DEV_API_KEY)), 'the key is in no variable');
  },
);
