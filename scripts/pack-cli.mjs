// Packs the command line, with the language server, MCP server and emulator it runs, as the npm package
// `endpoint-studio`: `npm run pack:cli` (a production build, then this) writes endpoint-studio-<version>.tgz.
// package.json is the VS Code extension's manifest and stays private; the package gets a manifest of its own,
// made here from package.json's facts (name, version, licence, repository, bin, Node version), so the two
// cannot drift, and carrying none of the editor's fields. The bundles need nothing at run time but Node:
// the package has no dependencies.
//
//   node scripts/pack-cli.mjs [--destination DIR]    packs dist/ as it is (the tests pack the development build)
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** What `endpoint-studio` runs: its loader and bundle, the language server's (`lsp`), and `mcp`'s and `emulator`'s. */
export const CLI_BUNDLES = ['dist/cli.js', 'dist/cli-main.js', 'dist/cli-tools.js', 'dist/server.js', 'dist/server-main.js'];

const DESCRIPTION =
  'Validate, plan and deploy serverless GPU/CPU endpoint specs (REST API v2) from the command line and CI; ' +
  'a language server for any editor, an MCP server for agents, and a local emulator of the service.';

const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));

/** `git+https://github.com/o/n.git` → `https://github.com/o/n`. */
const webAddress = (repository) =>
  (typeof repository === 'string' ? repository : repository.url).replace(/^git\+/, '').replace(/\.git$/, '');

/** The package's manifest, from the extension's: the facts they share, none of the editor's fields. */
export function cliManifest(extension) {
  const docs = `${webAddress(extension.repository)}/blob/main/docs/cli.md`;
  return {
    name: extension.name,
    version: extension.version,
    description: DESCRIPTION,
    keywords: [...extension.keywords, 'cli', 'ci', 'mcp'],
    homepage: docs,
    bugs: extension.bugs,
    repository: extension.repository,
    license: extension.license,
    bin: extension.bin,
    files: CLI_BUNDLES,
    engines: { node: extension.engines.node },
  };
}

/** docs/cli.md as the package's README, its links to other pages pointing into the repository. */
export function cliReadme(root, manifest) {
  const base = `${webAddress(manifest.repository)}/blob/main/`;
  return readFileSync(join(root, 'docs', 'cli.md'), 'utf8').replace(
    /\]\((?![a-z]+:|#)([^)\s]+)\)/g,
    (_, target) => `](${base}${posix.normalize(posix.join('docs', target))})`,
  );
}

/** Writes the tarball into `destination` and returns its path. */
export function packCli({ root = REPO_ROOT, destination = root } = {}) {
  const missing = CLI_BUNDLES.filter((file) => !existsSync(join(root, file)));
  if (missing.length > 0) throw new Error(`${missing.join(', ')} missing: run \`npm run build\` first`);
  const manifest = cliManifest(readJson(join(root, 'package.json')));
  const staging = mkdtempSync(join(tmpdir(), 'endpoint-studio-pack-'));
  try {
    mkdirSync(join(staging, 'dist'));
    for (const file of [...CLI_BUNDLES, 'LICENSE']) copyFileSync(join(root, file), join(staging, file));
    writeFileSync(join(staging, 'README.md'), cliReadme(root, manifest));
    writeFileSync(join(staging, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    mkdirSync(destination, { recursive: true });
    const output = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', resolve(destination)], {
      cwd: staging,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    return join(resolve(destination), JSON.parse(output)[0].filename);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { destination: { type: 'string' } } });
  try {
    process.stdout.write(`${packCli({ destination: values.destination })}\n`);
  } catch (error) {
    console.error(`pack:cli failed: ${error.message}`);
    process.exit(1);
  }
}
