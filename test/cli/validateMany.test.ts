/** `endpoint-studio validate` over a folder large enough to be split across threads: same order, same verdict. */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/lspClient';

const CLI = join(REPO_ROOT, 'dist', 'cli.js');
const CATALOG = join(REPO_ROOT, 'test', 'fixtures', 'catalog.json');
// Enough files for checkFiles.ts to start a second thread (2,000 files per thread at least).
const FILES = 4000;
const spec = (i: number, extra = ''): string =>
  `name: worker-${i}\ntype: QUEUE\nimage: myorg/worker:1.0.0\ngpu:\n  pools: [ADA_24]\nscaling:\n  type: QUEUE_DELAY\n  queueDelay: 4\n${extra}`;

describe('endpoint-studio validate over many files', () => {
  let dir: string;
  const name = (i: number): string => `spec-${String(i).padStart(4, '0')}.endpoint.yaml`;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'es-validate-many-'));
    for (let i = 0; i < FILES; i++) {
      writeFileSync(
        join(dir, name(i)),
        spec(i, i === 7 || i === 3990 ? 'colour: red\n' : i === 3991 ? 'gpu:\n  pools: [NOT_A_POOL]\n' : ''),
      );
    }
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports every file in name order, with a missing one on stderr, whichever thread checked it', () => {
    const result = spawnSync(process.execPath, [CLI, 'validate', '--catalog', CATALOG, dir, join(dir, 'missing.endpoint.yaml')], {
      encoding: 'utf8',
    });
    assert.equal(result.status, 2, result.stderr);
    assert.match(result.stderr, /cannot read .*missing\.endpoint\.yaml: no such file/);
    const lines = result.stdout.trim().split('\n');
    const problemFiles = lines.slice(0, -1).map((line) => line.slice(line.lastIndexOf('/') + 1).split(':')[0]);
    assert.deepEqual([...new Set(problemFiles)], [name(7), name(3990), name(3991)]);
    assert.ok(
      lines.some((l) => l.includes(name(3991)) && l.includes('duplicate-key')),
      result.stdout,
    );
    assert.ok(
      lines.some((l) => l.includes(name(7)) && l.includes('unknown-property')),
      result.stdout,
    );
    assert.match(lines[lines.length - 1], new RegExp(`^${FILES} files checked: \\d+ errors?, 0 warnings$`));
  });

  it('gives the same JSON report as checking the files one by one', () => {
    const all = JSON.parse(
      spawnSync(process.execPath, [CLI, 'validate', '--format', 'json', '--catalog', CATALOG, dir], { encoding: 'utf8' }).stdout,
    ) as { file: string }[];
    const single = [7, 3990, 3991].flatMap(
      (i) =>
        JSON.parse(
          spawnSync(process.execPath, [CLI, 'validate', '--format', 'json', '--catalog', CATALOG, join(dir, name(i))], { encoding: 'utf8' })
            .stdout,
        ) as { file: string }[],
    );
    assert.deepEqual(
      all.map((e) => ({ ...e, file: e.file.slice(e.file.lastIndexOf('/') + 1) })),
      single.map((e) => ({ ...e, file: e.file.slice(e.file.lastIndexOf('/') + 1) })),
    );
  });
});
