/**
 * The command's own name, version and repository, read from the manifest one folder above this code: the
 * package's package.json beside dist/ when installed (and in the repository, the repository's), or the
 * repository's when run unbundled from cli/. One source for `--version` and the links in SARIF output, so
 * neither can drift from the release.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface PackageInfo {
  readonly name: string;
  readonly version: string;
  /** The repository's web address, such as https://github.com/owner/name. */
  readonly repositoryUrl: string;
}

interface Manifest {
  readonly name?: unknown;
  readonly version?: unknown;
  readonly repository?: unknown;
}

let cached: PackageInfo | undefined;

export function packageInfo(): PackageInfo {
  cached ??= fromManifest(JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as Manifest);
  return cached;
}

function fromManifest(manifest: Manifest): PackageInfo {
  const repository = manifest.repository;
  const url = typeof repository === 'string' ? repository : (repository as { url?: unknown } | undefined)?.url;
  return {
    name: String(manifest.name),
    version: String(manifest.version),
    repositoryUrl: typeof url === 'string' ? webAddress(url) : '',
  };
}

/** `git+https://github.com/o/n.git` → `https://github.com/o/n`. */
const webAddress = (url: string): string => url.replace(/^git\+/, '').replace(/\.git$/, '');

/** Where docs/rules.md explains a code. */
export function ruleHelpUrl(info: PackageInfo, code: string): string {
  return `${info.repositoryUrl}/blob/main/docs/rules.md#${code}`;
}
