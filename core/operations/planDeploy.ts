/**
 * Plan the deploy of one spec document against the live state: the endpoint it is bound to (read
 * fresh), or, for an unbound spec, the live endpoints that already carry its name. A create next
 * to such namesakes is never silent: the plan says so and names them, and the caller decides
 * whether to adopt one (the plan becomes an update of it), create another on purpose, or stop.
 */
import { ApiError, type ApiClient, type Endpoint } from '../api';
import { repairBinding, type Binding } from '../deploy/bindings';
import type { Spec } from '../deploy/effective';
import { releasesSince } from '../deploy/outside';
import { planDeployment, type DeploymentPlan, type LastDeploy } from '../deploy/plan';
import { restartsWorkers } from '../deploy/workerRestart';
import type { Catalog } from '../endpointSpec/catalog/catalog';
import { planStock } from './planStock';

/** A live endpoint as far as telling namesakes apart needs. */
export interface EndpointSummary {
  readonly id: string;
  readonly name: string;
}

export interface PlanDeployInput {
  readonly client: ApiClient;
  /** The spec document's data. */
  readonly spec: Spec;
  /** The document's binding, if it has one. */
  readonly binding?: Binding;
  /** Plan an update of this endpoint instead of a create: an unbound spec adopting its namesake. */
  readonly adopt?: string;
  /** Endpoints already listed for another document of the same deploy, so the service is listed once. */
  readonly listed?: readonly EndpointSummary[];
  /** A pinned catalog snapshot, read for the stock warning when the service's catalog cannot be. */
  readonly catalog?: Catalog;
}

/** What the plan is measured against. */
export type PlanTarget =
  | { readonly kind: 'bound'; readonly binding: Binding }
  | { readonly kind: 'unbound' }
  /** The bound endpoint was deleted elsewhere; the plan creates anew. */
  | { readonly kind: 'missing'; readonly binding: Binding }
  | { readonly kind: 'adopted'; readonly endpointId: string };

export type PlanDeployResult =
  | {
      readonly ok: true;
      readonly plan: DeploymentPlan;
      readonly target: PlanTarget;
      /** Live endpoints with the spec's name that it is not bound to; only looked for when the plan is a create. */
      readonly namesakes: readonly EndpointSummary[];
      /** Every endpoint listed before a create, so a lost create answer is never confused with an older one. */
      readonly listed?: readonly EndpointSummary[];
    }
  | { readonly ok: false; readonly message: string; readonly notFound: boolean };

export async function planDeploy(input: PlanDeployInput): Promise<PlanDeployResult> {
  const planned = await planAgainstLive(input);
  if (!planned.ok || !startsWorkers(planned.plan)) return planned;
  const stock = await planStock(input.client, planned.plan.spec, input.catalog);
  return stock ? { ...planned, plan: { ...planned.plan, stock } } : planned;
}

/** A create, or an update that starts new workers or may add some: those are the workers that would wait for stock. */
function startsWorkers(plan: DeploymentPlan): boolean {
  if (plan.kind === 'create') return true;
  return plan.kind === 'update' && plan.changes.some((c) => restartsWorkers(c.path) || c.path.startsWith('workers.'));
}

async function planAgainstLive(input: PlanDeployInput): Promise<PlanDeployResult> {
  const { client, spec, binding, adopt } = input;
  try {
    if (adopt !== undefined) {
      const live = await client.serverless.get(adopt);
      return { ok: true, plan: planDeployment(spec, live), target: { kind: 'adopted', endpointId: adopt }, namesakes: [] };
    }
    let target: PlanTarget = { kind: 'unbound' };
    if (binding) {
      const check = await repairBinding(client, binding);
      if (check.status === 'error') return serviceFailure(client, check.error, `cannot read endpoint ${binding.endpointId}: `);
      if (check.status === 'bound')
        return {
          ok: true,
          plan: await boundPlan(client, spec, check.endpoint, binding),
          target: { kind: 'bound', binding },
          namesakes: [],
        };
      target = { kind: 'missing', binding };
    }
    const listed = input.listed ?? (await client.serverless.list()).map((e) => ({ id: e.id, name: e.name }));
    const namesakes = listed.filter((e) => e.name === spec.name);
    const plan = planDeployment(spec, undefined);
    return { ok: true, plan: namesakes.length > 0 ? withNote(plan, namesakeNote(spec.name, namesakes)) : plan, target, namesakes, listed };
  } catch (error) {
    return serviceFailure(client, error);
  }
}

/** Said in a plan whose binding recorded no release: it is two-way until the next deploy records one. */
export const UNTRACKED_NOTE =
  'the binding records no release (it was written before deploys recorded one), so changes made outside cannot be told from spec edits: a deploy reverts them; the next deploy records its release';

/**
 * A bound spec's plan, three-way when the binding recorded what the last deploy set: a change made outside is
 * named with the releases the service made since then (one more read, only when there is such a change).
 */
async function boundPlan(client: ApiClient, spec: Spec, live: Endpoint, binding: Binding): Promise<DeploymentPlan> {
  const release = binding.release;
  if (!release) return withNote(planDeployment(spec, live), UNTRACKED_NOTE);
  const last: LastDeploy = {
    body: release.body,
    deployedAt: binding.deployedAt,
    ...(release.version !== undefined ? { version: release.version } : {}),
  };
  const plan = planDeployment(spec, live, last);
  if (!plan.threeWay || plan.threeWay.outside.length === 0) return plan;
  const releases = await client.serverless.releases(live.id).then(
    (list) => releasesSince(list.releases, release.version, binding.deployedAt),
    // Who made the change is a detail: the plan still names the change without it.
    () => [],
  );
  return { ...plan, threeWay: { ...plan.threeWay, releases } };
}

/** The words every front-end shows for a create next to namesakes. */
function namesakeNote(name: unknown, namesakes: readonly EndpointSummary[]): string {
  const ids = namesakes.map((e) => e.id).join(', ');
  const existing = namesakes.length === 1 ? 'an endpoint named' : `${namesakes.length} endpoints named`;
  return `${existing} ${JSON.stringify(name)} already exist${namesakes.length === 1 ? 's' : ''} (${ids}) but this spec is not bound to ${namesakes.length === 1 ? 'it' : 'them'}; deploying creates another one`;
}

function withNote(plan: DeploymentPlan, note: string): DeploymentPlan {
  return { ...plan, notes: [...plan.notes, note] };
}

/** A read of the service that failed, as a use case's refusal: the error's message, redacted, after `context`. */
export function serviceFailure(client: ApiClient, error: unknown, context = ''): Extract<PlanDeployResult, { ok: false }> {
  const message = context + client.redact(error instanceof Error ? error.message : String(error));
  return { ok: false, message, notFound: error instanceof ApiError && error.notFound };
}

/** What a front-end without a person to ask does about namesakes, from its flags. */
export type NamesakePolicy = 'refuse' | 'adopt' | 'create-new';

export type NamesakeDecision =
  | { readonly action: 'proceed' }
  | { readonly action: 'adopt'; readonly endpointId: string }
  | { readonly action: 'refuse'; readonly reason: string };

/** Refuse unless told: adopting needs exactly one namesake to be unambiguous. */
export function decideNamesakes(namesakes: readonly EndpointSummary[], policy: NamesakePolicy): NamesakeDecision {
  if (namesakes.length === 0 || policy === 'create-new') return { action: 'proceed' };
  const ids = namesakes.map((e) => e.id).join(', ');
  if (policy === 'adopt') {
    if (namesakes.length === 1) return { action: 'adopt', endpointId: namesakes[0].id };
    return { action: 'refuse', reason: `${namesakes.length} endpoints carry this name (${ids}); bind the spec to the one it describes` };
  }
  return { action: 'refuse', reason: `an endpoint with this name already exists (${ids}) and the spec is not bound to it` };
}
