/** `endpoint-studio migrate` from the bundled CLI: printing, --write, and refusing without a catalog. */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/lspClient';

const CLI = join(REPO_ROOT, 'dist', 'cli.js');
const CATALOG = join(REPO_ROOT, 'test', 'fixtures', 'catalog.json');
const run = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });

describe('endpoint-studio migrate', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'es-migrate-'));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints the v2 spec and leaves the file alone', () => {
    const file = join(dir, 'graphql.endpoint.yaml');
    const original = 'name: g\nimageName: x\ngpuIds: ADA_24\nscalerType: QUEUE_DELAY\nscalerValue: 2\n';
    writeFileSync(file, original);
    const result = run(['migrate', file]);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /^gpu:\n {2}pools:\n {4}- ADA_24$/m);
    assert.equal(readFileSync(file, 'utf8'), original);
  });

  it('rewrites files with --write, keeping JSON as JSON, and leaves no temporary file', () => {
    const file = join(dir, 'v1.endpoint.json');
    writeFileSync(file, JSON.stringify({ name: 'j', imageName: 'x', gpuTypeIds: ['NVIDIA L4'], workersMax: 2 }));
    const result = run(['migrate', '--write', '--catalog', CATALOG, file]);
    assert.equal(result.status, 0, result.stderr);
    const spec = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    assert.deepEqual(spec.gpu, { pools: ['ADA_24'], excludedTypes: ['NVIDIA GeForce RTX 4090'] });
    assert.equal(run(['validate', '--catalog', CATALOG, file]).status, 0);
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.endsWith('.tmp')),
      [],
    );
  });

  it('exits 1 and keeps the file when GPU types need a catalog', () => {
    const file = join(dir, 'needs-catalog.endpoint.yaml');
    const original = 'name: n\nimageName: x\ngpuTypeIds: ["NVIDIA L4"]\n';
    writeFileSync(file, original);
    const result = run(['migrate', '--write', file]);
    assert.equal(result.status, 1);
    assert.match(result.stderr, /not converted: GPU type ids become pools and exclusions only with the catalog/);
    assert.equal(readFileSync(file, 'utf8'), original);
  });

  it('exits 2 on usage errors', () => {
    assert.equal(run(['migrate']).status, 2);
    assert.equal(run(['migrate', '--bogus', 'x']).status, 2);
    assert.equal(run(['migrate', join(dir, 'missing.endpoint.yaml')]).status, 2);
  });
});
