/**
 * Runs a bundle through a V8 code cache kept in the user's cache folder, so after the first run the bundle
 * is neither parsed nor compiled again: the language server answers `initialize` and the CLI starts in
 * well under half the time. Any trouble with the cache falls back to a plain load; it only ever saves time.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire, wrap } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { writeFileAtomicSync } from './atomicWrite';

export interface CodeCacheOptions {
  /** Names the cache files (`<name>-<v8>-<size>-<change time>.bin`). */
  readonly name: string;
  /** When to write a missing cache: after this many milliseconds (long-lived processes), or at exit. */
  readonly saveAfter: number | 'exit';
}

/** The user's cache folder: the code caches' and the catalog cache's (core/catalog/cacheFile.ts). */
export function defaultCacheDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return env.ENDPOINT_STUDIO_CACHE_DIR || join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'endpoint-studio');
}

function cacheFileFor(bundle: string, name: string): string {
  const folder = defaultCacheDir();
  const { size, mtimeMs, ctimeMs } = statSync(bundle);
  // A new bundle or another V8 never reads an old cache. V8 itself checks only the source's length, and npm
  // gives every file it installs the same mtime, so the change time (set by every write and every install)
  // tells two releases' bundles of one size apart.
  return join(folder, 'code-cache', `${name}-${process.versions.v8}-${size}-${Math.floor(Math.max(mtimeMs, ctimeMs))}.bin`);
}

/** Runs `bundle` as a CommonJS module, through the cache, and returns its exports. */
export function loadWithCodeCache(bundle: string, options: CodeCacheOptions): unknown {
  let cacheFile: string | undefined;
  let cachedData: Buffer | undefined;
  try {
    cacheFile = cacheFileFor(bundle, options.name);
    if (existsSync(cacheFile)) cachedData = readFileSync(cacheFile);
  } catch {
    cacheFile = undefined;
  }
  const script = new Script(wrap(readFileSync(bundle, 'utf8')), { filename: bundle, cachedData });
  const main = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: unknown,
    filename: string,
    dirname: string,
  ) => void;
  const module = { exports: {}, filename: bundle, id: bundle, loaded: false };
  if (cacheFile && (!cachedData || script.cachedDataRejected)) {
    const target = cacheFile;
    // Written after the code has run, so the functions compiled by then are in the cache too.
    const save = (): void => {
      writeCache(target, options.name, script.createCachedData());
    };
    if (options.saveAfter === 'exit') process.once('exit', save);
    else setTimeout(save, options.saveAfter).unref();
  }
  main.call(module.exports, module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  return module.exports;
}

function writeCache(target: string, name: string, data: Buffer): void {
  try {
    writeFileAtomicSync(target, data);
    // Caches of earlier bundles or other Node versions will never be read again.
    for (const file of readdirSync(dirname(target))) {
      if (file.startsWith(`${name}-`) && file !== basename(target)) rmSync(join(dirname(target), file), { force: true });
    }
  } catch {
    // A read-only or full disk only costs the next start its speed-up.
  }
}
