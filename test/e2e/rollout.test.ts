/**
 * The rollout after a deploy, in the editor against the emulator. Each test deploys a new image to an endpoint
 * of its own (created, booted and bound before the editor opens its spec) from the spec's CodeLens: a healthy
 * image shows the progress notification and the progress beside the endpoint in the Endpoints view until the
 * rollout is done, then neither; an image that crash-loops ends in a warning naming the new worker, whose
 * Open Logs shows that worker's crash in the Logs panel; the release that crash-loops is named so on its row in
 * the Endpoints view, and a click on that row opens its worker's log. A smoke check runs from the done message and from a
 * request file's lens, and a failed one offers a rollback. The emulator runs at half speed, so a worker boots in
 * 6 s and the rollout can be seen, and a short stall setting makes the crash loop fail in seconds.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after } from 'node:test';
import type { Frame } from 'playwright-core';
import { parse as parseYaml } from 'yaml';
import { createApiClient, type ApiClient, type CreateEndpointRequest } from '../../core/api';
import { updateBindings, withBinding } from '../../core/deploy';
import { startEmulator, DEFAULT_DEV_API_KEY, type RunningEmulator } from '../../emulator/index';
import { useEditorSession, type EditorSessionOptions } from './support/session';
import { collapseAll, expandRow, refreshEndpoints, rowText, treeRow } from './support/views';
import { waitUntil, type PageNode, type Workbench } from './support/workbench';

/** A crash loop is called after this many seconds of every new worker unhealthy (the stall setting caps it). */
const STALL_SECONDS = 10;
/** Long enough for a boot at half speed, the polls and the failure. */
const ROLLOUT_TIMEOUT_MS = 90_000;

let emulator: RunningEmulator;
let api: ApiClient;
after(() => emulator.close());
const { editorTest } = useEditorSession('rollout', async (): Promise<EditorSessionOptions> => {
  emulator = await startEmulator({ port: 0, jobsPort: 0, timeScale: 0.5 });
  api = createApiClient({ apiUrl: emulator.restUrl, jobsUrl: emulator.jobsUrl, apiKey: DEFAULT_DEV_API_KEY });
  return {
    env: { ENDPOINT_STUDIO_API_KEY: DEFAULT_DEV_API_KEY },
    userSettings: {
      'endpointStudio.api.url': emulator.restUrl,
      'endpointStudio.api.jobsUrl': emulator.jobsUrl,
      'endpointStudio.rollout.stallAfterSeconds': STALL_SECONDS,
    },
  };
});

function specText(name: string, workers: number): string {
  return [
    `name: ${name}`,
    'type: QUEUE',
    `image: myorg/${name}:1.0`,
    'gpu:',
    '  pools: [ADA_24, AMPERE_24]',
    '  count: 1',
    'workers:',
    `  min: ${workers}`,
    `  max: ${workers}`,
    '  idleTimeout: 600',
    'scaling:',
    '  type: QUEUE_DELAY',
    '  queueDelay: 4',
    'flashboot: OFF',
    '',
  ].join('\n');
}

/** A condition that reads the service at most once a second, so the test's own reads leave the editor its quota. */
function everySecond(read: () => Promise<boolean>): () => Promise<boolean> {
  let last = 0;
  return async () => {
    if (Date.now() - last < 1000) return false;
    last = Date.now();
    return read();
  };
}

/**
 * An endpoint of the test's own on release 1 with `workers` booted, its spec written and bound, and beside it
 * a request file with `input` (which steers the emulator's handler).
 */
async function bootedEndpoint(
  workspace: string,
  name: string,
  workers: number,
  input: unknown = { prompt: 'a smoke test' },
): Promise<{ file: string; text: string; endpointId: string }> {
  const file = `${name}.endpoint.yaml`;
  const text = specText(name, workers);
  writeFileSync(join(workspace, file), text);
  writeFileSync(join(workspace, `${name}.request.json`), JSON.stringify({ input }, null, 2));
  const endpoint = await api.serverless.create(parseYaml(text) as CreateEndpointRequest);
  const bound = updateBindings(workspace, (store) =>
    withBinding(store, file, 0, { endpointId: endpoint.id, endpointName: name, deployedAt: new Date().toISOString() }),
  );
  assert.ok(bound.ok, JSON.stringify(bound));
  await waitUntil(
    everySecond(async () => (await api.serverless.workers(endpoint.id)).workers.filter((w) => w.status === 'IDLE').length === workers),
    `the workers of ${name} to boot`,
    undefined,
    ROLLOUT_TIMEOUT_MS,
  );
  return { file, text, endpointId: endpoint.id };
}

/** Opens the bound spec with the endpoint listed in the Endpoints view, changes its image and confirms the update. */
async function deployImage(workbench: Workbench, workspace: string, spec: { file: string; text: string }, image: string): Promise<void> {
  const name = spec.file.replace(/\.endpoint\.yaml$/, '');
  await refreshEndpoints(workbench, name);
  await collapseAll(workbench, 'Endpoints');
  await workbench.openNewFile(workspace, spec.file, spec.text);
  await workbench.page
    .locator('.codelens-decoration')
    .filter({ hasText: /Deployed as/ })
    .first()
    .waitFor({ state: 'visible' });
  await workbench.goTo(3, 1);
  await workbench.page.keyboard.press('Shift+End');
  await workbench.page.keyboard.type(`image: ${image}`);
  await workbench.waitForEditorText(new RegExp(`image: ${image.replace(/[.]/g, '\\.')}`));
  const lens = workbench.page
    .locator('.codelens-decoration a')
    .filter({ hasText: /Update/ })
    .first();
  await lens.waitFor({ state: 'visible' });
  await lens.click();
  const plan = await workbench.answerDialog('Update');
  assert.match(plan, /image/);
}

/** The endpoint's row in the Endpoints view, label and description. */
const endpointRow = (workbench: Workbench, name: string): Promise<string> => rowText(workbench, 'Endpoints', new RegExp(`^${name}`));

/** The frame of the Logs webview (VS Code nests it in two iframes). */
async function logsFrame(workbench: Workbench): Promise<Frame> {
  let found: Frame | undefined;
  await waitUntil(async () => {
    for (const frame of workbench.page.frames())
      if (
        await frame
          .locator('#lines[role="log"]')
          .count()
          .catch(() => 0)
      )
        found = frame;
    return found !== undefined;
  }, 'the Logs webview');
  return found as Frame;
}

editorTest(
  'a deploy is followed by its rollout: progress in a notification and beside the endpoint, until done',
  async (workbench, session) => {
    const name = 'rollout-healthy';
    const spec = await bootedEndpoint(session.workspace, name, 2);
    await deployImage(workbench, session.workspace, spec, `myorg/${name}:2.0`);

    const progress = workbench.toast(new RegExp(`Rolling out ${name}`));
    await progress.waitFor({ state: 'visible' });
    await waitUntil(
      async () => /release 2: \d of \d workers? on it/.test(await progress.innerText()),
      'the progress line of release 2',
      () => 'no progress line yet',
    );
    let row = '';
    await waitUntil(
      async () => /rolling out \d\/\d/.test((row = await endpointRow(workbench, name))),
      'the rollout beside the endpoint',
      () => row,
    );
    await workbench.screenshot('rollout--progress-notification');

    const done = await workbench.toast(new RegExp(`rollout of release 2 of ${name} done`)).innerText();
    assert.match(done, new RegExp(`rollout of release 2 of ${name} done: 2 workers on it`));
    await progress.waitFor({ state: 'hidden' });
    await waitUntil(
      async () => !(row = await endpointRow(workbench, name)).includes('rolling out'),
      'the rollout to leave the endpoint row',
      () => row,
    );
    const workers = (await api.serverless.workers(spec.endpointId)).workers;
    assert.deepEqual(
      workers.map((w) => [w.version, w.status === 'IDLE' || w.status === 'RUNNING']),
      [
        [2, true],
        [2, true],
      ],
    );

    // The request file beside the spec runs on this endpoint: the done message's Smoke Check runs it there.
    await workbench
      .toast(/rollout of release 2 .* done/)
      .locator('.monaco-button', { hasText: /^Smoke Check$/ })
      .click();
    const passed = await workbench.notification(new RegExp(`smoke check on ${name} passed`));
    assert.match(passed, /smoke job \S+ COMPLETED on release 2 in [\d.]+ s/);
  },
);

editorTest('a crash-looping image fails the rollout naming its worker; Open Logs shows that worker’s crash', async (workbench, session) => {
  const name = 'rollout-crash';
  const spec = await bootedEndpoint(session.workspace, name, 1);
  await deployImage(workbench, session.workspace, spec, 'myorg/crashloop-worker:2.0');

  let crashing = '';
  await waitUntil(
    everySecond(async () => {
      crashing = (await api.serverless.workers(spec.endpointId)).workers.find((w) => w.version === 2 && w.status === 'UNHEALTHY')?.id ?? '';
      return crashing !== '';
    }),
    'a worker of release 2 to crash',
    undefined,
    ROLLOUT_TIMEOUT_MS,
  );
  const warning = workbench.toast(new RegExp(`rollout of release 2 of ${name} failed`));
  await warning.waitFor({ state: 'visible', timeout: ROLLOUT_TIMEOUT_MS });
  const text = await warning.innerText();
  assert.match(text, /crash loop/);
  assert.ok(text.includes(`${crashing} (UNHEALTHY)`), `the warning names the worker ${crashing}: ${text}`);
  await warning.locator('.monaco-button', { hasText: /^Roll Back…$/ }).waitFor();
  let row = '';
  await waitUntil(
    async () => !(row = await endpointRow(workbench, name)).includes('rolling out'),
    'the rollout to leave the endpoint row',
    () => row,
  );

  await workbench.screenshot('rollout--crash-loop-warning');
  await warning.locator('.monaco-button', { hasText: /^Open Logs$/ }).click();
  const frame = await logsFrame(workbench);
  await frame.locator('#target', { hasText: `${name} · workers ${crashing}` }).waitFor();
  await frame.locator('#lines .row', { hasText: "ModuleNotFoundError: No module named 'torch'" }).first().waitFor();
  const lines = await frame
    .locator('#lines .row:not(.marker)')
    .evaluateAll((rows) => (rows as unknown as PageNode[]).map((r) => (r.textContent ?? '').trim()));
  assert.ok(
    lines.every((line) => line.includes(`[${crashing}/`)),
    `only the crashing worker's lines:\n${lines.join('\n')}`,
  );

  // The endpoint and its release 2 say why they are not serving; a click on the release opens its worker's log again.
  await workbench.runCommand('View: Hide Panel');
  await workbench.page.locator('.part.panel').waitFor({ state: 'hidden' });
  row = await endpointRow(workbench, name);
  assert.match(row, new RegExp(`^${name} crash-looping · `), 'the endpoint says why after the failed rollout');
  await collapseAll(workbench, 'Endpoints');
  await expandRow(workbench, 'Endpoints', new RegExp(`^${name}`));
  await expandRow(workbench, 'Endpoints', /^Releases$/);
  let release = '';
  await waitUntil(
    async () => /^v2 crash-looping · /.test((release = await rowText(workbench, 'Endpoints', /^v2/))),
    'release 2 to be named crash-looping',
    () => release,
  );
  await workbench.screenshot('rollout--crash-looping-release');
  await treeRow(workbench, 'Endpoints', /^v2/).click();
  const reopened = await logsFrame(workbench);
  await reopened.locator('#target', { hasText: `${name} · workers ${crashing}` }).waitFor();
  await reopened.locator('#lines .row', { hasText: "ModuleNotFoundError: No module named 'torch'" }).first().waitFor();
});

editorTest(
  'Smoke Check from a request file’s lens: a failing handler is a failed check, with the worker’s logs and Roll Back…',
  async (workbench, session) => {
    const name = 'smoke-lens';
    await bootedEndpoint(session.workspace, name, 1, { fail: 'CUDA error: out of memory' });
    await refreshEndpoints(workbench, name);
    await workbench.openFile(`${name}.request.json`);
    const lens = workbench.page
      .locator('.codelens-decoration a')
      .filter({ hasText: /Smoke Check/ })
      .first();
    await lens.waitFor({ state: 'visible' });
    await lens.click();
    const warning = workbench.toast(new RegExp(`smoke check on ${name} failed`));
    await warning.waitFor({ state: 'visible', timeout: ROLLOUT_TIMEOUT_MS });
    assert.match(await warning.innerText(), /smoke job \S+ FAILED: CUDA error: out of memory/);
    await warning.locator('.monaco-button', { hasText: /^Roll Back…$/ }).waitFor();
    await warning.locator('.monaco-button', { hasText: /^Open Worker Logs$/ }).waitFor();
  },
);
