/**
 * Rolling back from the Endpoints view in a real workbench, against an emulator started here. Each test has an
 * endpoint of its own with two releases (a spec deployed and bound, its image changed and deployed again):
 * **Roll Back to This Release** on the older release shows the plan, applies it once confirmed (read back
 * through the API) and offers the bound spec release 1's configuration, which lands in its editor unsaved; from
 * the Command Palette the release is asked for, newest first with what each changed; a rollback to the release
 * the endpoint is on is refused with the reason.
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
import { useEditorSession, type EditorSessionOptions } from './support/session';
import { collapseAll, contextAction, expandRow, refreshEndpoints, rowText, showEndpointStudio, treeRow } from './support/views';
import { waitUntil, type Workbench } from './support/workbench';

let emulator: RunningEmulator;
let api: ApiClient;
after(() => emulator.close());
const { editorTest } = useEditorSession('rollback', async (): Promise<EditorSessionOptions> => {
  emulator = await startEmulator({ port: 0, jobsPort: 0 });
  api = createApiClient({ apiUrl: emulator.restUrl, jobsUrl: emulator.jobsUrl, apiKey: DEFAULT_DEV_API_KEY });
  return {
    env: { ENDPOINT_STUDIO_API_KEY: DEFAULT_DEV_API_KEY },
    userSettings: {
      'endpointStudio.api.url': emulator.restUrl,
      'endpointStudio.api.jobsUrl': emulator.jobsUrl,
      // VS Code in a browser saves edits after a second by default; the desktop's default keeps them unsaved.
      'files.autoSave': 'off',
    },
  };
});

const imageOf = (name: string, version: string): string => `myorg/${name}:${version}`;

/**
 * The sdxl-worker example as `<name>.endpoint.yaml`, deployed and bound (release 1, image 1.4.2), then with its
 * image changed to 1.5.0 in the file and on the endpoint (release 2), as a second deploy leaves them.
 */
async function endpointWithTwoReleases(workspace: string, name: string): Promise<{ file: string; endpointId: string }> {
  const file = `${name}.endpoint.yaml`;
  const example = readFileSync(join(EXAMPLES_DIR, 'sdxl-worker.endpoint.yaml'), 'utf8').replace(/^name: sdxl-worker$/m, `name: ${name}`);
  const first = example.replace(/^image: .*$/m, `image: ${imageOf(name, '1.4.2')}`);
  const endpoint = await api.serverless.create(parseYaml(first) as CreateEndpointRequest);
  const bound = updateBindings(workspace, (store) =>
    withBinding(store, file, 0, { endpointId: endpoint.id, endpointName: name, deployedAt: new Date().toISOString() }),
  );
  assert.ok(bound.ok, JSON.stringify(bound));
  writeFileSync(join(workspace, file), first.replace(imageOf(name, '1.4.2'), imageOf(name, '1.5.0')));
  await api.serverless.update(endpoint.id, { image: imageOf(name, '1.5.0') });
  assert.deepEqual(
    (await api.serverless.releases(endpoint.id)).releases.map((r) => r.version),
    [2, 1],
  );
  return { file, endpointId: endpoint.id };
}

/**
 * Presses a button of the notification whose text matches. From the notification centre, where it stays until
 * answered: its toast hides after a few seconds, which a slow step before may have outlasted.
 */
async function answerNotification(workbench: Workbench, text: RegExp, button: string): Promise<void> {
  await workbench.runCommand('Notifications: Show Notifications');
  const item = workbench.page.locator('.notifications-center .notification-list-item').filter({ hasText: text }).first();
  await item.waitFor({ state: 'visible' });
  await workbench.screenshot('rollback--offer');
  await item
    .locator('a.monaco-button, button')
    .filter({ hasText: new RegExp(`^${button}$`) })
    .first()
    .click();
  await item.waitFor({ state: 'hidden' });
}

/** Shows the endpoint's releases in a freshly read tree, every other endpoint folded. */
async function showReleases(workbench: Workbench, name: string): Promise<void> {
  await showEndpointStudio(workbench);
  await refreshEndpoints(workbench, name);
  await collapseAll(workbench, 'Endpoints');
  await expandRow(workbench, 'Endpoints', name);
  await expandRow(workbench, 'Endpoints', /^Releases/);
  await treeRow(workbench, 'Endpoints', /^v1/).waitFor();
}

editorTest('Roll Back to This Release on the older release restores its image and offers it to the spec', async (workbench, session) => {
  const name = 'rollback-worker';
  const { file, endpointId } = await endpointWithTwoReleases(session.workspace, name);
  await showReleases(workbench, name);
  assert.match(await rowText(workbench, 'Endpoints', /^v2/), /^v2 MANUAL · image · /);
  await expandRow(workbench, 'Endpoints', /^v2/);
  await treeRow(workbench, 'Endpoints', `image: ${imageOf(name, '1.4.2')} → ${imageOf(name, '1.5.0')}`).waitFor();

  await contextAction(workbench, /^v1/, 'Roll Back to This Release');
  // The plan as a deploy's: the live ↔ release diff behind a modal holding the plan.
  const dialog = workbench.page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible' });
  await workbench.page.locator('.tab', { hasText: `${name}: live ↔ release 1` }).waitFor();
  await workbench.screenshot('rollback--plan');
  const plan = await workbench.answerDialog('Roll Back');
  assert.match(plan, new RegExp(`Roll back ${name} from release 2 to release 1\\?`));
  assert.ok(plan.includes(`~ image: "${imageOf(name, '1.5.0')}" → "${imageOf(name, '1.4.2')}"`), plan);
  assert.match(plan, /update endpoint \w+ "rollback-worker": 1 change/);

  await workbench.notification(new RegExp(`Rolled back ${name} \\(${endpointId}\\) to release 1: read back and verified`));
  await waitUntil(async () => (await api.serverless.get(endpointId)).image === imageOf(name, '1.4.2'), "release 1's image on the emulator");
  const releases = await api.serverless.releases(endpointId);
  assert.deepEqual(
    releases.releases.map((r) => r.version),
    [3, 2, 1],
    'the rollback is a release of its own',
  );

  // The spec still says 1.5.0: it is offered release 1, and takes it only when asked to.
  await answerNotification(
    workbench,
    new RegExp(`Write the configuration of release 1 into ${file}\\? It differs in image`),
    'Update the spec',
  );
  await workbench.waitForActiveEditor(file);
  const text = await workbench.waitForEditorText(new RegExp(`image: ${imageOf(name, '1.4.2')}`));
  assert.doesNotMatch(text, /1\.5\.0/);
  // Applied, not saved: the tab is dirty and the file on disk still holds release 2's image; undo takes it back.
  await workbench.page.locator(`.tab.active.dirty[data-resource-name="${file}"]`).waitFor();
  assert.match(readFileSync(join(session.workspace, file), 'utf8'), new RegExp(`image: ${imageOf(name, '1.5.0')}`));
  await workbench.screenshot('rollback--spec-updated');
  await workbench.focusEditor();
  await workbench.page.keyboard.press('Control+Z');
  await workbench.waitForEditorText(new RegExp(`image: ${imageOf(name, '1.5.0')}`));
});

editorTest('from the Command Palette it asks which release, newest first with what each changed', async (workbench, session) => {
  const name = 'palette-worker';
  await endpointWithTwoReleases(session.workspace, name);
  await showReleases(workbench, name);
  // The endpoint selected: the command acts on it and asks for the release.
  await treeRow(workbench, 'Endpoints', name).click();
  await workbench.runCommand('Endpoint Studio: Roll Back to This Release');
  let rows: string[] = [];
  await waitUntil(
    async () => (rows = await workbench.quickInputRows()).some((row) => row.startsWith('v1')),
    'the releases to pick from',
    () => rows.join(' | '),
  );
  // The endpoint is on release 2: only release 1 is offered, with what it changed, its source and time.
  assert.equal(rows.length, 1, rows.join('\n'));
  assert.match(rows[0], /^v1\s*initial\s*MANUAL · \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
  await workbench.screenshot('rollback--pick-release');
  await workbench.page.keyboard.press('Escape');
});

editorTest('a rollback to the release the endpoint is on is refused, with the reason', async (workbench, session) => {
  const name = 'current-worker';
  const { endpointId } = await endpointWithTwoReleases(session.workspace, name);
  await showReleases(workbench, name);
  await contextAction(workbench, /^v2/, 'Roll Back to This Release');
  await workbench.notification(/rollback failed: .*version 2 is already the current configuration/);
  assert.equal((await api.serverless.get(endpointId)).image, imageOf(name, '1.5.0'), 'nothing was changed');
});
