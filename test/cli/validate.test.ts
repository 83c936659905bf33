/** `endpoint-studio validate` as CI runs it: the bundled CLI in a child process. */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { REPO_ROOT } from '../support/lspClient';

const CLI = join(REPO_ROOT, 'dist', 'cli.js');
const run = (args: string[], cwd = REPO_ROOT) => spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8' });

const VALID =
  'name: demo\ntype: QUEUE\nimage: myorg/worker:1.0.0\ngpu:\n  pools: [ADA_24]\nscaling:\n  type: QUEUE_DELAY\n  queueDelay: 4\n';

describe('endpoint-studio validate', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'es-cli-'));
    mkdirSync(join(dir, 'specs', 'nested'), { recursive: true });
    writeFileSync(join(dir, 'specs', 'good.endpoint.yaml'), VALID);
    writeFileSync(
      join(dir, 'specs', 'nested', 'bad.endpoint.json'),
      JSON.stringify(
        { name: 'demo', type: 'QUEUE', image: 'x', gpu: { pools: ['ADA_24'] }, scaling: { type: 'QUEUE_DELAY', queueDelay: 0.1 } },
        null,
        2,
      ),
    );
    writeFileSync(join(dir, 'specs', 'warn.endpoint.yaml'), `${VALID}timeout: 300\n`);
    writeFileSync(join(dir, 'specs', 'notes.yaml'), 'not: a spec\n');
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('exits 0 on a valid spec', () => {
    const result = run(['validate', join(dir, 'specs', 'good.endpoint.yaml')]);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /1 file checked: 0 errors, 0 warnings/);
  });

  it('exits 0 when there are only warnings, and prints them', () => {
    const result = run(['validate', join(dir, 'specs', 'warn.endpoint.yaml')]);
    assert.equal(result.status, 0);
    assert.match(result.stdout, /warn\.endpoint\.yaml:9:10: warning timeout-units timeout is in milliseconds/);
  });

  it('searches a folder for spec files and exits 1 on an error, as JSON', () => {
    const result = run(['validate', '--format', 'json', join(dir, 'specs')]);
    assert.equal(result.status, 1, result.stderr);
    const entries = JSON.parse(result.stdout) as Array<Record<string, unknown>>;
    assert.deepEqual(
      entries.map((e) => [String(e.file).slice(dir.length), e.code, e.severity, e.path]),
      [
        ['/specs/nested/bad.endpoint.json', 'out-of-range', 'error', '$.scaling.queueDelay'],
        ['/specs/warn.endpoint.yaml', 'timeout-units', 'warning', '$.timeout'],
      ],
    );
    assert.deepEqual(entries[0].range, { start: { line: 11, character: 18 }, end: { line: 11, character: 21 } });
    assert.equal(typeof entries[0].message, 'string');
  });

  it('finds a spec in a folder whatever the case of its suffix, as when named alone', () => {
    const folder = mkdtempSync(join(tmpdir(), 'es-cli-case-'));
    try {
      writeFileSync(join(folder, 'upper.endpoint.YAML'), VALID);
      writeFileSync(join(folder, 'mixed.Endpoint.Json'), JSON.stringify(parse(VALID)));
      const result = run(['validate', '--format', 'json', folder]);
      assert.equal(result.status, 0, result.stderr);
      assert.deepEqual(JSON.parse(result.stdout), []);
      const text = run(['validate', folder]);
      assert.match(text.stdout, /2 files checked: 0 errors, 0 warnings/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('expands quoted globs', () => {
    const result = run(['validate', 'specs/**/*.endpoint.yaml'], dir);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /2 files checked/);
  });

  it('exits 2 on a missing file, an unreadable file, and usage errors', () => {
    assert.equal(run(['validate', join(dir, 'missing.endpoint.yaml')]).status, 2);
    const locked = join(dir, 'locked.endpoint.yaml');
    writeFileSync(locked, VALID);
    chmodSync(locked, 0o000);
    // root can read anything; the permission case only means something for other users.
    if (process.getuid?.() !== 0) assert.equal(run(['validate', locked]).status, 2);
    assert.equal(run(['validate']).status, 2);
    assert.equal(run(['validate', '--format', 'xml', locked]).status, 2);
    assert.equal(run(['validate', '--bogus', locked]).status, 2);
    assert.equal(run(['frobnicate']).status, 2);
    const noMatch = run(['validate', 'nothing/**/*.endpoint.yaml'], dir);
    assert.equal(noMatch.status, 2);
    assert.match(noMatch.stderr, /no files match/);
  });

  it('checks against a pinned catalog with --catalog', () => {
    const spec = join(dir, 'pool.endpoint.yaml');
    writeFileSync(spec, VALID.replace('[ADA_24]', '[ADA_42]'));
    assert.equal(run(['validate', spec]).status, 0, 'without a catalog nothing is guessed');
    const result = run(['validate', '--catalog', join(REPO_ROOT, 'test', 'fixtures', 'catalog.json'), spec]);
    assert.equal(result.status, 1);
    assert.match(result.stdout, /pool\.endpoint\.yaml:5:11: error pool-unknown unknown GPU pool: ADA_42; did you mean ADA_24\?/);
    const broken = run(['validate', '--catalog', spec, spec]);
    assert.equal(broken.status, 2);
    assert.match(broken.stderr, /cannot read catalog/);
  });

  it('reports a file of binary garbage as a syntax problem, not a crash', () => {
    const garbage = join(dir, 'garbage.endpoint.yaml');
    writeFileSync(garbage, Buffer.from([0xff, 0xfe, 0x00, 0x41, 0x3a, 0x0a, 0x09, 0x5b]));
    const result = run(['validate', '--format', 'json', garbage]);
    assert.equal(result.status, 1);
    assert.ok((JSON.parse(result.stdout) as unknown[]).length > 0);
    assert.equal(result.stderr, '');
  });
});
