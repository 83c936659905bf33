/**
 * The Endpoint Studio activity bar container in a real workbench, against an emulator started here:
 * the Endpoints view with descriptions, workers and releases; the Catalog view; filter; pulling a
 * live endpoint into a spec; delete behind the typed name; an endpoint whose spec is gone ("no spec") and
 * Forget Binding; and, in a session without a key, the signed-out status and welcome view. Each test creates (or re-creates) the endpoints it looks at,
 * and the ones it changes or deletes are its own, so the tests pass alone and in any order.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { createApiClient, type ApiClient, type CreateEndpointRequest, type Endpoint } from '../../core/api';
import { getBinding, liveAsSpec, readBindings, updateBindings, withBinding } from '../../core/deploy';
import { startEmulator, DEFAULT_DEV_API_KEY, type RunningEmulator } from '../../emulator/index';
import { useEditorSession, type EditorSessionOptions } from './support/session';
import {
  collapseAll,
  collapseRow,
  contextAction,
  expandRow,
  paneAction,
  refreshEndpoints,
  rowText,
  showEndpointStudio,
  treeRow,
  viewPane,
} from './support/views';
import { PROFILE_STATUS_ITEM, waitUntil, type Workbench } from './support/workbench';

/** Shows the Endpoint Studio container, wider than the default so rows (and screenshots) show whole descriptions. */
async function openExplorer(workbench: Workbench): Promise<void> {
  await showEndpointStudio(workbench);
  const sidebar = await workbench.page.locator('.part.sidebar').boundingBox();
  if (sidebar && sidebar.width < 600) {
    const edge = sidebar.x + sidebar.width;
    await workbench.page.mouse.move(edge - 1, sidebar.y + sidebar.height / 2);
    await workbench.page.mouse.down();
    await workbench.page.mouse.move(edge + 300, sidebar.y + sidebar.height / 2, { steps: 5 });
    await workbench.page.mouse.up();
  }
}

const GPU_SPEC: CreateEndpointRequest = {
  name: 'explorer-gpu',
  type: 'QUEUE',
  image: 'myorg/explorer-gpu:1.0',
  gpu: { pools: ['ADA_24'], count: 1 },
  workers: { min: 1, max: 3, idleTimeout: 10 },
  scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
  flashboot: 'FLASHBOOT',
  env: { LOG_LEVEL: 'info' },
};

/** A CPU load balancer; tests that delete or bind one make their own under another name. */
const httpSpec = (name: string): CreateEndpointRequest => ({
  name,
  type: 'LOAD_BALANCER',
  image: `myorg/${name}:2.0`,
  cpu: [{ id: 'cpu3c', vcpuCount: 2 }],
  workers: { min: 0, max: 2 },
  scaling: { type: 'REQUEST_COUNT', requestCount: 10 },
  ports: ['8080/http'],
});

describe('signed in, against the emulator', () => {
  let emulator: RunningEmulator;
  let api: ApiClient;
  const options: EditorSessionOptions = {};
  before(async () => {
    emulator = await startEmulator({ port: 0, jobsPort: 0 });
    api = createApiClient({ apiUrl: emulator.restUrl, jobsUrl: emulator.jobsUrl, apiKey: DEFAULT_DEV_API_KEY });
    // Filled in before the editor starts: the extension falls back to a key in its environment.
    options.env = { ENDPOINT_STUDIO_API_KEY: DEFAULT_DEV_API_KEY };
    options.userSettings = { 'endpointStudio.api.url': emulator.restUrl, 'endpointStudio.api.jobsUrl': emulator.jobsUrl };
  });
  after(() => emulator.close());
  const { editorTest } = useEditorSession('explorer', options);

  /** The endpoint named in `spec`, created now (and given to `afterCreate`) unless it exists. */
  async function endpointOf(spec: CreateEndpointRequest, afterCreate?: (created: Endpoint) => Promise<unknown>): Promise<Endpoint> {
    const existing = (await api.serverless.list()).find((e) => e.name === spec.name);
    if (existing) return existing;
    const created = await api.serverless.create(spec);
    await afterCreate?.(created);
    return created;
  }

  /**
   * The two endpoints most tests look at, shown in a freshly read, unfiltered, folded tree. A second
   * release of the GPU one gives the Releases node a field diff to show.
   */
  async function sharedEndpoints(workbench: Workbench): Promise<{ gpu: Endpoint; http: Endpoint }> {
    const gpu = await endpointOf(GPU_SPEC, (created) => api.serverless.update(created.id, { workers: { max: 4 } }));
    const http = await endpointOf(httpSpec('explorer-http'));
    await openExplorer(workbench);
    if ((await viewPane(workbench, 'Endpoints').locator('.pane-header', { hasText: 'name contains' }).count()) > 0)
      await paneAction(workbench, 'Endpoints', 'Clear Endpoints Filter');
    await refreshEndpoints(workbench, 'explorer-gpu');
    await treeRow(workbench, 'Endpoints', 'explorer-http').waitFor();
    await collapseAll(workbench, 'Endpoints');
    return { gpu, http };
  }

  editorTest('the Endpoints view lists each endpoint with type, compute, workers and FlashBoot', async (workbench) => {
    await sharedEndpoints(workbench);
    const gpu = await rowText(workbench, 'Endpoints', 'explorer-gpu');
    assert.match(gpu, /explorer-gpu QUEUE · GPU ADA_24 ×1 · workers 1–4 · FlashBoot/);
    const http = await rowText(workbench, 'Endpoints', 'explorer-http');
    assert.match(http, /explorer-http LOAD_BALANCER · CPU cpu3c 2 vCPU · workers 0–2 · no FlashBoot/);
  });

  editorTest('expanding an endpoint shows its configuration, request URLs, workers and releases', async (workbench) => {
    const { gpu: gpuEndpoint } = await sharedEndpoints(workbench);
    await expandRow(workbench, 'Endpoints', 'explorer-gpu');
    for (const group of ['Configuration', 'Request URLs', 'Workers', 'Releases'])
      await treeRow(workbench, 'Endpoints', new RegExp(`^${group}`)).waitFor();
    await expandRow(workbench, 'Endpoints', /^Configuration/);
    assert.equal(await rowText(workbench, 'Endpoints', /^Image/), 'Image myorg/explorer-gpu:1.0');
    assert.equal(await rowText(workbench, 'Endpoints', /^Scaling/), 'Scaling queue delay 4 s');
    assert.equal(await rowText(workbench, 'Endpoints', /^Env/), 'Env LOG_LEVEL', 'env values are not shown, they may be secrets');
    await expandRow(workbench, 'Endpoints', /^Request URLs/);
    assert.equal(
      await rowText(workbench, 'Endpoints', /^runSync/),
      `runSync ${gpuEndpoint.requestUrls && 'runSync' in gpuEndpoint.requestUrls ? gpuEndpoint.requestUrls.runSync : '?'}`,
    );
    await workbench.screenshot('explorer--configuration-and-urls');
    // Folded again, so workers and releases fit on the screen.
    await collapseRow(workbench, 'Endpoints', /^Configuration/);
    await collapseRow(workbench, 'Endpoints', /^Request URLs/);
    await expandRow(workbench, 'Endpoints', /^Workers/);
    // One worker (min 1) on an ADA_24 GPU; its status moves from INITIALIZING to IDLE as it boots.
    const worker = await rowText(workbench, 'Endpoints', /(INITIALIZING|IDLE|RUNNING) · NVIDIA/);
    assert.match(worker, /(INITIALIZING|IDLE|RUNNING) · NVIDIA GeForce RTX 4090 · US-[A-Z]+-\d/);
    await expandRow(workbench, 'Endpoints', /^Releases/);
    const latest = await rowText(workbench, 'Endpoints', /^v2/);
    assert.match(latest, /^v2 MANUAL · workers\.max · /);
    await expandRow(workbench, 'Endpoints', /^v2/);
    await treeRow(workbench, 'Endpoints', 'workers.max: 3 → 4').waitFor();
    assert.match(await rowText(workbench, 'Endpoints', /^v1/), /^v1 MANUAL · initial · \d{4}-\d\d-\d\d /);
  });

  editorTest('the Catalog view shows GPU pools with their GPU types', async (workbench) => {
    // Every endpoint folded, so the Catalog pane has room.
    await sharedEndpoints(workbench);
    await expandRow(workbench, 'Catalog', /^GPU pools/);
    const pool = await rowText(workbench, 'Catalog', /^ADA_24/);
    assert.match(pool, /ADA_24 24 GB · 1 type · \$0\.690\/h · stock [A-Z]+/);
    await treeRow(workbench, 'Catalog', /^AMPERE_80/).waitFor();
    await expandRow(workbench, 'Catalog', /^ADA_24/);
    const gpu = await rowText(workbench, 'Catalog', /^RTX 4090/);
    assert.match(gpu, /RTX 4090 24 GB · \$0\.690\/h · stock [A-Z]+ · CUDA 12\.\d+–12\.\d+/);
  });

  editorTest('the name filter narrows the list and shows in the view title', async (workbench) => {
    await sharedEndpoints(workbench);
    await paneAction(workbench, 'Endpoints', 'Filter Endpoints by Name');
    await workbench.answerInput('http');
    const header = viewPane(workbench, 'Endpoints').locator('.pane-header');
    await header.filter({ hasText: 'name contains "http"' }).waitFor();
    await waitUntil(async () => !(await treeRow(workbench, 'Endpoints', 'explorer-gpu').isVisible()), 'explorer-gpu to be filtered out');
    await treeRow(workbench, 'Endpoints', 'explorer-http').waitFor();
    const shown = await viewPane(workbench, 'Endpoints').locator('.monaco-list-row .label-name').allInnerTexts();
    assert.ok(shown.length > 0 && shown.every((name) => name.includes('http')), `only names with "http": ${shown.join(', ')}`);
    await workbench.screenshot('explorer--filtered');
    await paneAction(workbench, 'Endpoints', 'Clear Endpoints Filter');
    await treeRow(workbench, 'Endpoints', 'explorer-gpu').waitFor();
    assert.doesNotMatch(await header.innerText(), /name contains/, 'the title drops the filter');
  });

  editorTest('Pull into New Spec writes the live configuration losslessly and binds it', async (workbench, session) => {
    const pulled = await endpointOf(httpSpec('explorer-pull'));
    await openExplorer(workbench);
    await refreshEndpoints(workbench, 'explorer-pull');
    await contextAction(workbench, 'explorer-pull', 'Pull Live Configuration into New Spec');
    await workbench.waitForActiveEditor('explorer-pull.endpoint.yaml');
    await workbench.waitForEditorText(/^name: explorer-pull$/m);
    const written = parseYaml(readFileSync(join(session.workspace, 'explorer-pull.endpoint.yaml'), 'utf8')) as Record<string, unknown>;
    assert.deepEqual(written, liveAsSpec(await api.serverless.get(pulled.id)));
    const bindings = readFileSync(join(session.workspace, '.endpoint-studio', 'deployments.json'), 'utf8');
    assert.match(bindings, new RegExp(`"explorer-pull\\.endpoint\\.yaml"[\\s\\S]*"endpointId": "${pulled.id}"`));
    // Bound now: the row offers to open the spec instead of pulling one.
    await treeRow(workbench, 'Endpoints', 'explorer-pull').hover();
    await treeRow(workbench, 'Endpoints', 'explorer-pull').locator('.action-label[aria-label^="Open Bound Spec"]').waitFor();
  });

  editorTest('Delete needs the endpoint name typed exactly', async (workbench) => {
    const { gpu: gpuEndpoint } = await sharedEndpoints(workbench);
    const doomed = await endpointOf(httpSpec('explorer-delete'));
    await refreshEndpoints(workbench, 'explorer-delete');
    await contextAction(workbench, 'explorer-delete', 'Delete Endpoint');
    const input = workbench.page.locator('.quick-input-widget');
    await input.locator('input').waitFor();
    const warning = (await input.innerText()).replace(/\s+/g, ' ');
    assert.match(warning, /configuration, logs and job history are removed permanently/);
    await workbench.page.keyboard.type('explorer-delet');
    await workbench.page.keyboard.press('Enter');
    await input.locator('.quick-input-message', { hasText: 'exactly' }).waitFor();
    await workbench.screenshot('explorer--delete-wrong-name');
    assert.ok(await input.isVisible(), 'a wrong name keeps the confirmation open');
    assert.ok(
      (await api.serverless.list()).some((e) => e.id === doomed.id),
      'a wrong name deletes nothing',
    );
    await workbench.answerInput('explorer-delete');
    await waitUntil(
      async () => !(await api.serverless.list()).some((e) => e.id === doomed.id),
      'the endpoint to be gone from the emulator',
    );
    await waitUntil(async () => !(await treeRow(workbench, 'Endpoints', 'explorer-delete').isVisible()), 'the endpoint to leave the tree');
    assert.ok(
      (await api.serverless.list()).some((e) => e.id === gpuEndpoint.id),
      'the other endpoints are untouched',
    );
  });

  editorTest('an endpoint whose spec is gone reads "no spec", and Forget Binding keeps it running', async (workbench, session) => {
    const orphan = await endpointOf(httpSpec('explorer-orphan'));
    const root = session.workspace;
    const bound = updateBindings(root, (store) =>
      withBinding(store, 'deleted/explorer-orphan.endpoint.yaml', 0, {
        endpointId: orphan.id,
        endpointName: orphan.name,
        deployedAt: new Date().toISOString(),
      }),
    );
    assert.ok(bound.ok);
    await openExplorer(workbench);
    await refreshEndpoints(workbench, 'explorer-orphan');
    await waitUntil(
      async () => /^explorer-orphan no spec · /.test(await rowText(workbench, 'Endpoints', 'explorer-orphan')),
      'the row to read "no spec"',
    );
    await workbench.screenshot('explorer--no-spec');
    await contextAction(workbench, 'explorer-orphan', 'Forget Binding');
    await waitUntil(() => {
      const read = readBindings(root);
      return read.ok && getBinding(read.store, 'deleted/explorer-orphan.endpoint.yaml', 0) === undefined;
    }, 'the binding to be forgotten');
    await waitUntil(async () => !/no spec/.test(await rowText(workbench, 'Endpoints', 'explorer-orphan')), 'the row to drop "no spec"');
    assert.equal((await api.serverless.get(orphan.id)).name, 'explorer-orphan', 'forgetting deletes nothing');
  });

  editorTest('Delete left unanswered deletes nothing', async (workbench) => {
    const kept = await endpointOf(httpSpec('explorer-kept'));
    await openExplorer(workbench);
    await refreshEndpoints(workbench, 'explorer-kept');
    await contextAction(workbench, 'explorer-kept', 'Delete Endpoint');
    const input = workbench.page.locator('.quick-input-widget');
    await input.locator('input').waitFor();
    await workbench.page.keyboard.press('Escape');
    await input.waitFor({ state: 'hidden' });
    await refreshEndpoints(workbench, 'explorer-kept');
    assert.equal((await api.serverless.get(kept.id)).name, 'explorer-kept', 'dismissing the confirmation keeps the endpoint');
  });

  editorTest("the title bar's Refresh reads the whole list, even with a Workers row focused", async (workbench) => {
    await sharedEndpoints(workbench);
    await expandRow(workbench, 'Endpoints', 'explorer-gpu');
    // A click on the row expands it and leaves the focus on it.
    await expandRow(workbench, 'Endpoints', /^Workers/);
    await endpointOf(httpSpec('explorer-late'));
    await paneAction(workbench, 'Endpoints', 'Refresh Endpoints');
    await treeRow(workbench, 'Endpoints', 'explorer-late').waitFor();
    assert.match(await rowText(workbench, 'Endpoints', 'explorer-late'), /^explorer-late LOAD_BALANCER/);
  });

  editorTest('a refresh while one is in flight starts no second request', async (workbench) => {
    // No spec open (its CodeLens reads its endpoint) and nothing expanded: only the list is read.
    await sharedEndpoints(workbench);
    // Shown only once a refresh has been answered: the end of the one the clicks start.
    await endpointOf(httpSpec('explorer-in-flight'));
    // Every /v2/serverless request now takes 1.5 s, and the emulator counts them down from 1000.
    emulator.setFaults({ latencyMs: 1500, paths: ['/v2/serverless'], count: 1000 });
    try {
      const refresh = viewPane(workbench, 'Endpoints').locator('.pane-header .action-label[aria-label^="Refresh Endpoints"]');
      await viewPane(workbench, 'Endpoints').locator('.pane-header').hover();
      for (let click = 0; click < 5; click++) await refresh.click();
      await waitUntil(async () => (await faultsLeft()) < 1000, 'the refresh to reach the emulator');
      // A second request would start on its click, before the first one's answer (1.5 s later) is shown.
      await treeRow(workbench, 'Endpoints', 'explorer-in-flight').waitFor();
      assert.equal(1000 - (await faultsLeft()), 1, 'five clicks during one refresh make one list request');
    } finally {
      emulator.setFaults(undefined);
    }
  });

  editorTest('a failed list shows the error welcome view, and Retry recovers', async (workbench) => {
    await sharedEndpoints(workbench);
    emulator.setFaults({ status5xx: 500, paths: ['/v2/serverless'] });
    const welcome = viewPane(workbench, 'Endpoints').locator('.welcome-view-content');
    try {
      await paneAction(workbench, 'Endpoints', 'Refresh Endpoints');
      await welcome.getByRole('button', { name: 'Retry' }).waitFor();
      assert.match(await welcome.innerText(), /could not be read/);
      await workbench.page.locator('.notifications-toasts', { hasText: 'Listing endpoints failed' }).first().waitFor();
      await workbench.screenshot('explorer--error-state');
    } finally {
      emulator.setFaults(undefined);
    }
    await welcome.getByRole('button', { name: 'Retry' }).click();
    await treeRow(workbench, 'Endpoints', 'explorer-gpu').waitFor();
  });

  editorTest('an account without endpoints shows New Endpoint Spec', async (workbench) => {
    // An empty account: every endpoint goes (tests that need theirs create them again).
    for (const endpoint of await api.serverless.list()) await api.serverless.delete(endpoint.id);
    await openExplorer(workbench);
    await refreshEndpoints(workbench);
    // The view says "Reading endpoints…" first; the empty state replaces it.
    const welcome = viewPane(workbench, 'Endpoints').locator('.welcome-view-content', { hasText: 'no endpoints yet' });
    await welcome.getByRole('button', { name: 'New Endpoint Spec' }).waitFor();
    assert.match(await welcome.innerText(), /This account has no endpoints yet\. Write a spec, then deploy it/);
  });

  async function faultsLeft(): Promise<number> {
    const answer = (await (await fetch(`${emulator.restUrl}/__emulator/faults`)).json()) as { faults: { count?: number } | null };
    return answer.faults?.count ?? 0;
  }
});

describe('signed out', () => {
  // No key in the environment and none stored, and no test here signs in: the views explain how to start.
  const { editorTest } = useEditorSession('explorer-signed-out', { env: { ENDPOINT_STUDIO_API_KEY: '', RUNPOD_API_KEY: '' } });

  editorTest('a fresh editor without a key starts signed out', async (workbench) => {
    const item = workbench.page.locator(`.statusbar-item[id$="${PROFILE_STATUS_ITEM}"]`);
    await item.filter({ hasText: 'Endpoint Studio: signed out' }).waitFor();
    assert.equal((await item.innerText()).trim(), 'Endpoint Studio: signed out');
  });

  editorTest('the welcome view offers Sign In and Use Local Emulator', async (workbench) => {
    await openExplorer(workbench);
    const welcome = viewPane(workbench, 'Endpoints').locator('.welcome-view-content');
    await welcome.getByRole('button', { name: 'Sign In' }).waitFor();
    await welcome.getByRole('button', { name: 'Use Local Emulator' }).waitFor();
    assert.match(await welcome.innerText(), /Sign in to see your serverless endpoints/);
    await viewPane(workbench, 'Catalog').locator('.welcome-view-content', { hasText: 'Sign in to browse GPU pools' }).waitFor();
  });
});
