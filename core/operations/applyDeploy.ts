/**
 * Carry out a deploy plan: apply it with read-back verification, then bind the spec document to the
 * endpoint it now describes, so the next deploy updates it. Progress goes to a callback; the
 * outcome (what was done, whether it was verified, whether the binding was saved) comes back whole.
 */
import type { ApiClient } from '../api';
import { applyPlan, type ApplyAction, type ApplyResult, type ApplyStep } from '../deploy/apply';
import type { DeployedRelease } from '../deploy/bindings';
import { sameValue } from '../deploy/diff';
import type { DeploymentPlan } from '../deploy/plan';
import type { EndpointSummary, PlanTarget } from './planDeploy';
import { recordRelease, saveBinding, type SaveBindingResult, type SpecDocumentRef } from './specBindings';

export interface ApplyDeployInput {
  readonly client: ApiClient;
  readonly plan: DeploymentPlan;
  /** What the plan was measured against (from `planDeploy`). */
  readonly target: PlanTarget;
  /** The document to bind; absent to apply without recording a binding. */
  readonly document?: SpecDocumentRef;
  /**
   * A rollback's workspace: every spec there bound to the endpoint records what the rollback set as its last
   * release, so the next plan counts it as ours, not as a change made outside.
   */
  readonly rolledBackIn?: string;
  /** The endpoints listed while planning a create. */
  readonly listed?: readonly EndpointSummary[];
  readonly onProgress?: (step: ApplyStep, message: string) => void;
}

export type ApplyDeployResult =
  | { readonly ok: true; readonly applied: Extract<ApplyResult, { ok: true }>; readonly binding: SaveBindingResult | undefined }
  | { readonly ok: false; readonly applied: Extract<ApplyResult, { ok: false }> };

/** A plan is worth applying when it changes something, or when it adopts an endpoint that only needs binding. */
export function needsApplying(plan: DeploymentPlan, target: PlanTarget): boolean {
  return plan.kind !== 'unchanged' || target.kind === 'adopted';
}

export async function applyDeploy(input: ApplyDeployInput): Promise<ApplyDeployResult> {
  const applied = await applyPlan(input.client, input.plan, {
    ...(input.listed ? { existingIds: input.listed.map((e) => e.id) } : {}),
    ...(input.onProgress ? { onProgress: input.onProgress } : {}),
  });
  if (!applied.ok) return { ok: false, applied };
  if (input.rolledBackIn !== undefined && applied.action === 'updated')
    return { ok: true, applied, binding: recordRelease(input.rolledBackIn, applied.endpoint.id, await releaseMade(input, applied)) };
  if (!input.document || !rebinds(input, applied.action)) return { ok: true, applied, binding: undefined };
  return { ok: true, applied, binding: saveBinding(input.document, applied.endpoint, await releaseMade(input, applied)) };
}

/** The release to record: its version, what was sent, and whether reading the endpoint back confirmed it. */
async function releaseMade(input: ApplyDeployInput, applied: Extract<ApplyResult, { ok: true }>): Promise<DeployedRelease> {
  const version = await versionAfter(input, applied.endpoint.id);
  return { ...version, body: input.plan.spec, ...(applied.verified ? {} : { unverified: true as const }) };
}

/**
 * An unchanged bound endpoint keeps its binding as it is, unless the binding does not hold what the spec now
 * says (it recorded no release, or the spec was edited to what was changed outside); every other outcome records one.
 */
function rebinds({ target, plan }: ApplyDeployInput, action: ApplyAction): boolean {
  if (action !== 'unchanged' || target.kind === 'adopted') return true;
  const recorded = target.kind === 'bound' ? target.binding.release?.body : undefined;
  return recorded === undefined || !sameValue(recorded, plan.spec);
}

/** The endpoint's version once the deploy is in: the release it made, which the next plan counts from. */
async function versionAfter({ client }: ApplyDeployInput, endpointId: string): Promise<{ version?: number }> {
  try {
    const { endpointVersion, releases } = await client.serverless.releases(endpointId);
    const version = endpointVersion ?? releases.at(0)?.version;
    return version === undefined ? {} : { version };
  } catch {
    // Without it the next plan still tells the sides apart; it only cannot name the releases made since.
    return {};
  }
}
