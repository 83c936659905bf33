/**
 * The Logs panel in a real workbench, against an emulator started here and reached through a
 * proxy that can cut connections: open an endpoint's logs from the Command Palette (all workers
 * merged, rows tagged), see lines arrive in the webview, cut the stream in the middle and see the
 * reconnect marker followed by the lines written meanwhile, none repeated; filter; open one
 * worker's logs from the Endpoints tree's context menu.
 */
import assert from 'node:assert/strict';
import { after, before, describe } from 'node:test';
import type { Frame } from 'playwright-core';
import { createApiClient, type ApiClient, type Endpoint } from '../../core/api';
import { startEmulator, DEFAULT_DEV_API_KEY, type RunningEmulator } from '../../emulator/index';
import { startDropProxy, type DropProxy } from '../client/logs/dropProxy';
import { useEditorSession, type EditorSessionOptions } from './support/session';
import { waitUntil, type Workbench } from './support/workbench';

interface ShownRow {
  cls: string;
  id: string;
  text: string;
}

/** The frame of the Logs webview (VS Code nests it in two iframes). */
async function logsFrame(workbench: Workbench): Promise<Frame> {
  let found: Frame | undefined;
  await waitUntil(async () => {
    for (const frame of workbench.page.frames()) {
      if (
        await frame
          .locator('#lines[role="log"]')
          .count()
          .catch(() => 0)
      ) {
        found = frame;
        return true;
      }
    }
    return false;
  }, 'the Logs webview');
  return found as Frame;
}

async function shownRows(frame: Frame): Promise<ShownRow[]> {
  return frame
    .locator('#lines .row')
    .evaluateAll((rows) =>
      rows.map((r) => ({ cls: r.className, id: r.getAttribute('data-id') ?? '', text: (r.textContent ?? '').trim() })),
    );
}

async function waitForRows(frame: Frame, until: (rows: ShownRow[]) => boolean, description: string): Promise<ShownRow[]> {
  let rows: ShownRow[] = [];
  await waitUntil(
    async () => until((rows = await shownRows(frame))),
    description,
    () => rows.map((r) => r.text).join('\n'),
  );
  return rows;
}

/** A row of the Endpoints view, which is shown first. */
function endpointRow(workbench: Workbench, text: string | RegExp) {
  const page = workbench.page;
  const pane = page.locator('.pane', { has: page.locator('.pane-header h3.title', { hasText: /^Endpoints$/ }) });
  return {
    async waitFor() {
      if (!(await pane.isVisible())) await page.locator('.part.activitybar .action-item a[aria-label^="Endpoint Studio"]').first().click();
      await pane.locator('.monaco-list-row', { hasText: text }).first().waitFor();
    },
    locator: (selector: string) => pane.locator('.monaco-list-row', { hasText: text }).first().locator(selector),
    getAttribute: (name: string) => pane.locator('.monaco-list-row', { hasText: text }).first().getAttribute(name),
    click: () => pane.locator('.monaco-list-row', { hasText: text }).first().click(),
    hover: () => pane.locator('.monaco-list-row', { hasText: text }).first().hover(),
  };
}

describe('the Logs panel, against the emulator', () => {
  let emulator: RunningEmulator;
  let proxy: DropProxy;
  let api: ApiClient;
  let endpoint: Endpoint;
  let workerId: string;
  const options: EditorSessionOptions = {};
  before(async () => {
    emulator = await startEmulator({ port: 0, jobsPort: 0, timeScale: 20 });
    proxy = await startDropProxy(emulator.restUrl);
    api = createApiClient({ apiUrl: emulator.restUrl, jobsUrl: emulator.jobsUrl, apiKey: DEFAULT_DEV_API_KEY });
    endpoint = await api.serverless.create({
      name: 'logs-gpu',
      type: 'QUEUE',
      image: 'myorg/logs-gpu:1.0',
      gpu: { pools: ['ADA_24'], count: 1 },
      workers: { min: 1, max: 1, idleTimeout: 600 },
      scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
    });
    await waitUntil(async () => {
      const idle = (await api.serverless.workers(endpoint.id)).workers.find((w) => w.status === 'IDLE');
      if (idle) workerId = idle.id;
      return idle !== undefined;
    }, 'the worker to boot');
    await api.jobs.runSync(endpoint.id, { input: { log: ['hello from the first job'] } });
    options.env = { ENDPOINT_STUDIO_API_KEY: DEFAULT_DEV_API_KEY };
    // Through the proxy, so the test can cut the editor's log stream in the middle.
    options.userSettings = { 'endpointStudio.api.url': proxy.url, 'endpointStudio.api.jobsUrl': emulator.jobsUrl };
  });
  after(async () => {
    await proxy.close();
    await emulator.close();
  });
  const { editorTest } = useEditorSession('logs', options);
  /** The log streams the editor has open, as the proxy sees them. */
  const logStreams = () => proxy.openRequests().filter((r) => /^GET \/v2\/serverless\/[^/]+\/workers\/[^/]+\/logs/.test(r));

  editorTest('Open Endpoint Logs shows the merged lines of its workers, tagged with worker and source', async (workbench) => {
    // Signed in (the palette offers the command only then) once the Endpoints view lists the endpoint.
    await endpointRow(workbench, 'logs-gpu').waitFor();
    await workbench.runCommand('Endpoint Studio: Open Endpoint Logs');
    await workbench.pickQuickInputRow('logs-gpu');
    const frame = await logsFrame(workbench);
    await frame.locator('#target', { hasText: 'logs-gpu · all workers' }).waitFor();
    const rows = await waitForRows(frame, (r) => r.some((x) => x.text.includes('hello from the first job')), 'the job line');
    assert.ok(
      rows.some((r) => r.text.includes(`[${workerId}/system]`) && r.text.includes('container started')),
      'system lines tagged with the worker',
    );
    assert.ok(
      rows.some((r) => r.text.includes(`[${workerId}/container]`) && r.text.includes('Worker ready.')),
      'container lines tagged with the worker',
    );
    assert.match(rows[0].text, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/, 'rows start with their timestamp');
    // Live follow: a line written now appears without any action.
    await api.jobs.runSync(endpoint.id, { input: { log: ['a live line'] } });
    await waitForRows(frame, (r) => r.some((x) => x.text.includes('a live line')), 'the live line');
    await frame.locator('#status.live').waitFor();
  });

  editorTest('a stream cut in the middle shows a reconnect marker, then resumes with no line repeated or lost', async (workbench) => {
    const frame = await logsFrame(workbench);
    await waitForRows(frame, (r) => r.some((x) => x.text.includes('a live line')), 'the lines so far');
    assert.ok(proxy.dropAll() > 0, 'the editor had connections open');
    // Written while the stream is down: the resume with Last-Event-ID must bring it.
    await api.jobs.runSync(endpoint.id, { input: { log: ['written during the drop'] } });
    const rows = await waitForRows(
      frame,
      (r) => r.some((x) => x.text.includes('written during the drop')),
      'the line written during the drop',
    );
    const markerAt = rows.findIndex((r) => r.cls.includes('marker') && /stream dropped .*resuming after /.test(r.text));
    assert.ok(markerAt >= 0, 'a reconnect marker row');
    const lineAt = rows.findIndex((r) => r.text.includes('written during the drop'));
    assert.ok(markerAt < lineAt, 'the marker comes before the lines after the drop');
    const ids = rows.filter((r) => r.id !== '').map((r) => r.id);
    assert.equal(new Set(ids).size, ids.length, 'no line repeated');
    const all = rows.filter((r) => !r.cls.includes('marker')).map((r) => r.text);
    for (const line of ['hello from the first job', 'a live line', 'written during the drop'])
      assert.equal(all.filter((t) => t.includes(line)).length, 1, line);
    await frame.locator('#status', { hasText: /1 reconnect/ }).waitFor();
    await workbench.screenshot('logs--reconnect-marker');
  });

  editorTest('the filter narrows the rows (text and regex); markers stay', async (workbench) => {
    const frame = await logsFrame(workbench);
    await frame.locator('#filter').fill('LIVE');
    let rows = await waitForRows(
      frame,
      (r) => r.filter((x) => !x.cls.includes('marker')).every((x) => x.text.toLowerCase().includes('live')),
      'only matching rows',
    );
    assert.ok(rows.some((r) => r.text.includes('a live line')));
    await frame.locator('#regex').check();
    await frame.locator('#filter').fill('^.*(first|during)');
    rows = await waitForRows(frame, (r) => r.filter((x) => !x.cls.includes('marker')).length === 2, 'two regex matches');
    await frame.locator('#filter').fill('(');
    await frame.locator('#filterError', { hasText: 'Invalid regular expression' }).waitFor();
    await frame.locator('#filter').fill('');
    await waitForRows(frame, (r) => r.some((x) => x.text.includes('Worker ready.')), 'all rows again');
  });

  editorTest('hiding the panel closes the stream; showing it again resumes after the last line', async (workbench) => {
    assert.ok(logStreams().length > 0, 'a log stream is open while the panel shows');
    await workbench.runCommand('View: Toggle Panel Visibility');
    await waitUntil(
      async () => logStreams().length === 0,
      'the log stream to close',
      () => logStreams().join('\n'),
    );
    await api.jobs.runSync(endpoint.id, { input: { log: ['written while hidden'] } });
    await workbench.runCommand('View: Toggle Panel Visibility');
    const frame = await logsFrame(workbench);
    // The re-shown view receives the kept lines and the resumed stream; wait for both before counting.
    const rows = await waitForRows(
      frame,
      (r) => r.some((x) => x.text.includes('written while hidden')) && r.some((x) => x.text.includes('a live line')),
      'the kept lines and the line written while hidden',
    );
    const ids = rows.filter((r) => r.id !== '').map((r) => r.id);
    assert.equal(new Set(ids).size, ids.length, 'no line repeated');
    assert.equal(rows.filter((r) => r.text.includes('a live line')).length, 1);
    await waitUntil(
      async () => logStreams().length === 1,
      'one log stream again',
      () => logStreams().join('\n'),
    );
  });

  editorTest('Open Worker Logs from the Endpoints tree follows that one worker', async (workbench) => {
    const rowOf = (text: string | RegExp) => endpointRow(workbench, text);
    for (const text of ['logs-gpu', /^Workers/]) {
      await rowOf(text).waitFor();
      if ((await rowOf(text).getAttribute('aria-expanded')) !== 'true') await rowOf(text).click();
    }
    await rowOf(workerId).hover();
    await rowOf(workerId).locator('.action-label[aria-label^="Open Worker Logs"]').click();
    const frame = await logsFrame(workbench);
    await frame.locator('#target', { hasText: `logs-gpu · worker ${workerId}` }).waitFor();
    const rows = await waitForRows(frame, (r) => r.some((x) => x.text.includes('written during the drop')), 'the worker backfill');
    assert.ok(
      rows.some((r) => r.text.includes('[container]')) && !rows.some((r) => r.text.includes(`[${workerId}/`)),
      'one worker: rows tagged by source only',
    );
    // Switching target aborted the endpoint's stream: only the worker's is open.
    await waitUntil(
      async () => logStreams().length === 1,
      'one log stream after switching target',
      () => logStreams().join('\n'),
    );
  });
});
