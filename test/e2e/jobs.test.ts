/**
 * The job console in a real workbench against an emulator started here: a request file run from
 * its CodeLens on a chosen endpoint with its result document (status, delay and execution times,
 * worker, output); streamed chunks appearing in the result while the job runs; a failed job's
 * Retry and Open Worker Logs; cancel from the progress notification; health of a queue endpoint;
 * purge behind a modal confirmation; a load balancer pinged from the Endpoints view.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after } from 'node:test';
import { createApiClient, type ApiClient, type Endpoint } from '../../core/api';
import { startEmulator, DEFAULT_DEV_API_KEY, type RunningEmulator } from '../../emulator/index';
import { useEditorSession, type EditorSessionOptions } from './support/session';
import { waitUntil, type Workbench } from './support/workbench';

let emulator: RunningEmulator;
let api: ApiClient;
let gpu: Endpoint;
let idle: Endpoint;
after(() => emulator.close());

const { editorTest } = useEditorSession('jobs', async (): Promise<EditorSessionOptions> => {
  emulator = await startEmulator({ port: 0, jobsPort: 0, timeScale: 20 });
  api = createApiClient({ apiUrl: emulator.restUrl, jobsUrl: emulator.jobsUrl, apiKey: DEFAULT_DEV_API_KEY });
  const queue = {
    type: 'QUEUE' as const,
    image: 'myorg/jobs:1.0',
    gpu: { pools: ['ADA_24'] },
    scaling: { type: 'QUEUE_DELAY' as const, queueDelay: 4 },
  };
  gpu = await api.serverless.create({ ...queue, name: 'jobs-gpu', workers: { min: 1, max: 1, idleTimeout: 600 } });
  // No worker can start here, so what is submitted stays queued until purged.
  idle = await api.serverless.create({ ...queue, name: 'queue-idle', workers: { min: 0, max: 0 } });
  await api.serverless.create({
    name: 'jobs-lb',
    type: 'LOAD_BALANCER',
    image: 'myorg/lb:1.0',
    gpu: { pools: ['ADA_24'] },
    workers: { min: 1, max: 1, idleTimeout: 600 },
    scaling: { type: 'REQUEST_COUNT', requestCount: 1 },
  });
  await waitUntil(async () => (await api.serverless.workers(gpu.id)).workers.some((w) => w.status === 'IDLE'), 'the queue worker to boot');
  return {
    env: { ENDPOINT_STUDIO_API_KEY: DEFAULT_DEV_API_KEY },
    userSettings: {
      'endpointStudio.api.url': emulator.restUrl,
      'endpointStudio.api.jobsUrl': emulator.jobsUrl,
      'endpointStudio.jobs.pollIntervalMs': 250,
    },
  };
});

async function clickCodeLens(workbench: Workbench, title: RegExp): Promise<void> {
  const lens = workbench.page.locator('.codelens-decoration a').filter({ hasText: title }).first();
  await lens.waitFor({ state: 'visible' });
  await lens.click();
}

/**
 * The text of every editor on screen, line by line in the order shown: Monaco reuses line
 * elements, so their order in the page is not the order on screen. Spaces come as non-breaking ones.
 */
async function editorTexts(workbench: Workbench): Promise<string[]> {
  const texts = await workbench.page.locator('.editor-group-container .editor-instance .monaco-editor .view-lines').evaluateAll((els) =>
    els.map((e) =>
      Array.from(
        (
          e as unknown as { querySelectorAll(selector: string): ArrayLike<{ style: { top: string }; textContent: string | null }> }
        ).querySelectorAll('.view-line'),
      )
        .map((line) => ({ top: parseFloat(line.style.top) || 0, text: line.textContent ?? '' }))
        .sort((a, b) => a.top - b.top)
        .map((line) => line.text)
        .join('\n'),
    ),
  );
  return texts.map((t) => t.replace(/\u00a0/g, ' '));
}

/** Waits for an editor on screen whose text passes `until`, and returns that text. */
async function editorShowing(workbench: Workbench, until: (text: string) => boolean, description: string): Promise<string> {
  let texts: string[] = [];
  await waitUntil(
    async () => (texts = await editorTexts(workbench)).some(until),
    description,
    () => texts.join('\n-----\n'),
  );
  return texts.find(until) as string;
}

function toast(workbench: Workbench, text: RegExp) {
  return workbench.page.locator('.notifications-toasts .notification-toast').filter({ hasText: text }).first();
}

async function clearNotifications(workbench: Workbench): Promise<void> {
  await workbench.runCommand('Notifications: Clear All Notifications');
}

/** Writes a request file into the workspace and opens it once Quick Open knows it. */
async function openNewRequest(workbench: Workbench, workspace: string, name: string, body: unknown): Promise<void> {
  writeFileSync(join(workspace, name), `${JSON.stringify(body, null, 2)}\n`);
  const page = workbench.page;
  const quickInput = page.locator('.quick-input-widget');
  // Quick Open lists a new file only after the file watcher reported it: ask again until it does.
  await waitUntil(async () => {
    await page.keyboard.press('Control+P');
    await quickInput.locator('input').waitFor();
    await page.keyboard.type(name);
    const row = quickInput.locator('.monaco-list-row', { hasText: name }).first();
    if (
      await row.waitFor({ timeout: 3000 }).then(
        () => true,
        () => false,
      )
    ) {
      await row.click();
      await row.waitFor({ state: 'hidden' });
      return true;
    }
    await page.keyboard.press('Escape');
    return false;
  }, `${name} in Quick Open`);
  await workbench.waitForActiveEditor(name);
}

/** Runs an action from an Endpoints row's context menu with the keyboard (the menu ignores a synthetic click). */
async function contextAction(workbench: Workbench, text: string, action: string): Promise<void> {
  const page = workbench.page;
  const pane = page.locator('.pane', { has: page.locator('.pane-header h3.title', { hasText: /^Endpoints$/ }) });
  if (!(await pane.isVisible())) await page.locator('.part.activitybar .action-item a[aria-label^="Endpoint Studio"]').first().click();
  const row = pane.locator('.monaco-list-row', { hasText: text }).first();
  await row.waitFor();
  await row.click({ button: 'right' });
  const menu = page.locator('.context-view .monaco-menu');
  await menu.locator('.action-item', { hasText: action }).first().waitFor();
  const count = await menu.locator('.action-item').count();
  for (let step = 0; step <= count; step++) {
    await page.keyboard.press('ArrowDown');
    const focused =
      (await menu
        .locator('.action-item.focused')
        .textContent()
        .catch(() => '')) ?? '';
    if (focused.includes(action)) {
      await page.keyboard.press('Enter');
      await menu.waitFor({ state: 'hidden' });
      return;
    }
  }
  throw new Error(`no context menu action "${action}" could be focused`);
}

const jobIdIn = (text: string): string => /"jobId": "([^"]+)"/.exec(text)?.[1] ?? '';

editorTest(
  'a request file runs from its CodeLens on a chosen endpoint; the result shows status, times, worker and output',
  async (workbench) => {
    await workbench.openFile('sdxl-worker.request.json');
    await clickCodeLens(workbench, /Run…/);
    await workbench.pickQuickInputRow('jobs-gpu');
    const text = await editorShowing(workbench, (t) => t.includes('"status": "COMPLETED"'), 'the completed result');
    assert.match(text, /"endpoint": \{[\s\S]*"name": "jobs-gpu"/);
    assert.match(text, /"delayTime": \d+/);
    assert.match(text, /"executionTime": \d+/);
    assert.match(text, /"workerId": "[^"]+"/);
    assert.match(text, /"output": \{\s*"echo": \{\s*"prompt": "a lighthouse on a cliff at dusk, oil painting"/);
    assert.ok(!text.includes(DEFAULT_DEV_API_KEY));
    await workbench.page.locator(`.tab[data-resource-name="${jobIdIn(text)}.json"]`).waitFor();
    // The choice is remembered for the file: the lens now names the endpoint.
    await workbench.page.locator('.codelens-decoration').filter({ hasText: 'Run on jobs-gpu' }).first().waitFor({ state: 'visible' });
  },
);

editorTest(
  'streamed chunks appear in the result while the job runs, then the result completes with all of them',
  async (workbench, session) => {
    await openNewRequest(workbench, session.workspace, 'stream.request.json', {
      input: { stream: ['chunk-one', 'chunk-two', 'chunk-three', 'chunk-four'], sleepMs: 120_000 },
    });
    await clickCodeLens(workbench, /Run…/);
    await workbench.pickQuickInputRow('jobs-gpu');
    // The request (shown at the end of the document) names every chunk; only the stream array counts.
    const streamed = (t: string): string => /"stream": \[([^\]]*)\]/.exec(t)?.[1] ?? '';
    await editorShowing(
      workbench,
      (t) => t.includes('"status": "IN_PROGRESS"') && streamed(t).includes('"chunk-one"') && !streamed(t).includes('"chunk-four"'),
      'a running job with some chunks',
    );
    await toast(workbench, /Run on jobs-gpu/)
      .filter({ hasText: /in progress · .* · \d chunks?/ })
      .waitFor();
    await workbench.screenshot('jobs--streaming-in-progress');
    const text = await editorShowing(
      workbench,
      (t) => t.includes('"status": "COMPLETED"') && t.includes('"chunk-four"'),
      'the completed result with every chunk',
    );
    assert.match(text, /"stream": \[\s*"chunk-one",\s*"chunk-two",\s*"chunk-three",\s*"chunk-four"\s*\]/);
  },
);

editorTest('a failed job says why, and offers Retry and the logs of the worker that ran it', async (workbench, session) => {
  await clearNotifications(workbench);
  await openNewRequest(workbench, session.workspace, 'fail.request.json', { input: { fail: 'CUDA out of memory' } });
  await clickCodeLens(workbench, /Run…/);
  await workbench.pickQuickInputRow('jobs-gpu');
  const failure = toast(workbench, /on jobs-gpu failed: CUDA out of memory/);
  await failure.waitFor();
  const text = await editorShowing(workbench, (t) => t.includes('"status": "FAILED"'), 'the failed result');
  const workerId = /"workerId": "([^"]+)"/.exec(text)?.[1] ?? '';
  assert.ok(workerId, 'the result names the worker');
  assert.match(text, /"error": "CUDA out of memory"/);
  await failure.locator('.monaco-button', { hasText: /^Retry$/ }).click();
  await editorShowing(workbench, (t) => t.includes('"status": "FAILED"') && /"retries": 1/.test(t), 'the retried job failing again');
  await toast(workbench, /on jobs-gpu failed: CUDA out of memory/)
    .locator('.monaco-button', { hasText: /^Open Worker Logs$/ })
    .click();
  let logs: import('playwright-core').Frame | undefined;
  await waitUntil(async () => {
    for (const frame of workbench.page.frames()) {
      if (
        await frame
          .locator('#target', { hasText: `jobs-gpu · worker ${workerId}` })
          .count()
          .catch(() => 0)
      )
        logs = frame;
    }
    return logs !== undefined;
  }, 'the Logs panel on the worker that ran the job');
  await (logs as import('playwright-core').Frame).locator('#lines .row', { hasText: 'failed: CUDA out of memory' }).first().waitFor();
});

editorTest('cancelling the progress notification cancels the job on the service', async (workbench, session) => {
  await clearNotifications(workbench);
  await openNewRequest(workbench, session.workspace, 'long.request.json', { input: { sleepMs: 36_000_000 } });
  await clickCodeLens(workbench, /Run…/);
  await workbench.pickQuickInputRow('jobs-gpu');
  const running = await editorShowing(
    workbench,
    (t) => t.includes('"status": "IN_PROGRESS"') && t.includes('36000000'),
    'the long job running',
  );
  const progress = toast(workbench, /Run on jobs-gpu/);
  await progress.hover();
  await progress.locator('.monaco-button', { hasText: /^Cancel$/ }).click();
  await editorShowing(workbench, (t) => t.includes('"status": "CANCELLED"') && t.includes(jobIdIn(running)), 'the cancelled result');
  assert.equal((await api.jobs.status(gpu.id, jobIdIn(running))).status, 'CANCELLED');
  await toast(workbench, /on jobs-gpu cancelled/).waitFor();
});

editorTest('health of a queue endpoint: jobs and workers by state', async (workbench) => {
  await api.jobs.runSync(gpu.id, { input: { fail: 'for the health counts' } });
  await workbench.runCommand('Endpoint Studio: Show Endpoint Health');
  await workbench.pickQuickInputRow('jobs-gpu');
  const text = await editorShowing(workbench, (t) => t.includes('# Health of jobs-gpu'), 'the health document');
  assert.match(text, /## Jobs by state/);
  assert.match(text, /\| completed \| [1-9]\d* \|/);
  assert.match(text, /\| failed \| [1-9]\d* \|/);
  assert.match(text, /## Workers by state/);
  assert.match(text, /\| (idle|running) \| 1 \|/);
});

editorTest('purge asks first, naming the endpoint, then empties its queue', async (workbench) => {
  await clearNotifications(workbench);
  await Promise.all([1, 2].map(() => api.jobs.run(idle.id, { input: {} })));
  assert.equal((await api.jobs.health(idle.id)).jobs.inQueue, 2);
  await workbench.runCommand('Endpoint Studio: Purge Queue…');
  await workbench.pickQuickInputRow('queue-idle');
  const dialog = workbench.page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible' });
  assert.match(await dialog.innerText(), /Purge the queue of queue-idle\?[\s\S]*Jobs in progress keep running/);
  await workbench.screenshot('jobs--purge-confirmation');
  await dialog
    .locator('a.monaco-button, button')
    .filter({ hasText: /^Purge Queue$/ })
    .first()
    .click();
  await toast(workbench, /Purged the queue of queue-idle; jobs removed: 2/).waitFor();
  assert.equal((await api.jobs.health(idle.id)).jobs.inQueue, 0);
});

editorTest('a load balancer is pinged from the Endpoints view; its base and health URLs are shown', async (workbench) => {
  await clearNotifications(workbench);
  await contextAction(workbench, 'jobs-lb', 'Ping Load Balancer Health');
  const ping = toast(workbench, /Health of jobs-lb: 200 \(healthy\) in \d+ ms/);
  await ping.waitFor();
  await ping.locator('.monaco-button', { hasText: /^Show URLs$/ }).click();
  // Markdown documents wrap long lines; the URLs are checked as one line.
  const text = (
    await editorShowing(workbench, (t) => t.includes('# Health of jobs-lb (load balancer)'), 'the load balancer document')
  ).replace(/\n(?![-#|`])/g, '');
  assert.match(text, /- base: http:\/\/127\.0\.0\.1:\d+\/lb\/\S+/);
  assert.match(text, /- health: http:\/\/127\.0\.0\.1:\d+\/lb\/\S+\/ping/);
  assert.match(text, /- answer: 200 \(healthy\) in \d+ ms/);
  assert.ok(!text.includes(DEFAULT_DEV_API_KEY));
});
