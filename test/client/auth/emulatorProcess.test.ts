/**
 * "Use Local Emulator" runs dist/cli.js emulator as a child process: it listens, answers with its
 * key, and stops, also when the process that started it is killed outright.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { EmulatorProcess, type EmulatorAddress } from '../../../client/auth/emulatorProcess';
import { createApiClient } from '../../../core/api';

const CLI = join(__dirname, '..', '..', '..', 'dist', 'cli.js');
/** "Use Local Emulator" starts on the demo state, so a newcomer's views have something to show. */
const DEMO_ENDPOINTS = ['http-service', 'sdxl-worker', 'sdxl-worker-prod', 'sdxl-worker-staging'];

async function endpointNames(address: EmulatorAddress): Promise<string[]> {
  const api = createApiClient({ apiUrl: address.restUrl, jobsUrl: address.jobsUrl, apiKey: address.apiKey });
  return (await api.serverless.list()).map((endpoint) => endpoint.name).sort();
}

describe('EmulatorProcess', () => {
  it('starts the emulator once, serves the API with the key it printed, and stops it', async () => {
    const lines: string[] = [];
    const emulator = new EmulatorProcess(CLI, (line) => lines.push(line));
    try {
      const address = await emulator.start();
      assert.equal(await emulator.start(), address, 'a second use reuses the running emulator');
      assert.ok(emulator.running);
      assert.match(address.restUrl, /^http:\/\/127\.0\.0\.1:\d+/);
      const api = createApiClient({ apiUrl: address.restUrl, jobsUrl: address.jobsUrl, apiKey: address.apiKey });
      assert.deepEqual(await endpointNames(address), DEMO_ENDPOINTS);
      const created = await api.serverless.create({
        name: 'child',
        type: 'QUEUE',
        image: 'a/b:1',
        gpu: { pools: ['ADA_24'] },
        scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
      });
      assert.equal((await api.serverless.get(created.id)).name, 'child');
      assert.ok(lines.some((line) => line.startsWith('Emulator of REST API v2 listening on')));
    } finally {
      await emulator.stop();
    }
    assert.ok(!emulator.running);
  });

  it('stops answering once stopped, and starts afresh on the next use', async () => {
    const emulator = new EmulatorProcess(CLI, () => undefined);
    try {
      const first = await emulator.start();
      await emulator.stop();
      await assert.rejects(fetch(`${first.restUrl}/endpoints`));
      const second = await emulator.start();
      assert.ok(emulator.running);
      assert.deepEqual(await endpointNames(second), DEMO_ENDPOINTS, 'the new emulator starts on a fresh demo state');
    } finally {
      await emulator.stop();
    }
  });

  it('says why when the emulator cannot start', async () => {
    const emulator = new EmulatorProcess(join(__dirname, 'no-such-cli.js'), () => undefined);
    await assert.rejects(emulator.start(), /the emulator exited \(code 1\) before it listened: .*no-such-cli/s);
    assert.ok(!emulator.running);
  });

  it('exits when the process that started it is killed with SIGKILL', async () => {
    const parent = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'emulatorParent.ts'), CLI], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const address = await firstLine(parent.stdout).then((line) => JSON.parse(line) as EmulatorAddress);
      assert.deepEqual(await endpointNames(address), DEMO_ENDPOINTS, 'the emulator answers while its parent lives');
      parent.kill('SIGKILL');
      const deadline = Date.now() + 5000;
      let answering = true;
      while (answering && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        answering = await fetch(`${address.restUrl}/v2/serverless`, { signal: AbortSignal.timeout(1000) }).then(
          () => true,
          () => false,
        );
      }
      assert.equal(answering, false, 'the emulator still answers 5 s after its parent was killed');
    } finally {
      parent.kill('SIGKILL');
    }
  });
});

/** The first line a stream writes. */
function firstLine(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\n');
      if (end >= 0) resolve(text.slice(0, end));
    });
    stream.on('end', () => {
      reject(new Error(`ended before a line: ${text}`));
    });
  });
}
