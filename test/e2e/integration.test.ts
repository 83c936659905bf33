/**
 * Runs the `vscode` API integration suite (test/integration, mocha) inside code-server's extension host.
 * code-server's workbench honours the extension-development payload VS Code uses for its own web tests
 * (`extensionDevelopmentPath`, `extensionTestsPath`): the extension is loaded from this repository as
 * @vscode/test-electron would load it, the host calls the suite's run(), and the workbench reports the
 * outcome through `window.codeAutomationExit(code)`, which this test exposes to the page.
 */
import * as assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { format } from 'node:util';
import { SUITE_BANNER } from '../integration/index';
import { bundleIntegrationSuite } from './support/integrationBundle';
import { REPO_ROOT } from '../../scripts/editor/paths';
import { startEditorSession, type EditorSession } from './support/session';

const SUITE_TIMEOUT_MS = 180_000;

let session: EditorSession | undefined;
const hostLog: string[] = [];
let reportExit: (code: number) => void = () => undefined;
const exited = new Promise<number>((resolve) => (reportExit = resolve));

before(async () => {
  const testsEntry = await bundleIntegrationSuite();
  session = await startEditorSession({
    prepare: async (page) => {
      await page.exposeFunction('codeAutomationLog', (type: string, args: unknown[]) => {
        // The workbench forwards console calls unformatted: ('%s passing', 8).
        const [first, ...rest] = args;
        hostLog.push(`${type === 'info' || type === 'log' ? '' : `[${type}] `}${format(first, ...rest)}`);
      });
      await page.exposeFunction('codeAutomationExit', (code: number) => {
        reportExit(code);
      });
    },
    query: (server, workspace) => {
      const remote = (path: string) => `vscode-remote://127.0.0.1:${server.port}${path}`;
      const payload = [
        ['extensionDevelopmentPath', remote(REPO_ROOT)],
        ['extensionTestsPath', remote(testsEntry)],
      ];
      return `?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    },
  });
});

after(async () => {
  await session?.stop();
});

test('the vscode API integration suite passes in the extension host', { timeout: SUITE_TIMEOUT_MS }, async () => {
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => {
      reject(new Error(`the integration suite did not finish within ${SUITE_TIMEOUT_MS} ms`));
    }, SUITE_TIMEOUT_MS - 5_000).unref(),
  );
  let code: number;
  try {
    code = await Promise.race([exited, timeout]);
  } catch (error) {
    await session?.workbench.screenshot('FAILED-integration--extension-host').catch(() => undefined);
    throw error;
  } finally {
    // The suite's own report (mocha's spec reporter) so a failure reads like a local run; everything the
    // workbench logged when the suite never started.
    const start = hostLog.findIndex((line) => line.includes(SUITE_BANNER));
    console.log(hostLog.slice(Math.max(start, 0)).join('\n'));
  }
  await session?.workbench.screenshot('integration--extension-host');
  assert.equal(code, 0, 'the integration suite failed; its report is above');
  assert.match(hostLog.join('\n'), /passing/, 'mocha reported nothing: did the suite load?');
});
