/**
 * The product's name, version and repository, read from its manifest: the nearest package.json above this code,
 * which is the package's own beside dist/ once bundled (the extension's, or the npm package's) and the
 * repository's when run unbundled. The one source for `--version`, the version the language server and the
 * MCP server announce, and the links in SARIF output, so none of them can drift from the release.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

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
  cached ??= fromManifest(JSON.parse(readFileSync(manifestPath(), 'utf8')) as Manifest);
  return cached;
}

/** From dist/ one folder up; from core/util/ (unbundled) two. */
function manifestPath(): string {
  for (let folder = __dirname; ; folder = dirname(folder)) {
    const candidate = join(folder, 'package.json');
    if (existsSync(candidate)) return candidate;
    if (dirname(folder) === folder) throw new Error(`no package.json above ${__dirname}`);
  }
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
