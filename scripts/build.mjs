// Bundles the extension client, the language server and the CLI into dist/.
import { readFileSync } from 'node:fs';
import * as esbuild from 'esbuild';
import { OUTPUT as VALIDATORS, generateValidators } from './generate-validators.mjs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  logLevel: 'info',
  // The language server and CLI must not carry the editor API; only the client sees `vscode`.
  external: ['vscode'],
  // Prefer ESM entry points: jsonc-parser's UMD build hides its requires from the bundler.
  mainFields: ['module', 'main'],
  // Some dependencies ship ESM that reads import.meta.url; give it the bundle's own URL under CJS.
  define: { 'import.meta.url': '__bundleUrl' },
  banner: { js: "const __bundleUrl = require('url').pathToFileURL(__filename).href;" },
};

// The bundles must never disagree with the schemas. The build only checks: were it to regenerate the file,
// the test comparing the committed validators with the schemas could never fail.
const STALE_VALIDATORS = 'generated validators are out of date: run `npm run generate`';
if (readFileSync(VALIDATORS, 'utf8') !== generateValidators()) {
  // Watching keeps going: the bundles follow once `npm run generate` rewrites the file.
  if (!watch) {
    console.error(`build failed: ${STALE_VALIDATORS}`);
    process.exit(1);
  }
  console.warn(`warning: ${STALE_VALIDATORS}`);
}

/**
 * cli/main.ts imports `./tools.js` (mcp, emulator) only when one of them runs; in the bundle that import reads
 * dist/cli-tools.js, so the commands run most (validate) never read the MCP SDK, zod or the emulator.
 */
const toolsApart = {
  name: 'cli-tools-apart',
  setup(build) {
    build.onResolve({ filter: /^\.\/tools\.js$/ }, () => ({ path: 'cli-tools', namespace: 'cli-tools' }));
    // A plain require of the sibling file: the bundle runs in a vm.Script (the code cache), where import() cannot.
    build.onLoad({ filter: /.*/, namespace: 'cli-tools' }, () => ({
      contents: "module.exports = require(require('node:path').join(__dirname, 'cli-tools.js'));",
      loader: 'js',
    }));
  },
};

const builds = [
  { entryPoints: { client: 'client/extension.ts' } },
  // dist/server.js is a small loader that runs dist/server-main.js with a V8 code cache (core/util/codeCache.ts).
  { entryPoints: { server: 'server/node/load.ts' } },
  { entryPoints: { 'server-main': 'server/node/main.ts' } },
  // Likewise dist/cli.js (the `endpoint-studio` command) runs dist/cli-main.js (cli/load.ts).
  { entryPoints: { cli: 'cli/load.ts' }, banner: { js: `#!/usr/bin/env node\n${common.banner.js}` } },
  { entryPoints: { 'cli-main': 'cli/main.ts' }, plugins: [toolsApart] },
  { entryPoints: { 'cli-tools': 'cli/tools.ts' } },
];

const contexts = await Promise.all(builds.map((b) => esbuild.context({ ...common, ...b, outdir: 'dist' })));
if (watch) {
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  await Promise.all(contexts.map((c) => c.rebuild()));
  await Promise.all(contexts.map((c) => c.dispose()));
}
