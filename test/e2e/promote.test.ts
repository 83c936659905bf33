/**
 * Promote to Environment in the editor against the emulator: staging deployed with its own image is promoted into
 * prod's overlay (its comment kept), which opens, and prod's own deploy follows on it: the plan's diff and modal
 * name prod, its profile and a new endpoint, and prod, protected, applies only once its name is typed. The endpoint
 * prod then makes runs exactly the image staging deployed.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after } from 'node:test';
import { createApiClient, type ApiClient } from '../../core/api';
import { getBinding, readBindings } from '../../core/deploy';
import { startEmulator, DEFAULT_DEV_API_KEY, type RunningEmulator } from '../../emulator/index';
import { useEditorSession, type EditorSessionOptions } from './support/session';
import { waitUntil, type Workbench } from './support/workbench';

const STAGING = 'sdxl-worker.staging.endpoint.yaml';
const PROD = 'sdxl-worker.prod.endpoint.yaml';
/** The image the staging overlay of the examples deploys, and the base's, which prod deploys until promoted. */
const STAGING_IMAGE = 'myorg/sdxl-worker:1.5.0-rc.1';
const BASE_IMAGE = 'myorg/sdxl-worker:1.4.2';

let emulator: RunningEmulator;
let api: ApiClient;
after(() => emulator.close());
const { editorTest } = useEditorSession('promote', async (): Promise<EditorSessionOptions> => {
  emulator = await startEmulator({ port: 0, jobsPort: 0 });
  api = createApiClient({ apiUrl: emulator.restUrl, jobsUrl: emulator.jobsUrl, apiKey: DEFAULT_DEV_API_KEY });
  return {
    env: { ENDPOINT_STUDIO_API_KEY: DEFAULT_DEV_API_KEY },
    userSettings: { 'endpointStudio.api.url': emulator.restUrl, 'endpointStudio.api.jobsUrl': emulator.jobsUrl },
  };
});

function boundId(workspace: string, file: string): string | undefined {
  const read = readBindings(workspace);
  return read.ok ? getBinding(read.store, file, 0)?.endpointId : undefined;
}

async function clickCodeLens(workbench: Workbench, title: RegExp): Promise<void> {
  const lens = workbench.page.locator('.codelens-decoration a').filter({ hasText: title }).first();
  await lens.waitFor({ state: 'visible' });
  await lens.click();
}

editorTest(
  'a promotion from staging writes prod’s overlay and opens prod’s plan, applied once prod is typed',
  async (workbench, session) => {
    mkdirSync(join(session.workspace, '.endpoint-studio'), { recursive: true });
    writeFileSync(
      join(session.workspace, '.endpoint-studio', 'environments.yaml'),
      'environments:\n  staging:\n    profile: environment\n  prod:\n    profile: environment\n    protected: true\n',
    );
    const prodPath = join(session.workspace, PROD);
    const prodBefore = readFileSync(prodPath, 'utf8');
    assert.ok(!prodBefore.includes('image:'), 'prod deploys the base image until promoted');

    // Staging deployed first: promotion takes what its last deploy recorded.
    await workbench.openFile(STAGING);
    await clickCodeLens(workbench, /Deploy/);
    await workbench.answerDialog('Create');
    await waitUntil(() => boundId(session.workspace, STAGING) !== undefined, 'the staging overlay to be bound');
    assert.equal((await api.serverless.get(boundId(session.workspace, STAGING) ?? '')).image, STAGING_IMAGE);

    await workbench.openFile(STAGING);
    await workbench.runCommand('Endpoint Studio: Promote to Environment…');
    await workbench.pickQuickInputRow('staging → prod');

    // Prod's overlay holds the image now, its comment where it was; then prod's own deploy shows its plan.
    await waitUntil(() => readFileSync(prodPath, 'utf8').includes(`image: ${STAGING_IMAGE}`), 'the image written into the prod overlay');
    const written = readFileSync(prodPath, 'utf8');
    assert.ok(written.startsWith('# The prod environment of sdxl-worker.endpoint.yaml'), written);
    assert.match(written, /\nname: sdxl-worker-prod\n/);
    // Said at once, while prod's plan opens.
    await workbench.notification(
      /Promoted staging's release \d+ into sdxl-worker\.prod\.endpoint\.yaml: image "myorg\/sdxl-worker:1\.5\.0-rc\.1"/,
    );
    await workbench.page
      .locator('.tab.active')
      .filter({ hasText: /environment prod · profile environment · new endpoint/ })
      .first()
      .waitFor({ state: 'visible' });
    await workbench.page.screenshot({ path: '/tmp/es-promote-plan.png' });
    const plan = await workbench.answerDialog('Create');
    assert.match(plan, /Create endpoint "sdxl-worker-prod"\? environment prod · profile environment · new endpoint/);
    assert.match(plan, new RegExp(`image: "${STAGING_IMAGE.replace(/[.]/g, '\\.')}"`));
    assert.ok(!plan.includes(BASE_IMAGE), 'the base image is not what prod deploys any more');

    // Prod is protected: nothing is applied before its name is typed.
    await workbench.page.locator('.quick-input-widget', { hasText: 'Deploy to prod' }).first().waitFor({ state: 'visible' });
    assert.equal(boundId(session.workspace, PROD), undefined);
    await workbench.answerInput('prod');
    await waitUntil(() => boundId(session.workspace, PROD) !== undefined, 'the prod overlay to be bound');
    const prod = await api.serverless.get(boundId(session.workspace, PROD) ?? '');
    assert.equal(prod.name, 'sdxl-worker-prod');
    assert.equal(prod.image, STAGING_IMAGE, 'prod runs exactly what staging deployed');
  },
);
