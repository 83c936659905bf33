/**
 * Environments in the editor. An open overlay is checked merged into its base (the base's text from its open
 * editor, or from disk), and a base shows what each of its overlays on disk breaks, as problems that say the
 * environment and point at the overlay. What each check read from other files is kept as its links, so an edit
 * to one file re-checks the open files linked to it.
 */
import { pathToFileURL } from 'node:url';
import { dirname } from 'node:path';
import type { SpecDiagnostic } from '../core/endpointSpec/check';
import { overlayPatch } from '../core/endpointSpec/overlay';
import type { SpecFormat } from '../core/endpointSpec/tree';
import type { ValidationContext } from '../core/endpointSpec/validate';
import { checkOverlayFile, overlaysOf, overlayTarget, readSpecFromDisk, type ReadSpecText } from '../core/environments/overlays';
import type { CheckResult } from './languageService';
import type { EnvironmentValues } from './languageService/environments';
import { filePathOf } from './uris';

/** One environment of a base: the overlay, its patch and the body it deploys. */
export interface EnvironmentOfBase extends EnvironmentValues {
  readonly path: string;
}

/** What a check read from other files: for an overlay its base, for a base its overlays. */
export interface EnvironmentLinks {
  readonly basePath?: string;
  readonly overlays: readonly EnvironmentOfBase[];
}

const NO_LINKS: EnvironmentLinks = { overlays: [] };

export interface SpecSource {
  readonly uri: string;
  readonly text: string;
  readonly format: SpecFormat;
}

/**
 * The spec's problems with its environments: `checkAlone` checks the text by itself (a base, or any spec
 * outside a file); `openText` gives an open editor's text by file URI.
 */
export function checkWithEnvironments(
  spec: SpecSource,
  openText: (uri: string) => string | undefined,
  roots: readonly string[],
  context: ValidationContext,
  checkAlone: () => CheckResult,
): { result: CheckResult; links: EnvironmentLinks } {
  const path = filePathOf(spec.uri);
  if (path === undefined) return { result: checkAlone(), links: NO_LINKS };
  const read: ReadSpecText = (other) => openText(pathToFileURL(other).href) ?? readSpecFromDisk(other);
  const within = roots.length > 0 ? roots : [dirname(path)];
  if (overlayTarget(spec.text, spec.format) !== undefined) {
    const checked = checkOverlayFile({ path, text: spec.text, format: spec.format }, read, within, context);
    const result = { documents: checked.documents, diagnostics: byPosition(checked.overlay) };
    return { result, links: { ...(checked.basePath ? { basePath: checked.basePath } : {}), overlays: [] } };
  }
  const alone = checkAlone();
  const overlays = overlaysOf(path, read);
  if (overlays.length === 0) return { result: alone, links: NO_LINKS };
  const diagnostics = [...alone.diagnostics];
  const environments = overlays.map(({ path: overlayPath, environment }): EnvironmentOfBase => {
    const text = read(overlayPath) ?? '';
    const checked = checkOverlayFile({ path: overlayPath, text, format: spec.format }, read, within, context);
    diagnostics.push(...checked.base);
    const patch = overlayPatch(checked.documents.at(0)?.data);
    return { path: overlayPath, environment, patch, ...(checked.merged ? { merged: checked.merged } : {}) };
  });
  return { result: { documents: alone.documents, diagnostics: byPosition(diagnostics) }, links: { overlays: environments } };
}

/** Whether a check with these links read the file at `uri`. */
export function linksTo(links: EnvironmentLinks, uri: string): boolean {
  const path = filePathOf(uri);
  return path !== undefined && (links.basePath === path || links.overlays.some((overlay) => overlay.path === path));
}

function byPosition(diagnostics: SpecDiagnostic[]): SpecDiagnostic[] {
  return diagnostics.sort((a, b) => a.offset - b.offset || a.code.localeCompare(b.code));
}
