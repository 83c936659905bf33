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
 * A module a bundle imports only when it needs it, built as a bundle of its own beside it: the import of
 * `specifier` reads `dist/<bundle>.js` instead. cli/main.ts imports `./tools.js` (mcp, emulator) this way, so
 * the commands run most (validate) never read the MCP SDK, zod or the emulator; client/extension.ts imports
 * `./features.js` this way, so the editor reads only the language client before the server starts.
 */
const apart = (specifier, bundle) => ({
  name: `${bundle}-apart`,
  setup(build) {
    const filter = new RegExp(`^${specifier.replace(/[./]/g, '\\$&')}$`);
    build.onResolve({ filter }, () => ({ path: bundle, namespace: 'apart' }));
    // A plain require of the sibling file: the CLI's bundle runs in a vm.Script (the code cache), where import() cannot.
    build.onLoad({ filter: /.*/, namespace: 'apart' }, () => ({
      contents: `module.exports = require(require('node:path').join(__dirname, '${bundle}.js'));`,
      loader: 'js',
    }));
  },
});

const builds = [
  { entryPoints: { client: 'client/extension.ts' }, plugins: [apart('./features.js', 'client-features')], metafile: true },
  { entryPoints: { 'client-features': 'client/features.ts' }, metafile: true },
  // dist/server.js is a small loader that runs dist/server-main.js with a V8 code cache (core/util/codeCache.ts).
  { entryPoints: { server: 'server/node/load.ts' } },
  { entryPoints: { 'server-main': 'server/node/main.ts' } },
  // Likewise dist/cli.js (the `endpoint-studio` command) runs dist/cli-main.js (cli/load.ts).
  { entryPoints: { cli: 'cli/load.ts' }, banner: { js: `#!/usr/bin/env node\n${common.banner.js}` } },
  { entryPoints: { 'cli-main': 'cli/main.ts' }, plugins: [apart('./tools.js', 'cli-tools')] },
  { entryPoints: { 'cli-tools': 'cli/tools.ts' } },
];

const contexts = await Promise.all(builds.map((b) => esbuild.context({ ...common, ...b, outdir: 'dist' })));
if (watch) {
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  const results = await Promise.all(contexts.map((c) => c.rebuild()));
  await Promise.all(contexts.map((c) => c.dispose()));
  checkClientBundlesApart(results[0].metafile, results[1].metafile);
}

/**
 * What the extension's two bundles may both carry: modules without state or classes whose identity matters.
 * Anything else in both would exist twice at run time (a second ApiError class that `instanceof` misses, a
 * second copy of a module's state), so the build fails until that module reaches only one of them.
 */
function checkClientBundlesApart(startup, features) {
  const STATELESS = [
    /^core\/protocol\//,
    /^core\/api\/config\.ts$/,
    /^client\/auth\/profiles\.ts$/,
    /^client\/walkthrough\.ts$/,
    /node_modules\/vscode-languageserver-textdocument\//,
  ];
  const inputs = (metafile) => new Set(Object.values(metafile.outputs).flatMap((output) => Object.keys(output.inputs)));
  const inFeatures = inputs(features);
  const twice = [...inputs(startup)].filter((input) => inFeatures.has(input) && !STATELESS.some((pattern) => pattern.test(input)));
  if (twice.length > 0) {
    console.error(`build failed: dist/client.js and dist/client-features.js both carry ${twice.join(', ')}`);
    process.exit(1);
  }
}
