/**
 * The Logs panel in a real workbench, against an emulator started here and reached through a
 * proxy that can cut connections: open an endpoint's logs from the Command Palette (all workers
 * merged, rows tagged), see lines arrive in the webview, cut the stream in the middle and see the
 * reconnect marker followed by the lines written meanwhile, none repeated; filter; open one
 * worker's logs from the Endpoints tree's context menu. Each test follows an endpoint of its own,
 * created with the lines it expects, so what one test logs never shows in another.
 */
import assert from 'node:assert/strict';
import { after, before, describe } from 'node:test';
import type { Frame } from 'playwright-core';
import { createApiClient, type ApiClient, type Endpoint } from '../../core/api';
import { startEmulator, DEFAULT_DEV_API_KEY, type RunningEmulator } from '../../emulator/index';
import { startDropProxy, type DropProxy } from '../client/logs/dropProxy';
import { extensionLog } from './support/editorProcesses';
import { useEditorSession, type EditorSessionOptions } from './support/session';
import { assertCommandLinksIgnored, assertLockedDown, inspectWebview, postFromWebview } from './support/webviewSecurity';
import { collapseAll, expandRow, refreshEndpoints, treeRow } from './support/views';
import { waitUntil, type PageNode, type Workbench } from './support/workbench';

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
  return frame.locator('#lines .row').evaluateAll((rows) =>
    (rows as unknown as PageNode[]).map((r) => ({
      cls: r.className,
      id: r.getAttribute('data-id') ?? '',
      text: (r.textContent ?? '').trim(),
    })),
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

describe('the Logs panel, against the emulator', () => {
  let emulator: RunningEmulator;
  let proxy: DropProxy;
  let api: ApiClient;
  const options: EditorSessionOptions = {};
  before(async () => {
    emulator = await startEmulator({ port: 0, jobsPort: 0, timeScale: 20 });
    proxy = await startDropProxy(emulator.restUrl);
    api = createApiClient({ apiUrl: emulator.restUrl, jobsUrl: emulator.jobsUrl, apiKey: DEFAULT_DEV_API_KEY });
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

  /** Logs `lines` from a job on the endpoint (each call is one job). */
  const log = (endpoint: Endpoint, ...lines: string[]) => api.jobs.runSync(endpoint.id, { input: { log: lines } });

  /** A queue endpoint of the test's own with one booted worker, which has logged `lines` from a first job. */
  async function loggingEndpoint(name: string, ...lines: string[]): Promise<{ endpoint: Endpoint; workerId: string }> {
    const endpoint = await api.serverless.create({
      name,
      type: 'QUEUE',
      image: `myorg/${name}:1.0`,
      gpu: { pools: ['ADA_24'], count: 1 },
      workers: { min: 1, max: 1, idleTimeout: 600 },
      scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
    });
    let workerId = '';
    await waitUntil(async () => {
      const idle = (await api.serverless.workers(endpoint.id)).workers.find((w) => w.status === 'IDLE');
      workerId = idle?.id ?? '';
      return idle !== undefined;
    }, `the worker of ${name} to boot`);
    if (lines.length > 0) await log(endpoint, ...lines);
    return { endpoint, workerId };
  }

  /** Opens the endpoint's logs (all workers) from the Command Palette and returns the Logs webview. */
  async function openEndpointLogs(workbench: Workbench, name: string): Promise<Frame> {
    // Signed in (the palette offers the command only then) once the Endpoints view lists the endpoint.
    await refreshEndpoints(workbench, name);
    await workbench.runCommand('Endpoint Studio: Open Endpoint Logs');
    await workbench.pickQuickInputRow(name);
    const frame = await logsFrame(workbench);
    await frame.locator('#target', { hasText: `${name} · all workers` }).waitFor();
    // The view keeps its filter and pause across targets: start from none, whatever an earlier test left.
    if ((await frame.locator('#filter').inputValue()) !== '') await frame.locator('#filter').fill('');
    if (await frame.locator('#regex').isChecked()) await frame.locator('#regex').uncheck();
    if ((await frame.locator('#pause').getAttribute('aria-pressed')) === 'true') await frame.locator('#pause').click();
    return frame;
  }

  editorTest('Open Endpoint Logs shows the merged lines of its workers, tagged with worker and source', async (workbench) => {
    const { endpoint, workerId } = await loggingEndpoint('logs-open', 'hello from the first job');
    const frame = await openEndpointLogs(workbench, 'logs-open');
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
    await log(endpoint, 'a live line');
    await waitForRows(frame, (r) => r.some((x) => x.text.includes('a live line')), 'the live line');
    await frame.locator('#status.live').waitFor();
  });

  editorTest('a stream cut in the middle shows a reconnect marker, then resumes with no line repeated or lost', async (workbench) => {
    const { endpoint } = await loggingEndpoint('logs-cut', 'hello from the first job', 'a live line');
    const frame = await openEndpointLogs(workbench, 'logs-cut');
    await waitForRows(frame, (r) => r.some((x) => x.text.includes('a live line')), 'the lines so far');
    await waitUntil(
      () => logStreams().length > 0,
      'the log stream to open',
      () => proxy.openRequests().join('\n'),
    );
    assert.ok(proxy.dropAll() > 0, 'the editor had connections open');
    // Written while the stream is down: the resume with Last-Event-ID must bring it.
    await log(endpoint, 'written during the drop');
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
    const { endpoint } = await loggingEndpoint('logs-filter', 'hello from the first job');
    await log(endpoint, 'a live line');
    await log(endpoint, 'written during the drop');
    const frame = await openEndpointLogs(workbench, 'logs-filter');
    await waitForRows(frame, (r) => r.some((x) => x.text.includes('written during the drop')), 'every line');
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
    assert.deepEqual(
      rows.filter((x) => !x.cls.includes('marker')).map((x) => /(first|during)/.exec(x.text)?.[1]),
      ['first', 'during'],
    );
    await frame.locator('#filter').fill('(');
    await frame.locator('#filterError', { hasText: 'Invalid regular expression' }).waitFor();
    await frame.locator('#filter').fill('');
    await waitForRows(frame, (r) => r.some((x) => x.text.includes('Worker ready.')), 'all rows again');
  });

  editorTest('hiding the panel closes the stream; showing it again resumes after the last line', async (workbench) => {
    const { endpoint } = await loggingEndpoint('logs-hide', 'a live line');
    const frame = await openEndpointLogs(workbench, 'logs-hide');
    await waitForRows(frame, (r) => r.some((x) => x.text.includes('a live line')), 'the first line');
    await waitUntil(() => logStreams().length > 0, 'a log stream to be open while the panel shows');
    await workbench.runCommand('View: Toggle Panel Visibility');
    await waitUntil(
      () => logStreams().length === 0,
      'the log stream to close',
      () => logStreams().join('\n'),
    );
    await log(endpoint, 'written while hidden');
    await workbench.runCommand('View: Toggle Panel Visibility');
    const shown = await logsFrame(workbench);
    // The re-shown view receives the kept lines and the resumed stream; wait for both before counting.
    const rows = await waitForRows(
      shown,
      (r) => r.some((x) => x.text.includes('written while hidden')) && r.some((x) => x.text.includes('a live line')),
      'the kept lines and the line written while hidden',
    );
    const ids = rows.filter((r) => r.id !== '').map((r) => r.id);
    assert.equal(new Set(ids).size, ids.length, 'no line repeated');
    assert.equal(rows.filter((r) => r.text.includes('a live line')).length, 1);
    await waitUntil(
      () => logStreams().length === 1,
      'one log stream again',
      () => logStreams().join('\n'),
    );
  });

  editorTest('Open Worker Logs from the Endpoints tree follows that one worker', async (workbench) => {
    const { workerId } = await loggingEndpoint('logs-worker', 'a line for the worker view');
    // Following the whole endpoint first, so opening the worker is a switch of target.
    await openEndpointLogs(workbench, 'logs-worker');
    await collapseAll(workbench, 'Endpoints');
    await expandRow(workbench, 'Endpoints', 'logs-worker');
    await expandRow(workbench, 'Endpoints', /^Workers/);
    await treeRow(workbench, 'Endpoints', workerId).hover();
    await treeRow(workbench, 'Endpoints', workerId).locator('.action-label[aria-label^="Open Worker Logs"]').click();
    const frame = await logsFrame(workbench);
    await frame.locator('#target', { hasText: `logs-worker · worker ${workerId}` }).waitFor();
    const rows = await waitForRows(frame, (r) => r.some((x) => x.text.includes('a line for the worker view')), 'the worker backfill');
    assert.ok(
      rows.some((r) => r.text.includes('[container]')) && !rows.some((r) => r.text.includes(`[${workerId}/`)),
      'one worker: rows tagged by source only',
    );
    // Switching target aborted the endpoint's stream: only the worker's is open.
    await waitUntil(
      () => logStreams().length === 1,
      'one log stream after switching target',
      () => logStreams().join('\n'),
    );
  });

  editorTest(
    'the Logs page is locked down: strict CSP and nonce, one script, nothing inline or remote, data shown as text; command links do nothing',
    async (workbench) => {
      const markup = '<b id="injected-markup">bold</b><img src="https://example.com/pixel.png">';
      await loggingEndpoint('logs-page', markup);
      const frame = await openEndpointLogs(workbench, 'logs-page');
      // A log line is data: its markup shows as text and builds no element.
      await waitForRows(frame, (r) => r.some((x) => x.text.includes(markup)), 'the line with markup, as text');
      assert.equal(await frame.locator('#injected-markup').count(), 0);
      assertLockedDown(await inspectWebview(frame), 'the Logs view');
      await assertCommandLinksIgnored(workbench, frame);
    },
  );

  editorTest('what the Logs page sends is parsed first: a malformed message does nothing and is logged', async (workbench, session) => {
    await loggingEndpoint('logs-messages', 'a line that stays');
    const frame = await openEndpointLogs(workbench, 'logs-messages');
    await waitForRows(frame, (r) => r.some((x) => x.text.includes('a line that stays')), 'the job line');
    const before = (await shownRows(frame)).length;
    const warnings = () => extensionLog(session.server).split('logs view: ignored a message of unknown shape from the webview').length - 1;
    const seen = warnings();
    const malformed: unknown[] = [
      null,
      'clear',
      ['clear'],
      { type: 'clear', all: true },
      { type: 'save', path: '/etc/passwd' },
      { type: 'filter', text: 'x'.repeat(501), regex: false },
      { type: 'filter', text: 'no row has this', regex: 'yes' },
      { type: 'source', source: '../../etc' },
      { type: 'tail', tail: 1e9 },
      { type: 'pause', paused: 'true' },
      { type: 'constructor' },
    ];
    for (const message of malformed) await postFromWebview(frame, message);
    await waitUntil(
      () => warnings() - seen === malformed.length,
      'a warning for each malformed message',
      () => `${warnings() - seen} of ${malformed.length}`,
    );
    assert.equal((await shownRows(frame)).length, before, 'no message cleared, filtered or paused the view');
    // The same channel carries a well-formed message, which the view acts on.
    await postFromWebview(frame, { type: 'filter', text: 'a line that stays', regex: false });
    const rows = await waitForRows(frame, (r) => r.filter((x) => !x.cls.includes('marker')).length === 1, 'only the matching line');
    assert.match(rows.filter((x) => !x.cls.includes('marker'))[0].text, /a line that stays/);
  });
});
