/**
 * What the extension costs the editor when it starts, measured where users run it: code-server (VS Code
 * 1.100) with the extension loaded from this repository's dist/, in headless Chromium. Two logs written
 * by that one extension-host process give the figures: the host logs when it starts activating the
 * extension (the workspace holds specs), and the extension logs how long its activate() took, up to a
 * running language server. What lies between is loading dist/client.js and its imports. Each reload of the
 * window is a new extension host, so one editor gives several cold activations. The bundle's load time is
 * also read in plain Node, with a stand-in for the `vscode` module, free of the editor's own work.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CodeServer } from '../scripts/editor/codeServer';
import { CHROMIUM_PATH, CODE_SERVER_ENTRY, EXAMPLES_DIR } from '../scripts/editor/paths';
import { extensionLog } from '../test/e2e/support/editorProcesses';
import { PROFILE_STATUS_ITEM, START_TIMEOUT_MS, waitUntil, Workbench } from '../test/e2e/support/workbench';
import { ROOT } from './measure';

const CLIENT_BUNDLE = join(ROOT, 'dist', 'client.js');
const EXTENSION_ID = 'endpoint-studio.endpoint-studio';

export interface Activation {
  /** The host starts activating → activate() is entered: loading the bundle. */
  loadMs: number;
  /** activate() entered → returned (the language server running), as the extension logs it. */
  activateMs: number;
}

/** `2026-11-23 23:45:40.930 [info] ...`: the stamp both logs put on each line, in the host's local time. */
function stampOf(line: string): number {
  const match = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d\.\d{3})/.exec(line);
  if (!match) throw new Error(`no time stamp on log line: ${line}`);
  return new Date(`${match[1]}T${match[2]}`).getTime();
}

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((entry) => {
    const path = join(folder, entry);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The activations logged so far, oldest first, paired by extension host. */
function activations(server: CodeServer): Activation[] {
  const hostLines = filesUnder(join(server.tempDir, 'user-data', 'logs'))
    .filter((file) => file.endsWith('exthost.log'))
    .sort()
    .flatMap((file) => readFileSync(file, 'utf8').split('\n'))
    .filter((line) => line.includes(`_doActivateExtension ${EXTENSION_ID},`));
  const doneLines = extensionLog(server)
    .split('\n')
    .filter((line) => /\] activated in \d/.test(line));
  return doneLines.slice(0, hostLines.length).flatMap((line, index) => {
    const activateMs = Number(/activated in ([\d.]+) ms/.exec(line)?.[1]);
    if (!Number.isFinite(activateMs)) return [];
    return [{ loadMs: stampOf(line) - activateMs - stampOf(hostLines[index]), activateMs }];
  });
}

/** Opens the examples in code-server `reloads + 1` times (one editor, reloaded) and reads each activation. */
export async function activationInCodeServer(reloads: number): Promise<Activation[]> {
  if (!existsSync(CODE_SERVER_ENTRY) || !existsSync(CHROMIUM_PATH))
    throw new Error('code-server or Chromium is missing: run `npm run setup:editor`');
  const workspace = mkdtempSync(join(tmpdir(), 'es-bench-activation-'));
  cpSync(EXAMPLES_DIR, workspace, { recursive: true });
  const server = await CodeServer.start({ workspace });
  const workbench = await Workbench.launch();
  try {
    const payload = JSON.stringify([['extensionDevelopmentPath', `vscode-remote://127.0.0.1:${server.port}${ROOT}`]]);
    await workbench.page.goto(`${server.url}?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(payload)}`, {
      timeout: START_TIMEOUT_MS,
    });
    for (let run = 0; run <= reloads; run++) {
      if (run > 0) await workbench.page.reload({ timeout: START_TIMEOUT_MS });
      await workbench.page.locator(`.statusbar-item[id$="${PROFILE_STATUS_ITEM}"]`).waitFor({ timeout: START_TIMEOUT_MS });
      await waitUntil(
        () => activations(server).length > run,
        `activation ${run + 1} in the logs`,
        () => extensionLog(server),
        START_TIMEOUT_MS,
      );
    }
    return activations(server);
  } finally {
    await workbench.close();
    await server.stop();
    rmSync(workspace, { recursive: true, force: true });
  }
}

/**
 * `require('dist/client.js')` in a fresh Node process per run, `vscode` answered by a stand-in that is any
 * value asked of it, so the bundle's own evaluation is all that is timed.
 */
export function clientBundleLoad(runs: number): number[] {
  const script = `
    const Module = require('node:module');
    const standIn = new Proxy(function () {}, {
      get: (_, key) => (key === 'prototype' ? {} : standIn),
      getPrototypeOf: () => standIn,
      apply: () => standIn,
      construct: () => standIn,
    });
    const load = Module._load;
    Module._load = function (request, ...rest) { return request === 'vscode' ? standIn : load.call(this, request, ...rest); };
    const started = performance.now();
    require(${JSON.stringify(CLIENT_BUNDLE)});
    process.stdout.write(String(performance.now() - started));`;
  return Array.from({ length: runs }, () => {
    const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    const ms = Number(run.stdout);
    if (run.status !== 0 || !Number.isFinite(ms)) throw new Error(`loading dist/client.js failed: ${run.stderr}`);
    return ms;
  });
}
