/**
 * Billing in a real workbench, against an emulator started here on a known usage ledger (the same
 * one the node tests sum by hand) plus one live endpoint whose worker accrues spend: the Billing
 * view with totals per kind; the chart panel drawn with stacked bars, legend and table for a
 * chosen window; keyboard moves between bars; a marker at each release of the endpoints in view;
 * grouping by GPU; empty and error states; CSV export through the editor's save dialog; each endpoint's 7-day spend in the Endpoints view; a spec's cost
 * in its hover and in the deploy confirmation.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import type { Frame } from 'playwright-core';
import { createApiClient, type ApiClient, type Endpoint } from '../../core/api';
import { startEmulator, DEFAULT_DEV_API_KEY, type RunningEmulator } from '../../emulator/index';
import { ledgerState } from '../core/billing/support';
import { defaultQuery } from '../../client/billing/view';
import { extensionLog } from './support/editorProcesses';
import { useEditorSession, type EditorSessionOptions } from './support/session';
import { assertCommandLinksIgnored, assertLockedDown, inspectWebview, postFromWebview } from './support/webviewSecurity';
import { rowText, showEndpointStudio, treeRow as row, viewPane } from './support/views';
import { waitUntil, type Workbench } from './support/workbench';

/** Shows the Endpoint Studio container and opens the Billing pane, which starts collapsed. */
async function openBillingView(workbench: Workbench): Promise<void> {
  const page = workbench.page;
  await showEndpointStudio(workbench);
  const header = viewPane(workbench, 'Billing').locator('.pane-header');
  await header.waitFor();
  // Wider than the default, so rows (and screenshots) show whole descriptions.
  const sidebar = await page.locator('.part.sidebar').boundingBox();
  if (sidebar && sidebar.width < 500) {
    const edge = sidebar.x + sidebar.width;
    await page.mouse.move(edge - 1, sidebar.y + sidebar.height / 2);
    await page.mouse.down();
    await page.mouse.move(edge + 200, sidebar.y + sidebar.height / 2, { steps: 5 });
    await page.mouse.up();
  }
  if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
  await waitUntil(async () => (await header.getAttribute('aria-expanded')) === 'true', 'the Billing pane to open');
  // The Catalog is not needed here: collapsing it gives the Billing rows the room.
  const catalog = page.locator('.pane-header', { has: page.locator('h3.title', { hasText: /^Catalog$/ }) });
  if ((await catalog.getAttribute('aria-expanded')) === 'true') await catalog.click();
}

/** The frame of the billing panel's webview (the workbench nests it in two iframes). */
async function billingFrame(workbench: Workbench): Promise<Frame> {
  let found: Frame | undefined;
  await waitUntil(async () => {
    for (const frame of workbench.page.frames()) {
      if (
        await frame
          .locator('form#controls[aria-label="Billing query"]')
          .count()
          .catch(() => 0)
      ) {
        found = frame;
        return true;
      }
    }
    return false;
  }, 'the billing webview');
  return found as Frame;
}

/**
 * Opens the chart from the Billing view's Serverless row on the row's default query (last 30 days by
 * day, by endpoint). Every test starts with no editor open, so this is a new panel, not an earlier one.
 */
async function openServerlessChart(workbench: Workbench): Promise<Frame> {
  await openBillingView(workbench);
  await row(workbench, 'Billing', /^Serverless/).click();
  const frame = await billingFrame(workbench);
  await frame.locator('#subtitle', { hasText: /by day · stacked by endpoint/ }).waitFor();
  return frame;
}

/** Types the window 4–13 May 2026 into the form and waits for its answer. */
async function showMay4To13(frame: Frame): Promise<void> {
  await frame.locator('#rangeBetween').check();
  await frame.locator('#startTime').fill('2026-05-04T00:00:00Z');
  await frame.locator('#endTime').fill('2026-05-13T00:00:00Z');
  await frame.locator('#endTime').press('Enter');
  // 4–12 May: ep_alpha 3.60, ep_beta 0.30 + 0.75.
  await frame.locator('#title', { hasText: 'Serverless billing: $4.65' }).waitFor();
}

describe('billing in the editor, against the emulator', () => {
  let emulator: RunningEmulator;
  let api: ApiClient;
  let stateDir: string;
  let live: Endpoint;
  const options: EditorSessionOptions = {};
  before(async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'es-billing-e2e-'));
    const statePath = join(stateDir, 'state.json');
    writeFileSync(statePath, JSON.stringify(ledgerState()));
    // Simulated time runs fast, so the live worker below accrues visible spend within seconds.
    emulator = await startEmulator({ port: 0, jobsPort: 0, statePath, timeScale: 50 });
    api = createApiClient({ apiUrl: emulator.restUrl, jobsUrl: emulator.jobsUrl, apiKey: DEFAULT_DEV_API_KEY });
    live = await api.serverless.create({
      name: 'billing-gpu',
      type: 'QUEUE',
      image: 'myorg/billing-gpu:1.0',
      gpu: { pools: ['ADA_24'], count: 1 },
      workers: { min: 1, max: 1, idleTimeout: 600 },
      scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
    });
    await waitUntil(async () => {
      const spend = await api.billing.serverless({ lastN: 1, endpointId: live.id });
      return spend.metadata.totals.totalAmount >= 0.01;
    }, 'the live worker to accrue a cent');
    options.env = { ENDPOINT_STUDIO_API_KEY: DEFAULT_DEV_API_KEY };
    options.userSettings = { 'endpointStudio.api.url': emulator.restUrl, 'endpointStudio.api.jobsUrl': emulator.jobsUrl };
  });
  after(async () => {
    await emulator.close();
    rmSync(stateDir, { recursive: true, force: true });
  });
  const { editorTest } = useEditorSession('billing', options);

  editorTest('the Billing view totals each kind over the last 30 days; its endpoints are listed by spend', async (workbench) => {
    await openBillingView(workbench);
    assert.match(await rowText(workbench, 'Billing', /^Serverless/), /^Serverless \$\d+\.\d\d · last 30 days$/);
    assert.match(await rowText(workbench, 'Billing', /^Pods/), /^Pods \$0\.00 · last 30 days$/);
    assert.match(await rowText(workbench, 'Billing', /^Network volumes/), /^Network volumes \$0\.00 · last 30 days$/);
    assert.match(await rowText(workbench, 'Billing', /^All/), /^All \$\d+\.\d\d · last 30 days$/);
    const serverless = row(workbench, 'Billing', /^Serverless/);
    // A click on the row opens the chart; the twistie expands it.
    if ((await serverless.getAttribute('aria-expanded')) !== 'true') await serverless.locator('.monaco-tl-twistie').click();
    await waitUntil(async () => (await serverless.getAttribute('aria-expanded')) === 'true', 'the Serverless row to expand');
    // ep_alpha spent 3.00 yesterday and ep_beta 1.00 this hour (the ledger); the live endpoint has a row of its own.
    assert.equal(await rowText(workbench, 'Billing', 'ep_alpha'), 'ep_alpha $3.00');
    assert.equal(await rowText(workbench, 'Billing', 'ep_beta'), 'ep_beta $1.00');
    // A live endpoint is listed by its name, its id beside the amount.
    assert.match(await rowText(workbench, 'Billing', 'billing-gpu'), /^billing-gpu \$\d+\.\d\d · [a-z0-9]+$/);
  });

  editorTest(
    'the chart panel draws stacked bars, legend and table for the window typed in; arrows move between bars',
    async (workbench) => {
      const frame = await openServerlessChart(workbench);
      // The row opens the last 30 days by day, grouped by endpoint (the CLI's default grouping).
      assert.equal(await frame.locator('#grouping').inputValue(), 'endpointId');
      assert.equal(await frame.locator('.bar').count(), 30);

      await showMay4To13(frame);
      assert.equal(
        await frame.locator('#subtitle').textContent(),
        '2026-05-04T00:00:00Z to 2026-05-13T00:00:00Z (UTC), by day · stacked by endpoint',
      );
      assert.equal(await frame.locator('svg .bar').count(), 9, 'one bar per day, spend or not');
      assert.equal(await frame.locator('svg .bar').nth(0).locator('rect.seg').count(), 2, 'the first day stacks both endpoints');
      assert.deepEqual(await frame.locator('#legend li').allTextContents(), ['ep_alpha $3.60', 'ep_beta $1.05']);
      assert.deepEqual(await frame.locator('#table thead th').allTextContents(), ['Bucket (UTC)', 'ep_alpha', 'ep_beta', 'Total']);
      assert.deepEqual(await frame.locator('#table tbody tr').first().locator('th, td').allTextContents(), [
        '2026-05-04',
        '3.10',
        '0.30',
        '3.40',
      ]);
      assert.deepEqual(await frame.locator('#table tfoot tr').locator('th, td').allTextContents(), ['Total', '3.60', '1.05', '4.65']);
      assert.match((await frame.locator('#components').textContent()) ?? '', /GPU \$3\.50 · CPU \$1\.00 · Disk \$0\.10 · Fee \$0\.05/);

      // Keyboard: the first bar takes the focus; arrows move it and say what the bar holds.
      await frame.locator('svg .bar[tabindex="0"]').focus();
      await frame.locator('#detail', { hasText: '2026-05-04: total $3.40; ep_alpha $3.10, ep_beta $0.30' }).waitFor();
      await workbench.page.keyboard.press('ArrowRight');
      await frame.locator('#detail', { hasText: '2026-05-05: total $0.50; ep_alpha $0.50' }).waitFor();
      await workbench.page.keyboard.press('End');
      await frame.locator('#detail', { hasText: '2026-05-12: total $0.75; ep_beta $0.75' }).waitFor();
      assert.equal(await frame.locator('svg .bar[tabindex="0"]').getAttribute('aria-label'), '2026-05-12: total $0.75; ep_beta $0.75');
      await workbench.screenshot('billing--chart-by-endpoint');
    },
  );

  editorTest('the chart marks each release of the endpoints in view where it was made, with what it changed', async (workbench) => {
    // A second release of the live endpoint: a new image.
    if ((await api.serverless.get(live.id)).image !== 'myorg/billing-gpu:1.1')
      await api.serverless.update(live.id, { image: 'myorg/billing-gpu:1.1' });
    const frame = await openServerlessChart(workbench);
    const markers = frame.locator('svg g.release');
    let count = 0;
    await waitUntil(
      async () => (count = await markers.count()) === 2,
      'a marker for each release of billing-gpu',
      () => `${count} markers`,
    );
    const labels: [string | null, string | null][] = [];
    for (const marker of await markers.all())
      labels.push([await marker.getAttribute('aria-label'), await marker.locator('title').textContent()]);
    assert.deepEqual(labels, [
      ['billing-gpu release 1: initial', 'billing-gpu release 1: initial'],
      ['billing-gpu release 2: image', 'billing-gpu release 2: image'],
    ]);
    // Made today: both lie in the last day's bar, between its edges.
    const plot = await frame.locator('svg .bar').last().locator('rect.hit').boundingBox();
    const line = await markers.last().locator('line.release-line').boundingBox();
    assert.ok(plot && line && line.x >= plot.x - 1 && line.x <= plot.x + plot.width + 1, JSON.stringify({ plot, line }));
    // A line has no width to hover by its box: the pointer goes to it.
    await workbench.page.mouse.move(line.x + line.width / 2, line.y + line.height / 2);
    await frame.locator('#detail', { hasText: 'billing-gpu release 2: image' }).waitFor();
  });

  editorTest('grouping by GPU type restacks the bars; the week bucket snaps to Monday', async (workbench) => {
    const frame = await openServerlessChart(workbench);
    await showMay4To13(frame);
    await frame.locator('#grouping').selectOption('gpuId');
    await frame.locator('#subtitle', { hasText: 'stacked by GPU type' }).waitFor();
    assert.deepEqual(await frame.locator('#legend li').allTextContents(), ['NVIDIA GeForce RTX 4090 $3.60', 'cpu3c $1.05']);
    await frame.locator('#bucketSize').selectOption('week');
    await frame.locator('#subtitle', { hasText: '2026-05-04T00:00:00Z to 2026-05-18T00:00:00Z (UTC), by week' }).waitFor();
    assert.deepEqual(await frame.locator('#table tbody th').allTextContents(), ['week of 2026-05-04', 'week of 2026-05-11']);
  });

  editorTest('Export CSV writes the records through the save dialog', async (workbench, session) => {
    const frame = await openServerlessChart(workbench);
    await showMay4To13(frame);
    await frame.locator('#grouping').selectOption('gpuId');
    await frame.locator('#bucketSize').selectOption('week');
    await frame
      .locator('#subtitle', { hasText: '2026-05-04T00:00:00Z to 2026-05-18T00:00:00Z (UTC), by week · stacked by GPU type' })
      .waitFor();
    await frame.locator('#export:not([disabled])').click();
    // The editor's own save dialog: the proposed name in the workspace; Enter accepts it.
    const input = workbench.page.locator('.quick-input-widget input');
    await input.waitFor();
    await waitUntil(
      async () => (await input.inputValue()).endsWith('billing-serverless-week-2026-05-04-2026-05-18.csv'),
      'the proposed file name',
      () => '',
    );
    await workbench.page.keyboard.press('Enter');
    const file = join(session.workspace, 'billing-serverless-week-2026-05-04-2026-05-18.csv');
    await waitUntil(
      () => existsSync(file),
      'the CSV file',
      () => readdirSync(session.workspace).join(', '),
    );
    const lines = readFileSync(file, 'utf8').split('\r\n');
    assert.equal(lines[0], 'startTime,endTime,gpuId,gpuAmount,cpuAmount,diskAmount,feeAmount,totalAmount');
    assert.ok(lines.includes('2026-05-04T00:00:00Z,2026-05-11T00:00:00Z,NVIDIA GeForce RTX 4090,3.5,0,0.1,0,3.6'), lines.join('\n'));
  });

  editorTest('empty and error states: no pods spend; a malformed time is named, then fixed', async (workbench) => {
    const frame = await openServerlessChart(workbench);
    // A window holding 4 May, the one day of network volume usage in the ledger.
    await showMay4To13(frame);
    await frame.locator('#kind').selectOption('pods');
    await frame.locator('#empty:not([hidden])').waitFor();
    assert.equal(await frame.locator('#grouping').inputValue(), 'gpuId', 'pods group by GPU by default');
    assert.ok(await frame.locator('label[data-filter="podId"]').isVisible());
    assert.ok(!(await frame.locator('label[data-filter="endpointId"]').isVisible()), 'pods take no endpoint filter');
    await frame.locator('#export[disabled]').waitFor();
    await workbench.screenshot('billing--empty');

    await frame.locator('#startTime').fill('yesterday');
    await frame.locator('#show').click();
    await frame.locator('#error[role="alert"]', { hasText: 'billing query invalid: start time must be an RFC 3339 timestamp' }).waitFor();
    assert.ok(await frame.locator('#retry').isHidden(), 'asking again cannot fix the query');
    await workbench.screenshot('billing--error');
    await frame.locator('#startTime').fill('2026-05-04T00:00:00Z');
    await frame.locator('#kind').selectOption('networkVolumes');
    await frame.locator('#title', { hasText: /^Network volumes billing: \$0\.29$/ }).waitFor();
    assert.ok(await frame.locator('#error').isHidden());
  });

  editorTest('each endpoint in the Endpoints view shows its spend over the last 7 days', async (workbench) => {
    await openBillingView(workbench);
    const text = await rowText(workbench, 'Endpoints', 'billing-gpu');
    assert.match(text, /^billing-gpu QUEUE · GPU ADA_24 ×1 · workers 1–1 · .* · \$\d+\.\d{2,4} last 7 days$/);
    assert.doesNotMatch(text, /\$0\.00 last/, 'the running worker has spent something');
    await row(workbench, 'Endpoints', 'billing-gpu').hover();
    await workbench.page
      .locator('.monaco-hover, .workbench-hover', { hasText: /Spend over the last 7 days \(UTC days, today included\): \$\d/ })
      .first()
      .waitFor();
  });

  editorTest('a spec shows its cost in the hover on workers.min and in the deploy confirmation', async (workbench) => {
    // The example: pools ADA_24 (RTX 4090 0.69) and AMPERE_24 (RTX A5000 0.36 … 0.43), 1 GPU, workers 0–3.
    await workbench.openFile('sdxl-worker.endpoint.yaml');
    await workbench.goTo(9, 4);
    const hover = await workbench.hoverText('Cost from catalog prices');
    assert.match(hover, /Always on: workers\.min 0\s+\$0\.00\s+\$0\.00/);
    assert.match(hover, /At workers\.max 3\s+\$1\.08–\$2\.07\s+\$788\.40–\$1,511\.10/);
    await workbench.screenshot('billing--cost-hover');
    await workbench.page.keyboard.press('Escape');
    await workbench.runCommand('Endpoint Studio: Deploy Spec');
    const dialog = workbench.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible' });
    assert.match(
      await dialog.innerText(),
      /always-on cost: \$0\.00\/h \(\$0\.00\/month\) for workers\.min 0; \$1\.08–\$2\.07\/h at workers\.max 3/,
    );
    await workbench.screenshot('billing--deploy-confirmation');
    await dialog
      .locator('a.monaco-button, button')
      .filter({ hasText: /^Cancel$/ })
      .first()
      .click();
    await dialog.waitFor({ state: 'hidden' });
  });

  editorTest(
    'the chart page is locked down: strict CSP with a fresh nonce, one script, nothing inline or remote; command links do nothing',
    async (workbench) => {
      const first = assertLockedDown(await inspectWebview(await openServerlessChart(workbench)), 'the billing panel');
      // A page served again gets a nonce of its own.
      await workbench.runCommand('View: Close All Editors');
      const frame = await openServerlessChart(workbench);
      const second = assertLockedDown(await inspectWebview(frame), 'the billing panel, opened again');
      assert.notEqual(second, first);
      await assertCommandLinksIgnored(workbench, frame);
    },
  );

  editorTest('what the chart page sends is parsed first: a malformed message does nothing and is logged', async (workbench, session) => {
    const frame = await openServerlessChart(workbench);
    const title = await frame.locator('#title').innerText();
    const warnings = () =>
      extensionLog(session.server).split('billing panel: ignored a message of unknown shape from the webview').length - 1;
    const seen = warnings();
    const networkVolumes = defaultQuery('networkVolumes', { range: 'last' });
    const malformed: unknown[] = [
      null,
      'exportCsv',
      { type: 'exportCsv', path: '/etc/passwd' },
      { type: 'query' },
      { type: 'query', query: { ...networkVolumes, apiKey: 'x' } },
      { type: 'query', query: { ...networkVolumes, lastN: 1001 } },
      { type: 'query', query: { ...networkVolumes, kind: 'clusters' } },
      { type: 'run', command: 'workbench.action.toggleSidebarVisibility' },
    ];
    for (const message of malformed) await postFromWebview(frame, message);
    await waitUntil(
      () => warnings() - seen === malformed.length,
      'a warning for each malformed message',
      () => `${warnings() - seen} of ${malformed.length}`,
    );
    assert.equal(await frame.locator('#title').innerText(), title, 'no message changed the query');
    // The same channel carries a well-formed query, which the panel answers.
    await postFromWebview(frame, { type: 'query', query: networkVolumes });
    await frame.locator('#title', { hasText: /^Network volumes billing: \$/ }).waitFor();
  });
});
