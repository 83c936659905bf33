/**
 * Plan tokens: an agent may only deploy a plan it was shown, against the state it was shown for.
 * A token is an opaque random id held in this process (never a value the model could forge or
 * edit) for a record of the plan, the spec file it came from and fingerprints of that file and of
 * the live state it was measured against. Deploying re-reads both: any change, or an expired or
 * unknown token, means a new plan.
 */
import { randomBytes } from 'node:crypto';

/** Long enough to read a plan and say yes; short enough that the live state is still the one planned against. */
export const PLAN_TOKEN_TTL_MS = 15 * 60 * 1000;
/** Tokens kept at once; the oldest go first, so a looping agent cannot grow the process. */
const MAX_TOKENS = 200;

export interface PlanRecord {
  readonly specPath: string;
  readonly document: number;
  /** Hash of the spec file's text when planned. */
  readonly specHash: string;
  /** Hash of what the plan was measured against (see `liveFingerprint`). */
  readonly liveHash: string;
  /** Hash of the plan itself: the same inputs must plan the same change. */
  readonly planHash: string;
  /** `adopt` or `create-new` when the plan was made with that namesake choice. */
  readonly namesakes?: 'adopt' | 'create-new';
  /** The plan as it was shown (change table and cost line), for a confirmation before deploying. */
  readonly planText: string;
  readonly expiresAt: number;
}

export type RedeemResult = { readonly ok: true; readonly record: PlanRecord } | { readonly ok: false; readonly reason: string };

export class PlanTokenStore {
  private readonly records = new Map<string, PlanRecord>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly ttlMs = PLAN_TOKEN_TTL_MS,
  ) {}

  issue(record: Omit<PlanRecord, 'expiresAt'>): { token: string; expiresAt: string } {
    this.prune();
    while (this.records.size >= MAX_TOKENS) {
      const oldest = this.records.keys().next();
      if (oldest.done) break;
      this.records.delete(oldest.value);
    }
    const token = `plan_${randomBytes(18).toString('base64url')}`;
    const expiresAt = this.now() + this.ttlMs;
    this.records.set(token, { ...record, expiresAt });
    return { token, expiresAt: new Date(expiresAt).toISOString() };
  }

  /** The record of a live token without using it up: for showing the plan before it is deployed. */
  peek(token: string): PlanRecord | undefined {
    const record = this.records.get(token);
    return record && record.expiresAt > this.now() ? record : undefined;
  }

  /** The record of a live token. A token is used once: redeeming it removes it, whatever follows. */
  redeem(token: string): RedeemResult {
    const record = this.records.get(token);
    this.records.delete(token);
    if (!record) return { ok: false, reason: 'unknown plan token (tokens live in the server that issued them); run plan_deploy again' };
    if (record.expiresAt <= this.now()) return { ok: false, reason: 'the plan token has expired; run plan_deploy again' };
    return { ok: true, record };
  }

  private prune(): void {
    const now = this.now();
    for (const [token, record] of this.records) if (record.expiresAt <= now) this.records.delete(token);
  }
}
