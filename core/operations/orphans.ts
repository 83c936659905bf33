/**
 * What deleting a spec leaves behind. The bindings file still names the endpoint the spec deployed to, and that
 * endpoint keeps running and billing, while nothing in the repository says so any more. A binding is left behind
 * when its spec file is gone, or no longer holds the document the binding names. Finding them reads the disk
 * only; a binding is forgotten, or its endpoint deleted, only when a front-end asks for that one.
 */
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ApiError, type ApiClient } from '../api';
import { readBindings, updateBindings, withoutBinding, type BindingStore } from '../deploy/bindings';
import { parseSpecText } from '../endpointSpec/parse';
import { specFormatOf } from '../protocol';

export interface OrphanedBinding {
  /** The spec's path relative to the root, as the bindings file keys it. */
  readonly key: string;
  readonly documentIndex: number;
  readonly endpointId: string;
  readonly endpointName: string;
  /** ISO 8601 time of the last deploy, as the binding records it. */
  readonly deployedAt: string;
  /** `file-gone`: nothing at the key's path; `document-gone`: the file holds fewer documents than that now. */
  readonly reason: 'file-gone' | 'document-gone';
}

export type OrphanedBindingsResult =
  | { readonly ok: true; readonly root: string; readonly orphans: readonly OrphanedBinding[] }
  | { readonly ok: false; readonly root: string; readonly error: string };

/** Whether a spec file is there, and how many documents it holds; `unknown` when it is there but cannot be read. */
type SpecPresence = 'gone' | 'unknown' | { readonly documents: number };

/**
 * The bindings under `root` whose spec is gone, in the file's order. With `folders` (paths inside the root), only
 * those of specs under one of them, subfolders included. A file that is there but cannot be read is never called gone.
 */
export function orphanedBindings(root: string, folders?: readonly string[]): OrphanedBindingsResult {
  const read = readBindings(root);
  if (!read.ok) return { ok: false, root, error: read.error };
  const prefixes = folders?.flatMap((folder) => folderKey(root, folder) ?? []);
  const within = (key: string): boolean => !prefixes || prefixes.some((prefix) => prefix === '' || key.startsWith(`${prefix}/`));
  return { ok: true, root, orphans: orphansIn(root, read.store, within) };
}

/** Only the spec files `within` keeps are looked at: a folder's listing reads none outside it. */
function orphansIn(root: string, store: BindingStore, within: (key: string) => boolean = () => true): OrphanedBinding[] {
  return Object.entries(store).flatMap(([key, documents]) => {
    if (!within(key)) return [];
    const presence = specPresence(root, key);
    return Object.entries(documents).flatMap(([index, binding]): OrphanedBinding[] => {
      const reason = orphanReason(presence, Number(index));
      if (reason === undefined) return [];
      const { endpointId, endpointName, deployedAt } = binding;
      return [{ key, documentIndex: Number(index), endpointId, endpointName, deployedAt, reason }];
    });
  });
}

function orphanReason(presence: SpecPresence, documentIndex: number): OrphanedBinding['reason'] | undefined {
  if (presence === 'gone') return 'file-gone';
  if (presence === 'unknown') return undefined;
  return documentIndex >= presence.documents ? 'document-gone' : undefined;
}

/** The folder's key prefix (`''` for the root itself); undefined for a folder outside the root. */
function folderKey(root: string, folder: string): string | undefined {
  const rel = relative(resolve(root), resolve(folder));
  if (rel.startsWith('..') || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
}

/** Counted the way deploy numbers documents: by the spec engine's own parse. */
function specPresence(root: string, key: string): SpecPresence {
  const path = join(root, ...key.split('/'));
  let text: string;
  try {
    if (!statSync(path).isFile()) return 'gone';
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'gone' : 'unknown';
  }
  return { documents: parseSpecText(text, specFormatOf(path)).length };
}

export type ForgetOrphanResult =
  { readonly forgotten: true; readonly path: string } | { readonly forgotten: false; readonly error: string };

/**
 * Removes one binding left behind, and nothing else: the endpoint keeps running. Refused when the spec document is
 * there again (restored since it was listed), since forgetting it would make its next deploy create a duplicate.
 */
export function forgetOrphan(root: string, key: string, documentIndex: number): ForgetOrphanResult {
  const reason = orphanReason(specPresence(root, key), documentIndex);
  if (reason === undefined) return { forgotten: false, error: `not forgotten: ${key} document ${documentIndex} is not left behind` };
  const written = updateBindings(root, (store) => withoutBinding(store, key, documentIndex));
  return written.ok ? { forgotten: true, path: written.path } : { forgotten: false, error: written.error };
}

export interface DeleteOrphanedEndpointInput {
  readonly client: ApiClient;
  readonly root: string;
  readonly endpointId: string;
}

export type DeleteOrphanedEndpointResult =
  | {
      readonly ok: true;
      /** `already-gone`: the service answered 404, so it had been deleted elsewhere. */
      readonly outcome: 'deleted' | 'already-gone';
      /** The bindings forgotten after it: every one left behind that named the endpoint. */
      readonly forgotten: readonly OrphanedBinding[];
      /** Set when the endpoint is gone but its bindings could not be written away. */
      readonly forgetError?: string;
    }
  | { readonly ok: false; readonly code: 'bindings-unreadable' | 'not-left-behind' | 'still-bound' | 'api-error'; readonly error: string };

/**
 * Deletes an endpoint only a binding left behind still names, then forgets every such binding. Refused for an
 * endpoint a spec that is still there is bound to: it is not left behind, whatever else names it. Irreversible on
 * the service; the front-end confirms first.
 */
export async function deleteOrphanedEndpoint(input: DeleteOrphanedEndpointInput): Promise<DeleteOrphanedEndpointResult> {
  const { client, root, endpointId } = input;
  const read = readBindings(root);
  if (!read.ok) return { ok: false, code: 'bindings-unreadable', error: read.error };
  const orphans = orphansIn(root, read.store).filter((orphan) => orphan.endpointId === endpointId);
  if (orphans.length === 0) return { ok: false, code: 'not-left-behind', error: `no binding left behind names endpoint ${endpointId}` };
  const kept = boundElsewhere(read.store, orphans, endpointId);
  if (kept !== undefined) return { ok: false, code: 'still-bound', error: `endpoint ${endpointId} is still bound to ${kept}` };
  let outcome: 'deleted' | 'already-gone' = 'deleted';
  try {
    await client.serverless.delete(endpointId);
  } catch (error) {
    if (!(error instanceof ApiError && error.notFound))
      return { ok: false, code: 'api-error', error: client.redact(error instanceof Error ? error.message : String(error)) };
    outcome = 'already-gone';
  }
  const written = updateBindings(root, (store) => orphans.reduce((left, o) => withoutBinding(left, o.key, o.documentIndex), store));
  return { ok: true, outcome, forgotten: orphans, ...(written.ok ? {} : { forgetError: written.error }) };
}

/** `specs/a.endpoint.yaml document 0` when a binding that is not left behind names the endpoint. */
function boundElsewhere(store: BindingStore, orphans: readonly OrphanedBinding[], endpointId: string): string | undefined {
  for (const [key, documents] of Object.entries(store))
    for (const [index, binding] of Object.entries(documents)) {
      const orphaned = orphans.some((o) => o.key === key && o.documentIndex === Number(index));
      if (binding.endpointId === endpointId && !orphaned) return `${key} document ${index}`;
    }
  return undefined;
}
