/**
 * A job submission body (`input`, optionally `webhook` and `policy`), as a `*.request.json` file holds it
 * and `schemas/request.schema.json` describes it, checked the way the service would check it before
 * anything is sent. The editor's request files and `endpoint-studio run` read it here, so a file one
 * accepts the other runs, and one it refuses the other refuses for the same reason. `$schema` is allowed
 * in the file (editors read it) but is not sent.
 */
import type { JobRequest } from '../api';
import { isRecord } from '../endpointSpec/ownData';

export type ParsedJobRequest = { readonly ok: true; readonly request: JobRequest } | { readonly ok: false; readonly problems: string[] };

export interface JobRequestWording {
  /** Where the endpoint is chosen instead, added to the problem of a member named like it. */
  readonly endpointHint: string;
}

const MEMBERS = ['input', 'webhook', 'policy', '$schema'];
const POLICY_MEMBERS = ['executionTimeout', 'ttl'] as const;

/** A request file's text as the body to send, or the reasons it cannot be sent. */
export function parseJobRequest(text: string, wording: JobRequestWording): ParsedJobRequest {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { ok: false, problems: [`the file is not valid JSON: ${(error as Error).message}`] };
  }
  return checkJobRequest(data, wording);
}

/** Any member the service does not know is refused here rather than by the service. */
export function checkJobRequest(data: unknown, wording: JobRequestWording): ParsedJobRequest {
  if (!isRecord(data)) return { ok: false, problems: ['$: a request is a JSON object with an "input" member'] };
  const problems: string[] = [];
  for (const key of Object.keys(data).filter((k) => !MEMBERS.includes(k))) {
    const hint = /endpoint/i.test(key) ? ` (${wording.endpointHint})` : '';
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
