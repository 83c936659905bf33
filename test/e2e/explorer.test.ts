/**
 * The Endpoint Studio activity bar container in a real workbench, against an emulator started here:
 * the Endpoints view with descriptions, workers and releases; the Catalog view; filter; pulling a
 * live endpoint into a spec; delete behind the typed name; and, in a session without a key, the
 * signed-out welcome view.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { createApiClient, type ApiClient, type Endpoint } from '../../core/api';
import { liveAsSpec } from '../../core/deploy';
import { startEmulator, DEFAULT_DEV_API_KEY, type RunningEmulator } from '../../emulator/index';
import { useEditorSession, type EditorSessionOptions } from './support/session';
import { waitUntil, type Workbench } from './support/workbench';

/** Shows the Endpoint Studio container from the activity bar, as a user would. */
async function openExplorer(workbench: Workbench): Promise<void> {
  const pane = viewPane(workbench, 'Endpoints');
  if (await pane.isVisible()) return;
  await workbench.page.locator('.part.activitybar .action-item a[aria-label^="Endpoint Studio"]').first().click();
  await pane.waitFor();
  // Wider than the default, so rows (and screenshots) show whole descriptions.
  const sidebar = await workbench.page.locator('.part.sidebar').boundingBox();
  if (sidebar && sidebar.width < 600) {
    const edge = sidebar.x + sidebar.width;
    await workbench.page.mouse.move(edge - 1, sidebar.y + sidebar.height / 2);
    await workbench.page.mouse.down();
    await workbench.page.mouse.move(edge + 300, sidebar.y + sidebar.height / 2, { steps: 5 });
    await workbench.page.mouse.up();
  }
}

function viewPane(workbench: Workbench, title: 'Endpoints' | 'Catalog') {
  return workbench.page.locator('.pane', { has: workbench.page.locator('.pane-header h3.title', { hasText: new RegExp(`^${title}$`) }) });
}

/** A tree row whose visible text (label and description) matches. */
function row(workbench: Workbench, title: 'Endpoints' | 'Catalog', text: string | RegExp) {
  return viewPane(workbench, title).locator('.monaco-list-row', { hasText: text }).first();
}

/** A row's label and description, as shown, separated by a space. */
async function rowText(workbench: Workbench, title: 'Endpoints' | 'Catalog', text: string | RegExp): Promise<string> {
  const found = row(workbench, title, text);
  await found.waitFor();
  const parts = await Promise.all(
    ['.label-name', '.label-description'].map(async (part) =>
      (await found.locator(part).count()) ? await found.locator(part).first().innerText() : '',
    ),
  );
  return parts.join(' ').trim();
}

/** Expands a collapsed row (a click on a collapsed tree row opens it). */
async function expand(workbench: Workbench, title: 'Endpoints' | 'Catalog', text: string | RegExp): Promise<void> {
  const found = row(workbench, title, text);
  await found.waitFor();
  if ((await found.getAttribute('aria-expanded')) !== 'true') await found.click();
  await waitUntil(async () => (await found.getAttribute('aria-expanded')) === 'true', `${String(text)} to expand`);
}

/** Runs an action from a row's context menu, choosing it with the keyboard (the menu ignores a synthetic click). */
async function contextAction(workbench: Workbench, text: string | RegExp, action: string): Promise<void> {
  await row(workbench, 'Endpoints', text).click({ button: 'right' });
  const menu = workbench.page.locator('.context-view .monaco-menu');
  await menu.locator('.action-item', { hasText: action }).first().waitFor();
  const count = await menu.locator('.action-item').count();
  for (let step = 0; step <= count; step++) {
    await workbench.page.keyboard.press('ArrowDown');
    const focused =
      (await menu
        .locator('.action-item.focused')
        .textContent()
        .catch(() => '')) ?? '';
    if (focused.includes(action)) {
      await workbench.page.keyboard.press('Enter');
      await menu.waitFor({ state: 'hidden' });
      return;
    }
  }
  await workbench.page.keyboard.press('Escape');
  throw new Error(`no context menu action "${action}" could be focused`);
}

describe('signed in, against the emulator', () => {
  let emulator: RunningEmulator;
  let api: ApiClient;
  let gpuEndpoint: Endpoint;
  let cpuEndpoint: Endpoint;
  const options: EditorSessionOptions = {};
  before(async () => {
    emulator = await startEmulator({ port: 0, jobsPort: 0 });
    api = createApiClient({ apiUrl: emulator.restUrl, jobsUrl: emulator.jobsUrl, apiKey: DEFAULT_DEV_API_KEY });
    gpuEndpoint = await api.serverless.create({
      name: 'explorer-gpu',
      type: 'QUEUE',
      image: 'myorg/explorer-gpu:1.0',
      gpu: { pools: ['ADA_24'], count: 1 },
      workers: { min: 1, max: 3, idleTimeout: 10 },
      scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
      flashboot: 'FLASHBOOT',
      env: { LOG_LEVEL: 'info' },
    });
    cpuEndpoint = await api.serverless.create({
      name: 'explorer-http',
      type: 'LOAD_BALANCER',
      image: 'myorg/explorer-http:2.0',
      cpu: [{ id: 'cpu3c', vcpuCount: 2 }],
      workers: { min: 0, max: 2 },
      scaling: { type: 'REQUEST_COUNT', requestCount: 10 },
      ports: ['8080/http'],
    });
    // A second release, so the Releases node has a field diff to show.
    await api.serverless.update(gpuEndpoint.id, { workers: { max: 4 } });
    // Filled in before the editor starts: the extension falls back to a key in its environment.
    options.env = { ENDPOINT_STUDIO_API_KEY: DEFAULT_DEV_API_KEY };
    options.userSettings = { 'endpointStudio.api.url': emulator.restUrl, 'endpointStudio.api.jobsUrl': emulator.jobsUrl };
  });
  after(() => emulator.close());
  const { editorTest } = useEditorSession('explorer', options);

  editorTest('the Endpoints view lists each endpoint with type, compute, workers and FlashBoot', async (workbench) => {
    await openExplorer(workbench);
    const gpu = await rowText(workbench, 'Endpoints', 'explorer-gpu');
    assert.match(gpu, /explorer-gpu QUEUE · GPU ADA_24 ×1 · workers 1–4 · FlashBoot/);
    const http = await rowText(workbench, 'Endpoints', 'explorer-http');
    assert.match(http, /explorer-http LOAD_BALANCER · CPU cpu3c 2 vCPU · workers 0–2 · no FlashBoot/);
  });

  editorTest('expanding an endpoint shows its configuration, request URLs, workers and releases', async (workbench) => {
    await openExplorer(workbench);
    await expand(workbench, 'Endpoints', 'explorer-gpu');
    for (const group of ['Configuration', 'Request URLs', 'Workers', 'Releases'])
      await row(workbench, 'Endpoints', new RegExp(`^${group}`)).waitFor();
    await expand(workbench, 'Endpoints', /^Configuration/);
    assert.equal(await rowText(workbench, 'Endpoints', /^Image/), 'Image myorg/explorer-gpu:1.0');
    assert.equal(await rowText(workbench, 'Endpoints', /^Scaling/), 'Scaling queue delay 4 s');
    assert.equal(await rowText(workbench, 'Endpoints', /^Env/), 'Env LOG_LEVEL', 'env values are not shown, they may be secrets');
    await expand(workbench, 'Endpoints', /^Request URLs/);
    assert.equal(
      await rowText(workbench, 'Endpoints', /^runSync/),
      `runSync ${gpuEndpoint.requestUrls && 'runSync' in gpuEndpoint.requestUrls ? gpuEndpoint.requestUrls.runSync : '?'}`,
    );
    await workbench.screenshot('explorer--configuration-and-urls');
    // Folded again, so workers and releases fit on the screen.
    await row(workbench, 'Endpoints', /^Configuration/).click();
    await row(workbench, 'Endpoints', /^Request URLs/).click();
    await expand(workbench, 'Endpoints', /^Workers/);
    // One worker (min 1) on an ADA_24 GPU; its status moves from INITIALIZING to IDLE as it boots.
    const worker = await rowText(workbench, 'Endpoints', /(INITIALIZING|IDLE|RUNNING) · NVIDIA/);
    assert.match(worker, /(INITIALIZING|IDLE|RUNNING) · NVIDIA GeForce RTX 4090 · US-[A-Z]+-\d/);
    await expand(workbench, 'Endpoints', /^Releases/);
    const latest = await rowText(workbench, 'Endpoints', /^v2/);
    assert.match(latest, /^v2 MANUAL · workers\.max · /);
    await expand(workbench, 'Endpoints', /^v2/);
    await row(workbench, 'Endpoints', 'workers.max: 3 → 4').waitFor();
    assert.match(await rowText(workbench, 'Endpoints', /^v1/), /^v1 MANUAL · initial · \d{4}-\d\d-\d\d /);
  });

  editorTest('the Catalog view shows GPU pools with their GPU types', async (workbench) => {
    await openExplorer(workbench);
    // Collapse the endpoint so the Catalog pane has room.
    await row(workbench, 'Endpoints', 'explorer-gpu').click();
    await expand(workbench, 'Catalog', /^GPU pools/);
    const pool = await rowText(workbench, 'Catalog', /^ADA_24/);
    assert.match(pool, /ADA_24 24 GB · 1 type · \$0\.690\/h · stock [A-Z]+/);
    await row(workbench, 'Catalog', /^AMPERE_80/).waitFor();
    await expand(workbench, 'Catalog', /^ADA_24/);
    const gpu = await rowText(workbench, 'Catalog', /^RTX 4090/);
    assert.match(gpu, /RTX 4090 24 GB · \$0\.690\/h · stock [A-Z]+ · CUDA 12\.\d+–12\.\d+/);
  });

  editorTest('the name filter narrows the list and shows in the view title', async (workbench) => {
    await openExplorer(workbench);
    await viewPane(workbench, 'Endpoints').locator('.pane-header').hover();
    await viewPane(workbench, 'Endpoints').locator('.pane-header .action-label[aria-label^="Filter Endpoints by Name"]').click();
    await workbench.answerInput('http');
    await viewPane(workbench, 'Endpoints').locator('.pane-header', { hasText: 'name contains "http"' }).waitFor();
    await waitUntil(async () => !(await row(workbench, 'Endpoints', 'explorer-gpu').isVisible()), 'explorer-gpu to be filtered out');
    await row(workbench, 'Endpoints', 'explorer-http').waitFor();
    await workbench.screenshot('explorer--filtered');
    await viewPane(workbench, 'Endpoints').locator('.pane-header').hover();
    await viewPane(workbench, 'Endpoints').locator('.pane-header .action-label[aria-label^="Clear Endpoints Filter"]').click();
    await row(workbench, 'Endpoints', 'explorer-gpu').waitFor();
  });

  editorTest('Pull into New Spec writes the live configuration losslessly and binds it', async (workbench, session) => {
    await openExplorer(workbench);
    await contextAction(workbench, 'explorer-http', 'Pull Live Configuration into New Spec');
    await workbench.waitForActiveEditor('explorer-http.endpoint.yaml');
    await workbench.waitForEditorText(/^name: explorer-http$/m);
    const written = parseYaml(readFileSync(join(session.workspace, 'explorer-http.endpoint.yaml'), 'utf8')) as Record<string, unknown>;
    assert.deepEqual(written, liveAsSpec(await api.serverless.get(cpuEndpoint.id)));
    const bindings = readFileSync(join(session.workspace, '.endpoint-studio', 'deployments.json'), 'utf8');
    assert.match(bindings, new RegExp(`"explorer-http\\.endpoint\\.yaml"[\\s\\S]*"endpointId": "${cpuEndpoint.id}"`));
    // Bound now: the row offers to open the spec instead of pulling one.
    await row(workbench, 'Endpoints', 'explorer-http').hover();
    await row(workbench, 'Endpoints', 'explorer-http').locator('.action-label[aria-label^="Open Bound Spec"]').waitFor();
  });

  editorTest('Delete needs the endpoint name typed exactly', async (workbench) => {
    await openExplorer(workbench);
    await contextAction(workbench, 'explorer-http', 'Delete Endpoint');
    const input = workbench.page.locator('.quick-input-widget');
    await input.locator('input').waitFor();
    const warning = (await input.innerText()).replace(/\s+/g, ' ');
    assert.match(warning, /configuration, logs and job history are removed permanently/);
    await workbench.page.keyboard.type('explorer-htt');
    await workbench.page.keyboard.press('Enter');
    await input.locator('.quick-input-message', { hasText: 'exactly' }).waitFor();
    await workbench.screenshot('explorer--delete-wrong-name');
    assert.ok(await input.isVisible(), 'a wrong name keeps the confirmation open');
    assert.ok(
      (await api.serverless.list()).some((e) => e.id === cpuEndpoint.id),
      'a wrong name deletes nothing',
    );
    await workbench.answerInput('explorer-http');
    await waitUntil(
      async () => !(await api.serverless.list()).some((e) => e.id === cpuEndpoint.id),
      'the endpoint to be gone from the emulator',
    );
    await waitUntil(async () => !(await row(workbench, 'Endpoints', 'explorer-http').isVisible()), 'the endpoint to leave the tree');
    assert.ok(
      (await api.serverless.list()).some((e) => e.id === gpuEndpoint.id),
      'the other endpoint is untouched',
    );
  });

  editorTest('a refresh while one is in flight starts no second request', async (workbench) => {
    // No spec open (its CodeLens reads its endpoint) and nothing expanded: only the list is read.
    await workbench.runCommand('View: Close All Editors');
    await openExplorer(workbench);
    await viewPane(workbench, 'Endpoints').locator('.pane-header').hover();
    await viewPane(workbench, 'Endpoints').locator('.pane-header .action-label[aria-label^="Collapse All"]').click();
    // Every /v2/serverless request now takes 1.5 s, and the emulator counts them down from 1000.
    emulator.setFaults({ latencyMs: 1500, paths: ['/v2/serverless'], count: 1000 });
    try {
      const refresh = viewPane(workbench, 'Endpoints').locator('.pane-header .action-label[aria-label^="Refresh Endpoints"]');
      for (let click = 0; click < 5; click++) await refresh.click();
      await waitUntil(async () => (await faultsLeft()) < 1000, 'the refresh to reach the emulator');
      // Long enough for a second request, had one been started, to reach the emulator.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      await row(workbench, 'Endpoints', 'explorer-gpu').waitFor();
      assert.equal(1000 - (await faultsLeft()), 1, 'five clicks during one refresh make one list request');
    } finally {
      emulator.setFaults(undefined);
    }
  });

  editorTest('a failed list shows the error welcome view, and Retry recovers', async (workbench) => {
    await openExplorer(workbench);
    emulator.setFaults({ status5xx: 500, paths: ['/v2/serverless'] });
    const welcome = viewPane(workbench, 'Endpoints').locator('.welcome-view-content');
    try {
      await viewPane(workbench, 'Endpoints').locator('.pane-header').hover();
      await viewPane(workbench, 'Endpoints').locator('.pane-header .action-label[aria-label^="Refresh Endpoints"]').click();
      await welcome.getByRole('button', { name: 'Retry' }).waitFor();
      assert.match(await welcome.innerText(), /could not be read/);
      await workbench.page.locator('.notifications-toasts', { hasText: 'Listing endpoints failed' }).first().waitFor();
      await workbench.screenshot('explorer--error-state');
    } finally {
      emulator.setFaults(undefined);
    }
    await welcome.getByRole('button', { name: 'Retry' }).click();
    await row(workbench, 'Endpoints', 'explorer-gpu').waitFor();
  });

  editorTest('an account without endpoints shows New Endpoint Spec', async (workbench) => {
    await openExplorer(workbench);
    await api.serverless.delete(gpuEndpoint.id);
    await viewPane(workbench, 'Endpoints').locator('.pane-header').hover();
    await viewPane(workbench, 'Endpoints').locator('.pane-header .action-label[aria-label^="Refresh Endpoints"]').click();
    const welcome = viewPane(workbench, 'Endpoints').locator('.welcome-view-content');
    await welcome.getByRole('button', { name: 'New Endpoint Spec' }).waitFor();
    assert.match(await welcome.innerText(), /no endpoints yet/);
  });

  async function faultsLeft(): Promise<number> {
    const answer = (await (await fetch(`${emulator.restUrl}/__emulator/faults`)).json()) as { faults: { count?: number } | null };
    return answer.faults?.count ?? 0;
  }
});

describe('signed out', () => {
  // No key in the environment and none stored: the views explain how to start.
  const { editorTest } = useEditorSession('explorer-signed-out', { env: { ENDPOINT_STUDIO_API_KEY: '', RUNPOD_API_KEY: '' } });

  editorTest('the welcome view offers Sign In and Use Local Emulator', async (workbench) => {
    await openExplorer(workbench);
    const welcome = viewPane(workbench, 'Endpoints').locator('.welcome-view-content');
    await welcome.getByRole('button', { name: 'Sign In' }).waitFor();
    await welcome.getByRole('button', { name: 'Use Local Emulator' }).waitFor();
    assert.match(await welcome.innerText(), /Sign in to see your serverless endpoints/);
    await viewPane(workbench, 'Catalog').locator('.welcome-view-content', { hasText: 'Sign in to browse GPU pools' }).waitFor();
  });
});
