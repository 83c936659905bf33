/**
 * Helix with the `languages.toml` and `config.toml` of docs/editor.md, copied from the page as they are written,
 * driven through the scenario of support.ts in a tmux pane: keys in, screen out, files read back from disk after
 * `:write`. Helix's log (`-v`: every LSP message) tells when the server has answered, and shows a crash.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import {
  BASE_YAML,
  BROKEN_JSON,
  BROKEN_YAML,
  MESSY_YAML,
  OVERLAY_YAML,
  STAY_MS,
  assertScenario,
  docsBlocks,
  editorCommand,
  prepareWorkspace,
  type EditorReport,
  type EditorWorkspace,
} from './support';
import { TmuxPane } from './tmux';

const execFileAsync = promisify(execFile);

/** Helix's gutter mark of a line with a diagnostic. */
const DIAGNOSTIC_MARK = '●';
/** Added to the documented config.toml so the pane shows each line's diagnostic message beside it. */
const SHOW_MESSAGES = '\n[editor]\nend-of-line-diagnostics = "hint"\n';

function writeHelixConfig(workspace: EditorWorkspace): void {
  const [languages = '', config = ''] = docsBlocks('### Helix', 'toml');
  const folder = join(workspace.env.XDG_CONFIG_HOME ?? '', 'helix');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'languages.toml'), languages);
  writeFileSync(join(folder, 'config.toml'), config + SHOW_MESSAGES);
}

/** The screen rows of the open file that carry a diagnostic. */
async function markedRows(pane: TmuxPane): Promise<string[]> {
  return (await pane.screen()).filter((row) => row.trimStart().startsWith(DIAGNOSTIC_MARK));
}

/** Whether the language server is still a child of the editor. */
async function serverRunning(pane: TmuxPane): Promise<boolean> {
  // ps exits with 1 when the editor has no child left.
  const children = await execFileAsync('ps', ['-o', 'args=', '--ppid', String(await pane.pid())]).catch(() => ({ stdout: '' }));
  return children.stdout.includes('lsp --stdio');
}

async function showDiagnostics(pane: TmuxPane, file: string): Promise<string[]> {
  return pane.until(`diagnostics in ${file}`, async () => {
    const screen = await pane.screen();
    const rows = screen.filter((row) => row.trimStart().startsWith(DIAGNOSTIC_MARK));
    return rows.length > 0 && screen.some((row) => row.includes(file)) ? rows : undefined;
  });
}

async function open(pane: TmuxPane, command: string, file: string): Promise<void> {
  await pane.command(`${command} ${file}`);
  await pane.until(`${file} in the status line`, async () =>
    (await pane.screen()).some((row) => row.includes(` ${file} `)) ? true : undefined,
  );
}

/** `:write` until the file on disk differs from `before` (an edit the server answers arrives a moment later). */
async function writeUntilChanged(pane: TmuxPane, workspace: EditorWorkspace, file: string, before: string): Promise<string> {
  return pane.until(`a change to ${file}`, async () => {
    await pane.command('write');
    await new Promise((done) => setTimeout(done, 200));
    const text = workspace.read(file);
    return text === before ? undefined : text;
  });
}

async function play(pane: TmuxPane, workspace: EditorWorkspace, logPath: string, report: EditorReport): Promise<void> {
  report.diagnostics = await showDiagnostics(pane, BROKEN_YAML);
  const vanished = pane.until('the diagnostics to vanish', async () => ((await markedRows(pane)).length === 0 ? true : undefined), STAY_MS);
  report.diagnosticsVanished = await vanished.catch(() => false);

  const broken = workspace.read(BROKEN_YAML);
  const line = broken.split('\n').findIndex((row) => row.includes('idelTimeout')) + 1;
  await pane.type(`${line}Ggs`);
  await pane.type(' a');
  await pane.until('the code actions menu', async () =>
    (await pane.screen()).some((row) => row.includes('Rename to idleTimeout')) ? true : undefined,
  );
  // Helix lists quick fixes first, the preferred one on top, and selects the top one.
  await pane.type('', 'Enter');
  report.fixedText = await writeUntilChanged(pane, workspace, BROKEN_YAML, broken);

  await open(pane, 'open', MESSY_YAML);
  await pane.command('format');
  report.formattedText = await writeUntilChanged(pane, workspace, MESSY_YAML, workspace.read(MESSY_YAML));

  await open(pane, 'open', BROKEN_JSON);
  report.jsonDiagnostics = await showDiagnostics(pane, BROKEN_JSON);

  await open(pane, 'open', BASE_YAML);
  await open(pane, 'vsplit', OVERLAY_YAML);
  // The overlay's diagnostics (none) in the log show the server has taken both in; then it must stay up.
  const published = new RegExp(`textDocument/publishDiagnostics.*${OVERLAY_YAML.replaceAll('.', '\\.')}`);
  await pane.until('diagnostics published for the overlay', () => (published.test(readFileSync(logPath, 'utf8')) ? true : undefined));
  await pane.until('the server to stop', async () => ((await serverRunning(pane)) ? undefined : true), STAY_MS).catch(() => undefined);
}

test('Helix: the documented set-up shows diagnostics, applies a quick fix, formats, and keeps its server', async () => {
  const workspace = await prepareWorkspace();
  const logPath = join(workspace.home, 'helix.log');
  const report: EditorReport = {
    diagnostics: [],
    diagnosticsVanished: false,
    fixedText: '',
    formattedText: '',
    jsonDiagnostics: [],
    serverStopped: true,
    log: '',
  };
  let pane: TmuxPane | undefined;
  try {
    writeHelixConfig(workspace);
    const hx = `'${editorCommand('hx')}' -v --log '${logPath}' ${BROKEN_YAML}`;
    pane = await TmuxPane.start(join(workspace.home, 'tmux.socket'), hx, {
      cwd: workspace.dir,
      env: workspace.env,
      columns: 220,
      rows: 50,
    });
    try {
      await play(pane, workspace, logPath, report);
    } catch (error) {
      report.error = error instanceof Error ? error.message : String(error);
    }
    report.serverStopped = !(await serverRunning(pane));
    report.log = existsSync(logPath) ? readFileSync(logPath, 'utf8') : '';
    assertScenario('Helix', report);
  } finally {
    await pane?.close();
    await workspace.close();
  }
});
