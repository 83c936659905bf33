// Bundles the extension client, the language server and the CLI into dist/.
import * as esbuild from 'esbuild';

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
};

const builds = [
  { entryPoints: { client: 'client/extension.ts' } },
  { entryPoints: { server: 'server/node/main.ts' } },
  { entryPoints: { cli: 'cli/main.ts' }, banner: { js: '#!/usr/bin/env node' } },
];

const contexts = await Promise.all(builds.map((b) => esbuild.context({ ...common, ...b, outdir: 'dist' })));
if (watch) {
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  await Promise.all(contexts.map((c) => c.rebuild()));
  await Promise.all(contexts.map((c) => c.dispose()));
}
