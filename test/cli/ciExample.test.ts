/**
 * The GitHub Actions example in examples/ci/ runs as written: each job's `run` steps go through bash in a
 * git clone of a throw-away origin, with the emulator as the service. Its install step installs the package
 * `npm run pack:cli` makes (packed from dist/, from the tarball alone: no registry, an empty cache), the
 * release asset the workflow names. A pull request gets annotations, a SARIF log and a markdown plan in its
 * job summary; a push to main deploys every spec, pushes the bindings file, and a second push updates the
 * same endpoints instead of creating new ones.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Ajv from 'ajv';
import type { Log } from 'sarif';
import YAML from 'yaml';
import { createApiClient } from '../../core/api';
import { startEmulator } from '../../emulator';
import { TEST_KEY } from '../core/api/support';
import { offlineNpmEnvironment, packCliTarball } from '../support/cliPackage';
import { REPO_ROOT } from '../support/lspClient';
import { SARIF_2_1_0_REQUIREMENTS } from './sarifRequirements';

const WORKFLOW = join(REPO_ROOT, 'examples', 'ci', 'endpoint-specs.yml');
const SPECS = ['sdxl-worker.endpoint.yaml', 'http-service.endpoint.json'];

interface Step {
  name?: string;
  run?: string;
}
interface Workflow {
  env: Record<string, string>;
  jobs: Record<string, { steps: Step[] }>;
}

const workflow = (): Workflow => YAML.parse(readFileSync(WORKFLOW, 'utf8')) as Workflow;

/** The steps of a job that run commands (the others are actions: checkout, setup-node, the SARIF upload). */
function commandSteps(job: string): Step[] {
  return workflow().jobs[job].steps.filter((step) => step.run !== undefined);
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...GIT_IDENTITY } });
}

/** The endpoint ids a bindings file holds, in order. */
const endpointIds = (bindingsFile: string): string[] => [...bindingsFile.matchAll(/"endpointId": "([^"]+)"/g)].map((m) => m[1]);

const GIT_IDENTITY = {
  GIT_AUTHOR_NAME: 'spec author',
  GIT_AUTHOR_EMAIL: 'author@example.com',
  GIT_COMMITTER_NAME: 'spec author',
  GIT_COMMITTER_EMAIL: 'author@example.com',
};

/** One step's script in bash, as a runner runs it (`bash -e`), with what GitHub provides in the environment. */
function runStep(step: Step, cwd: string, env: Record<string, string>): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-e', '-c', step.run ?? ''], { cwd, env });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => {
      resolve({ status, output });
    });
  });
}

describe('the CI example workflow', () => {
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  let dir: string;
  let origin: string;
  let env: Record<string, string>;
  let tarball: string;
  const npmPrefix = (): string => join(dir, 'npm-global');

  before(async () => {
    emulator = await startEmulator({ port: 0, jobsPort: 0, apiKey: TEST_KEY, seed: 5 });
    dir = mkdtempSync(join(tmpdir(), 'es-ci-example-'));
    tarball = packCliTarball(join(dir, 'release'));
    const npmCache = join(dir, 'npm-cache');
    mkdirSync(npmCache);
    origin = join(dir, 'origin.git');
    execFileSync('git', ['init', '-q', '--bare', '-b', 'main', origin]);
    const seed = join(dir, 'seed');
    execFileSync('git', ['clone', '-q', origin, seed]);
    for (const spec of SPECS) copyFileSync(join(REPO_ROOT, 'examples', spec), join(seed, spec));
    git(seed, 'add', '.');
    git(seed, 'commit', '-q', '-m', 'specs');
    git(seed, 'push', '-q', 'origin', 'HEAD:main');
    env = {
      // `npm install --global` puts the command here, the one place on the PATH it can come from.
      PATH: `${join(npmPrefix(), 'bin')}:${process.env.PATH ?? ''}`,
      NPM_CONFIG_PREFIX: npmPrefix(),
      ...offlineNpmEnvironment(npmCache),
      ENDPOINT_STUDIO_PACKAGE: tarball,
      HOME: dir,
      ENDPOINT_STUDIO_API_URL: emulator.restUrl,
      ENDPOINT_STUDIO_API_KEY: TEST_KEY,
      ENDPOINT_STUDIO_CACHE_DIR: join(dir, 'cache'),
      GITHUB_SHA: 'a1b2c3d4e5f6a7b8c9d0',
    };
  });

  after(async () => {
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A fresh checkout of origin's main, as actions/checkout gives each job. */
  function checkout(name: string): string {
    const work = join(dir, name);
    execFileSync('git', ['clone', '-q', '-b', 'main', origin, work]);
    return work;
  }

  async function runJob(job: string, work: string, summary: string): Promise<string> {
    let log = '';
    for (const step of commandSteps(job)) {
      const { status, output } = await runStep(step, work, { ...env, GITHUB_STEP_SUMMARY: summary });
      log += output;
      assert.equal(status, 0, `step "${step.name ?? ''}" of ${job} failed:\n${output}`);
    }
    return log;
  }

  const endpointNames = async (): Promise<string[]> => {
    const api = createApiClient({ apiUrl: emulator.restUrl, jobsUrl: emulator.jobsUrl, apiKey: TEST_KEY });
    return (await api.serverless.list()).map((endpoint) => endpoint.name).sort();
  };

  /** The SARIF log a job wrote, checked against SARIF 2.1.0's requirements. */
  function sarifLog(work: string): Log {
    const log = JSON.parse(readFileSync(join(work, 'endpoint-specs.sarif'), 'utf8')) as Log;
    const validate = new Ajv({ allErrors: true }).compile(SARIF_2_1_0_REQUIREMENTS);
    assert.ok(validate(log), JSON.stringify(validate.errors));
    return log;
  }

  it("installs the release's package, the tarball `npm run pack:cli` makes", () => {
    const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string; repository: { url: string } };
    const repository = manifest.repository.url.replace(/\.git$/, '');
    assert.equal(
      workflow().env.ENDPOINT_STUDIO_PACKAGE,
      `${repository}/releases/download/v${manifest.version}/${basename(tarball)}`,
      'the workflow installs this version as the release names it',
    );
    assert.match(basename(tarball), new RegExp(`^endpoint-studio-${manifest.version.replace(/\./g, '\\.')}\\.tgz$`));
  });

  it('plans a pull request into the job summary, then deploys main once and updates it after', async () => {
    const summary = join(dir, 'summary-pr.md');
    const pr = checkout('pr');
    const log = await runJob('check', pr, summary);
    assert.ok(existsSync(join(npmPrefix(), 'bin', 'endpoint-studio')), 'the install step installed the command');
    assert.match(log, /^2 files checked: 0 errors, 0 warnings$/m);
    assert.doesNotMatch(log, /^::(error|warning)/m);
    assert.deepEqual(sarifLog(pr).runs[0].results, []);
    const plan = readFileSync(summary, 'utf8');
    assert.match(plan, /^## Endpoint deploy plan\n\n2 creates\./m);
    for (const spec of SPECS) assert.match(plan, new RegExp(`### ${spec.replace('.', '\\.')}.*: create`));

    const firstPush = checkout('main-1');
    await runJob('deploy', firstPush, join(dir, 'summary-main-1.md'));
    assert.deepEqual(await endpointNames(), ['http-service', 'sdxl-worker']);
    assert.match(git(origin, 'log', '-1', '--format=%s', 'main').trim(), /^Record the endpoints deployed by a1b2c3d$/);
    const bindings = git(origin, 'show', 'main:.endpoint-studio/deployments.json');
    for (const spec of SPECS) assert.ok(bindings.includes(spec), `${spec} is bound in the pushed bindings file`);
    assert.equal(endpointIds(bindings).length, 2);

    // The next change to main: an edit of one spec is an update of its endpoint, and nothing new is created.
    const edit = checkout('edit');
    const sdxl = join(edit, SPECS[0]);
    writeFileSync(sdxl, readFileSync(sdxl, 'utf8').replace(/^( {2}max:) \d+$/m, '$1 5'));
    git(edit, 'commit', '-q', '-am', 'more workers');
    git(edit, 'push', '-q', 'origin', 'HEAD:main');
    const prSummary = join(dir, 'summary-pr-2.md');
    await runJob('check', checkout('pr-2'), prSummary);
    assert.match(readFileSync(prSummary, 'utf8'), /\| `workers\.max` \| `\d+` \| `5` \|/);
    await runJob('deploy', checkout('main-2'), join(dir, 'summary-main-2.md'));
    assert.deepEqual(await endpointNames(), ['http-service', 'sdxl-worker'], 'no second endpoint of either name');
    const rebound = git(origin, 'show', 'main:.endpoint-studio/deployments.json');
    assert.deepEqual(endpointIds(rebound), endpointIds(bindings), 'each spec stays bound to the endpoint it created');
    assert.notEqual(rebound, bindings, 'the updated spec records its new deploy time');
  });

  it('annotates the problems of a pull request and writes them to the SARIF log, failing the check', async () => {
    const work = checkout('pr-broken');
    const spec = join(work, SPECS[0]);
    writeFileSync(spec, readFileSync(spec, 'utf8').replace(/^( {2}max:) \d+$/m, '$1 -1'));
    const [install, validate] = commandSteps('check');
    assert.equal((await runStep(install, work, env)).status, 0);
    const { status, output } = await runStep(validate, work, env);
    assert.equal(status, 1, `the check fails on an error:\n${output}`);
    assert.match(output, /^::warning file=sdxl-worker\.endpoint\.yaml,.*,title=workers-min-above-max::/m);
    assert.match(output, /^::error file=sdxl-worker\.endpoint\.yaml,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=out-of-range::/m);
    const results = sarifLog(work).runs[0].results ?? [];
    assert.deepEqual(
      results.map((result) => [result.ruleId, result.level, result.locations?.[0].physicalLocation?.artifactLocation?.uri]),
      [
        ['workers-min-above-max', 'warning', SPECS[0]],
        ['out-of-range', 'error', SPECS[0]],
      ],
    );
  });
});
