/** The bundles' V8 code cache: written after the first run, used by the next, and a damaged one is harmless. */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
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
  it('is not taken for another bundle of the same size and mtime, as npm installs every release', () => {
    // Two releases whose bundles differ by one word of equal length; npm gives both the same mtime.
    const release = (text: string): string => {
      const folder = mkdtempSync(join(cacheDir, 'release-'));
      mkdirSync(join(folder, 'dist'));
      copyFileSync(join(REPO_ROOT, 'package.json'), join(folder, 'package.json'));
      copyFileSync(CLI, join(folder, 'dist', 'cli.js'));
      const bundle = join(folder, 'dist', 'cli-main.js');
      writeFileSync(bundle, readFileSync(join(REPO_ROOT, 'dist', 'cli-main.js'), 'utf8').replace('} checked: ', `} ${text}: `));
      const npmTime = new Date('1985-10-26T08:15:00Z');
      utimesSync(bundle, npmTime, npmTime);
      return join(folder, 'dist', 'cli.js');
    };
    const spec = join(REPO_ROOT, 'test', 'fixtures', 'rules', 'compute-choice', 'valid-gpu.endpoint.yaml');
    const validate = (cli: string): string =>
      spawnSync(process.execPath, [cli, 'validate', spec], {
        encoding: 'utf8',
        env: { ...process.env, ENDPOINT_STUDIO_CACHE_DIR: cacheDir },
      }).stdout;
    const older = release('checked');
    assert.equal(validate(older), '1 file checked: 0 errors, 0 warnings\n');
    assert.equal(validate(older), '1 file checked: 0 errors, 0 warnings\n', 'with its cache');
    assert.equal(validate(release('CHECKED')), '1 file CHECKED: 0 errors, 0 warnings\n', 'the newer release runs its own code');
  });
});
