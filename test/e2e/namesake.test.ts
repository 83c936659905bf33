/**
 * The namesake guard in the editor, against the emulator: deploying an unbound spec whose name an
 * endpoint already carries asks first. Choosing to update that endpoint updates it to the spec and
 * binds the spec to it, with no second endpoint of that name; cancelling creates and changes nothing.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { createApiClient, type ApiClient, type CreateEndpointRequest, type Endpoint } from '../../core/api';
import { startEmulator, DEFAULT_DEV_API_KEY, type RunningEmulator } from '../../emulator/index';
import { EXAMPLES_DIR } from '../../scripts/editor/paths';
import { useEditorSession, type EditorSessionOptions } from './support/session';
import { logLinesMatching } from './support/editorProcesses';
import { escapeRegExp, PROFILE_STATUS_ITEM, waitUntil, type Workbench } from './support/workbench';

let emulator: RunningEmulator;
let api: ApiClient;
after(() => emulator.close());
const { editorTest } = useEditorSession('namesake', async (): Promise<EditorSessionOptions> => {
  emulator = await startEmulator({ port: 0, jobsPort: 0 });
  api = createApiClient({ apiUrl: emulator.restUrl, jobsUrl: emulator.jobsUrl, apiKey: DEFAULT_DEV_API_KEY });
  return {
    env: { ENDPOINT_STUDIO_API_KEY: DEFAULT_DEV_API_KEY },
    userSettings: { 'endpointStudio.api.url': emulator.restUrl, 'endpointStudio.api.jobsUrl': emulator.jobsUrl },
  };
});

/** The sdxl-worker example renamed to `name`: the spec text (unbound), and an endpoint of that name that differs from it in workers.max. */
async function namesake(name: string): Promise<{ file: string; text: string; spec: CreateEndpointRequest; existing: Endpoint }> {
  const text = readFileSync(join(EXAMPLES_DIR, 'sdxl-worker.endpoint.yaml'), 'utf8').replace(/^name: sdxl-worker$/m, `name: ${name}`);
  const spec = parseYaml(text) as CreateEndpointRequest;
  const existing = await api.serverless.create({ ...spec, workers: { min: 0, max: 1, idleTimeout: 10 } });
  return { file: `${name}.endpoint.yaml`, text, spec, existing };
}

/** Deploys the open spec from its CodeLens, once the session runs on the key from the environment. */
async function deployFromLens(workbench: Workbench): Promise<void> {
  await workbench.page
    .locator(`.statusbar-item[id$="${PROFILE_STATUS_ITEM}"]`)
    .filter({ hasText: /environment/ })
    .waitFor();
  const lens = workbench.page
    .locator('.contentWidgets .codelens-decoration a, .codelens-decoration a')
    .filter({ hasText: /Deploy(?!ed)/ })
    .first();
  await lens.waitFor({ state: 'visible' });
  await lens.click();
}

function bindingsText(workspace: string): string {
  try {
    return readFileSync(join(workspace, '.endpoint-studio', 'deployments.json'), 'utf8');
  } catch {
    return '';
  }
}

/** What a deploy could change. */
const settings = (e: Endpoint): unknown => ({
  image: e.image,
  gpu: e.gpu,
  workers: e.workers,
  scaling: e.scaling,
  env: e.env,
  timeout: e.timeout,
});

const named = async (name: string): Promise<Endpoint[]> => (await api.serverless.list()).filter((e) => e.name === name);

editorTest(
  'updating the namesake updates it to the spec, binds the spec, and leaves one endpoint of that name',
  async (workbench, session) => {
    const { file, text, spec, existing } = await namesake('twin-worker');
    await workbench.openNewFile(session.workspace, file, text);
    await deployFromLens(workbench);
    const question = await workbench.answerDialog(`Update ${existing.id} and bind`);
    assert.match(
      question,
      new RegExp(escapeRegExp(`An endpoint named "twin-worker" already exists (${existing.id}) and this spec is not bound to it.`)),
    );
    assert.match(question, /Create another/);
    const plan = await workbench.answerDialog('Update');
    assert.match(plan, /Update endpoint "twin-worker"/);
    assert.match(plan, /workers\.max: 1 → 3/);
    assert.match(plan, /The spec will be bound to this endpoint\./);
    const message = await workbench.notification(new RegExp(escapeRegExp(`Updated twin-worker (${existing.id}) and bound the spec to it`)));
    assert.match(message, /read back and verified/);

    const live = await api.serverless.get(existing.id);
    assert.equal(live.workers.max, spec.workers?.max, 'the endpoint now has the spec’s workers.max');
    assert.deepEqual(live.gpu?.pools, spec.gpu?.pools);
    assert.deepEqual(
      (await named('twin-worker')).map((e) => e.id),
      [existing.id],
      'still exactly one endpoint of that name',
    );
    const bindings = JSON.parse(bindingsText(session.workspace)) as { deployments: Record<string, Record<string, { endpointId: string }>> };
    assert.equal(bindings.deployments[file]['0'].endpointId, existing.id);
    await workbench.page
      .locator('.codelens-decoration')
      .filter({ hasText: 'Deployed as twin-worker' })
      .first()
      .waitFor({ state: 'visible' });
  },
);

editorTest('cancelling the namesake question creates nothing, changes nothing and binds nothing', async (workbench, session) => {
  const { file, text, existing } = await namesake('cancel-worker');
  await workbench.openNewFile(session.workspace, file, text);
  const cancelled = /deploy stopped: cancelled at the namesake question/;
  const before = logLinesMatching(session.server, cancelled);
  await deployFromLens(workbench);
  const question = await workbench.answerDialog('Cancel');
  assert.match(question, new RegExp(escapeRegExp(`An endpoint named "cancel-worker" already exists (${existing.id})`)));
  // The deploy's last step is its log line: whatever it did, it has done by then.
  await waitUntil(() => logLinesMatching(session.server, cancelled) > before, 'the cancelled deploy to end');
  assert.equal(await workbench.page.locator('.monaco-dialog-box').count(), 0, 'no further question');
  assert.deepEqual(
    (await named('cancel-worker')).map((e) => e.id),
    [existing.id],
    'no endpoint created',
  );
  assert.deepEqual(settings(await api.serverless.get(existing.id)), settings(existing), 'the namesake is unchanged');
  assert.ok(!bindingsText(session.workspace).includes(file), 'the spec stays unbound');
  await workbench.page
    .locator('.codelens-decoration')
    .filter({ hasText: /Deploy/ })
    .first()
    .waitFor({ state: 'visible' });
  assert.equal(
    await workbench.page
      .locator('.codelens-decoration')
      .filter({ hasText: /Deployed as/ })
      .count(),
    0,
  );
});

editorTest(
  'a change made outside is named before a deploy, and Keep the Live Values writes it into the spec',
  async (workbench, session) => {
    const file = 'outside-worker.endpoint.yaml';
    const text = readFileSync(join(EXAMPLES_DIR, 'sdxl-worker.endpoint.yaml'), 'utf8').replace(
      /^name: sdxl-worker$/m,
      'name: outside-worker',
    );
    await workbench.openNewFile(session.workspace, file, text);
    await deployFromLens(workbench);
    await workbench.answerDialog('Create');
    await workbench.notification(/Created outside-worker \(\w+\)/);
    const [created] = await named('outside-worker');
    // Changed outside, as the console would, and then the spec is edited elsewhere.
    await api.serverless.update(created.id, { workers: { min: 0, max: 7, idleTimeout: 10 } });
    writeFileSync(join(session.workspace, file), text.replace('queueDelay: 4', 'queueDelay: 6'));
    await waitUntil(async () => /queueDelay: 6/.test(await workbench.editorText()), 'the spec edited on disk in its editor');

    await workbench.runCommand('Endpoint Studio: Deploy Spec');
    const question = await workbench.answerDialog('Keep the Live Values');
    assert.match(question, /changed outside \(release \d+.*\) since the last deploy: workers\.max 3 → 7/);
    assert.match(question, /workers\.max: 3 → 7; deploying sets it back to 3/);
    await waitUntil(async () => /max: 7/.test(await workbench.editorText()), 'the live value written into the spec');
    const kept = await workbench.editorText();
    assert.match(kept, /queueDelay: 6/, 'the spec edit stays');
    assert.match(kept, /# A queue endpoint on 24 GB GPUs/, 'comments stay');
    assert.equal((await api.serverless.get(created.id)).workers.max, 7, 'nothing was sent');
    assert.deepEqual((await api.serverless.get(created.id)).scaling, { type: 'QUEUE_DELAY', queueDelay: 4 }, 'nothing was sent');
  },
);
