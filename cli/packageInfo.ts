/**
 * The command's own name, version and repository (core/util/packageInfo.ts reads them from the manifest), for
 * `--version` and the links in SARIF output.
 */
import type { PackageInfo } from '../core/util/packageInfo';

export { packageInfo, type PackageInfo } from '../core/util/packageInfo';

/** Where docs/rules.md explains a code. */
export function ruleHelpUrl(info: PackageInfo, code: string): string {
  return `${info.repositoryUrl}/blob/main/docs/rules.md#${code}`;
}
