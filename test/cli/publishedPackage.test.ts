/**
 * The npm package `endpoint-studio` works on its own: packed from dist/ by scripts/pack-cli.mjs, installed by npm
 * into an empty folder with an empty cache and no network, its `endpoint-studio` validates specs, serves the
 * language server over stdio, serves the agent tools over MCP (driven with the SDK's own client) and runs the
 * emulator, all from the installed copy, far from this repository and its node_modules. Its manifest is its
 * own: the extension's facts, none of the editor's fields.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import type { InitializeResult } from 'vscode-languageserver-protocol';
import { packCliTarball } from '../support/cliPackage';
import { REPO_ROOT } from '../support/lspClient';

const VALID =
  'name: demo\ntype: QUEUE\nimage: myorg/worker:1.0.0\ngpu:\n  pools: [ADA_24]\nscaling:\n  type: QUEUE_DELAY\n  queueDelay: 4\n';

describe('the npm package of the command line', { timeout: 120_000 }, () => {
  let dir: string;
  let tarball: string;
  let installed: string;
  let bin: string;
  let env: Record<string, string>;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'es-package-'));
    tarball = packCliTarball(join(dir, 'pack'));
    const app = join(dir, 'app');
    const cache = join(dir, 'npm-cache');
    mkdirSync(app);
    mkdirSync(cache);
    const started = performance.now();
    execFileSync('npm', ['install', '--offline', '--cache', cache, '--no-audit', '--no-fund', tarball], { cwd: app, stdio: 'pipe' });
    process.stdout.write(`# installed ${readFileSync(tarball).length} bytes offline in ${Math.round(performance.now() - started)} ms\n`);
    installed = join(app, 'node_modules', 'endpoint-studio');
    bin = join(app, 'node_modules', '.bin', 'endpoint-studio');
    writeFileSync(join(dir, 'good.endpoint.yaml'), VALID);
    writeFileSync(join(dir, 'bad.endpoint.yaml'), VALID.replace('queueDelay: 4', 'queueDelay: 0.1'));
    // No key, URL or cache of the developer's, and node itself on the PATH for the bin's `#!/usr/bin/env node`.
    env = { PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, HOME: dir, ENDPOINT_STUDIO_CACHE_DIR: join(dir, 'cache') };
  });

  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const endpointStudio = (args: string[]) => spawnSync(bin, args, { cwd: dir, env, encoding: 'utf8' });

  it('holds the bundles, the licence and a manifest of its own, and nothing else', () => {
    assert.match(tarball, /endpoint-studio-\d+\.\d+\.\d+\.tgz$/);
    const files = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).trim().split('\n').sort();
    assert.deepEqual(files, [
      'package/LICENSE',
      'package/README.md',
      'package/dist/cli-main.js',
      'package/dist/cli-tools.js',
      'package/dist/cli.js',
      'package/dist/server-main.js',
      'package/dist/server.js',
      'package/package.json',
    ]);
    const extension = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Record<string, unknown>;
    for (const field of ['name', 'version', 'license', 'repository', 'bugs', 'bin'])
      assert.deepEqual(manifest[field], extension[field], field);
    assert.deepEqual(manifest.engines, { node: (extension.engines as { node: string }).node });
    for (const field of ['private', 'publisher', 'main', 'contributes', 'activationEvents', 'displayName', 'scripts', 'dependencies'])
      assert.equal(manifest[field], undefined, `${field} is the extension's, not the package's`);
    assert.match(readFileSync(join(installed, 'README.md'), 'utf8'), /^# Command line/);
    assert.ok(realpathSync(bin).startsWith(realpathSync(installed)), 'the bin is the installed copy');
  });

  it('validates specs, in every format', () => {
    const good = endpointStudio(['validate', 'good.endpoint.yaml']);
    assert.equal(good.status, 0, good.stderr);
    assert.equal(good.stdout, '1 file checked: 0 errors, 0 warnings\n');
    const bad = endpointStudio(['validate', 'good.endpoint.yaml', 'bad.endpoint.yaml']);
    assert.equal(bad.status, 1, bad.stderr);
    assert.match(bad.stdout, /^bad\.endpoint\.yaml:8:15: error out-of-range /m);
    assert.match(
      endpointStudio(['validate', '--format', 'github', 'bad.endpoint.yaml']).stdout,
      /^::error file=bad\.endpoint\.yaml,line=8,/,
    );
    const sarif = JSON.parse(endpointStudio(['validate', '--format', 'sarif', 'bad.endpoint.yaml']).stdout) as {
      runs: { tool: { driver: { version: string } }; results: { ruleId: string }[] }[];
    };
    assert.deepEqual(
      sarif.runs[0].results.map((r) => r.ruleId),
      ['out-of-range'],
    );
    assert.equal(sarif.runs[0].tool.driver.version, endpointStudio(['--version']).stdout.trim());
  });

  it('serves the language server over stdio (lsp --stdio)', async () => {
    const child = spawn(bin, ['lsp', '--stdio'], { cwd: dir, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    connection.listen();
    try {
      const result: InitializeResult = await connection.sendRequest('initialize', {
        processId: process.pid,
        rootUri: null,
        capabilities: {},
      });
      assert.ok(result.capabilities.textDocumentSync, 'the server syncs documents');
      assert.ok(result.capabilities.completionProvider, 'the server completes');
      assert.ok(result.capabilities.hoverProvider, 'the server hovers');
      await connection.sendRequest('shutdown');
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await connection.sendNotification('exit');
      await exited;
    } finally {
      connection.dispose();
      child.kill();
    }
  });

  it('serves the agent tools over MCP (mcp)', async () => {
    const transport = new StdioClientTransport({ command: bin, args: ['mcp'], cwd: dir, env, stderr: 'pipe' });
    const client = new Client({ name: 'endpoint-studio-package-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      const names = tools.map((tool) => tool.name);
      for (const name of ['validate_spec', 'estimate_cost', 'search_catalog', 'plan_deploy', 'deploy_spec'])
        assert.ok(names.includes(name), `${name} is listed`);
      const result = await client.callTool({ name: 'validate_spec', arguments: { path: 'bad.endpoint.yaml' } });
      assert.notEqual(result.isError, true);
      assert.match(JSON.stringify(result.structuredContent), /out-of-range/);
    } finally {
      await client.close();
    }
  });

  it('runs the emulator (emulator --help)', () => {
    const help = endpointStudio(['emulator', '--help']);
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /^Usage: endpoint-studio emulator/);
  });
});
