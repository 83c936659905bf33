/**
 * The extension as a Marketplace user gets it: the packaged .vsix installed with `code-server
 * --install-extension` into a fresh profile (user data and extensions folders of its own), nothing loaded from
 * this repository. The editor lists it under its id and version, the installed folder holds what the package
 * holds and no sources, and opening a spec runs the installed copy's language server, whose problems show.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../scripts/editor/paths';
import { runningLanguageServerEnvironment } from './support/editorProcesses';
import { useEditorSession } from './support/session';
import { formatProblems } from './support/workbench';

const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { publisher: string; name: string; version: string };
const EXTENSION = `${manifest.publisher}.${manifest.name}`;

const { editorTest } = useEditorSession('vsix');

editorTest('the packaged .vsix installed into a fresh profile lists, runs and reports problems', async (workbench, { server }) => {
  const userData = join(server.tempDir, 'user-data');
  const extensions = join(server.tempDir, 'extensions');
  const listed = spawnSync(
    server.editor.node,
    [
      server.editor.entry,
      '--config',
      join(server.tempDir, 'config.yaml'),
      '--user-data-dir',
      userData,
      '--extensions-dir',
      extensions,
      '--list-extensions',
      '--show-versions',
    ],
    { encoding: 'utf8', timeout: 60_000 },
  );
  assert.equal(listed.status, 0, listed.stderr);
  assert.deepEqual(listed.stdout.trim().split('\n'), [`${EXTENSION}@${manifest.version}`], 'the fresh profile holds our extension only');

  const installed = join(extensions, `${EXTENSION}-${manifest.version}`);
  for (const file of ['package.json', 'package.nls.json', 'dist/client.js', 'dist/server.js', 'dist/cli.js', 'schemas', 'readme.md']) {
    assert.ok(existsSync(join(installed, file)), `${file} is missing from the installed extension`);
  }
  for (const folder of ['node_modules', 'client', 'server', 'core', 'test', 'src']) {
    assert.ok(!existsSync(join(installed, folder)), `the package ships ${folder}/`);
  }

  await workbench.openFile('broken-worker.endpoint.yaml');
  const problems = await workbench.problems(
    'broken-worker.endpoint.yaml',
    (rows) => rows.length >= 4,
    'the four problems of broken-worker',
  );
  assert.deepEqual(
    problems.map((p) => p.code).sort(),
    ['env-value-not-string', 'invalid-enum', 'unknown-property', 'workers-min-above-max'],
    formatProblems(problems),
  );
  // The process that found them is the installed copy's server (the check looks in this profile's folder).
  await runningLanguageServerEnvironment(server);
});
