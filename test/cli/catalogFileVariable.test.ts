/**
 * ENDPOINT_STUDIO_CATALOG_FILE is read one way by every command that checks specs (core/api/config.ts): a file
 * named there is the catalog `validate`, `plan` and `migrate` check against, and a blank value is no file at all.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO_ROOT } from '../support/lspClient';

const CLI = join(REPO_ROOT, 'dist', 'cli.js');
const SPEC = 'name: a\ntype: QUEUE\nimage: myorg/a:1\ngpu:\n  pools: [ADA_24]\nscaling:\n  type: QUEUE_DELAY\n  queueDelay: 4\n';

describe('ENDPOINT_STUDIO_CATALOG_FILE', () => {
  let folder: string;
  let spec: string;
  const run = (command: string, catalogFile: string) =>
    spawnSync(process.execPath, [CLI, command, spec], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: folder, ENDPOINT_STUDIO_CACHE_DIR: folder, ENDPOINT_STUDIO_CATALOG_FILE: catalogFile },
    });
  before(() => {
    folder = mkdtempSync(join(tmpdir(), 'es-catalog-variable-'));
    spec = join(folder, 'a.endpoint.yaml');
    writeFileSync(spec, SPEC);
  });
  after(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it('names the catalog validate, plan and migrate read', () => {
    const missing = join(folder, 'no-such-catalog.json');
    for (const command of ['validate', 'plan', 'migrate']) {
      const result = run(command, missing);
      assert.equal(result.status, 2, `${command}: ${result.stderr}`);
      assert.ok(result.stderr.startsWith(`endpoint-studio ${command}: cannot read catalog ${missing}:`), result.stderr);
    }
  });

  it('is no catalog when blank', () => {
    for (const command of ['validate', 'plan', 'migrate']) assert.doesNotMatch(run(command, '  ').stderr, /cannot read catalog/, command);
  });
});
