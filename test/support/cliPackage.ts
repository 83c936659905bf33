/**
 * The npm package of the command line as its users get it: `scripts/pack-cli.mjs` packs the current dist/ (the
 * same files `npm run pack:cli` packs after a production build), and npm installs it with nothing but the
 * tarball: an empty cache and `--offline`, so a bundle that needed anything else would fail here.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from './lspClient';

/** Packs into `destination`; returns the tarball's path. */
export function packCliTarball(destination: string): string {
  return execFileSync(process.execPath, [join(REPO_ROOT, 'scripts', 'pack-cli.mjs'), '--destination', destination], {
    encoding: 'utf8',
  }).trim();
}

/** npm's settings, as environment variables, for an install from the tarball alone: `cache` (an empty folder), no network. */
export function offlineNpmEnvironment(cache: string): Record<string, string> {
  return {
    NPM_CONFIG_CACHE: cache,
    NPM_CONFIG_OFFLINE: 'true',
    NPM_CONFIG_AUDIT: 'false',
    NPM_CONFIG_FUND: 'false',
    NPM_CONFIG_UPDATE_NOTIFIER: 'false',
  };
}
