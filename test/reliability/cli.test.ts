/**
 * The bundled CLI as a process on hostile files: `validate` and `plan` exit 0, 1 or 2 with a clear
 * message, within a bound, and never print a stack trace or a JavaScript error name.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { corpusFiles, generatedInputs, VALID_SPEC } from './corpus';
import { CLI, count, reportFigures, within } from './support';

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Asynchronous, so the time bound is enforced by the test rather than hoped for. */
function run(args: string[], env: NodeJS.ProcessEnv = {}, boundMs = 20_000): Promise<Run> {
  const child = spawn(process.execPath, [CLI, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ENDPOINT_STUDIO_API_URL: 'http://127.0.0.1:1', ENDPOINT_STUDIO_API_KEY: '', RUNPOD_API_KEY: '', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<Run>((resolve) =>
    child.on('close', (status) => {
      resolve({ status, stdout, stderr });
    }),
  );
  return within(boundMs, `endpoint-studio ${args.join(' ').slice(0, 100)}`, done).finally(() => child.kill('SIGKILL'));
}

/** What a crash looks like: a V8 stack frame or an error class name reaching the user. */
function assertNoCrashText(result: Run, what: string): void {
  const text = `${result.stdout}\n${result.stderr}`;
  assert.doesNotMatch(text, /^\s+at .+(\(.+:\d+:\d+\)|:\d+:\d+)$/m, `stack trace from ${what}:\n${text.slice(0, 2000)}`);
  assert.doesNotMatch(
    text,
    /\b(RangeError|TypeError|ReferenceError|SyntaxError|FATAL ERROR|Maximum call stack)\b/,
    `error name from ${what}:\n${text.slice(0, 2000)}`,
  );
}

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'es-reliability-cli-'));
});
after(() => {
  rmSync(dir, { recursive: true, force: true });
  reportFigures(__filename);
});

/** The 10 MB files in JSON (quick) and one in YAML; the rest of the large ones are the engine's, tested in-process. */
const CLI_INPUTS = [...corpusFiles(), ...generatedInputs().filter((i) => !i.large || i.name === 'ten-mb-env')];

describe('endpoint-studio validate on hostile files', () => {
  for (const input of CLI_INPUTS) {
    it(`${input.fileName}: exit 0, 1 or 2 with file:line:col lines, no crash`, async () => {
      const file = join(dir, input.fileName);
      writeFileSync(file, input.bytes());
      const result = await run(['validate', file], {}, input.large ? 90_000 : 20_000);
      count({ inputsTried: 1 });
      assertNoCrashText(result, input.fileName);
      assert.ok(result.status === 0 || result.status === 1, `exit ${result.status}: ${result.stderr}`);
      assert.match(result.stdout, /1 file checked: \d+ errors?, \d+ warnings?/);
      if (result.status === 1) assert.match(result.stdout, new RegExp(`${input.fileName.replace(/\./g, '\\.')}:\\d+:\\d+: error [a-z-]+ `));
    });
  }

  it('refuses a file over 10 MB, a directory, a device and a missing file with exit 2 and a reason', async () => {
    const big = join(dir, 'eleven-mb.endpoint.yaml');
    writeFileSync(big, `${VALID_SPEC}args: "${'x'.repeat(11 * 1024 * 1024)}"\n`);
    const folder = join(dir, 'folder.endpoint.yaml');
    mkdirSync(folder, { recursive: true });
    const device = join(dir, 'zero.endpoint.yaml');
    symlinkSync('/dev/zero', device);
    const cases: [string, RegExp][] = [
      [big, /cannot read .*eleven-mb\.endpoint\.yaml: larger than 10 MB/],
      [device, /cannot read .*zero\.endpoint\.yaml: not a file/],
      [join(dir, 'missing.endpoint.yaml'), /cannot read .*missing\.endpoint\.yaml: no such file/],
    ];
    for (const [file, reason] of cases) {
      const result = await run(['validate', file]);
      count({ inputsTried: 1 });
      assertNoCrashText(result, file);
      assert.equal(result.status, 2, `${file}: ${result.stderr}`);
      assert.match(result.stderr, reason);
    }
    // A folder is searched for specs, not read as one: this one holds none.
    const result = await run(['validate', folder]);
    assertNoCrashText(result, folder);
    assert.match(result.stdout, /0 files checked/);
  });

  it('gives JSON a machine can read for every hostile file at once', async () => {
    const files = corpusFiles().map((input) => join(dir, input.fileName));
    for (const [i, input] of corpusFiles().entries()) writeFileSync(files[i], input.bytes());
    const result = await run(['validate', '--format', 'json', ...files]);
    count({ inputsTried: files.length });
    assertNoCrashText(result, 'validate --format json');
    assert.equal(result.status, 1);
    const entries = JSON.parse(result.stdout) as { file: string; code: string; range: unknown }[];
    assert.ok(entries.length > files.length && entries.every((e) => typeof e.code === 'string' && files.includes(e.file)));
  });
});

describe('endpoint-studio plan on hostile files', () => {
  for (const name of ['binary', 'billion-laughs', 'deep-object-10000', 'deep-compact-10000', 'custom-tags']) {
    it(`${name}: refused before anything is sent, exit 1 or 2, no crash`, async () => {
      const input = [...corpusFiles(), ...generatedInputs()].find((i) => i.name === name);
      assert.ok(input, `the corpus has ${name}`);
      const file = join(dir, `plan-${input.fileName}`);
      writeFileSync(file, input.bytes());
      // No key and an unreachable URL: a plan that got as far as the network would fail differently.
      const result = await run(['plan', file]);
      count({ inputsTried: 1 });
      assertNoCrashText(result, `plan ${name}`);
      assert.ok(result.status === 1 || result.status === 2, `exit ${result.status}: ${result.stdout}${result.stderr}`);
      assert.match(`${result.stdout}${result.stderr}`, /error|cannot|invalid|not/i);
    });
  }
});
