/**
 * Entry point of dist/server.js. It runs the language server's bundle (dist/server-main.js) through a V8
 * code cache kept in the user's cache folder, so after the first start the bundle is neither parsed nor
 * compiled again: that halves the time from spawn to `initialize` (the editor waits on it at every start).
 * Any trouble with the cache falls back to a plain load; the cache only ever makes the start faster.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire, wrap } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

/** When to write the cache: after start-up and the server's idle warm-up, so the hot functions are in it. */
const SAVE_AFTER_MS = 4000;

const bundle = join(__dirname, 'server-main.js');

function cacheFileFor(): string {
  const folder = process.env.ENDPOINT_STUDIO_CACHE_DIR || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'endpoint-studio');
  const { size, mtimeMs } = statSync(bundle);
  // A new bundle or another V8 never reads an old cache (V8 would reject it anyway, after reading it).
  return join(folder, 'code-cache', `server-${process.versions.v8}-${size}-${Math.floor(mtimeMs)}.bin`);
}

function run(): void {
  let cacheFile: string | undefined;
  let cachedData: Buffer | undefined;
  try {
    cacheFile = cacheFileFor();
    if (existsSync(cacheFile)) cachedData = readFileSync(cacheFile);
  } catch {
    cacheFile = undefined;
  }
  const script = new Script(wrap(readFileSync(bundle, 'utf8')), { filename: bundle, cachedData });
  const main = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => void;
  const module = { exports: {}, filename: bundle, id: bundle, loaded: false };
  main.call(module.exports, module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  if (!cacheFile || (cachedData && !script.cachedDataRejected)) return;
  const target = cacheFile;
  setTimeout(() => {
    try {
      mkdirSync(dirname(target), { recursive: true });
      const temporary = `${target}.${process.pid}.tmp`;
      writeFileSync(temporary, script.createCachedData());
      renameSync(temporary, target);
      // Caches of earlier bundles or other Node versions will never be read again.
      for (const name of readdirSync(dirname(target))) {
        if (name.startsWith('server-') && name !== basename(target)) rmSync(join(dirname(target), name), { force: true });
      }
    } catch {
      // A read-only or full disk only costs the next start its speed-up.
    }
  }, SAVE_AFTER_MS).unref();
}

run();
