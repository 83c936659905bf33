/** The bundles' V8 code cache: written after the first run, used by the next, and a damaged one is harmless. */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/lspClient';

const CLI = join(REPO_ROOT, 'dist', 'cli.js');

describe('code cache of the command line bundle', () => {
  let cacheDir: string;
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, ENDPOINT_STUDIO_CACHE_DIR: cacheDir } });
  const caches = (): string[] => readdirSync(join(cacheDir, 'code-cache')).filter((f) => f.startsWith('cli-'));
  before(() => {
    cacheDir = mkdtempSync(join(tmpdir(), 'es-code-cache-'));
  });
  after(() => {
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it('is written by the first run and read, unchanged, by the next', () => {
    assert.equal(run('--version').stdout, '0.1.0\n');
    assert.equal(caches().length, 1);
    const file = join(cacheDir, 'code-cache', caches()[0]);
    const first = readFileSync(file);
    assert.ok(first.length > 10_000, `${first.length} bytes`);
    assert.equal(run('--version').stdout, '0.1.0\n');
    assert.deepEqual(readFileSync(file), first, 'an accepted cache is not written again');
  });

  it('a damaged cache is rejected, replaced, and costs nothing but time', () => {
    const file = join(cacheDir, 'code-cache', caches()[0]);
    writeFileSync(file, 'not a code cache');
    const result = run('validate', join(REPO_ROOT, 'test', 'fixtures', 'rules', 'compute-choice', 'valid-gpu.endpoint.yaml'));
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stderr, '');
    assert.ok(readFileSync(file).length > 10_000, 'replaced by a real cache');
    assert.deepEqual(
      readdirSync(join(cacheDir, 'code-cache')).filter((f) => f.endsWith('.tmp')),
      [],
    );
  });
});
