/** Where the end-to-end harness finds the editor, the packaged extension and the examples, and writes its output. */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(__dirname, '..', '..');
export const EXAMPLES_DIR = join(REPO_ROOT, 'examples');
export const OUTPUT_DIR = join(REPO_ROOT, '.test-output');
export const SCREENSHOT_DIR = join(OUTPUT_DIR, 'screenshots');

const CODE_SERVER_VERSION = '4.100.3';
const EDITOR_CACHE_DIR = process.env.EDITOR_CACHE_DIR ?? join(REPO_ROOT, '.cache', 'editor');
export const CODE_SERVER_ENTRY = join(
  EDITOR_CACHE_DIR,
  `code-server-${CODE_SERVER_VERSION}`,
  'node_modules',
  'code-server',
  'out',
  'node',
  'entry.js',
);
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The file `npm run package` writes (vsce's default name). */
export function packagedExtensionPath(): string {
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  return join(REPO_ROOT, `${manifest.name}-${manifest.version}.vsix`);
}
