/**
 * Bundles test/integration (index.ts and its *.test.ts suites) into plain CommonJS that an extension host can
 * load: `vscode` is the host's, and `mocha` stays external so the suites and the runner share one instance
 * (mocha hands `suite`/`test` to files it loads through its own module exports).
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { OUTPUT_DIR, REPO_ROOT } from '../../../scripts/editor/paths';

export const INTEGRATION_SOURCE_DIR = join(REPO_ROOT, 'test', 'integration');
/** Inside the repository so that `require('mocha')` resolves to node_modules from the bundle. */
export const INTEGRATION_BUNDLE_DIR = join(OUTPUT_DIR, 'integration');

export async function bundleIntegrationSuite(): Promise<string> {
  rmSync(INTEGRATION_BUNDLE_DIR, { recursive: true, force: true });
  const entryPoints = readdirSync(INTEGRATION_SOURCE_DIR)
    .filter((f) => f === 'index.ts' || f.endsWith('.test.ts'))
    .map((f) => join(INTEGRATION_SOURCE_DIR, f));
  await esbuild.build({
    entryPoints,
    outdir: INTEGRATION_BUNDLE_DIR,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: 'inline',
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
  });
  return join(INTEGRATION_BUNDLE_DIR, 'index.js');
}
