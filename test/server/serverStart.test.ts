/**
 * The language server started as the editor starts it: forked before the profile is known, with
 * `--environment-from-parent`, then told the profile on the fork's IPC channel. It serves nothing until then,
 * reads the live catalog with the key it was sent (which is on neither its command line nor its starting
 * environment), starts without a profile on a message of any other shape, and ends when the editor goes first.
 */
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { ENVIRONMENT_FROM_PARENT, environmentMessage } from '../../core/protocol';
import { DEFAULT_DEV_API_KEY, startEmulator, type RunningEmulator } from '../../emulator/index';
import { LspClient, REPO_ROOT } from '../support/lspClient';

const SERVER = resolve(REPO_ROOT, 'dist/server.js');

describe('the language server started as the editor starts it', { timeout: 30_000 }, () => {
  let emulator: RunningEmulator;
  let cacheDir: string;
  before(async () => {
    emulator = await startEmulator({ port: 0, jobsPort: 0 });
    cacheDir = mkdtempSync(join(tmpdir(), 'es-server-start-'));
  });
  after(async () => {
    await emulator.close();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it('reads the live catalog with the key it was sent, which its command line and starting environment never held', async () => {
    const message = environmentMessage({
      ENDPOINT_STUDIO_API_URL: emulator.restUrl,
      ENDPOINT_STUDIO_API_KEY: DEFAULT_DEV_API_KEY,
      ENDPOINT_STUDIO_CACHE_DIR: cacheDir,
    });
    const client = await LspClient.start({ pull: true, environmentMessage: message });
    try {
      await client.catalogStatus((status) => status.state === 'live');
      const uri = 'file:///start/a.endpoint.yaml';
      await client.open(uri, 'name: a\ntype: QUEUE\nimage: x:1\ngpu:\n  pools: [ADA_42]\nscaling:\n  type: QUEUE_DELAY\n  queueDelay: 4\n');
      assert.deepEqual(
        (await client.pulledDiagnostics(uri)).map((d) => d.code),
        ['pool-unknown'],
      );
      const pid = String(client.process.pid);
      for (const file of ['cmdline', 'environ']) {
        assert.ok(!readFileSync(`/proc/${pid}/${file}`, 'utf8').includes(DEFAULT_DEV_API_KEY), `the key is in /proc/${pid}/${file}`);
      }
    } finally {
      await client.stop();
    }
  });

  it('answers nothing before the message, and initialize at once after it', async () => {
    const child = fork(SERVER, ['--stdio', ENVIRONMENT_FROM_PARENT], { silent: true });
    const { stdin, stdout } = child;
    assert.ok(stdin && stdout);
    const connection = createMessageConnection(new StreamMessageReader(stdout), new StreamMessageWriter(stdin));
    connection.listen();
    try {
      let answered = false;
      const initialized = connection
        .sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {} })
        .then(() => (answered = true));
      await new Promise((wait) => setTimeout(wait, 500));
      assert.equal(answered, false, 'initialize was answered before the profile came');
      child.send(environmentMessage({ ENDPOINT_STUDIO_CACHE_DIR: cacheDir }));
      await initialized;
    } finally {
      connection.dispose();
      child.kill();
    }
  });

  it('starts without a profile on a message of another shape, and says so', async () => {
    const client = await LspClient.start({
      pull: true,
      environmentMessage: { kind: 'other', variables: { ENDPOINT_STUDIO_API_KEY: 'k' } },
    });
    try {
      const uri = 'file:///start/b.endpoint.yaml';
      await client.open(
        uri,
        'name: b\ntype: QUEUE\nimage: x:1\ngpu:\n  pools: [ADA_24]\nscaling:\n  type: QUEUE_DELAY\n  queueDelay: 4\nbogusKey: 1\n',
      );
      assert.deepEqual(
        (await client.pulledDiagnostics(uri)).map((d) => d.code),
        ['unknown-property'],
      );
      assert.match(client.stderr.join(''), /the editor sent no profile: the server starts without one/);
      assert.ok(client.catalogStatuses.every((status) => status.state !== 'live'));
    } finally {
      await client.stop();
    }
  });

  it('ends when the editor goes before it sent the profile', async () => {
    const child = fork(SERVER, ['--stdio', ENVIRONMENT_FROM_PARENT], { silent: true });
    await new Promise((wait) => setTimeout(wait, 300));
    child.disconnect();
    const [code] = (await once(child, 'exit', { signal: AbortSignal.timeout(5000) })) as [number];
    assert.equal(code, 0);
  });
});
