/**
 * Environments in the editor against the emulator: staging and prod overlays of one base deploy their merged
 * bodies to two endpoints, each bound to its overlay file; the plan's header names the environment, the profile
 * and the endpoint; an environment whose profile is not signed in is refused (nothing is created); a protected
 * environment applies only after its name is typed; Compare Environments opens VS Code's diff of two
 * environments and of one against its live endpoint, and the Endpoints view says which endpoint is which.
 * Each test writes the environments file it needs, so any one passes alone.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after } from 'node:test';
import { createApiClient, type ApiClient, type CreateEndpointRequest, type Endpoint } from '../../core/api';
import { getBinding, readBindings, updateBindings, withBinding } from '../../core/deploy';
import { mergePatch, overlayPatch } from '../../core/endpointSpec/overlay';
import { startEmulator, DEFAULT_DEV_API_KEY, type RunningEmulator } from '../../emulator/index';
import { parse as parseYaml } from 'yaml';
import { useEditorSession, type EditorSessionOptions } from './support/session';
import { refreshEndpoints, rowText } from './support/views';
import { logLinesMatching } from './support/editorProcesses';
import { formatProblems, waitUntil, type Workbench } from './support/workbench';

const STAGING = 'sdxl-worker.staging.endpoint.yaml';
const PROD = 'sdxl-worker.prod.endpoint.yaml';
/** The profile of the key in ENDPOINT_STUDIO_API_KEY, which the session below starts with. */
const ENVIRONMENT_PROFILE = 'environment';

let emulator: RunningEmulator;
let api: ApiClient;
after(() => emulator.close());
const { editorTest } = useEditorSession('environments', async (): Promise<EditorSessionOptions> => {
  emulator = await startEmulator({ port: 0, jobsPort: 0 });
  api = createApiClient({ apiUrl: emulator.restUrl, jobsUrl: emulator.jobsUrl, apiKey: DEFAULT_DEV_API_KEY });
  return {
    env: { ENDPOINT_STUDIO_API_KEY: DEFAULT_DEV_API_KEY },
    userSettings: { 'endpointStudio.api.url': emulator.restUrl, 'endpointStudio.api.jobsUrl': emulator.jobsUrl },
  };
});

function writeEnvironments(workspace: string, text: string): void {
  mkdirSync(join(workspace, '.endpoint-studio'), { recursive: true });
  writeFileSync(join(workspace, '.endpoint-studio', 'environments.yaml'), text);
}

/** The overlay merged into its base, as the test expects the endpoint to be. */
function mergedBody(workspace: string, overlay: string): Record<string, unknown> {
  const base = parseYaml(readFileSync(join(workspace, 'sdxl-worker.endpoint.yaml'), 'utf8')) as unknown;
  return mergePatch(base, overlayPatch(parseYaml(readFileSync(join(workspace, overlay), 'utf8')))) as Record<string, unknown>;
}

function boundId(workspace: string, file: string): string | undefined {
  const read = readBindings(workspace);
  return read.ok ? getBinding(read.store, file, 0)?.endpointId : undefined;
}

async function endpointNamed(name: string): Promise<Endpoint | undefined> {
  return (await api.serverless.list()).find((e) => e.name === name);
}

async function clickCodeLens(workbench: Workbench, title: RegExp): Promise<void> {
  const lens = workbench.page.locator('.codelens-decoration a').filter({ hasText: title }).first();
  await lens.waitFor({ state: 'visible' });
  await lens.click();
}

/** The language status items of the active editor (one line each), hovered until one contains `text`. */
async function languageStatusItem(workbench: Workbench, text: string): Promise<string> {
  const status = workbench.page.locator('.statusbar-item[id="status.languageStatus"]');
  let items: string[] = [];
  await waitUntil(
    async () => {
      await status.hover().catch(() => undefined);
      items = (await workbench.page.locator('.hover-language-status').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
      return items.some((item) => item.includes(text));
    },
    `a language status item with "${text}"`,
    () => items.join('\n'),
  );
  return items.find((item) => item.includes(text)) ?? '';
}

/** The title of the active editor tab (a diff's title is the one the command gave it). */
async function activeTabTitle(workbench: Workbench, expected: RegExp): Promise<string> {
  const tab = workbench.page.locator('.tab.active').filter({ hasText: expected }).first();
  await tab.waitFor({ state: 'visible' });
  return (await tab.innerText()).trim();
}

editorTest(
  'staging deploys its merged body with its profile, and the plan header names environment, profile and endpoint',
  async (workbench, session) => {
    writeEnvironments(session.workspace, `environments:\n  staging:\n    profile: ${ENVIRONMENT_PROFILE}\n`);
    await workbench.openFile(STAGING);
    await clickCodeLens(workbench, /Deploy/);
    const dialog = workbench.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible' });
    await activeTabTitle(workbench, /environment staging · profile environment · new endpoint/);
    await workbench.page.screenshot({ path: '/tmp/es-environments-plan-create.png' });
    const plan = await workbench.answerDialog('Create');
    assert.match(plan, /Create endpoint "sdxl-worker-staging"\? environment staging · profile environment · new endpoint/);
    await waitUntil(() => boundId(session.workspace, STAGING) !== undefined, 'the staging overlay to be bound');
    const id = boundId(session.workspace, STAGING) ?? '';
    const created = await api.serverless.get(id);
    const expected = mergedBody(session.workspace, STAGING);
    assert.equal(created.name, 'sdxl-worker-staging');
    assert.equal(created.image, expected.image);
    assert.deepEqual(created.gpu?.pools, ['ADA_24', 'AMPERE_24'], 'the base pools, merged in');
    assert.equal(created.workers.max, 1);
    assert.deepEqual(created.env, { LOG_LEVEL: 'debug' });
    assert.ok(!('extends' in created), 'extends is never sent');
    await workbench.page
      .locator('.codelens-decoration')
      .filter({ hasText: 'Deployed as sdxl-worker-staging (staging)' })
      .first()
      .waitFor({ state: 'visible' });

    // An edit of the base reaches staging: the next plan is an update of that endpoint, named by its id.
    const base = join(session.workspace, 'sdxl-worker.endpoint.yaml');
    writeFileSync(base, readFileSync(base, 'utf8').replace('queueDelay: 4', 'queueDelay: 6'));
    // The base says so, against what staging last deployed; prod, never deployed, has nothing pending.
    await workbench.openFile('sdxl-worker.endpoint.yaml');
    const reach = workbench.page.locator('.codelens-decoration').filter({ hasText: /staging: 1 change pending from the base/ });
    await reach.first().waitFor({ state: 'visible' });
    assert.ok(
      !/prod:/.test(
        await workbench.page
          .locator('.codelens-decoration')
          .allInnerTexts()
          .then((t) => t.join('\n')),
      ),
    );
    await workbench.openFile(STAGING);
    await workbench.runCommand('Endpoint Studio: Deploy Spec');
    await activeTabTitle(workbench, new RegExp(`environment staging · profile environment · ${id}`));
    // The plan's spec side is the body as merged now, not as the create saw it.
    const modified = workbench.page.locator('.editor-group-container.active .monaco-diff-editor .editor.modified');
    await waitUntil(async () => /queueDelay:\s6/.test(await modified.innerText()), 'the merged spec with the base edit in the plan diff');
    await workbench.page.screenshot({ path: '/tmp/es-environments-plan-update.png' });
    const update = await workbench.answerDialog('Update');
    assert.match(update, new RegExp(`Update endpoint "sdxl-worker-staging"\\? environment staging · profile environment · ${id}`));
    assert.match(update, /scaling\.queueDelay: 4 → 6/);
    await waitUntil(
      async () => JSON.stringify((await api.serverless.get(id)).scaling).includes('"queueDelay":6'),
      'queueDelay to be 6 on staging',
    );
    writeFileSync(base, readFileSync(base, 'utf8').replace('queueDelay: 6', 'queueDelay: 4'));
  },
);

editorTest('a deploy with another profile than the environment names is refused, and nothing is created', async (workbench, session) => {
  writeEnvironments(session.workspace, 'environments:\n  prod:\n    profile: nobody-here\n    protected: true\n');
  await workbench.openFile(PROD);
  const refused = /deploy stopped: no profile to deploy with/;
  const before = logLinesMatching(session.server, refused);
  await clickCodeLens(workbench, /Deploy/);
  const refusal = await workbench.answerDialog('Cancel');
  assert.match(refusal, /Deploy refused: prod deploys with profile nobody-here/);
  assert.match(refusal, /not signed in here/);
  assert.match(refusal, /Deploy with environment/, 'the other profile is offered by name, never taken silently');
  // The deploy's last step is its log line: whatever it did, it has done by then.
  await waitUntil(() => logLinesMatching(session.server, refused) > before, 'the refused deploy to end');
  assert.equal(await endpointNamed('sdxl-worker-prod'), undefined, 'no endpoint was created');
  assert.equal(boundId(session.workspace, PROD), undefined);
  // The status of the overlay says so before any deploy: its environment, its profile, not signed in here.
  await workbench.openFile(PROD);
  const status = await languageStatusItem(workbench, 'prod · nobody-here');
  assert.match(status, /profile not signed in · protected/);
  await workbench.page.screenshot({ path: '/tmp/es-environments-language-status.png' });
  await workbench.page.keyboard.press('Escape');
});

editorTest('prod deploys to its own endpoint with its own profile once its name is typed', async (workbench, session) => {
  writeEnvironments(
    session.workspace,
    'environments:\n  staging:\n    profile: environment\n  prod:\n    profile: production\n    protected: true\n',
  );
  // A second profile on the same emulator: prod's, signed in beside the key of the environment.
  const box = (title: string) => workbench.page.locator('.quick-input-widget', { hasText: title }).first().waitFor({ state: 'visible' });
  await workbench.runCommand('Endpoint Studio: Sign In');
  await box('Profile name');
  await workbench.answerInput('production');
  await box('API key for production');
  await workbench.answerInput(DEFAULT_DEV_API_KEY);
  await workbench.notification(/Signed in as profile production/);
  await workbench.openFile(PROD);
  await clickCodeLens(workbench, /Deploy/);
  const plan = await workbench.answerDialog('Create');
  assert.match(plan, /Create endpoint "sdxl-worker-prod"\? environment prod · profile production · new endpoint/);
  await box('Deploy to prod');
  await workbench.answerInput('production');
  await workbench.page.locator('.quick-input-widget .quick-input-message', { hasText: 'type prod to deploy' }).waitFor();
  assert.equal(await endpointNamed('sdxl-worker-prod'), undefined, 'nothing is applied before the name is typed');
  await workbench.answerInput('prod');
  await waitUntil(() => boundId(session.workspace, PROD) !== undefined, 'the prod overlay to be bound');
  const prod = await api.serverless.get(boundId(session.workspace, PROD) ?? '');
  assert.equal(prod.name, 'sdxl-worker-prod');
  assert.deepEqual(prod.gpu?.pools, ['ADA_24'], 'the overlay replaced the list whole');
  assert.equal(prod.workers.max, 8);
  assert.notEqual(prod.id, boundId(session.workspace, STAGING), 'each environment has its endpoint');
});

editorTest('Compare Environments diffs two environments as deployed, and one against its live endpoint', async (workbench, session) => {
  writeEnvironments(session.workspace, `environments:\n  staging:\n    profile: ${ENVIRONMENT_PROFILE}\n`);
  // Staging deployed and bound before the editor looks, as an earlier deploy would have left it.
  const live = await api.serverless.create({
    ...mergedBody(session.workspace, STAGING),
    name: 'sdxl-worker-staging-compare',
  } as unknown as CreateEndpointRequest);
  const bound = updateBindings(session.workspace, (store) =>
    withBinding(store, STAGING, 0, { endpointId: live.id, endpointName: live.name, deployedAt: new Date().toISOString() }),
  );
  assert.ok(bound.ok);
  await workbench.openFile(STAGING);
  await workbench.runCommand('Endpoint Studio: Compare Environments…');
  await workbench.pickQuickInputRow('staging vs prod');
  await activeTabTitle(workbench, /staging ↔ prod \(as deployed\)/);
  const diff = workbench.page.locator('.editor-group-container.active .monaco-diff-editor');
  await diff.waitFor({ state: 'visible' });
  await waitUntil(
    async () => /sdxl-worker-staging/.test(await diff.innerText()) && /sdxl-worker-prod/.test(await diff.innerText()),
    'both merged specs in the diff',
  );
  const text = await diff.innerText();
  assert.ok(!/extends/.test(text), 'the effective specs, without extends');
  await workbench.page.screenshot({ path: '/tmp/es-environments-compare.png' });

  await workbench.openFile(STAGING);
  await workbench.runCommand('Endpoint Studio: Compare Environments…');
  await workbench.pickQuickInputRow('staging vs its live endpoint');
  await activeTabTitle(workbench, new RegExp(`staging: live ${live.id} \\(profile environment\\) ↔ spec`));
  await waitUntil(async () => /sdxl-worker-staging-compare/.test(await diff.innerText()), 'the live endpoint on the left');
  await workbench.page.screenshot({ path: '/tmp/es-environments-compare-live.png' });

  // The Endpoints view says which environment each bound endpoint is.
  await refreshEndpoints(workbench, 'sdxl-worker-staging-compare');
  assert.match(await rowText(workbench, 'Endpoints', 'sdxl-worker-staging-compare'), /sdxl-worker-staging-compare staging · /);
});

editorTest(
  'an edit of the base shows what it breaks in an overlay, in the overlay on its extends line and in the base',
  async (workbench) => {
    await workbench.openFile(STAGING);
    await workbench.openFile('sdxl-worker.endpoint.yaml');
    // workers.min 2 is fine for the base (max 3) and above staging's max 1: only staging breaks.
    await workbench.goTo(9, 3);
    await workbench.page.keyboard.press('Shift+End');
    await workbench.page.keyboard.type('min: 2');
    await workbench.waitForEditorText(/min: 2/);
    const inOverlay = await workbench.problems(
      STAGING,
      (rows) => rows.some((row) => row.code.includes('workers-min-above-max') && !row.message.startsWith('in staging:')),
      'the staging overlay marks what the base edit breaks in it',
    );
    // The base's own row is listed under the overlay's filter too, by its related information: the overlay's row is the other one.
    const overlayProblem = inOverlay.find((row) => row.code.includes('workers-min-above-max') && !row.message.startsWith('in staging:'));
    assert.equal(overlayProblem?.position, '[Ln 3, Col 10]', formatProblems(inOverlay));
    assert.match(overlayProblem.message, /workers\.min \(2\) is above max \(1\).*workers\.min in sdxl-worker\.endpoint\.yaml/);
    const inBase = await workbench.problems(
      'sdxl-worker.endpoint.yaml',
      (rows) => rows.some((row) => row.message.startsWith('in staging:')),
      'the base says which environment its edit breaks',
    );
    assert.equal(inBase.find((row) => row.message.startsWith('in staging:'))?.position, '[Ln 9, Col 8]', formatProblems(inBase));
  },
);

editorTest('an overlay written on disk shows what it breaks in the open base, without typing', async (workbench, session) => {
  await workbench.openFile('sdxl-worker.endpoint.yaml');
  // As `git pull` would: a new overlay lands beside the open base, with more workers at rest than the base allows.
  const canary = join(session.workspace, 'sdxl-worker.canary.endpoint.yaml');
  writeFileSync(canary, 'extends: ./sdxl-worker.endpoint.yaml\nname: sdxl-worker-canary\nworkers:\n  min: 5\n');
  try {
    const inBase = await workbench.problems(
      'sdxl-worker.endpoint.yaml',
      (rows) => rows.some((row) => row.message.startsWith('in canary:')),
      'the base shows the overlay written on disk',
    );
    assert.match(inBase.find((row) => row.message.startsWith('in canary:'))?.message ?? '', /workers\.min \(5\) is above max \(3\)/);
  } finally {
    rmSync(canary, { force: true });
  }
  await workbench.problems(
    'sdxl-worker.endpoint.yaml',
    (rows) => !rows.some((row) => row.message.startsWith('in canary:')),
    'the deleted overlay is forgotten',
  );
});
