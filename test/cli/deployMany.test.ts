/**
 * `deploy` over files, folders and globs, against the emulator over HTTP: each in turn, the first failure stops the
 * rest (nothing more is sent) unless --keep-going, and a summary (text on stderr, one JSON object) gives each file's
 * result.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runDeploy } from '../../cli/deploy';
import { withEmulator } from '../core/deploy/support';
import { captureIo } from './support';

const spec = (name: string): string =>
  `name: ${name}\ntype: QUEUE\nimage: myorg/worker:1.0.0\ngpu:\n  pools: [ADA_24]\nscaling:\n  type: QUEUE_DELAY\n  queueDelay: 4\n`;

describe('deploy of several spec files', () => {
  it('deploys a folder file by file, stops at the first failure unless --keep-going, and sums up', async () => {
    await withEmulator({}, async (emu, client) => {
      const root = mkdtempSync(join(tmpdir(), 'es-deploy-many-'));
      try {
        mkdirSync(join(root, '.git'));
        const specs = join(root, 'specs');
        mkdirSync(specs);
        writeFileSync(join(specs, 'a.endpoint.yaml'), spec('many-a'));
        writeFileSync(join(specs, 'b.endpoint.yaml'), spec('many-b').replace('queueDelay: 4', 'queueDelay: 0'));
        writeFileSync(join(specs, 'c.endpoint.yaml'), spec('many-c'));
        const names = async () => (await client().serverless.list()).map((e) => e.name).sort();

        const stopped = captureIo(emu);
        assert.equal(await runDeploy(['--yes', specs], stopped), 1);
        assert.deepEqual(await names(), ['many-a'], 'the file after the failure is not sent');
        assert.match(
          stopped.stderr,
          /3 spec files:\n {2}\S+a\.endpoint\.yaml: done\n {2}\S+b\.endpoint\.yaml: exit 1\n {2}\S+c\.endpoint\.yaml: not deployed/,
        );

        const json = captureIo(emu);
        assert.equal(await runDeploy(['--yes', '--keep-going', '--format', 'json', join(specs, '*.endpoint.yaml')], json), 1);
        assert.deepEqual(await names(), ['many-a', 'many-c']);
        const report = JSON.parse(json.stdout) as { exitCode: number; files: { file: string; exitCode: number }[] };
        assert.equal(report.exitCode, 1);
        assert.deepEqual(
          report.files.map((f) => [f.file.split('/').pop(), f.exitCode]),
          [
            ['a.endpoint.yaml', 0],
            ['b.endpoint.yaml', 1],
            ['c.endpoint.yaml', 0],
          ],
        );
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });
  });
});
