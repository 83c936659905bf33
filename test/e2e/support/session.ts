/**
 * One editor session per test file: a private copy of examples/, code-server with the packaged extension,
 * and a browser on the workbench. `editorTest` wraps node:test so every test leaves a screenshot of what it
 * checked, and a FAILED-... screenshot when it throws.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { CodeServer, type CodeServerOptions } from '../../../scripts/editor/codeServer';
import { EXAMPLES_DIR, packagedExtensionPath } from '../../../scripts/editor/paths';
import { extensionLog } from './editorProcesses';
import { Workbench } from './workbench';

export interface EditorSession {
  readonly server: CodeServer;
  readonly workbench: Workbench;
  /** The temp copy of examples/ the workbench has open. */
  readonly workspace: string;
  stop(): Promise<void>;
}

export interface EditorSessionOptions {
  /** The file the Explorer must list before the workbench counts as ready. */
  readyFile?: string;
  env?: CodeServerOptions['env'];
  userSettings?: CodeServerOptions['userSettings'];
  workspaceTrust?: CodeServerOptions['workspaceTrust'];
  /**
   * Wait for the extension to activate (its status bar item) before the session counts as started; on by
   * default. Off for a session whose extension host may be done before the page shows it (a test suite run).
   */
  waitForExtension?: boolean;
  /** Query string appended to the workbench URL, e.g. an extension-development payload. */
  query?: (server: CodeServer, workspace: string) => string;
  prepare?: Parameters<typeof Workbench.launch>[0];
}

export async function startEditorSession(options: EditorSessionOptions = {}): Promise<EditorSession> {
  const workspace = mkdtempSync(join(tmpdir(), 'endpoint-studio-workspace-'));
  cpSync(EXAMPLES_DIR, workspace, { recursive: true });
  const cleanups: Array<() => Promise<void> | void> = [
    () => {
      rmSync(workspace, { recursive: true, force: true });
    },
  ];
  const stop = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  };
  try {
    const server = await CodeServer.start({
      workspace,
      extensions: [packagedExtensionPath()],
      env: options.env ?? {},
      userSettings: options.userSettings ?? {},
      workspaceTrust: options.workspaceTrust ?? false,
    });
    cleanups.push(() => server.stop());
    const workbench = await Workbench.launch(options.prepare);
    cleanups.push(() => workbench.close());
    const query = options.query?.(server, workspace) ?? `?folder=${encodeURIComponent(workspace)}`;
    try {
      await workbench.open(server.url + query, options.readyFile ?? 'sdxl-worker.endpoint.yaml', {
        waitForExtension: options.waitForExtension ?? true,
      });
    } catch (error) {
      await workbench.screenshot('FAILED-workbench-start').catch(() => undefined);
      throw error;
    }
    return { server, workbench, workspace, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Declares the file's session hooks and returns a `test` that screenshots each test's final screen as
 * `<file>--<test>.png`, or `FAILED-<file>--<test>.png` when the test fails. Tests share the session but
 * not its state: each starts on a reset workbench (no editor, widget or notification open) and sets up
 * what it needs itself, so any one of them passes alone (--test-name-pattern) and in any order.
 * `options` may be a function, read when the session starts (after the file's own set-up, e.g. an emulator).
 */
export function useEditorSession(fileLabel: string, options: EditorSessionOptions | (() => Promise<EditorSessionOptions>) = {}) {
  let session: EditorSession | undefined;
  before(async () => {
    session = await startEditorSession(typeof options === 'function' ? await options() : options);
  });
  after(async () => {
    await session?.stop();
  });
  // Returns nothing, like node:test's own `test` as the lint rule sees it: the runner awaits the test.
  const editorTest = (name: string, body: (workbench: Workbench, session: EditorSession) => Promise<void>): void => {
    test(name, async () => {
      if (!session) throw new Error('the editor session did not start');
      const shot = `${fileLabel}--${name}`;
      try {
        await session.workbench.reset();
        await body(session.workbench, session);
      } catch (error) {
        const picture = await session.workbench.screenshot(`FAILED-${shot}`).catch(() => undefined);
        keepExtensionLog(session, picture);
        throw error;
      }
      await session.workbench.screenshot(shot);
    });
  };
  return { editorTest, session: () => session };
}

/**
 * A failed test's evidence beside its screenshot: the extension's output channel (what a user would read
 * to learn why), saved whole and its last lines printed, so a failure on a CI machine says why there too.
 */
function keepExtensionLog(session: EditorSession, picture: string | undefined): void {
  try {
    const log = extensionLog(session.server);
    if (picture) writeFileSync(picture.replace(/\.png$/, '.log'), log);
    const tail = log.trimEnd().split('\n').slice(-20).join('\n');
    console.error(`extension output channel, last lines:\n${tail || '(empty)'}`);
  } catch (error) {
    // Evidence only: the test's own failure is what must be reported.
    console.error(`the extension's output channel could not be read: ${String(error)}`);
  }
}
