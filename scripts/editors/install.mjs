// Installs the terminal editors test/editors drives (Neovim 0.10, Emacs 30, Helix 25) without touching the
// system: Debian 12's own Neovim and Emacs are too old, so the packages come from Debian 13 (trixie) and are
// unpacked with `dpkg-deb -x` into a git-ignored cache folder, never installed.
//
// The trixie index is read directly: InRelease checked with gpgv against the Debian archive keyring, Packages.gz
// against InRelease's SHA-256, each .deb against the index's. A dependency the system already satisfies (an
// installed package of that name at a fitting version) is taken from the system; every other one comes from
// trixie, recursively. Only libraries and the editors' own data are followed: tools (binutils, install-info),
// -dev packages and Emacs's Lisp sources (emacs-el) are never used by an editor at test time.
//
// The three editors need glibc >= 2.38 and bookworm has 2.36, so trixie's libc6 comes along too. It is never put
// in LD_LIBRARY_PATH, which every child process would inherit (the language server's Node would then load
// trixie's libc under bookworm's loader and crash): each editor runs under trixie's own loader with
// `--library-path`, which applies to that one process. bin/{nvim,emacs,hx} in the cache folder are the wrappers.
//
// A stamp records a finished install with the recipe's hash, so later runs only check.
// Usage: node scripts/editors/install.mjs [--force]       Env: EDITORS_CACHE_DIR (default .cache/editors)
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CACHE_DIR = resolve(process.env.EDITORS_CACHE_DIR ?? join(ROOT, '.cache', 'editors'));
const MIRROR = 'http://deb.debian.org/debian';
const SUITE = 'trixie';
const KEYRING = '/usr/share/keyrings/debian-archive-keyring.gpg';
const ROOT_PACKAGES = ['neovim', 'emacs-nox', 'hx'];
/** The wrappers in bin/. */
const EDITORS = ['nvim', 'emacs', 'hx'];
/** What an editor loads at run time: shared libraries, Lua modules, and the editors' own runtime files. */
const FOLLOWED = /^(lib|lua-|neovim-runtime$|emacs-(bin-)?common$)/;
const NEVER_FOLLOWED = /-(dev|doc)$/;
const LIB_DIR = 'usr/lib/x86_64-linux-gnu';
const LOADER = `${LIB_DIR}/ld-linux-x86-64.so.2`;
const STAMP = join(CACHE_DIR, '.install-complete');
const RECIPE_HASH = createHash('sha1')
  .update(readFileSync(fileURLToPath(import.meta.url)))
  .digest('hex')
  .slice(0, 12);

const log = (message) => console.log(`editors: ${message}`);

function fail(message) {
  console.error(`editors install failed: ${message}`);
  process.exit(1);
}

async function download(url) {
  const response = await fetch(url);
  if (!response.ok) fail(`${url}: HTTP ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}

const sha256 = (data) => createHash('sha256').update(data).digest('hex');

/** The suite's Packages index for amd64, its signature and checksums verified. */
async function readPackagesIndex(indexDir) {
  mkdirSync(indexDir, { recursive: true });
  const inReleasePath = join(indexDir, 'InRelease');
  writeFileSync(inReleasePath, await download(`${MIRROR}/dists/${SUITE}/InRelease`));
  const verified = spawnSync('gpgv', ['--keyring', KEYRING, '--output', '-', inReleasePath], { encoding: 'utf8' });
  if (verified.status !== 0) fail(`InRelease of ${SUITE} not signed by a key of ${KEYRING}:\n${verified.stderr}`);
  const wanted = 'main/binary-amd64/Packages.gz';
  const sha256Section = verified.stdout.split(/^SHA256:$/m)[1] ?? '';
  const line = sha256Section.split('\n').find((l) => l.trim().endsWith(` ${wanted}`));
  if (!line) fail(`InRelease lists no ${wanted}`);
  const packagesGz = await download(`${MIRROR}/dists/${SUITE}/${wanted}`);
  if (sha256(packagesGz) !== line.trim().split(/\s+/)[0]) fail(`${wanted}: checksum differs from InRelease`);
  return parsePackages(gunzipSync(packagesGz).toString('utf8'));
}

/** Package name -> its stanza's fields (the first stanza of a name wins), plus who provides each virtual name. */
function parsePackages(text) {
  const packages = new Map();
  const providers = new Map();
  for (const stanza of text.split(/\n\n+/)) {
    const fields = {};
    for (const [, key, value] of stanza.matchAll(/^([A-Za-z0-9-]+): (.*(?:\n .*)*)/gm)) fields[key] = value;
    if (!fields.Package || packages.has(fields.Package)) continue;
    packages.set(fields.Package, fields);
    for (const provided of parseRelations(fields.Provides ?? '').flat()) {
      if (!providers.has(provided.name)) providers.set(provided.name, fields.Package);
    }
  }
  return { packages, providers };
}

/** "a (>= 1) | b, c" -> [[{name a, op >=, version 1}, {name b}], [{name c}]] */
function parseRelations(field) {
  return field
    .split(',')
    .map((group) => group.trim())
    .filter(Boolean)
    .map((group) =>
      group.split('|').map((alternative) => {
        const match = /^([^\s(:]+)(?::\S+)?\s*(?:\(\s*([<>=]+)\s*([^)\s]+)\s*\))?/.exec(alternative.trim());
        return { name: match[1], op: match[2], version: match[3] };
      }),
    );
}

/** The packages installed on this system, name -> version (empty where there is no dpkg). */
function installedPackages() {
  const result = spawnSync('dpkg-query', ['-W', '-f', '${Package}\t${db:Status-Abbrev}\t${Version}\n'], { encoding: 'utf8' });
  const installed = new Map();
  for (const line of (result.stdout ?? '').split('\n')) {
    const [name, status, version] = line.split('\t');
    if (status?.startsWith('ii')) installed.set(name, version);
  }
  return installed;
}

const DPKG_OPERATORS = { '>=': 'ge', '<=': 'le', '=': 'eq', '>>': 'gt', '<<': 'lt' };

function satisfiedBy(installedVersion, { op, version }) {
  if (installedVersion === undefined) return false;
  if (!op) return true;
  return spawnSync('dpkg', ['--compare-versions', installedVersion, DPKG_OPERATORS[op], version]).status === 0;
}

/** The trixie packages to unpack: the roots and every followed dependency the system does not already satisfy. */
function resolvePackages({ packages, providers }) {
  const installed = installedPackages();
  const chosen = new Set();
  const queue = [...ROOT_PACKAGES];
  while (queue.length > 0) {
    const name = queue.shift();
    if (chosen.has(name)) continue;
    const fields = packages.get(name);
    if (!fields) fail(`${SUITE} has no package ${name}`);
    chosen.add(name);
    for (const group of parseRelations(`${fields['Pre-Depends'] ?? ''},${fields.Depends ?? ''}`)) {
      if (group.some((dep) => chosen.has(dep.name) || satisfiedBy(installed.get(dep.name), dep))) continue;
      const first = group[0];
      const real = packages.has(first.name) ? first.name : providers.get(first.name);
      if (!real) fail(`${name} depends on ${first.name}, which ${SUITE} does not have`);
      if (FOLLOWED.test(real) && !NEVER_FOLLOWED.test(real)) queue.push(real);
    }
  }
  return [...chosen].sort().map((name) => packages.get(name));
}

async function unpack(fields, debDir, treeDir) {
  const debPath = join(debDir, fields.Filename.split('/').pop());
  if (!existsSync(debPath) || sha256(readFileSync(debPath)) !== fields.SHA256) {
    const deb = await download(`${MIRROR}/${fields.Filename}`);
    if (sha256(deb) !== fields.SHA256) fail(`${fields.Filename}: checksum differs from the index`);
    writeFileSync(debPath, deb);
  }
  execFileSync('dpkg-deb', ['-x', debPath, treeDir]);
}

/** Every folder of the unpacked tree that holds shared libraries, for the loader's --library-path. */
function libraryDirs(treeDir) {
  const dirs = [];
  const walk = (dir) => {
    const entries = readdirSync(dir, { withFileTypes: true });
    if (entries.some((e) => !e.isDirectory() && /\.so(\.\d+)*$/.test(e.name))) dirs.push(relative(treeDir, dir));
    for (const entry of entries) if (entry.isDirectory()) walk(join(dir, entry.name));
  };
  walk(join(treeDir, LIB_DIR));
  // Plug-in folders (Lua modules, gconv) hold .so files loaded by path, not through the loader's search.
  return dirs.filter((dir) => !/\/(lua|gconv|emacs)(\/|$)/.test(dir));
}

/**
 * bin/<name>: runs the unpacked `program` under trixie's loader with `environment` set and `options` before the
 * caller's arguments ({tree} stands for the unpacked tree in both).
 */
function writeWrapper(name, program, { environment = {}, options = [] }, libraryPath) {
  const exports = Object.entries(environment)
    .map(([key, value]) => `export ${key}="${value.replaceAll('{tree}', '$tree')}"`)
    .join('\n');
  const script = `#!/bin/sh
# Written by scripts/editors/install.mjs: ${program} from Debian ${SUITE}, run under ${SUITE}'s loader.
tree="$(cd "$(dirname "$0")/../tree" && pwd)"
${exports}
exec "$tree/${LOADER}" --library-path "${libraryPath.map((dir) => `$tree/${dir}`).join(':')}" "$tree/${program}" ${options
    .map((option) => `"${option.replaceAll('{tree}', '$tree')}" `)
    .join('')}"$@"
`;
  const path = join(CACHE_DIR, 'bin', name);
  writeFileSync(path, script);
  chmodSync(path, 0o755);
}

function writeWrappers(treeDir) {
  mkdirSync(join(CACHE_DIR, 'bin'), { recursive: true });
  const libraryPath = libraryDirs(treeDir);
  writeWrapper('nvim', 'usr/bin/nvim', { environment: { VIMRUNTIME: '{tree}/usr/share/nvim/runtime' } }, libraryPath);
  writeWrapper('hx', 'usr/lib/hx/hx', { environment: { HELIX_RUNTIME: '{tree}/usr/lib/hx/runtime' } }, libraryPath);
  const version = readdirSync(join(treeDir, 'usr/share/emacs')).find((d) => /^\d+\.\d+$/.test(d));
  const share = `{tree}/usr/share/emacs/${version}`;
  const libexec = `usr/libexec/emacs/${version}/x86_64-linux-gnu`;
  // Emacs finds its dump file and data through paths built in at /usr; here they are given.
  const dumpFile = readdirSync(join(treeDir, libexec)).find((f) => f.endsWith('.pdmp'));
  if (!dumpFile) fail(`no Emacs dump file in ${libexec}`);
  const environment = {
    // Startup adds the folders each of these lists in its subdirs.el, as it does for the built-in load-path.
    EMACSLOADPATH: `${share}/site-lisp:{tree}/usr/share/emacs/site-lisp:${share}/lisp`,
    EMACSDATA: `${share}/etc`,
    EMACSDOC: `${share}/etc`,
    EMACSPATH: `{tree}/${libexec}`,
  };
  writeWrapper('emacs', 'usr/bin/emacs-nox', { environment, options: [`--dump-file={tree}/${libexec}/${dumpFile}`] }, libraryPath);
}

/** The first line of each editor's --version, or undefined if one does not run. */
function versions() {
  try {
    return EDITORS.map((name) => execFileSync(join(CACHE_DIR, 'bin', name), ['--version'], { encoding: 'utf8' }).split('\n')[0]);
  } catch {
    return undefined;
  }
}

/** A finished install of this recipe whose editors still start (a library the system took away would stop them). */
function ready() {
  if (!existsSync(STAMP) || JSON.parse(readFileSync(STAMP, 'utf8')).recipe !== RECIPE_HASH) return undefined;
  return versions();
}

function checkPrerequisites() {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    fail(`Debian's amd64 packages need Linux on x64, not ${process.platform} on ${process.arch}`);
  for (const command of ['dpkg-deb', 'gpgv']) {
    if (spawnSync(command, ['--version']).error) fail(`${command} is missing (Debian: apt-get install dpkg gpgv)`);
  }
  if (!existsSync(KEYRING)) fail(`${KEYRING} is missing (Debian: apt-get install debian-archive-keyring)`);
}

async function install() {
  const started = Date.now();
  const treeDir = join(CACHE_DIR, 'tree');
  const debDir = join(CACHE_DIR, 'debs');
  log(`installing Neovim, Emacs and Helix from Debian ${SUITE} into ${relative(ROOT, CACHE_DIR)}`);
  rmSync(treeDir, { recursive: true, force: true });
  rmSync(STAMP, { force: true });
  mkdirSync(treeDir, { recursive: true });
  mkdirSync(debDir, { recursive: true });
  const toUnpack = resolvePackages(await readPackagesIndex(join(CACHE_DIR, 'index')));
  log(`${toUnpack.length} packages: ${toUnpack.map((p) => p.Package).join(' ')}`);
  for (const fields of toUnpack) await unpack(fields, debDir, treeDir);
  writeWrappers(treeDir);
  const installed = versions();
  if (!installed) fail('an editor does not start; run its wrapper in bin/ to see why');
  log(installed.join(', '));
  const packages = toUnpack.map((p) => `${p.Package}=${p.Version}`);
  writeFileSync(STAMP, JSON.stringify({ recipe: RECIPE_HASH, suite: SUITE, packages }, null, 2) + '\n');
  log(`installed in ${Math.round((Date.now() - started) / 1000)} s`);
}

const installed = process.argv.includes('--force') ? undefined : ready();
if (installed) log(`ready in ${relative(ROOT, CACHE_DIR)}/bin: ${installed.join(', ')}`);
else {
  checkPrerequisites();
  await install();
}
