// Runs the `vscode` API integration suite (test/integration) in a downloaded VS Code with @vscode/test-electron,
// the usual way outside this repository's CI (which has no internet to download VS Code and runs the same
// suite inside code-server instead: test/e2e/integration.test.ts).
//
// Usage (after `npm run build`):  node scripts/editor/run-electron-tests.mjs [--version 1.100.3]
// On a Linux machine without a display, wrap it in `xvfb-run -a`.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { runTests } from '@vscode/test-electron';
import { register } from 'tsx/cjs/api';

// The harness helpers are CommonJS TypeScript (they rely on __dirname): load them as such.
register();
const require = createRequire(import.meta.url);
const { bundleIntegrationSuite } = require('../../test/e2e/support/integrationBundle.ts');
const { EXAMPLES_DIR, REPO_ROOT } = require('./paths.ts');

const versionFlag = process.argv.indexOf('--version');
const version = versionFlag >= 0 ? process.argv[versionFlag + 1] : 'stable';

const extensionTestsPath = await bundleIntegrationSuite();
// The suite edits files; give it a private copy of the examples, as the code-server run does.
const workspace = mkdtempSync(join(tmpdir(), 'endpoint-studio-workspace-'));
cpSync(EXAMPLES_DIR, workspace, { recursive: true });
try {
  await runTests({
    version,
    extensionDevelopmentPath: REPO_ROOT,
    extensionTestsPath,
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
  });
} catch (error) {
  console.error(`integration suite failed: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
} finally {
  rmSync(workspace, { recursive: true, force: true });
}
