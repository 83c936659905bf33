/**
 * Plan tokens: an agent may only deploy a plan it was shown, against the state it was shown for.
 * A token is an opaque random id held in this process (never a value the model could forge or
 * edit) for a record of the plan, the spec file it came from and fingerprints of that file and of
 * the live state it was measured against. Deploying re-reads both: any change, or an expired, used
 * or unknown token, means a new plan. Tokens that can no longer be used are remembered for a while,
 * so a model reusing one is told why, not that it never existed, and which tool plans again. A plan for
 * an environment names it in its token and record, and a protected environment's token is good for a
 * shorter while.
 */
import { randomBytes } from 'node:crypto';

/** Long enough to read a plan and say yes; short enough that the live state is still the one planned against. */
const PLAN_TOKEN_TTL_MS = 15 * 60 * 1000;
/** A protected environment's plan must be fresh: shown, read and confirmed within minutes. */
const PROTECTED_PLAN_TOKEN_TTL_MS = 5 * 60 * 1000;
/** Tokens kept at once; the oldest go first, so a looping agent cannot grow the process. */
const MAX_TOKENS = 200;

/** Which kind of plan a token stands for: a spec's deploy or an endpoint's rollback. */
export type PlanKind = 'deploy' | 'rollback';

/** The tool that makes each kind of plan and the one that applies its token, named in every refusal. */
const PLAN_TOOLS: Readonly<Record<PlanKind, { readonly plan: string; readonly apply: string }>> = {
  deploy: { plan: 'plan_deploy', apply: 'deploy_spec' },
  rollback: { plan: 'plan_rollback', apply: 'rollback_endpoint' },
};

/** Why a token of this kind cannot be used, saying how to get a new one. */
function refusal(why: 'used' | 'expired' | 'displaced' | 'unknown', kind: PlanKind): string {
  const { plan, apply } = PLAN_TOOLS[kind];
  return {
    used: `the plan token was already used (a token is good for one ${apply} call, whatever its outcome); run ${plan} again`,
    expired: `the plan token has expired; run ${plan} again`,
    displaced: `the plan token was dropped to make room for ${MAX_TOKENS} newer plans; run ${plan} again`,
    unknown: `unknown plan token (tokens live in the server that issued them); run ${plan} again`,
  }[why];
}

interface PlanRecordBase {
  /** Hash of what the plan was measured against (see `liveFingerprint`). */
  readonly liveHash: string;
  /** Hash of the plan itself: the same inputs must plan the same change. */
  readonly planHash: string;
  /** The plan as it was shown (change table and cost line), for a confirmation before it is applied. */
  readonly planText: string;
  /** The environment an overlay's plan deploys to; absent for a base spec. */
  readonly environment?: string;
  /** Deploying needs the environment named again (`deploy_spec`'s `environment`), after the user confirmed it. */
  readonly protected?: boolean;
  readonly expiresAt: number;
}

/** A spec's deploy, from `plan_deploy`. */
export interface DeployPlanRecord extends PlanRecordBase {
  readonly kind?: 'deploy';
  readonly specPath: string;
  readonly document: number;
  /** Hash of the spec file's text when planned. */
  readonly specHash: string;
  /** `adopt` or `create-new` when the plan was made with that namesake choice. */
  readonly namesakes?: 'adopt' | 'create-new';
  /** Fields changed outside since the last deploy that this plan reverts or overwrites: deploying needs that choice stated. */
  readonly overwritesOutside?: readonly string[];
}

/** An endpoint's rollback to an earlier release, from `plan_rollback`. */
interface RollbackPlanRecord extends PlanRecordBase {
  readonly kind: 'rollback';
  readonly endpointId: string;
  readonly toVersion: number;
}

/** What a token stands for; each tool that applies a plan takes only its own kind. */
export type PlanRecord = DeployPlanRecord | RollbackPlanRecord;

type Issued<R> = R extends PlanRecord ? Omit<R, 'expiresAt'> : never;

export type RedeemResult = { readonly ok: true; readonly record: PlanRecord } | { readonly ok: false; readonly reason: string };

export class PlanTokenStore {
  private readonly records = new Map<string, PlanRecord>();
  /** Tokens redeemed or expired, with why they cannot be used; as bounded as the live ones. */
  private readonly retired = new Map<string, string>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly ttlMs = PLAN_TOKEN_TTL_MS,
  ) {}

  issue(record: Issued<PlanRecord>): { token: string; expiresAt: string } {
    this.prune();
    for (const oldest of this.records.keys()) {
      if (this.records.size < MAX_TOKENS) break;
      this.retire(oldest, 'displaced');
    }
    // The environment in the token too, so the model (and a person reading along) sees which one it deploys.
    const token = `plan_${record.environment === undefined ? '' : `${record.environment}_`}${randomBytes(18).toString('base64url')}`;
    const expiresAt = this.now() + (record.protected ? Math.min(this.ttlMs, PROTECTED_PLAN_TOKEN_TTL_MS) : this.ttlMs);
    this.records.set(token, { ...record, expiresAt });
    return { token, expiresAt: new Date(expiresAt).toISOString() };
  }

  /** The record of a live token without using it up: for showing the plan before it is deployed. */
  peek(token: string): PlanRecord | undefined {
    const record = this.records.get(token);
    return record && record.expiresAt > this.now() ? record : undefined;
  }

  /**
   * The record of a live token. A token is used once: redeeming it removes it, whatever follows. A
   * token this store never issued is refused as one of `kind`, the kind of plan the caller applies.
   */
  redeem(token: string, kind: PlanKind = 'deploy'): RedeemResult {
    const record = this.records.get(token);
    if (!record) return { ok: false, reason: this.retired.get(token) ?? refusal('unknown', kind) };
    const expired = record.expiresAt <= this.now();
    const reason = this.retire(token, expired ? 'expired' : 'used');
    return expired ? { ok: false, reason } : { ok: true, record };
  }

  private prune(): void {
    const now = this.now();
    for (const [token, record] of this.records) if (record.expiresAt <= now) this.retire(token, 'expired');
  }

  /** Forgets a token's record and remembers why it cannot be used, in the words of its kind's tools. */
  private retire(token: string, why: 'used' | 'expired' | 'displaced'): string {
    const reason = refusal(why, this.records.get(token)?.kind ?? 'deploy');
    this.records.delete(token);
    this.retired.set(token, reason);
    for (const oldest of this.retired.keys()) {
      if (this.retired.size <= MAX_TOKENS) break;
      this.retired.delete(oldest);
    }
    return reason;
  }
}
