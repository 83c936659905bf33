/**
 * The request file `endpoint-studio run` sends: a job submission body as `schemas/request.schema.json` describes
 * it and the editor's `*.request.json` files hold it (`input`, optionally `webhook` and `policy`; `$schema` is
 * read by editors and not sent). It is checked before anything is sent, with the editor's rules and words, so a
 * file the editor accepts runs from the command line and one it marks is refused here for the same reason.
 */
import { readFile, stat } from 'node:fs/promises';
import type { JobRequest } from '../core/api';

export type RequestFileRead = { readonly ok: true; readonly request: JobRequest } | { readonly ok: false; readonly problems: string[] };

const MEMBERS = ['input', 'webhook', 'policy', '$schema'];
const POLICY_MEMBERS = ['executionTimeout', 'ttl'] as const;

/** The body to send, or why the file cannot be sent (unreadable, not JSON, not a job request). */
export async function readRequestFile(path: string): Promise<RequestFileRead> {
  let text: string;
  try {
    if (!(await stat(path)).isFile()) return { ok: false, problems: ['cannot read the request file: not a file'] };
    text = await readFile(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    return { ok: false, problems: [`cannot read the request file: ${reason}`] };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { ok: false, problems: [`the file is not valid JSON: ${(error as Error).message}`] };
  }
  return checkRequest(data);
}

function checkRequest(data: unknown): RequestFileRead {
  if (!isRecord(data)) return { ok: false, problems: ['$: a request is a JSON object with an "input" member'] };
  const problems: string[] = [];
  for (const key of Object.keys(data).filter((k) => !MEMBERS.includes(k))) {
    const hint = /endpoint/i.test(key) ? ' (the endpoint is the argument before the file, not in it)' : '';
    problems.push(`$.${key}: unknown member; a request holds only input, webhook and policy${hint}`);
  }
  if (data.input === null || data.input === undefined) problems.push('$.input: missing; the handler receives it as job["input"]');
  if (data.webhook !== undefined && (typeof data.webhook !== 'string' || !/^https?:\/\/\S+$/.test(data.webhook)))
    problems.push('$.webhook: must be an http(s) URL');
  const policy = data.policy === undefined ? {} : policyOf(data.policy, problems);
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    request: {
      input: data.input,
      ...(typeof data.webhook === 'string' ? { webhook: data.webhook } : {}),
      ...(Object.keys(policy).length > 0 ? { policy } : {}),
    },
  };
}

/** The policy's members, each a positive whole number of milliseconds; problems are added to `problems`. */
function policyOf(value: unknown, problems: string[]): NonNullable<JobRequest['policy']> {
  const policy: NonNullable<JobRequest['policy']> = {};
  if (!isRecord(value)) {
    problems.push('$.policy: must be an object');
    return policy;
  }
  for (const [key, member] of Object.entries(value)) {
    const known = POLICY_MEMBERS.find((name) => name === key);
    if (known === undefined) problems.push(`$.policy.${key}: unknown member; a policy holds executionTimeout and ttl`);
    else if (typeof member !== 'number' || !Number.isInteger(member) || member < 1)
      problems.push(`$.policy.${key}: must be a positive integer of milliseconds`);
    else policy[known] = member;
  }
  return policy;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
