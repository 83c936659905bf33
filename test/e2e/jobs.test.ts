/**
 * The job console in a real workbench against an emulator started here: a request file run from
 * its CodeLens on a chosen endpoint with its result document (status, delay and execution times,
 * worker, output); streamed chunks appearing in the result while the job runs; a failed job's
 * Retry and Open Worker Logs; cancel from the progress notification; health of a queue endpoint;
 * purge behind a modal confirmation; a load balancer pinged from the Endpoints view. Every test runs
 * its jobs on an endpoint of its own, created by the test, so no test waits on another's worker or
 * counts another's jobs.
 */
import assert from 'node:assert/strict';
import { after } from 'node:test';
import type { Frame } from 'playwright-core';
import { createApiClient, type ApiClient, type CreateEndpointRequest, type Endpoint } from '../../core/api';
import { startEmulator, DEFAULT_DEV_API_KEY, type RunningEmulator } from '../../emulator/index';
import { useEditorSession, type EditorSessionOptions } from './support/session';
import { contextAction, refreshEndpoints } from './support/views';
import { waitUntil, type Workbench } from './support/workbench';

let emulator: RunningEmulator;
let api: ApiClient;
after(() => emulator.close());

const { editorTest } = useEditorSession('jobs', async (): Promise<EditorSessionOptions> => {
  emulator = await startEmulator({ port: 0, jobsPort: 0, timeScale: 20 });
  api = createApiClient({ apiUrl: emulator.restUrl, jobsUrl: emulator.jobsUrl, apiKey: DEFAULT_DEV_API_KEY });
  return {
    env: { ENDPOINT_STUDIO_API_KEY: DEFAULT_DEV_API_KEY },
    userSettings: {
      'endpointStudio.api.url': emulator.restUrl,
      'endpointStudio.api.jobsUrl': emulator.jobsUrl,
      'endpointStudio.jobs.pollIntervalMs': 250,
    },
  };
});

const queueSpec = (name: string, workers: CreateEndpointRequest['workers']): CreateEndpointRequest => ({
  name,
  type: 'QUEUE',
  image: 'myorg/jobs:1.0',
  gpu: { pools: ['ADA_24'] },
  scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
  workers,
});

/** A queue endpoint of the test's own with one worker, once that worker is idle. */
async function queueEndpoint(name: string): Promise<Endpoint> {
  const endpoint = await api.serverless.create(queueSpec(name, { min: 1, max: 1, idleTimeout: 600 }));
  await waitUntil(
    async () => (await api.serverless.workers(endpoint.id)).workers.some((w) => w.status === 'IDLE'),
    `the worker of ${name} to boot`,
  );
  return endpoint;
}

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

const jobIdIn = (text: string): string => /"jobId": "([^"]+)"/.exec(text)?.[1] ?? '';

/** Writes a request file into the workspace and opens it. */
async function openNewRequest(workbench: Workbench, workspace: string, name: string, body: unknown): Promise<void> {
  await workbench.openNewFile(workspace, name, `${JSON.stringify(body, null, 2)}\n`);
}

/** Runs the active request file on `endpoint` from its CodeLens, choosing the endpoint in the picker. */
async function runOn(workbench: Workbench, endpoint: string): Promise<void> {
  await clickCodeLens(workbench, /Run…/);
  await workbench.pickQuickInputRow(endpoint);
}

editorTest(
  'a request file runs from its CodeLens on a chosen endpoint; the result shows status, times, worker and output',
  async (workbench) => {
    await queueEndpoint('run-result');
    await workbench.openFile('sdxl-worker.request.json');
    await runOn(workbench, 'run-result');
    const text = await editorShowing(workbench, (t) => t.includes('"status": "COMPLETED"'), 'the completed result');
    assert.match(text, /"endpoint": \{[\s\S]*"name": "run-result"/);
    assert.match(text, /"delayTime": \d+/);
    assert.match(text, /"executionTime": \d+/);
    assert.match(text, /"workerId": "[^"]+"/);
    assert.match(text, /"output": \{\s*"echo": \{\s*"prompt": "a lighthouse on a cliff at dusk, oil painting"/);
    assert.ok(!text.includes(DEFAULT_DEV_API_KEY));
    await workbench.page.locator(`.tab[data-resource-name="${jobIdIn(text)}.json"]`).waitFor();
    // The choice is remembered for the file: the lens now names the endpoint.
    await workbench.page.locator('.codelens-decoration').filter({ hasText: 'Run on run-result' }).first().waitFor({ state: 'visible' });
  },
);

editorTest(
  'streamed chunks appear in the result while the job runs, then the result completes with all of them',
  async (workbench, session) => {
    await queueEndpoint('run-stream');
    await openNewRequest(workbench, session.workspace, 'stream.request.json', {
      input: { stream: ['chunk-one', 'chunk-two', 'chunk-three', 'chunk-four'], sleepMs: 120_000 },
    });
    await runOn(workbench, 'run-stream');
    // The request (shown at the end of the document) names every chunk; only the stream array counts.
    const streamed = (t: string): string => /"stream": \[([^\]]*)\]/.exec(t)?.[1] ?? '';
    await editorShowing(
      workbench,
      (t) => t.includes('"status": "IN_PROGRESS"') && streamed(t).includes('"chunk-one"') && !streamed(t).includes('"chunk-four"'),
      'a running job with some chunks',
    );
    await workbench
      .toast(/Run on run-stream/)
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

/** The frame of the Logs webview showing `target` (the workbench nests webviews in two iframes). */
async function logsFrameShowing(workbench: Workbench, target: string): Promise<Frame> {
  let logs: Frame | undefined;
  await waitUntil(async () => {
    for (const frame of workbench.page.frames()) {
      if (
        await frame
          .locator('#target', { hasText: target })
          .count()
          .catch(() => 0)
      )
        logs = frame;
    }
    return logs !== undefined;
  }, `the Logs panel on ${target}`);
  return logs as Frame;
}

editorTest('a failed job says why, and offers Retry and the logs of the worker that ran it', async (workbench, session) => {
  await queueEndpoint('run-failure');
  await openNewRequest(workbench, session.workspace, 'fail.request.json', { input: { fail: 'CUDA out of memory' } });
  await runOn(workbench, 'run-failure');
  const failure = workbench.toast(/on run-failure failed: CUDA out of memory/);
  await failure.waitFor();
  const text = await editorShowing(workbench, (t) => t.includes('"status": "FAILED"'), 'the failed result');
  const workerId = /"workerId": "([^"]+)"/.exec(text)?.[1] ?? '';
  assert.ok(workerId, 'the result names the worker');
  assert.match(text, /"error": "CUDA out of memory"/);
  await failure.locator('.monaco-button', { hasText: /^Retry$/ }).click();
  await editorShowing(workbench, (t) => t.includes('"status": "FAILED"') && /"retries": 1/.test(t), 'the retried job failing again');
  await workbench
    .toast(/on run-failure failed: CUDA out of memory/)
    .locator('.monaco-button', { hasText: /^Open Worker Logs$/ })
    .click();
  const logs = await logsFrameShowing(workbench, `run-failure · worker ${workerId}`);
  await logs.locator('#lines .row', { hasText: 'failed: CUDA out of memory' }).first().waitFor();
});

editorTest('cancelling the progress notification cancels the job on the service', async (workbench, session) => {
  const endpoint = await queueEndpoint('run-cancel');
  await openNewRequest(workbench, session.workspace, 'long.request.json', { input: { sleepMs: 36_000_000 } });
  await runOn(workbench, 'run-cancel');
  const running = await editorShowing(
    workbench,
    (t) => t.includes('"status": "IN_PROGRESS"') && t.includes('36000000'),
    'the long job running',
  );
  const progress = workbench.toast(/Run on run-cancel/);
  await progress.hover();
  await progress.locator('.monaco-button', { hasText: /^Cancel$/ }).click();
  await editorShowing(workbench, (t) => t.includes('"status": "CANCELLED"') && t.includes(jobIdIn(running)), 'the cancelled result');
  assert.equal((await api.jobs.status(endpoint.id, jobIdIn(running))).status, 'CANCELLED');
  await workbench.toast(/on run-cancel cancelled/).waitFor();
});

editorTest('health of a queue endpoint: jobs and workers by state', async (workbench) => {
  const endpoint = await queueEndpoint('health-queue');
  await api.jobs.runSync(endpoint.id, { input: { echo: 'for the health counts' } });
  await api.jobs.runSync(endpoint.id, { input: { fail: 'for the health counts' } });
  await workbench.runCommand('Endpoint Studio: Show Endpoint Health');
  await workbench.pickQuickInputRow('health-queue');
  const text = await editorShowing(workbench, (t) => t.includes('# Health of health-queue'), 'the health document');
  assert.match(text, /## Jobs by state/);
  assert.match(text, /\| completed \| 1 \|/);
  assert.match(text, /\| failed \| 1 \|/);
  assert.match(text, /## Workers by state/);
  assert.match(text, /\| (idle|running) \| 1 \|/);
});

/** An endpoint no worker can start on, holding `jobs` queued jobs. */
async function queueWithJobs(name: string, jobs: number): Promise<Endpoint> {
  const endpoint = await api.serverless.create(queueSpec(name, { min: 0, max: 0 }));
  await Promise.all(Array.from({ length: jobs }, () => api.jobs.run(endpoint.id, { input: {} })));
  assert.equal((await api.jobs.health(endpoint.id)).jobs.inQueue, jobs);
  return endpoint;
}

editorTest('purge asks first, naming the endpoint, then empties its queue', async (workbench) => {
  const idle = await queueWithJobs('purge-idle', 2);
  await workbench.runCommand('Endpoint Studio: Purge Queue…');
  await workbench.pickQuickInputRow('purge-idle');
  const dialog = workbench.page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible' });
  assert.match(await dialog.innerText(), /Purge the queue of purge-idle\?[\s\S]*Jobs in progress keep running/);
  await workbench.screenshot('jobs--purge-confirmation');
  await workbench.answerDialog('Purge Queue');
  await workbench.toast(/Purged the queue of purge-idle; jobs removed: 2/).waitFor();
  assert.equal((await api.jobs.health(idle.id)).jobs.inQueue, 0);
});

editorTest('purge answered Cancel leaves the queue as it was', async (workbench) => {
  const kept = await queueWithJobs('purge-kept', 2);
  await workbench.runCommand('Endpoint Studio: Purge Queue…');
  await workbench.pickQuickInputRow('purge-kept');
  assert.match(await workbench.answerDialog('Cancel'), /Purge the queue of purge-kept\?/);
  // Whatever the command does next, it does after the dialog closed: a status read orders after it.
  await workbench.runCommand('Endpoint Studio: Show Endpoint Health');
  await workbench.pickQuickInputRow('purge-kept');
  const text = await editorShowing(workbench, (t) => t.includes('# Health of purge-kept'), 'the health document');
  assert.match(text, /\| in queue \| 2 \|/);
  assert.equal((await api.jobs.health(kept.id)).jobs.inQueue, 2, 'nothing was purged');
});

editorTest('a load balancer is pinged from the Endpoints view; its base and health URLs are shown', async (workbench) => {
  await api.serverless.create({
    name: 'ping-lb',
    type: 'LOAD_BALANCER',
    image: 'myorg/lb:1.0',
    gpu: { pools: ['ADA_24'] },
    workers: { min: 1, max: 1, idleTimeout: 600 },
    scaling: { type: 'REQUEST_COUNT', requestCount: 1 },
  });
  await refreshEndpoints(workbench, 'ping-lb');
  await contextAction(workbench, 'ping-lb', 'Ping Load Balancer Health');
  const ping = workbench.toast(/Health of ping-lb: 200 \(healthy\) in \d+ ms/);
  await ping.waitFor();
  await ping.locator('.monaco-button', { hasText: /^Show URLs$/ }).click();
  // Markdown documents wrap long lines; the URLs are checked as one line.
  const text = (
    await editorShowing(workbench, (t) => t.includes('# Health of ping-lb (load balancer)'), 'the load balancer document')
  ).replace(/\n(?![-#|`])/g, '');
  assert.match(text, /- base: http:\/\/[a-z0-9]+\.localhost:\d+\n/);
  assert.match(text, /- health: http:\/\/[a-z0-9]+\.localhost:\d+\/ping\n/);
  assert.match(text, /- answer: 200 \(healthy\) in \d+ ms/);
  assert.ok(!text.includes(DEFAULT_DEV_API_KEY));
});
