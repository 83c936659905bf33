/**
 * Fault injection for tests: added latency, 5xx answers, dropped connections and forced 429s,
 * optionally only for some path prefixes and only for the next `count` requests. Off unless set.
 */
import { isRecord } from '../core/endpointSpec/ownData';
import { ProblemError } from './http/problems';
import type { Random } from '../core/util/seededRandom';

export interface FaultOptions {
  /** Delay before the request is handled, in real milliseconds. */
  latencyMs?: number;
  /** Probability (0..1) of answering `status5xx` instead of handling the request. */
  errorRate?: number;
  /** Status for injected errors; default 503. Without `errorRate`, every matching request gets it. */
  status5xx?: number;
  /** Destroy the socket without any answer, before the request is handled (nothing happens). */
  dropConnection?: boolean;
  /** Handle the request, then destroy the socket instead of answering (it happened; the caller cannot know). */
  dropResponse?: boolean;
  /** Answer 429 with `Retry-After: 1`. */
  force429?: boolean;
  /** Only requests whose path starts with one of these. */
  paths?: string[];
  /** Only the next N matching requests; then faults switch themselves off. */
  count?: number;
}

export type FaultAction =
  { kind: 'none' } | { kind: 'drop' } | { kind: 'dropResponse' } | { kind: 'problem'; problem: ProblemError; rateLimited: boolean };

export function parseFaults(body: unknown): FaultOptions {
  if (!isRecord(body)) throw new ProblemError(400, 'fault options are a JSON object');
  const errors: string[] = [];
  const known = ['latencyMs', 'errorRate', 'status5xx', 'dropConnection', 'dropResponse', 'force429', 'paths', 'count'];
  for (const key of Object.keys(body)) if (!known.includes(key)) errors.push(`$.${key}: unknown property: ${key}`);
  const num = (key: string, min: number, max: number): void => {
    if (body[key] !== undefined && (typeof body[key] !== 'number' || body[key] < min || body[key] > max))
      errors.push(`$.${key}: must be a number from ${min} to ${max}`);
  };
  num('latencyMs', 0, 600000);
  num('errorRate', 0, 1);
  num('status5xx', 500, 599);
  num('count', 1, 1e9);
  for (const key of ['dropConnection', 'dropResponse', 'force429'])
    if (body[key] !== undefined && typeof body[key] !== 'boolean') errors.push(`$.${key}: must be true or false`);
  if (body.paths !== undefined && !(Array.isArray(body.paths) && body.paths.every((p) => typeof p === 'string')))
    errors.push('$.paths: must be a list of path prefixes');
  if (errors.length > 0) throw new ProblemError(422, `invalid fault options: ${errors[0]}`, errors);
  return body;
}

export class FaultInjector {
  private faults: FaultOptions | undefined;
  private remaining: number | undefined;

  constructor(private readonly random: Random) {}

  set(faults: FaultOptions | undefined): void {
    this.faults = faults && Object.keys(faults).length > 0 ? { ...faults } : undefined;
    this.remaining = faults?.count;
  }

  get(): FaultOptions | undefined {
    return this.faults ? { ...this.faults, ...(this.remaining !== undefined ? { count: this.remaining } : {}) } : undefined;
  }

  /** Decides the fault for one request and waits out any latency. */
  async apply(path: string): Promise<FaultAction> {
    const faults = this.faults;
    if (!faults) return { kind: 'none' };
    if (faults.paths && faults.paths.length > 0 && !faults.paths.some((p) => path.startsWith(p))) return { kind: 'none' };
    if (this.remaining !== undefined) {
      this.remaining--;
      if (this.remaining <= 0) this.faults = undefined;
    }
    if (faults.latencyMs) await new Promise((resolve) => setTimeout(resolve, faults.latencyMs));
    if (faults.dropConnection) return { kind: 'drop' };
    if (faults.dropResponse) return { kind: 'dropResponse' };
    if (faults.force429) {
      return {
        kind: 'problem',
        rateLimited: true,
        problem: new ProblemError(429, 'rate limit exceeded for the minute window', undefined, { 'Retry-After': '1' }),
      };
    }
    const status = faults.status5xx ?? 503;
    const hit = faults.errorRate !== undefined ? this.random() < faults.errorRate : faults.status5xx !== undefined;
    if (hit)
      return {
        kind: 'problem',
        rateLimited: false,
        problem: new ProblemError(status, `injected fault: the emulator answered ${status} on purpose`),
      };
    return { kind: 'none' };
  }
}
