/**
 * `*.request.json` files: the body of a job submission (`input`, optional `webhook` and `policy`),
 * checked the way the service would check it before anything is sent. The endpoint is not part of
 * the file: the service would reject a member it does not know, so the choice of endpoint is kept
 * by the editor (a binding of the spec beside the file, or the endpoint last chosen for it).
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { findWorkspaceRoot, readBindings, specKey, type Binding } from '../../core/deploy';
import { checkJobRequest, parseJobRequest, type ParsedJobRequest } from '../../core/operations/jobRequest';
import { SPEC_FILE_SUFFIXES } from '../../core/protocol';

export const REQUEST_FILE_SUFFIX = '.request.json';
export const REQUEST_FILE_GLOB = `**/*${REQUEST_FILE_SUFFIX}`;

/** In the editor the endpoint comes from the spec beside the file or the one last chosen for it. */
const WORDING = { endpointHint: 'the endpoint is chosen in the editor, not in the file' };

export function isRequestFile(path: string): boolean {
  return path.endsWith(REQUEST_FILE_SUFFIX);
}

/** Reads a request file's text into the body to send, or the reasons it cannot be sent. */
export function parseRequestText(text: string): ParsedJobRequest {
  return parseJobRequest(text, WORDING);
}

export function checkRequest(data: unknown): ParsedJobRequest {
  return checkJobRequest(data, WORDING);
}

/** The specs a request file belongs to by name: `foo.request.json` → `foo.endpoint.{yaml,yml,json}` beside it. */
export function siblingSpecPaths(requestPath: string): string[] {
  const stem = basename(requestPath).slice(0, -REQUEST_FILE_SUFFIX.length);
  return SPEC_FILE_SUFFIXES.map((suffix) => join(dirname(requestPath), `${stem}${suffix}`));
}

/**
 * The endpoint the spec beside a request file was deployed to: its first bound document. Nothing
 * when there is no such spec, it is not deployed, or the binding file cannot be read.
 */
export function siblingBinding(requestPath: string, root?: string): (Binding & { specPath: string }) | undefined {
  for (const specPath of siblingSpecPaths(requestPath)) {
    if (!existsSync(specPath)) continue;
    const folder = root ?? findWorkspaceRoot(specPath);
    const read = readBindings(folder);
    if (!read.ok) return undefined;
    let key: string;
    try {
      key = specKey(folder, specPath);
    } catch {
      return undefined;
    }
    const documents = Object.hasOwn(read.store, key) ? read.store[key] : undefined;
    if (!documents) continue;
    const first = Object.keys(documents)
      .sort((a, b) => Number(a) - Number(b))
      .at(0);
    if (first !== undefined) return { ...documents[first], specPath };
  }
  return undefined;
}
