/**
 * The body a spec file deploys, found the way a deploy finds it (`checkSpec`: an overlay merged into its base on
 * disk) but with nothing from the service: no catalog, no key, no request. So `render` can run on any checkout,
 * and what it prints is what `plan` and `deploy` would send for the same files.
 */
import type { RenderedSpec } from '../deploy/renderBodies';
import type { SpecDiagnostic } from '../endpointSpec/check';
import { isRecord } from '../endpointSpec/ownData';
import { toServiceBody } from '../endpointSpec/validate';
import { hasErrors } from './checkSpec';
import { checkSpecFile } from './environments';

export interface RenderSpecInput {
  /** The spec file, as given (relative to `folder`, or absolute). */
  readonly path: string;
  readonly text: string;
  /** How the rendered document names the file. */
  readonly key: string;
  /** The current directory: a base may lie under it or in the spec's own workspace. */
  readonly folder: string;
}

export type RenderSpecResult =
  | { readonly ok: true; readonly spec: RenderedSpec }
  | {
      readonly ok: false;
      /** `spec-invalid` when a problem is an error, `no-spec` for a file that holds no spec at all. */
      readonly code: 'spec-invalid' | 'no-spec';
      readonly diagnostics: readonly SpecDiagnostic[];
      /** An overlay's problems that its base wrote, on the base's lines, where a person fixes them. */
      readonly inBase?: { readonly path: string; readonly diagnostics: readonly SpecDiagnostic[] };
    };

/** The file checked without a catalog, and the body each of its spec documents deploys; none while any has an error. */
export async function renderSpec(input: RenderSpecInput): Promise<RenderSpecResult> {
  const checked = await checkSpecFile(input.path, input.text, input.folder);
  const { diagnostics, overlay } = checked;
  const documents = checked.documents.filter((document) => document.isSpec);
  const bodies = documents.flatMap(({ index, body }) => (isRecord(body) ? [{ index, body: toServiceBody(body) }] : []));
  if (hasErrors(diagnostics) || bodies.length < documents.length) {
    const inBase = overlay?.baseDiagnostics.filter((d) => !d.setInOverlay).map(({ setInOverlay: _, ...d }) => d) ?? [];
    const basePath = overlay?.basePath;
    return {
      ok: false,
      code: 'spec-invalid',
      diagnostics,
      ...(basePath !== undefined && inBase.length > 0 ? { inBase: { path: basePath, diagnostics: inBase } } : {}),
    };
  }
  if (bodies.length === 0) return { ok: false, code: 'no-spec', diagnostics };
  const environment = overlay?.environment;
  return { ok: true, spec: { key: input.key, ...(environment !== undefined ? { environment } : {}), documents: bodies } };
}
