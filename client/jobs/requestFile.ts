/**
 * `*.request.json` files: the body of a job submission (`input`, optional `webhook` and `policy`),
 * checked the way the service would check it before anything is sent. The endpoint is not part of
 * the file: the service would reject a member it does not know, so the choice of endpoint is kept
 * by the editor (a binding of the spec beside the file, or the endpoint last chosen for it).
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { JobRequest } from '../../core/api';
import { findWorkspaceRoot, readBindings, specKey, type Binding } from '../../core/deploy';
import { SPEC_FILE_SUFFIXES } from '../../core/protocol';

export const REQUEST_FILE_SUFFIX = '.request.json';
export const REQUEST_FILE_GLOB = `**/*${REQUEST_FILE_SUFFIX}`;
const POLICY_MEMBERS = ['executionTimeout', 'ttl'];

export type ParsedRequest = { ok: true; request: JobRequest } | { ok: false; problems: string[] };

export function isRequestFile(path: string): boolean {
  return path.endsWith(REQUEST_FILE_SUFFIX);
}

/** Reads a request file's text into the body to send, or the reasons it cannot be sent. */
export function parseRequestText(text: string): ParsedRequest {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { ok: false, problems: [`the file is not valid JSON: ${(error as Error).message}`] };
  }
  return checkRequest(data);
}

/**
 * Checks a submission body. `$schema` is allowed in the file (editors read it) but is not sent;
 * any other unknown member is refused here rather than by the service.
 */
export function checkRequest(data: unknown): ParsedRequest {
  if (!isRecord(data)) return { ok: false, problems: ['$: a request is a JSON object with an "input" member'] };
  const problems: string[] = [];
  for (const key of Object.keys(data)) {
    if (!['input', 'webhook', 'policy', '$schema'].includes(key)) {
      const hint = /endpoint/i.test(key) ? ' (the endpoint is chosen in the editor, not in the file)' : '';
      problems.push(`$.${key}: unknown member; a request holds only input, webhook and policy${hint}`);
    }
  }
  if (!('input' in data) || data.input === null || data.input === undefined)
    problems.push('$.input: missing; the handler receives it as job["input"]');
  if (data.webhook !== undefined && (typeof data.webhook !== 'string' || !/^https?:\/\/\S+$/.test(data.webhook)))
    problems.push('$.webhook: must be an http(s) URL');
  let policy: JobRequest['policy'];
  if (data.policy !== undefined) {
    if (!isRecord(data.policy)) problems.push('$.policy: must be an object');
    else {
      policy = {};
      for (const [key, value] of Object.entries(data.policy)) {
        if (!POLICY_MEMBERS.includes(key)) problems.push(`$.policy.${key}: unknown member; a policy holds executionTimeout and ttl`);
        else if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
          problems.push(`$.policy.${key}: must be a positive integer of milliseconds`);
        else policy[key as 'executionTimeout' | 'ttl'] = value;
      }
    }
  }
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    request: {
      input: data.input,
      ...(typeof data.webhook === 'string' ? { webhook: data.webhook } : {}),
      ...(policy && Object.keys(policy).length > 0 ? { policy } : {}),
    },
  };
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
