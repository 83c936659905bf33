/**
 * `endpoint-studio render`, the bundled CLI in a child process, on a workspace with a base and its staging and prod
 * overlays: the shape of what it prints, --env, and --check catching a base edit that changes production. Every
 * run points the service URLs at a server that counts requests and sets no key, so a render that reached for the
 * service would show.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO_ROOT } from '../support/lspClient';

const CLI = join(REPO_ROOT, 'dist', 'cli.js');

const BASE = `# yaml-language-server: $schema=../schemas/endpoint-create.schema.json
$schema: https://example.com/endpoint-create.schema.json
name: sdxl
type: QUEUE
image: myorg/sdxl:1.0
gpu:
  pools: [ADA_24, AMPERE_24]
  excludedTypes: [NVIDIA L4]
workers:
  min: 2
  max: 8
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;
const STAGING = `extends: ./sdxl.endpoint.yaml
name: sdxl-staging
workers:
  min: 0
`;
const PROD = `extends: ./sdxl.endpoint.yaml
name: sdxl-prod
gpu:
  pools: [AMPERE_48]
  excludedTypes: null
`;

const PROD_BODY = {
  gpu: { pools: ['AMPERE_48'] },
  image: 'myorg/sdxl:1.0',
  name: 'sdxl-prod',
  scaling: { queueDelay: 4, type: 'QUEUE_DELAY' },
  type: 'QUEUE',
  workers: { max: 8, min: 2 },
};

function workspace(): string {
  const root = mkdtempSync(join(tmpdir(), 'es-render-'));
  mkdirSync(join(root, '.git'));
  mkdirSync(join(root, 'specs'));
  mkdirSync(join(root, 'deploy'));
  writeFileSync(join(root, 'specs', 'sdxl.endpoint.yaml'), BASE);
  writeFileSync(join(root, 'specs', 'sdxl.staging.endpoint.yaml'), STAGING);
  writeFileSync(join(root, 'specs', 'sdxl.prod.endpoint.yaml'), PROD);
  return root;
}

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

describe('endpoint-studio render', () => {
  let service: Server;
  let requests = 0;
  let environment: NodeJS.ProcessEnv;
  const roots: string[] = [];

  before(async () => {
    service = createServer((_request, response) => {
      requests++;
      response.writeHead(500).end();
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
    // No key of any kind, no catalog file: render must need none of them.
    const kept = Object.entries(process.env).filter(([name]) => !/API_KEY|CATALOG_FILE/.test(name));
    environment = { ...Object.fromEntries(kept), ENDPOINT_STUDIO_API_URL: url, ENDPOINT_STUDIO_JOBS_URL: url };
  });
  after(async () => {
    await new Promise((resolve) => service.close(resolve));
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });

  /** A fresh workspace for one test. */
  const fresh = (): string => {
    const root = workspace();
    roots.push(root);
    return root;
  };

  /** The CLI run from `cwd`, as a CI step runs it from the repository root; the event loop stays free to count requests. */
  const render = (cwd: string, ...args: string[]): Promise<Run> =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [CLI, 'render', ...args], { cwd, env: environment });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.once('error', reject);
      child.once('close', (status) => {
        resolve({ status, stdout, stderr });
      });
    });

  it('prints every spec keyed by its path, with its environment and the body it deploys, keys sorted', async () => {
    const root = fresh();
    const run = await render(root, 'specs/');
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stderr, '');
    const printed = JSON.parse(run.stdout) as Record<string, { environment: string | null; body: Record<string, unknown> }>;
    assert.deepEqual(Object.keys(printed), [
      'specs/sdxl.endpoint.yaml',
      'specs/sdxl.prod.endpoint.yaml',
      'specs/sdxl.staging.endpoint.yaml',
    ]);
    assert.deepEqual(printed['specs/sdxl.prod.endpoint.yaml'], { environment: 'prod', body: PROD_BODY });
    const base = printed['specs/sdxl.endpoint.yaml'];
    assert.equal(base.environment, null);
    assert.ok(!('$schema' in base.body), 'an editor-only key was rendered');
    assert.deepEqual(printed['specs/sdxl.staging.endpoint.yaml'].body.workers, { max: 8, min: 0 });
    assert.equal(printed['specs/sdxl.staging.endpoint.yaml'].environment, 'staging');
    // Stable text: 2-space indent, keys sorted, a newline at the end, whatever order the files were given in.
    assert.equal(run.stdout, `${JSON.stringify(printed, null, 2)}\n`);
    assert.match(run.stdout, /^ {4}"body": \{\n {6}"gpu": \{\n {8}"excludedTypes"/m);
    const reordered = await render(root, 'specs/sdxl.staging.endpoint.yaml', 'specs/sdxl.prod.endpoint.yaml', 'specs/sdxl.endpoint.yaml');
    assert.equal(reordered.stdout, run.stdout);
  });

  it('uses the same keyed shape for one spec, and keys a file of several documents by index', async () => {
    const root = fresh();
    const one = await render(root, 'specs/sdxl.prod.endpoint.yaml');
    assert.equal(one.status, 0, one.stderr);
    assert.deepEqual(JSON.parse(one.stdout), { 'specs/sdxl.prod.endpoint.yaml': { environment: 'prod', body: PROD_BODY } });
    const second = BASE.replace('name: sdxl\n', 'name: sdxl-eu\n').replace(/^#.*\n\$schema.*\n/, '');
    writeFileSync(join(root, 'specs', 'pair.endpoint.yaml'), `${BASE}---\n${second}`);
    const pair = await render(root, 'specs/pair.endpoint.yaml');
    assert.equal(pair.status, 0, pair.stderr);
    const printed = JSON.parse(pair.stdout) as Record<string, { environment: null; documents: Record<string, { name: string }> }>;
    const entry = printed['specs/pair.endpoint.yaml'];
    assert.equal(entry.environment, null);
    assert.deepEqual(
      Object.entries(entry.documents).map(([index, body]) => [index, body.name]),
      [
        ['0', 'sdxl'],
        ['1', 'sdxl-eu'],
      ],
    );
  });

  it('--env prod renders the prod overlays among the files given, a base as its prod overlay', async () => {
    const root = fresh();
    const expected = { 'specs/sdxl.prod.endpoint.yaml': { environment: 'prod', body: PROD_BODY } };
    for (const operand of ['specs/', 'specs/sdxl.endpoint.yaml', 'specs/*.endpoint.yaml']) {
      const run = await render(root, '--env', 'prod', operand);
      assert.equal(run.status, 0, run.stderr);
      assert.deepEqual(JSON.parse(run.stdout), expected, operand);
    }
    const missing = await render(root, '--env', 'dev', 'specs/sdxl.endpoint.yaml');
    assert.equal(missing.status, 2);
    assert.equal(missing.stdout, '');
    assert.match(missing.stderr, /endpoint-studio render: specs\/sdxl\.endpoint\.yaml has no dev overlay \(it has prod, staging\)/);
    const badName = await render(root, '--env', 'pr od', 'specs/');
    assert.equal(badName.status, 2);
  });

  it('--check passes on an unchanged tree and names the field after a base edit changes prod, never writing the file', async () => {
    const root = fresh();
    const written = await render(root, '--env', 'prod', 'specs/');
    const checkFile = join(root, 'deploy', 'prod.rendered.json');
    writeFileSync(checkFile, written.stdout);

    const unchanged = await render(root, '--env', 'prod', 'specs/', '--check', 'deploy/prod.rendered.json');
    assert.equal(unchanged.status, 0, unchanged.stderr);
    assert.equal(unchanged.stdout, '');

    // A base edit the prod overlay hides changes nothing prod deploys.
    writeFileSync(join(root, 'specs', 'sdxl.endpoint.yaml'), BASE.replace('name: sdxl\n', 'name: sdxl-dev\n'));
    const hidden = await render(root, '--env', 'prod', 'specs/', '--check', 'deploy/prod.rendered.json');
    assert.equal(hidden.status, 0, hidden.stderr);

    const before = statSync(checkFile).mtimeMs;
    writeFileSync(join(root, 'specs', 'sdxl.endpoint.yaml'), BASE.replace('max: 8', 'max: 9'));
    const changed = await render(root, '--env', 'prod', 'specs/', '--check', 'deploy/prod.rendered.json');
    assert.equal(changed.status, 1);
    assert.equal(changed.stdout, '');
    assert.match(changed.stderr, /^ {2}prod: specs\/sdxl\.prod\.endpoint\.yaml: workers\.max 8 → 9$/m);
    assert.match(changed.stderr, /endpoint-studio render --env prod specs\/ > deploy\/prod\.rendered\.json/);
    assert.equal(readFileSync(checkFile, 'utf8'), written.stdout);
    assert.equal(statSync(checkFile).mtimeMs, before);

    // Reformatted by hand (other key order, other spacing), the same values still pass.
    const rewritten = await render(root, '--env', 'prod', 'specs/');
    const entry = (JSON.parse(rewritten.stdout) as Record<string, { environment: string; body: unknown }>)['specs/sdxl.prod.endpoint.yaml'];
    writeFileSync(checkFile, JSON.stringify({ 'specs/sdxl.prod.endpoint.yaml': { body: entry.body, environment: entry.environment } }));
    const reformatted = await render(root, '--env', 'prod', 'specs/', '--check', 'deploy/prod.rendered.json');
    assert.equal(reformatted.status, 0, reformatted.stderr);
  });

  it('--check exits 2 when the file cannot be read or is not JSON', async () => {
    const root = fresh();
    const missing = await render(root, '--env', 'prod', 'specs/', '--check', 'deploy/nothing.json');
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /endpoint-studio render: cannot read deploy\/nothing\.json: no such file/);
    writeFileSync(join(root, 'deploy', 'broken.json'), '{"specs/sdxl.prod.endpoint.yaml": ');
    const broken = await render(root, '--env', 'prod', 'specs/', '--check', 'deploy/broken.json');
    assert.equal(broken.status, 2);
    assert.match(broken.stderr, /deploy\/broken\.json is not JSON/);
    assert.equal(readFileSync(join(root, 'deploy', 'broken.json'), 'utf8'), '{"specs/sdxl.prod.endpoint.yaml": ');
  });

  it('renders nothing and exits 1 when a spec has errors, saying them as validate does', async () => {
    const root = fresh();
    writeFileSync(join(root, 'specs', 'sdxl.prod.endpoint.yaml'), `${PROD}workers:\n  max: lots\n`);
    const run = await render(root, 'specs/');
    assert.equal(run.status, 1);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /^specs\/sdxl\.prod\.endpoint\.yaml:7:8: error wrong-type /m);
    assert.match(
      run.stderr,
      /endpoint-studio render: specs\/sdxl\.prod\.endpoint\.yaml is not rendered; fix it first \(nothing was printed\)/,
    );
    // What the overlay breaks on its base's lines is said in the base, where a person fixes it.
    writeFileSync(join(root, 'specs', 'sdxl.staging.endpoint.yaml'), `${STAGING}type: LOAD_BALANCER\n`);
    const inBase = await render(root, 'specs/sdxl.staging.endpoint.yaml');
    assert.equal(inBase.status, 1);
    assert.match(inBase.stderr, /^specs\/sdxl\.endpoint\.yaml:13:9: error scaler-not-allowed in staging: /m);
    const checked = await render(root, '--env', 'prod', 'specs/', '--check', 'deploy/anything.json');
    assert.equal(checked.status, 2, 'the check file is read first');
  });

  it('sends nothing and needs no key', async () => {
    const root = fresh();
    const run = await render(root, '--env', 'prod', 'specs/');
    assert.equal(run.status, 0, run.stderr);
    writeFileSync(join(root, 'deploy', 'prod.rendered.json'), run.stdout);
    const checked = await render(root, '--env', 'prod', 'specs/', '--check', 'deploy/prod.rendered.json');
    assert.equal(checked.status, 0, checked.stderr);
    assert.ok(!Object.keys(environment).some((name) => /API_KEY/.test(name)));
    // Every run of this suite went to the same service URLs.
    assert.equal(requests, 0);
  });
});
