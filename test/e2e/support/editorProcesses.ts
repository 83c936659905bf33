/**
 * What the editor's processes show from outside the page: the extension's output channel as code-server
 * writes it to disk, and the environment the extension gave its language server. Both are read from the
 * session's own temp folder and /proc, so a test sees exactly what the extension did, not what it says.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CodeServer } from '../../../scripts/editor/codeServer';
import { waitUntil } from './workbench';

const LOG_FILE = 'Endpoint Studio.log';

function filesNamed(folder: string, name: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder).flatMap((entry) => {
    const path = join(folder, entry);
    if (statSync(path).isDirectory()) return filesNamed(path, name);
    return entry === name ? [path] : [];
  });
}

/** The Endpoint Studio output channel of this session so far (every extension host's log, oldest first). */
export function extensionLog(server: CodeServer): string {
  return filesNamed(join(server.tempDir, 'user-data', 'logs'), LOG_FILE)
    .sort()
    .map((file) => readFileSync(file, 'utf8'))
    .join('');
}

/** How many lines of the extension's log match `pattern`: noted before an action, then waited on to grow. */
export function logLinesMatching(server: CodeServer, pattern: RegExp): number {
  return extensionLog(server)
    .split('\n')
    .filter((line) => pattern.test(line)).length;
}

function readProc(pid: string, file: 'cmdline' | 'environ'): string[] {
  try {
    return readFileSync(join('/proc', pid, file), 'utf8').split('\0');
  } catch {
    // The process ended while the list was read.
    return [];
  }
}

/**
 * The environment of the extension's language server (dist/server.js of the copy installed in this
 * session), or undefined while none runs.
 */
export function languageServerEnvironment(server: CodeServer): Map<string, string> | undefined {
  const script = join(server.tempDir, 'extensions');
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    const args = readProc(pid, 'cmdline');
    if (!args.some((arg) => arg.startsWith(script) && arg.endsWith(join('dist', 'server.js')))) continue;
    const environment = new Map<string, string>();
    for (const entry of readProc(pid, 'environ')) {
      const at = entry.indexOf('=');
      if (at > 0) environment.set(entry.slice(0, at), entry.slice(at + 1));
    }
    return environment;
  }
  return undefined;
}

/** The language server's environment once it runs (it starts with the extension, or on the first spec). */
export async function runningLanguageServerEnvironment(server: CodeServer): Promise<Map<string, string>> {
  let environment: Map<string, string> | undefined;
  await waitUntil(() => (environment = languageServerEnvironment(server)) !== undefined, 'the language server to run');
  if (!environment) throw new Error('the language server stopped while its environment was read');
  return environment;
}
