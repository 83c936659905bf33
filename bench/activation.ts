/**
 * What the extension costs the editor when it starts, measured where users run it: code-server (VS Code
 * 1.100) with the extension loaded from this repository's dist/, in headless Chromium. Two ways:
 *
 * - what a user waits for (openSpecToFirstDiagnostic): a spec opened after start-up, so that opening it
 *   activates the extension, from the file shown to its first diagnostic on screen; beside the same for a
 *   minimal extension that starts an empty language server the same way, the ratio being what we add;
 * - where the time goes (activationInCodeServer): the extension host logs when it starts activating the
 *   extension (the workspace holds specs), and the extension logs how long it took from its bundle's first
 *   line to a running language server. Each reload of the window is a new extension host, so one editor
 *   gives several cold activations. The bundle's load time is also read in plain Node, with a stand-in for
 *   the `vscode` module, free of the editor's own work.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { CodeServer } from '../scripts/editor/codeServer';
import { CHROMIUM_PATH, EDITOR_NAMES, EDITOR_VARIABLE, editorNamed, EXAMPLES_DIR } from '../scripts/editor/paths';
import { extensionLog } from '../test/e2e/support/editorProcesses';
import { PROFILE_STATUS_ITEM, START_TIMEOUT_MS, waitUntil, Workbench } from '../test/e2e/support/workbench';
import { percentile } from './lsp';
import { ROOT } from './measure';

const CLIENT_BUNDLE = join(ROOT, 'dist', 'client.js');
/**
 * The editor measured: the one ENDPOINT_STUDIO_EDITOR names, else the oldest the extension claims. Both sides load
 * their extension from the page's development path, which the web build of VS Code 1.139 honours only with its
 * smoke-test driver, a switch code-server does not take: there neither extension would load.
 */
export const BENCH_EDITOR = editorNamed(process.env[EDITOR_VARIABLE] || EDITOR_NAMES[0]);
const EXTENSION_ID = 'endpoint-studio.endpoint-studio';

export interface Activation {
  /** The host starts activating → the bundle's first line runs: the editor reading and compiling dist/client.js. */
  loadMs: number;
  /** The bundle's first line → the language server running, as the extension logs it. */
  serverMs: number;
  /** The bundle's first line → activation over (every feature registered), as the extension logs it. */
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
    const figures = /activated in ([\d.]+) ms, language server running after ([\d.]+) ms/.exec(line);
    if (!figures) return [];
    const [activateMs, serverMs] = [Number(figures[1]), Number(figures[2])];
    return [{ loadMs: stampOf(line) - activateMs - stampOf(hostLines[index]), serverMs, activateMs }];
  });
}

/** The workbench on `workspace`, with the extension in `extensionPath` loaded as one under development (no install). */
function developmentUrl(server: CodeServer, workspace: string, extensionPath: string): string {
  const payload = JSON.stringify([['extensionDevelopmentPath', `vscode-remote://127.0.0.1:${String(server.port)}${extensionPath}`]]);
  return `${server.url}?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(payload)}`;
}

/** Opens the examples in code-server `reloads + 1` times (one editor, reloaded) and reads each activation. */
export async function activationInCodeServer(reloads: number): Promise<Activation[]> {
  if (!existsSync(BENCH_EDITOR.entry) || !existsSync(CHROMIUM_PATH))
    throw new Error('code-server or Chromium is missing: run `npm run setup:editor`');
  const workspace = mkdtempSync(join(tmpdir(), 'es-bench-activation-'));
  cpSync(EXAMPLES_DIR, workspace, { recursive: true });
  const server = await CodeServer.start({ workspace, editor: BENCH_EDITOR });
  const workbench = await Workbench.launch();
  try {
    await workbench.page.goto(developmentUrl(server, workspace, ROOT), { timeout: START_TIMEOUT_MS });
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

/** Opened after start-up; our server reports the misspelt key, the minimal one a problem on any spec. */
const OPENED_SPEC = { name: 'opened.endpoint.yaml', text: 'name: opened\ntype: QUEUE\nimage: myorg/opened:1\nbogusKey: 1\n' };
const OPEN_ON_INSTALL = 'workbench.welcomePage.walkthroughs.openOnInstall';

/** One figure's runs in milliseconds, in the order taken; a run whose diagnostic never showed is left out and counted. */
export interface Spread {
  runs: number[];
  median: number;
  min: number;
  max: number;
  /** Runs in which the spec's diagnostic never showed on screen (the spec hidden, say). */
  missed: number;
}

/** What openSpecToFirstDiagnostic returns: file shown → first diagnostic on screen, in milliseconds. */
export interface OpenSpecActivation {
  /**
   * A minimal extension that contributes the spec language as ours does (the editor's YAML grammar, the language
   * configuration), activates on it and starts an empty language server the same way: the yardstick.
   */
  minimal: Spread;
  /** The same without the grammar: the editor shows the spec as plain text, and loads no TextMate engine. */
  minimalPlainText: Spread;
  /** Ours, its first-run walkthrough off and on (VS Code's `workbench.welcomePage.walkthroughs.openOnInstall`). */
  ours: { walkthroughOff: Spread; walkthroughOn: Spread };
  /** Our median ÷ the minimal extension's median (the one with the spec language as ours). */
  ratio: { walkthroughOff: number; walkthroughOn: number };
}

/**
 * Opens a spec in a workspace that holds none, so opening it activates the extension, and times the file
 * shown → its first diagnostic on screen, `runs` times for each of: the minimal extension, ours with the
 * walkthrough off, ours with it on. They take turns run by run, so a change in the machine's load falls on all
 * alike. Every run is a new editor (its own user data: each activation is a first one, and the walkthrough's
 * "shown once" is forgotten) and a new browser. `extension` is the folder ours is loaded from (its dist/ built).
 */
export async function openSpecToFirstDiagnostic(runs = 5, extension = ROOT): Promise<OpenSpecActivation> {
  if (!existsSync(BENCH_EDITOR.entry) || !existsSync(CHROMIUM_PATH))
    throw new Error('code-server or Chromium is missing: run `npm run setup:editor`');
  const minimal = buildMinimalExtension(true);
  const plainText = buildMinimalExtension(false);
  const times = { minimal: [] as number[], plainText: [] as number[], off: [] as number[], on: [] as number[] };
  try {
    for (let run = 0; run < runs; run++) {
      times.plainText.push(await openSpecOrMiss(plainText, false));
      times.minimal.push(await openSpecOrMiss(minimal, false));
      times.off.push(await openSpecOrMiss(extension, false));
      times.on.push(await openSpecOrMiss(extension, true));
    }
  } finally {
    for (const folder of [minimal, plainText]) rmSync(folder, { recursive: true, force: true });
  }
  const spread = (all: number[]): Spread => {
    const shown = all.filter((ms) => Number.isFinite(ms));
    return {
      runs: shown,
      median: percentile(shown, 50),
      min: Math.min(...shown),
      max: Math.max(...shown),
      missed: all.length - shown.length,
    };
  };
  const result = {
    minimal: spread(times.minimal),
    minimalPlainText: spread(times.plainText),
    ours: { walkthroughOff: spread(times.off), walkthroughOn: spread(times.on) },
  };
  return {
    ...result,
    ratio: {
      walkthroughOff: result.ours.walkthroughOff.median / result.minimal.median,
      walkthroughOn: result.ours.walkthroughOn.median / result.minimal.median,
    },
  };
}

/**
 * Marks, in the page, the first frame that shows the spec's text in an editor and the first that shows a
 * problem's squiggle. A string, so nothing of tsx's output reaches the page.
 */
const WATCH_OPENED_SPEC = `(() => {
  const marks = (window.__openedSpec = {});
  const check = () => {
    const now = performance.now();
    if (marks.shown === undefined) {
      for (const lines of document.querySelectorAll('.editor-instance .monaco-editor .view-lines'))
        if (lines.textContent.includes('bogusKey')) marks.shown = now;
    }
    if (marks.diagnostic === undefined && document.querySelector('.monaco-editor .squiggly-error, .monaco-editor .squiggly-warning, .monaco-editor .squiggly-info'))
      marks.diagnostic = now;
    if (marks.shown === undefined || marks.diagnostic === undefined) requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})()`;

/**
 * One run that could not open its spec (a notification took the focus from Quick Open, the editor never drew) is a
 * missed run, counted in the row, rather than the end of the whole section.
 */
async function openSpecOrMiss(extensionPath: string, walkthrough: boolean): Promise<number> {
  try {
    return await openSpecOnce(extensionPath, walkthrough);
  } catch (error) {
    process.stderr.write(`activation: a run missed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}\n`);
    return NaN;
  }
}

/** One editor, one spec opened: file shown → first diagnostic in milliseconds, NaN when none showed. */
async function openSpecOnce(extensionPath: string, walkthrough: boolean): Promise<number> {
  const workspace = mkdtempSync(join(tmpdir(), 'es-bench-open-'));
  // Something for the Explorer to list, and no spec: opening one is what activates the extension.
  writeFileSync(join(workspace, 'notes.yaml'), 'notes: []\n');
  const server = await CodeServer.start({ workspace, editor: BENCH_EDITOR, userSettings: { [OPEN_ON_INSTALL]: walkthrough } });
  const workbench = await Workbench.launch();
  try {
    const page = workbench.page;
    await page.goto(developmentUrl(server, workspace, extensionPath), { timeout: START_TIMEOUT_MS });
    await page.locator('.explorer-folders-view .monaco-list-row[aria-label="notes.yaml"]').waitFor({ timeout: START_TIMEOUT_MS });
    // The workbench goes on starting (its extension host, the built-in extensions) after the Explorer shows:
    // opened then, the spec would share the editor's start-up with it.
    await page.waitForTimeout(3000);
    await page.evaluate(WATCH_OPENED_SPEC);
    await workbench.openNewFile(workspace, OPENED_SPEC.name, OPENED_SPEC.text);
    const marks = () => page.evaluate<{ shown?: number; diagnostic?: number }>('window.__openedSpec');
    const seen = await waitUntil(
      async () => (await marks()).diagnostic !== undefined,
      'the first diagnostic',
      () => '',
      20_000,
    ).then(
      () => true,
      () => false,
    );
    const { shown, diagnostic } = await marks();
    return seen && shown !== undefined && diagnostic !== undefined ? diagnostic - shown : NaN;
  } finally {
    await workbench.close();
    await server.stop();
    rmSync(workspace, { recursive: true, force: true });
  }
}

/**
 * The yardstick: an extension that contributes the spec language, activates on it, and starts a language
 * server over IPC with vscode-languageclient as ours does; the server (vscode-languageserver) reports one
 * problem on any spec. Both bundled and minified as ours are, into a temp folder the caller removes. With
 * `sameLanguage`, the language has our grammar (the editor's YAML grammar) and language configuration, so the
 * editor does for it all it does for ours before any extension code runs: the first YAML-highlighted file
 * loads the TextMate engine and the YAML grammar, which no extension can spare a user.
 */
function buildMinimalExtension(sameLanguage: boolean): string {
  const folder = mkdtempSync(join(tmpdir(), 'es-bench-minimal-extension-'));
  const manifest = {
    name: 'minimal-spec-server',
    publisher: 'bench',
    version: '0.0.1',
    engines: { vscode: '^1.91.0' },
    main: './extension.js',
    activationEvents: ['onLanguage:endpoint-yaml'],
    contributes: sameLanguage
      ? ourLanguage(folder)
      : { languages: [{ id: 'endpoint-yaml', aliases: ['Endpoint Spec (YAML)'], filenamePatterns: ['*.endpoint.{yaml,yml}'] }] },
  };
  writeFileSync(join(folder, 'package.json'), JSON.stringify(manifest, null, 2));
  const extension = `
    const { LanguageClient, TransportKind } = require('vscode-languageclient/node');
    let client;
    exports.activate = async (context) => {
      const module = context.asAbsolutePath('server.js');
      const server = { module, transport: TransportKind.ipc };
      client = new LanguageClient('minimal', 'Minimal', { run: server, debug: server }, {
        documentSelector: [{ scheme: 'file', pattern: '**/*.endpoint.{yaml,yml}' }],
      });
      await client.start();
    };
    exports.deactivate = () => client && client.stop();`;
  const server = `
    const { createConnection, DocumentDiagnosticReportKind, TextDocuments, TextDocumentSyncKind } = require('vscode-languageserver/node');
    const { TextDocument } = require('vscode-languageserver-textdocument');
    const connection = createConnection();
    const documents = new TextDocuments(TextDocument);
    const problem = { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 4 } }, severity: 1, message: 'a problem', source: 'minimal' };
    connection.onInitialize(() => ({
      capabilities: { textDocumentSync: TextDocumentSyncKind.Incremental, diagnosticProvider: { interFileDependencies: false, workspaceDiagnostics: false } },
    }));
    connection.languages.diagnostics.on(() => ({ kind: DocumentDiagnosticReportKind.Full, items: [problem] }));
    documents.listen(connection);
    connection.listen();`;
  for (const [file, contents] of [
    ['extension.js', extension],
    ['server.js', server],
  ]) {
    buildSync({
      stdin: { contents, resolveDir: ROOT, loader: 'js' },
      outfile: join(folder, file),
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      minify: true,
      external: ['vscode'],
      mainFields: ['module', 'main'],
      logLevel: 'warning',
    });
  }
  return folder;
}

/** Our YAML spec language and its grammar, as package.json contributes them, with syntaxes/ copied into `folder`. */
function ourLanguage(folder: string): { languages: unknown[]; grammars: unknown[] } {
  const { contributes } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    contributes: { languages: { id: string; icon?: unknown }[]; grammars: { language: string }[] };
  };
  cpSync(join(ROOT, 'syntaxes'), join(folder, 'syntaxes'), { recursive: true });
  const language = contributes.languages.filter(({ id }) => id === 'endpoint-yaml').map(({ icon: _icon, ...rest }) => rest);
  return { languages: language, grammars: contributes.grammars.filter((grammar) => grammar.language === 'endpoint-yaml') };
}
