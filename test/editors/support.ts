/**
 * What the editor tests share: the set-up blocks of docs/editor.md as a user would copy them, a workspace holding
 * a copy of examples/ with `endpoint-studio` on its PATH (a shim to the built dist/cli.js, as an npm install
 * would put it), an emulator whose key the editor's environment carries (exported in the shell, as the docs say),
 * and the one scenario each editor plays, with its checks.
 *
 * The editors come from scripts/editors/install.mjs (`npm run test:editors` runs it first). Each test runs its
 * editor headless and reports what it saw; the checks here are the same for the three.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startEmulator } from '../../emulator';
import { REPO_ROOT } from '../support/lspClient';

const EDITORS_BIN = join(resolve(process.env.EDITORS_CACHE_DIR ?? join(REPO_ROOT, '.cache', 'editors')), 'bin');
export const API_KEY = 'es_test_EDITORS_key_5d21a7';
/** How long diagnostics must stay, and the server must live, once the editor has shown them. */
export const STAY_MS = 3000;

/** The spec with problems; its misspelt `idelTimeout` has a preferred quick fix. */
export const BROKEN_YAML = 'broken-worker.endpoint.yaml';
export const BROKEN_JSON = 'broken-http.endpoint.json';
/** A copy of an example written out of shape (4-space indentation) with a comment inside, for formatting. */
export const MESSY_YAML = 'messy.endpoint.yaml';
export const INNER_COMMENT = '# two pools, so a worker starts wherever a GPU is free';
/** A base and one of its overlays, to open together. */
export const BASE_YAML = 'sdxl-worker.endpoint.yaml';
export const OVERLAY_YAML = 'sdxl-worker.staging.endpoint.yaml';

/** The path of an editor unpacked by scripts/editors/install.mjs. */
export function editorCommand(name: 'nvim' | 'emacs' | 'hx'): string {
  const path = join(EDITORS_BIN, name);
  if (!existsSync(path)) throw new Error(`${path} is missing: run node scripts/editors/install.mjs`);
  return path;
}

/** The fenced blocks in `language` under the docs/editor.md heading `heading`, as they are written. */
export function docsBlocks(heading: string, language: string): string[] {
  const docs = readFileSync(join(REPO_ROOT, 'docs', 'editor.md'), 'utf8');
  const start = docs.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `docs/editor.md has no heading "${heading}"`);
  const level = /^#+/.exec(heading)?.[0] ?? '#';
  const rest = docs.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`^#{1,${level.length}} `, 'm'));
  const section = end >= 0 ? rest.slice(0, end) : rest;
  const blocks = [...section.matchAll(new RegExp('^```' + language + '\\n([\\s\\S]*?)^```$', 'gm'))].map((m) => m[1]);
  assert.ok(blocks.length > 0, `docs/editor.md has no ${language} block under "${heading}"`);
  return blocks;
}

export interface EditorWorkspace {
  /** The folder the editor opens, holding the copied examples. */
  readonly dir: string;
  /** Where an editor keeps its configuration, state and logs (its HOME and XDG folders). */
  readonly home: string;
  /** The editor's environment: the shim on PATH, HOME and XDG folders in `home`, the emulator's URL and key. */
  readonly env: NodeJS.ProcessEnv;
  read(file: string): string;
  close(): Promise<void>;
}

/** Writes `examples/sdxl-worker.endpoint.yaml` out of shape: indentation doubled, a comment inside `gpu`. */
function messyCopy(): string {
  const original = readFileSync(join(REPO_ROOT, 'examples', BASE_YAML), 'utf8');
  const reindented = original.replace(/^( +)/gm, (spaces) => spaces + spaces);
  return reindented.replace('gpu:\n', `gpu:\n    ${INNER_COMMENT}\n`);
}

export async function prepareWorkspace(): Promise<EditorWorkspace> {
  const root = mkdtempSync(join(tmpdir(), 'es-editors-'));
  const dir = join(root, 'specs');
  const home = join(root, 'home');
  const bin = join(root, 'bin');
  for (const folder of [dir, home, bin]) mkdirSync(folder);
  for (const file of readdirSync(join(REPO_ROOT, 'examples')).filter((f) => f.includes('.endpoint.'))) {
    cpSync(join(REPO_ROOT, 'examples', file), join(dir, file));
  }
  writeFileSync(join(dir, MESSY_YAML), messyCopy());
  const shim = join(bin, 'endpoint-studio');
  // The shim's pid is the server's (exec keeps it), kept so the end can wait for servers that outlive their editor.
  const serverPids = join(root, 'server.pids');
  writeFileSync(shim, `#!/bin/sh\necho $$ >>'${serverPids}'\nexec '${process.execPath}' '${join(REPO_ROOT, 'dist', 'cli.js')}' "$@"\n`);
  chmodSync(shim, 0o755);
  const emulator = await startEmulator({ port: 0, jobsPort: 0, apiKey: API_KEY, seed: 3 });
  const env: NodeJS.ProcessEnv = {
    PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    LANG: 'C.UTF-8',
    TERM: 'xterm-256color',
    ENDPOINT_STUDIO_API_URL: emulator.restUrl,
    ENDPOINT_STUDIO_API_KEY: API_KEY,
  };
  return {
    dir,
    home,
    env,
    read: (file) => readFileSync(join(dir, file), 'utf8'),
    close: async () => {
      if (existsSync(serverPids)) await waitForExit(readFileSync(serverPids, 'utf8').split('\n').filter(Boolean).map(Number));
      await emulator.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Waits for the servers an editor started to exit after it (they get EOF on stdin); kills those that do not. */
async function waitForExit(pids: number[]): Promise<void> {
  const deadline = Date.now() + 5000;
  while (pids.some(isRunning) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 50));
  for (const pid of pids.filter(isRunning)) process.kill(pid, 'SIGKILL');
}

/** Runs `command` to its end (the emulator in this process keeps answering meanwhile); fails after `timeoutMs`. */
/** What a headless driver (drivers/*) reads: the workspace's environment, where to write its report, and the scenario's files. */
export function driverEnvironment(workspace: EditorWorkspace, reportPath: string): NodeJS.ProcessEnv {
  return {
    ...workspace.env,
    ES_REPORT: reportPath,
    ES_STAY_MS: String(STAY_MS),
    ES_BROKEN_YAML: BROKEN_YAML,
    ES_BROKEN_JSON: BROKEN_JSON,
    ES_MESSY_YAML: MESSY_YAML,
    ES_BASE_YAML: BASE_YAML,
    ES_OVERLAY_YAML: OVERLAY_YAML,
  };
}

export function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }) {
  return new Promise<{ status: number | null; output: string }>((done, failed) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      failed(new Error(`${command} ran over ${options.timeoutMs} ms; its output:\n${output}`));
    }, options.timeoutMs);
    child.on('error', failed);
    child.on('close', (status) => {
      clearTimeout(timer);
      done({ status, output });
    });
  });
}

/** What an editor saw while playing the scenario. */
export interface EditorReport {
  /** The diagnostics shown for BROKEN_YAML once they appeared. */
  diagnostics: string[];
  /** Whether they were gone within STAY_MS of appearing. */
  diagnosticsVanished: boolean;
  /** BROKEN_YAML on disk after the preferred quick fix on `idelTimeout` and a save. */
  fixedText: string;
  /** MESSY_YAML on disk after formatting and a save. */
  formattedText: string;
  /** The diagnostics shown for BROKEN_JSON. */
  jsonDiagnostics: string[];
  /** Whether the server had stopped at the end (after BASE_YAML and OVERLAY_YAML were both open for STAY_MS). */
  serverStopped: boolean;
  /** What the editor logged of the server: its LSP log, messages and the server's stderr. */
  log: string;
  /** A step that could not run, with why. */
  error?: string;
}

/** The report a driver wrote, with the editor's own output added to its log; fails with that output if there is none. */
export function readReport(path: string, editorOutput: string): EditorReport {
  if (!existsSync(path)) throw new Error(`the editor wrote no report; its output:\n${editorOutput}`);
  const report = JSON.parse(readFileSync(path, 'utf8')) as EditorReport;
  report.log += editorOutput;
  return report;
}

/**
 * The signs of a language server that died: Node's report of an uncaught error (which ends with its version) on
 * the server's stderr, and each editor's words for a server process that ended.
 */
const CRASH_SIGNS = /Node\.js v\d+|ResponseError|exit code|exited abnormally|StreamClosed/;

/** The part of a long log worth reading: around `at`, or its end. */
function excerpt(log: string, at = log.length): string {
  return log.slice(Math.max(0, at - 2000), at + 2000);
}

/** The checks every editor's report must pass. */
export function assertScenario(editor: string, report: EditorReport): void {
  const crash = CRASH_SIGNS.exec(report.log);
  assert.ok(
    !report.serverStopped && !crash,
    `${editor}: the language server died (${crash?.[0] ?? 'stopped'})${report.error ? ` and then: ${report.error}` : ''}; ` +
      `its log ${crash ? 'around that' : 'ends'}:\n${excerpt(report.log, crash?.index)}`,
  );
  assert.equal(report.error, undefined, `${editor}: ${report.error ?? ''}`);
  assert.ok(
    report.diagnostics.some((d) => d.includes('idelTimeout; did you mean idleTimeout?')),
    `${editor}: no diagnostic on idelTimeout in ${BROKEN_YAML}: ${JSON.stringify(report.diagnostics)}`,
  );
  assert.equal(report.diagnosticsVanished, false, `${editor}: the diagnostics of ${BROKEN_YAML} disappeared`);
  assert.match(report.fixedText, /^ {2}idleTimeout: 10$/m, `${editor}: the quick fix was not applied:\n${report.fixedText}`);
  assert.doesNotMatch(report.fixedText, /idelTimeout/);
  assert.ok(
    report.formattedText.includes(`  ${INNER_COMMENT}\n`),
    `${editor}: formatting lost or misplaced a comment:\n${report.formattedText}`,
  );
  assert.ok(report.formattedText.startsWith('# A queue endpoint'), `${editor}: formatting lost the first comment`);
  assert.match(report.formattedText, /^workers:\n {2}min: 0$/m, `${editor}: formatting did not indent by 2:\n${report.formattedText}`);
  assert.ok(report.jsonDiagnostics.length > 0, `${editor}: no diagnostics for the JSON spec ${BROKEN_JSON}`);
  assert.ok(!report.log.includes(API_KEY), `${editor}: the API key reached the editor's log`);
}
