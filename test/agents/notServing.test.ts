/**
 * Why workers are not serving, as an MCP client sees it: `endpoint-studio mcp` (dist/cli.js) over stdio with the
 * SDK's own client against the emulator. watch_rollout on a crash-looping release returns its cause with the line
 * the container died on and its last log lines; get_job and run_job on a job IN_QUEUE behind it say why it waits.
 * Every structured result is valid under the output schema the tool lists, and the key is in nothing returned.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createApiClient, type ApiClient } from '../../core/api';
import { startEmulator } from '../../emulator';
import { eventually, gpuEndpoint, TEST_KEY } from '../core/api/support';
import { startMcpSession, succeeded, type McpSession, type ToolOutcome } from './mcpSession';

const CRASH_LINE = "ModuleNotFoundError: No module named 'torch'";

interface Cause {
  kind: string;
  message: string;
  workers: string[];
  workerId?: string;
  lastLine?: string;
  logs?: { line: string }[];
}

type Emulator = Awaited<ReturnType<typeof startEmulator>>;

describe('why workers are not serving, over MCP', { timeout: 120_000 }, () => {
  let emulator: Emulator;
  let api: ApiClient;
  let root: string;
  let mcp: McpSession;

  before(async () => {
    emulator = await startEmulator({ port: 0, jobsPort: 0, timeScale: 50, seed: 7, apiKey: TEST_KEY });
    api = createApiClient({ apiUrl: emulator.restUrl, jobsUrl: emulator.jobsUrl, apiKey: TEST_KEY });
    root = mkdtempSync(join(tmpdir(), 'es-mcp-cause-'));
    mkdirSync(join(root, '.git'));
    mcp = await startMcpSession({
      cwd: root,
      allowWrites: true,
      env: { ENDPOINT_STUDIO_API_URL: emulator.restUrl, ENDPOINT_STUDIO_JOBS_URL: emulator.jobsUrl, ENDPOINT_STUDIO_API_KEY: TEST_KEY },
    });
  });

  after(async () => {
    await mcp.close();
    await emulator.close();
    rmSync(root, { recursive: true, force: true });
  });

  /** A result that is no error, with no key in it. */
  async function call(name: string, args: Record<string, unknown>): Promise<ToolOutcome> {
    const outcome = succeeded(await mcp.call(name, args));
    assert.ok(!outcome.text.includes(TEST_KEY) && !JSON.stringify(outcome.structured).includes(TEST_KEY));
    return outcome;
  }

  it('watch_rollout names a crash loop with its last log lines; get_job and run_job say why a job waits', async () => {
    const endpoint = await api.serverless.create(gpuEndpoint({ workers: { min: 1, max: 1, idleTimeout: 600 } }));
    await eventually(async () => ((await api.serverless.workers(endpoint.id)).workers.some((w) => w.status === 'IDLE') ? true : undefined));
    await api.serverless.update(endpoint.id, { image: 'example/crashloop:2.0' });

    const failed = await call('watch_rollout', { endpointId: endpoint.id, waitSeconds: 30 });
    assert.equal(failed.structured.state, 'failed', failed.text);
    const cause = failed.structured.cause as Cause;
    assert.deepEqual([cause.kind, cause.lastLine], ['crash-looping', CRASH_LINE]);
    assert.ok(cause.workerId && cause.workers.includes(cause.workerId));
    assert.ok((cause.logs ?? []).some((l) => l.line === CRASH_LINE) && (cause.logs ?? []).length <= 5);
    assert.ok(failed.text.includes(`not serving: the workers of release 2 are crash-looping: ${CRASH_LINE}`), failed.text);
    assert.ok(failed.text.includes(`read_worker_logs with endpointId ${endpoint.id} and workerId ${cause.workerId}`), failed.text);

    const once = await call('watch_rollout', { endpointId: endpoint.id, waitSeconds: 0 });
    assert.equal(once.structured.state, 'in-progress');
    assert.equal((once.structured.cause as Cause).kind, 'crash-looping', 'a single read names it too');

    // A job waits only where no worker serves: on an endpoint whose every worker crash-loops.
    const crashOnly = await api.serverless.create(
      gpuEndpoint({ name: 'crash-only', image: 'example/crashloop:1.0', workers: { min: 1, max: 1, idleTimeout: 600 } }),
    );
    await eventually(async () =>
      (await api.serverless.workers(crashOnly.id)).workers.some((w) => w.status === 'UNHEALTHY') ? true : undefined,
    );
    const queued = await call('run_job', { endpointId: crashOnly.id, input: { prompt: 'a lighthouse' } });
    assert.equal(queued.structured.status, 'IN_QUEUE');
    assert.equal((queued.structured.waiting as Cause).kind, 'crash-looping');
    assert.ok(queued.text.includes(`waiting: the endpoint's workers are crash-looping: ${CRASH_LINE}`), queued.text);

    const read = await call('get_job', { endpointId: crashOnly.id, jobId: String(queued.structured.jobId) });
    assert.equal(read.structured.status, 'IN_QUEUE');
    const waiting = read.structured.waiting as Cause;
    assert.deepEqual([waiting.kind, waiting.lastLine], ['crash-looping', CRASH_LINE]);
    assert.equal(waiting.message, `the endpoint's workers are crash-looping: ${CRASH_LINE}`);
  });
});
