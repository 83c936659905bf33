/**
 * Rolling an endpoint back to an earlier release: its configuration at version N is worked out from
 * the endpoint and its releases (core/deploy/rollback.ts), then planned as any deploy is, so the PATCH
 * carries only what differs and follows the update rules (GPU pools with their exclusions, scaling
 * whole). The plan is applied with `applyDeploy` without a document, so no spec's binding moves.
 */
import { ApiError, type ApiClient, type CallOptions, type ReleaseList } from '../api';
import type { Spec } from '../deploy/effective';
import { planDeployment, type DeploymentPlan } from '../deploy/plan';
import { configurationAt } from '../deploy/rollback';
import type { PlanTarget } from './planDeploy';

export interface PlanRollbackInput {
  readonly client: ApiClient;
  readonly endpointId: string;
  readonly toVersion: number;
  readonly call?: CallOptions;
}

export type PlanRollbackResult =
  | {
      readonly ok: true;
      readonly plan: DeploymentPlan;
      readonly target: PlanTarget;
      readonly spec: Spec;
      readonly fromVersion?: number;
      readonly toVersion: number;
      readonly unknownFields: readonly string[];
    }
  | { readonly ok: false; readonly message: string };

/** The newest version a release list knows of: what the service says is current, else the newest listed. */
function newestVersion(list: ReleaseList): number | undefined {
  const listed = list.releases.flatMap((r) => (r.version !== undefined ? [r.version] : []));
  const newestListed = listed.length > 0 ? Math.max(...listed) : undefined;
  return list.endpointVersion ?? newestListed;
}

/** The words every front-end shows when some changes cannot be undone. */
function unknownFieldsNote(fields: readonly string[]): string {
  return `these fields could not be rolled back: ${fields.join(', ')} (this client does not know them; they keep their current values)`;
}

/** Reads the endpoint and its releases, works out version N, and plans the PATCH from now to N (planDeployment honours the GPU selection semantics). Apply it with applyDeploy({client, plan, target}) (no document: the binding does not change), then watchRollout. */
export async function planRollback(input: PlanRollbackInput): Promise<PlanRollbackResult> {
  const { client, endpointId, toVersion } = input;
  const call = input.call ?? {};
  try {
    // Releases before and after the endpoint: a release made in between would be undone from the wrong state.
    const before = await client.serverless.releases(endpointId, call);
    const endpoint = await client.serverless.get(endpointId, call);
    const after = await client.serverless.releases(endpointId, call);
    const fromVersion = newestVersion(after);
    if (newestVersion(before) !== fromVersion)
      return {
        ok: false,
        message: `endpoint ${endpointId} changed while it was read (now at release ${fromVersion ?? '?'}); plan the rollback again`,
      };
    if (after.endpointVersion !== undefined && !after.releases.some((r) => r.version === after.endpointVersion))
      return {
        ok: false,
        message: `endpoint ${endpointId} is at release ${after.endpointVersion}, which its release list does not hold, so version ${toVersion} cannot be worked out`,
      };
    const at = configurationAt(endpoint, after.releases, toVersion);
    if (!at.ok) return { ok: false, message: `cannot roll endpoint ${endpointId} back: ${at.reason}` };
    const planned = planDeployment(at.spec, endpoint);
    const plan = at.unknownFields.length > 0 ? { ...planned, notes: [...planned.notes, unknownFieldsNote(at.unknownFields)] } : planned;
    return {
      ok: true,
      plan,
      target: { kind: 'adopted', endpointId },
      spec: at.spec,
      ...(fromVersion !== undefined ? { fromVersion } : {}),
      toVersion,
      unknownFields: at.unknownFields,
    };
  } catch (error) {
    if (error instanceof ApiError && error.notFound) return { ok: false, message: `endpoint ${endpointId} was not found` };
    return { ok: false, message: `cannot plan the rollback: ${client.redact(error instanceof Error ? error.message : String(error))}` };
  }
}
