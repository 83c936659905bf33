/**
 * Every program says the version of the manifest beside its bundles: `--version`, the language server's
 * `serverInfo` and the MCP server's implementation. The bundles are copied beside a manifest of another
 * version, so a version written into the code shows up as the wrong one.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { REPO_ROOT } from '../support/lspClient';

const BUNDLES = ['cli.js', 'cli-main.js', 'cli-tools.js', 'server.js', 'server-main.js'];
const VERSION = '9.8.7-version-test';

describe('the version every program reports', { timeout: 60_000 }, () => {
  let folder: string;
  let cli: string;
  const env = (): Record<string, string> => ({
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    ENDPOINT_STUDIO_CACHE_DIR: join(folder, 'cache'),
  });

  before(() => {
    folder = mkdtempSync(join(tmpdir(), 'es-version-'));
    mkdirSync(join(folder, 'dist'));
    for (const bundle of BUNDLES) copyFileSync(join(REPO_ROOT, 'dist', bundle), join(folder, 'dist', bundle));
    const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ ...manifest, version: VERSION }));
    cli = join(folder, 'dist', 'cli.js');
  });
  after(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it('is the manifest’s for --version', () => {
    const result = spawnSync(process.execPath, [cli, '--version'], { encoding: 'utf8', env: env() });
    assert.equal(result.stdout, `${VERSION}\n`, result.stderr);
  });

  it('is the manifest’s in the language server’s serverInfo', async () => {
    const server = spawn(process.execPath, [cli, 'lsp', '--stdio'], { env: env(), stdio: ['pipe', 'pipe', 'inherit'] });
    const connection = createMessageConnection(new StreamMessageReader(server.stdout), new StreamMessageWriter(server.stdin));
    connection.listen();
    try {
      const result = await connection.sendRequest<{ serverInfo?: { name: string; version?: string } }>('initialize', {
        processId: null,
        rootUri: null,
        capabilities: {},
      });
      assert.deepEqual(result.serverInfo, { name: 'endpoint-studio', version: VERSION });
    } finally {
      connection.dispose();
      server.kill();
    }
  });

  it('is the manifest’s in the MCP server’s implementation', async () => {
    const client = new Client({ name: 'endpoint-studio-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp'], env: env(), stderr: 'ignore' }));
    try {
      assert.deepEqual(client.getServerVersion(), { name: 'endpoint-studio', version: VERSION });
    } finally {
      await client.close();
    }
  });
});
