/**
 * The language server's first process, forked the moment dist/client.js begins to run: extension.ts imports
 * this module right after loadStart.ts, so the fork comes before the rest of the bundle is evaluated. The
 * server's start (a Node process, then its own bundle) then runs while the editor evaluates the language client
 * and builds the extension's context, instead of after both, and a spec whose opening activated the extension
 * shows its problems that much sooner. A fork that fails here is tried again, and its error reported, when
 * activation starts the server.
 */
import type { ChildProcess } from 'node:child_process';
import { forkServer } from './serverProcess';

export const FIRST_SERVER: ChildProcess | undefined = (() => {
  try {
    return forkServer();
  } catch {
    return undefined;
  }
})();
