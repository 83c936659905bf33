/**
 * Where a spec file's bindings live and how one is recorded, shared by deploy, adopt and bind so a
 * binding is written the same way whichever use case makes it.
 */
import type { Endpoint } from '../api';
import {
  findWorkspaceRoot,
  getBinding,
  readBindings,
  specKey,
  succeedingRelease,
  updateBindings,
  withBinding,
  withoutBinding,
  type Binding,
  type DeployedRelease,
} from '../deploy/bindings';

/** A spec file's place in its workspace: the root whose `.endpoint-studio/` holds its bindings, and its key there. */
interface SpecLocation {
  readonly root: string;
  readonly key: string;
}

/** One document of a spec file. */
export interface SpecDocumentRef extends SpecLocation {
  readonly documentIndex: number;
}

export type SpecBindingsResult =
  | { readonly ok: true; readonly location: SpecLocation; binding(documentIndex: number): Binding | undefined }
  | { readonly ok: false; readonly location?: SpecLocation; readonly error: string };

/** `root` is the editor's workspace folder; without it, the nearest folder with `.endpoint-studio/` or `.git`. */
export function readSpecBindings(specPath: string, root: string = findWorkspaceRoot(specPath)): SpecBindingsResult {
  let location: SpecLocation;
  try {
    location = { root, key: specKey(root, specPath) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
  const read = readBindings(root);
  if (!read.ok) return { ok: false, location, error: read.error };
  return { ok: true, location, binding: (documentIndex) => getBinding(read.store, location.key, documentIndex) };
}

export type SaveBindingResult = { readonly saved: true; readonly path: string } | { readonly saved: false; readonly error: string };

/**
 * Records that the document deploys to `endpoint`, so the next deploy updates it; with the release a deploy made,
 * so the next plan tells a spec edit from a change made outside.
 */
export function saveBinding(
  ref: SpecDocumentRef,
  endpoint: Pick<Endpoint, 'id' | 'name'>,
  release?: DeployedRelease,
  now: Date = new Date(),
): SaveBindingResult {
  const binding: Binding = {
    endpointId: endpoint.id,
    endpointName: endpoint.name,
    deployedAt: now.toISOString(),
    ...(release ? { release } : {}),
  };
  const written = updateBindings(ref.root, (store) => withBinding(store, ref.key, ref.documentIndex, binding));
  return written.ok ? { saved: true, path: written.path } : { saved: false, error: written.error };
}

/** Forgets the document's binding (its endpoint was deleted elsewhere). */
export function forgetBinding(ref: SpecDocumentRef): SaveBindingResult {
  const written = updateBindings(ref.root, (store) => withoutBinding(store, ref.key, ref.documentIndex));
  return written.ok ? { saved: true, path: written.path } : { saved: false, error: written.error };
}

/**
 * Records `release` as the last one on every binding of the endpoint in `root` (a rollback went back to it);
 * undefined, and nothing written, when no spec there is bound to it.
 */
export function recordRelease(root: string, endpointId: string, release: DeployedRelease): SaveBindingResult | undefined {
  return rewriteBindings(
    root,
    (binding) => binding.endpointId === endpointId,
    (binding) => ({ ...binding, release: succeedingRelease(binding.release, release) }),
  );
}

/**
 * Adds what was learnt about release `version` of an endpoint (how long it took to serve, its smoke job) to every
 * binding that recorded that release; a binding that has moved on to another release is left as it is. Undefined
 * when no binding recorded it.
 */
export function noteOnRelease(
  root: string,
  endpointId: string,
  version: number,
  note: Pick<DeployedRelease, 'readiness' | 'smoke'>,
): SaveBindingResult | undefined {
  return rewriteBindings(
    root,
    (binding) => binding.endpointId === endpointId && binding.release?.version === version,
    (binding) => (binding.release ? { ...binding, release: { ...binding.release, ...note } } : binding),
  );
}

/** Rewrites the bindings that match, in place and order; undefined, and nothing written, when none does. */
function rewriteBindings(
  root: string,
  matches: (binding: Binding) => boolean,
  change: (binding: Binding) => Binding,
): SaveBindingResult | undefined {
  const read = readBindings(root);
  if (!read.ok || !Object.values(read.store).some((documents) => Object.values(documents).some(matches))) return undefined;
  const written = updateBindings(root, (store) =>
    Object.fromEntries(
      Object.entries(store).map(([key, documents]) => [
        key,
        Object.fromEntries(Object.entries(documents).map(([index, binding]) => [index, matches(binding) ? change(binding) : binding])),
      ]),
    ),
  );
  return written.ok ? { saved: true, path: written.path } : { saved: false, error: written.error };
}
