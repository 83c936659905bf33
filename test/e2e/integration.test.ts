/**
 * Runs the `vscode` API integration suite (test/integration, mocha) inside code-server's extension host.
 * code-server's workbench honours the extension-development payload VS Code uses for its own web tests
 * (`extensionDevelopmentPath`, `extensionTestsPath`): the extension is loaded from this repository as
 * @vscode/test-electron would load it, the host calls the suite's run(), and the workbench reports the
 * outcome through `window.codeAutomationExit(code)`, which this test exposes to the page.
 *
 * A built workbench of VS Code 1.10x and later ignores that payload unless the server runs with the smoke-test
 * driver enabled (before, it loaded the installed copy and never called run()); code-server passes the flag on
 * from VSCODE_OPTIONS (older code-server ignores the variable, and needs none). Those workbenches may also
 * forward neither the host's console nor its exit code to the page, so the suite writes its report and
 * outcome to a file as well (test/integration/index.ts), and whichever comes first decides.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { format } from 'node:util';
import { REPORT_VARIABLE, SUITE_BANNER, type SuiteOutcome } from '../integration/index';
import { bundleIntegrationSuite } from './support/integrationBundle';
import { REPO_ROOT } from '../../scripts/editor/paths';
import { startEditorSession, type EditorSession } from './support/session';
import { waitUntil } from './support/workbench';

const SUITE_TIMEOUT_MS = 180_000;

let session: EditorSession | undefined;
const hostLog: string[] = [];
let reportExit: (code: number) => void = () => undefined;
const exited = new Promise<number>((resolve) => (reportExit = resolve));
let reportFile = '';

/** The suite's outcome from its report file, once written. */
async function outcomeFromReport(): Promise<number> {
  const done = `${reportFile}.done`;
  await waitUntil(
    () => existsSync(done),
    'the integration suite to end',
    () => '',
    SUITE_TIMEOUT_MS,
  );
  return (JSON.parse(readFileSync(done, 'utf8')) as SuiteOutcome).failures === 0 ? 0 : 1;
}

before(async () => {
  const testsEntry = await bundleIntegrationSuite();
  reportFile = join(dirname(testsEntry), 'report.txt');
  session = await startEditorSession({
    env: { [REPORT_VARIABLE]: reportFile, VSCODE_OPTIONS: 'enable-smoke-test-driver' },
    // The host exits when the suite ends, taking the extension's status bar item with it: a short suite
    // (ENDPOINT_STUDIO_INTEGRATION_GREP) may be over before the page shows it.
    waitForExtension: false,
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
    code = await Promise.race([exited, outcomeFromReport(), timeout]);
  } catch (error) {
    await session?.workbench.screenshot('FAILED-integration--extension-host').catch(() => undefined);
    throw error;
  } finally {
    // The suite's own report (mocha's spec reporter) so a failure reads like a local run; everything the
    // workbench logged when the suite never started.
    console.log(report());
  }
  await session?.workbench.screenshot('integration--extension-host');
  assert.equal(code, 0, 'the integration suite failed; its report is above');
  assert.match(report(), /passing/, 'mocha reported nothing: did the suite load?');
});

/** The suite's own report (mocha's spec reporter), from its file or else the page's log; everything the
 * workbench logged when the suite never started. */
function report(): string {
  if (existsSync(reportFile)) return readFileSync(reportFile, 'utf8');
  const start = hostLog.findIndex((line) => line.includes(SUITE_BANNER));
  return hostLog.slice(Math.max(start, 0)).join('\n');
}
