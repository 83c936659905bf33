/**
 * The request file `endpoint-studio run` sends: a job submission body as `schemas/request.schema.json` describes
 * it and the editor's `*.request.json` files hold it, checked before anything is sent by the same rules as the
 * editor's (core/operations/jobRequest.ts).
 */
import { readFile, stat } from 'node:fs/promises';
import { parseJobRequest, type ParsedJobRequest } from '../core/operations/jobRequest';
import { unreadableReason } from './inputs';

/** The body to send, or why the file cannot be sent (unreadable, not JSON, not a job request). */
export async function readRequestFile(path: string): Promise<ParsedJobRequest> {
  let text: string;
  try {
    if (!(await stat(path)).isFile()) return { ok: false, problems: ['cannot read the request file: not a file'] };
    text = await readFile(path, 'utf8');
  } catch (error) {
    return { ok: false, problems: [`cannot read the request file: ${unreadableReason(error)}`] };
  }
  return parseJobRequest(text, { endpointHint: 'the endpoint is the argument before the file, not in it' });
}
