/** Bearer authentication with the two keys the emulator knows: full access and read-only. */
import type { IncomingMessage } from 'node:http';
import { ProblemError } from './http/problems';

/**
 * The documented development key. It is deliberately unlike a real service key so it can never
 * be mistaken for (or scanned as) a leaked credential.
 */
export const DEFAULT_DEV_API_KEY = 'es_dev_local_emulator_key';

export type Access = 'write' | 'read';

export interface Caller {
  readonly key: string;
  readonly access: Access;
}

export interface KeyRing {
  readonly apiKey: string;
  readonly readOnlyKey?: string;
}

/** 401 carries no rate-limit headers: the caller is not identified, so there is no quota to report. */
export function authenticate(req: IncomingMessage, keys: KeyRing): Caller {
  const header = req.headers.authorization;
  if (header === undefined || header.trim() === '') throw new ProblemError(401, 'missing bearer token');
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header);
  if (!match) throw new ProblemError(401, 'malformed Authorization header: expected "Bearer <API_KEY>"');
  const token = match[1];
  if (token === keys.apiKey) return { key: token, access: 'write' };
  if (keys.readOnlyKey !== undefined && token === keys.readOnlyKey) return { key: token, access: 'read' };
  throw new ProblemError(401, 'invalid bearer token');
}

export function requireWrite(caller: Caller, method: string): void {
  if (caller.access === 'read' && method !== 'GET' && method !== 'HEAD') {
    throw new ProblemError(403, 'access denied: this API key is read-only and cannot change resources');
  }
}
