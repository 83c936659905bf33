/** "Use Local Emulator" runs dist/cli.js emulator as a child process: it listens, answers with its key, and stops. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { EmulatorProcess } from '../../../client/auth/emulatorProcess';
import { createApiClient } from '../../../core/api';

const CLI = join(__dirname, '..', '..', '..', 'dist', 'cli.js');

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
      assert.deepEqual(await api.serverless.list(), []);
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
      const api = createApiClient({ apiUrl: second.restUrl, jobsUrl: second.jobsUrl, apiKey: second.apiKey });
      assert.deepEqual(await api.serverless.list(), []);
    } finally {
      await emulator.stop();
    }
  });

  it('says why when the emulator cannot start', async () => {
    const emulator = new EmulatorProcess(join(__dirname, 'no-such-cli.js'), () => undefined);
    await assert.rejects(emulator.start(), /the emulator exited \(code 1\) before it listened: .*no-such-cli/s);
    assert.ok(!emulator.running);
  });
});
