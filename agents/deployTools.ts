/**
 * `plan_deploy` and `deploy_spec`: an agent deploys in two steps, like a person. The plan comes
 * with a token; deploying takes only that token, so what is applied is exactly the plan that was
 * shown, and only while the spec file and the live endpoint are as they were when it was made. An
 * environment's plan deploys only that environment, and a protected one only when the deploy names it.
 */
import { z } from 'zod';
import { readPriceCatalog } from '../core/billing/priceCatalog';
import { renderChange, renderPlan } from '../core/deploy/render';
import { overwrittenOutside, type OutsideChange, type ThreeWay } from '../core/deploy/outside';
import { planCost } from '../core/deploy/planCost';
import { applyDeploy, ENVIRONMENT_NAME, needsApplying, replacedLine } from '../core/operations';
import { placeServiceProblem, problemLine, requireClient, ToolFailure, type AgentContext } from './context';
import { changesOf, planSpec, type PlannedSpec } from './planning';
import type { DeployPlanRecord, PlanRecord } from './planTokens';
import { changeShape, openObject, plannedShape } from './schemas';
import { defineTool, type ToolResult } from './tool';

const environmentName = z.string().regex(ENVIRONMENT_NAME).optional();

const planInput = z.object({
  path: z.string().min(1).describe('The spec file (*.endpoint.yaml / *.endpoint.json), absolute or relative to the workspace.'),
  document: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('The document (0-based) of a multi-document YAML file; needed when it holds several specs.'),
  namesakes: z
    .enum(['adopt', 'create-new'])
    .optional()
    .describe(
      'Only when the plan says endpoints with the spec name already exist: "adopt" updates the one namesake and binds the spec to it, "create-new" creates another endpoint of that name.',
    ),
  environment: environmentName.describe(
    "The environment to deploy (staging, prod, ...): with a base spec path, plans its overlay for that environment (<base>.<environment>.endpoint.yaml); with an overlay path, checks that the overlay is that environment's. An overlay path alone is planned as its own environment.",
  ),
});

export const planDeployTool = defineTool({
  name: 'plan_deploy',
  title: 'Plan the deploy of a spec',
  description:
    'Show what deploying a spec file would do, without changing anything: create a new endpoint, the fields an update of its bound endpoint changes (before = live, after = spec) with the change in always-on cost, nothing, or why it cannot be done. An environment overlay (<base>.<environment>.endpoint.yaml, or a base with environment) is planned merged into its base, and the plan names the environment and the arrays the overlay replaces whole. Returns a planToken valid for 15 minutes (5 for a protected environment) that deploy_spec takes to apply exactly this plan; show the plan to the user before deploying.',
  writes: false,
  input: planInput,
  output: openObject({
    file: z.string(),
    document: z.number(),
    environment: openObject({ name: z.string(), protected: z.boolean() }).optional(),
    kind: z.enum(['create', 'update', 'unchanged', 'refused']),
    ...plannedShape,
  }),
  async run(input, context): Promise<ToolResult> {
    const planned = await planSpec(context, input);
    const { client, environment } = planned;
    const { plan, target, namesakes } = planned.planned;
    const prices = await readPriceCatalog(client);
    const planText = `${environmentLine(planned)}${renderPlan(plan, prices ? { catalog: prices } : {})}${replacedLine(environment)}${adoptionLine(planned)}`;
    const why = undeployable(planned);
    const overwritten = overwrittenOutside(plan.threeWay);
    const token =
      why === undefined
        ? context.plans.issue({
            specPath: planned.file.path,
            document: planned.document.index,
            specHash: planned.specHash,
            liveHash: planned.liveHash,
            planHash: planned.planHash,
            planText,
            ...(input.namesakes ? { namesakes: input.namesakes } : {}),
            ...(environment ? { environment: environment.name, protected: environment.protected } : {}),
            ...(overwritten.length > 0 ? { overwritesOutside: overwritten.map((c) => c.path) } : {}),
          })
        : undefined;
    const costLine = prices ? planCost(plan, prices)?.text : undefined;
    const structured = {
      file: planned.ref.key,
      document: planned.document.index,
      ...(environment ? { environment } : {}),
      kind: plan.kind,
      ...(plan.kind === 'create' ? {} : { endpointId: plan.endpointId, endpointName: plan.endpointName }),
      ...(target.kind === 'adopted' ? { adopts: target.endpointId } : {}),
      plan: planText,
      changes: changesOf(plan),
      ...(plan.kind === 'create' ? { body: plan.body } : {}),
      ...(plan.kind === 'refused' ? { problems: plan.problems.map((p) => ({ path: p.path, message: p.message })) } : {}),
      ...(costLine ? { cost: costLine } : {}),
      notes: plan.notes,
      ...(plan.stock ? { stock: plan.stock } : {}),
      ...(plan.threeWay ? { outside: outsideOf(plan.threeWay) } : {}),
      ...(namesakes.length > 0 ? { namesakes } : {}),
      deployable: token !== undefined,
      ...(token ? { planToken: token.token, expiresAt: token.expiresAt } : { notDeployable: why }),
    };
    const footer = token
      ? `planToken: ${token.token} (expires ${token.expiresAt}); deploy_spec applies exactly this plan${protectedNote(planned)}${outsideNote(overwritten)}`
      : `not deployable: ${why ?? ''}`;
    return { text: `${planText}${footer}`, structured };
  },
});

function undeployable(planned: PlannedSpec): string | undefined {
  const { plan, target } = planned.planned;
  if (planned.blocked !== undefined) return planned.blocked;
  if (plan.kind === 'refused') return 'no update can make this difference (see the plan)';
  if (!needsApplying(plan, target)) return 'the endpoint already matches the spec: nothing to deploy';
  return undefined;
}

/**
 * What adopting adds to the plan: the binding. An adopted endpoint that already matches is rendered
 * as "nothing to deploy", yet its token does something, and the plan, which the editor's
 * confirmation shows too, must say what.
 */
function adoptionLine(planned: PlannedSpec): string {
  const { plan, target } = planned.planned;
  if (target.kind !== 'adopted' || undeployable(planned) !== undefined) return '';
  const binding = `binds the spec to endpoint ${target.endpointId} (in .endpoint-studio/deployments.json)`;
  return plan.kind === 'unchanged'
    ? `  adopt: deploying ${binding} and changes nothing on the endpoint\n`
    : `  adopt: deploying also ${binding}\n`;
}

/** `environment prod (protected), endpoint ep_1`: first, so the confirmation a user reads names where it goes. */
function environmentLine(planned: PlannedSpec): string {
  const { environment } = planned;
  if (!environment) return '';
  const { plan, target } = planned.planned;
  const endpoint = plan.kind !== 'create' ? plan.endpointId : target.kind === 'adopted' ? target.endpointId : 'a new endpoint';
  return `environment ${environment.name}${environment.protected ? ' (protected)' : ''}, endpoint ${endpoint}\n`;
}

/** The three sides as data: what changed outside (and what deploying does to it), what the spec changed, since when. */
function outsideOf(three: ThreeWay): Record<string, unknown> {
  return {
    deployedAt: three.deployedAt,
    ...(three.sinceVersion !== undefined ? { sinceVersion: three.sinceVersion } : {}),
    changes: three.outside.map((c) => ({ path: c.path, deployed: c.deployed, live: c.live, spec: c.spec, effect: c.effect })),
    specEdits: three.specEdits,
    releases: three.releases,
  };
}

function outsideNote(overwritten: readonly OutsideChange[]): string {
  if (overwritten.length === 0) return '';
  return `. This plan overwrites changes made outside since the last deploy (${overwritten.map((c) => c.path).join(', ')}): show them to the user and ask. To keep the live values, write them into the spec and run plan_deploy again; to overwrite them, call deploy_spec with outsideChanges "overwrite"`;
}

function protectedNote(planned: PlannedSpec): string {
  const { environment } = planned;
  if (!environment?.protected) return '';
  return `. ${environment.name} is a protected environment: deploy only after the user confirmed deploying to ${environment.name}, with deploy_spec's environment set to "${environment.name}"`;
}

const ROLLBACK_TOKEN = 'this planToken is a rollback plan from plan_rollback: rollback_endpoint applies it; nothing was sent';

export const deploySpecTool = defineTool({
  name: 'deploy_spec',
  title: 'Deploy a planned spec',
  description:
    'Apply the plan that plan_deploy returned, by its planToken: create or update the endpoint, read it back and check it matches the spec, and record the binding in .endpoint-studio/deployments.json. Refused when the spec file or the live endpoint changed since the plan, or the token expired: plan again. A token deploys only the environment it was planned for; a protected environment also needs environment set to its name, after the user confirmed it. Changes the service: only with writes allowed, and after the user saw the plan.',
  writes: true,
  input: z.object({
    planToken: z.string().min(1).describe('The planToken from plan_deploy.'),
    environment: environmentName.describe(
      'The environment the plan deploys to, as plan_deploy named it; required for a protected environment, once the user confirmed deploying to it.',
    ),
    outsideChanges: z
      .enum(['overwrite'])
      .optional()
      .describe(
        'Required when the plan overwrites changes made outside since the last deploy (plan_deploy says so): "overwrite", once the user chose to overwrite them.',
      ),
  }),
  output: openObject({
    action: z.enum(['created', 'reconciled', 'updated', 'unchanged']),
    endpointId: z.string(),
    endpointName: z.string(),
    verified: z.boolean(),
    differences: z.array(changeShape),
    bound: z.boolean(),
  }),
  async run(input, context): Promise<ToolResult> {
    // An environment's plan deploys on its own client; every other needs the front-end's.
    if (context.plans.peek(input.planToken)?.environment === undefined || !context.clientForEnvironment) requireClient(context);
    // A rollback's token is refused before it is used up, so rollback_endpoint can still apply it.
    if (context.plans.peek(input.planToken)?.kind === 'rollback') throw new ToolFailure(ROLLBACK_TOKEN);
    // Refused before the token is used up, so the same token deploys once the choice is stated; unless the plan is
    // stale anyway, which the redeem below says.
    const outside = outsideRefusal(context.plans.peek(input.planToken), input.outsideChanges);
    if (outside !== undefined && staleness(outside.record, await replan(context, outside.record)) === undefined)
      throw new ToolFailure(outside.reason);
    const redeemed = context.plans.redeem(input.planToken);
    if (!redeemed.ok) throw new ToolFailure(redeemed.reason, { stale: true });
    const { record } = redeemed;
    if (record.kind === 'rollback') throw new ToolFailure(ROLLBACK_TOKEN);
    const wrongEnvironment = environmentRefusal(record, input.environment);
    if (wrongEnvironment !== undefined)
      throw new ToolFailure(`${wrongEnvironment}; nothing was sent. Run plan_deploy again`, { stale: true });
    const again = await replan(context, record);
    const stale = staleness(record, again);
    if (stale !== undefined)
      throw new ToolFailure(`${stale} since the plan was made; nothing was sent. Run plan_deploy again and show the new plan`, {
        stale: true,
      });
    return apply(again);
  },
});

/** Why a plan that overwrites changes made outside may not deploy yet; undefined when it may. */
function outsideRefusal(
  record: PlanRecord | undefined,
  choice: 'overwrite' | undefined,
): { record: DeployPlanRecord; reason: string } | undefined {
  if (record === undefined || record.kind === 'rollback') return undefined;
  const fields = record.overwritesOutside ?? [];
  if (fields.length === 0 || choice === 'overwrite') return undefined;
  return {
    record,
    reason: `this plan overwrites changes made outside since the last deploy (${fields.join(', ')}); nothing was sent. Ask the user: to overwrite them, call deploy_spec again with outsideChanges "overwrite"; to keep them, write the live values into the spec and run plan_deploy again`,
  };
}

/** The plan made again from its record, to tell whether the spec file and the live endpoint are still what it was made against. */
function replan(context: AgentContext, record: DeployPlanRecord): Promise<PlannedSpec> {
  return planSpec(context, {
    path: record.specPath,
    document: record.document,
    ...(record.namesakes ? { namesakes: record.namesakes } : {}),
  });
}

/** Why a token may not deploy with the environment given (or not given); undefined when it may. */
function environmentRefusal(record: DeployPlanRecord, environment: string | undefined): string | undefined {
  const planned = record.environment;
  if (environment !== undefined && planned === undefined)
    return `this plan deploys a base spec, not the ${environment} environment; plan the ${environment} overlay`;
  if (environment !== undefined && environment !== planned)
    return `this plan was made for the ${planned ?? ''} environment, not ${environment}`;
  if (record.protected && environment === undefined)
    return `${planned ?? ''} is a protected environment: deploy_spec needs environment "${planned ?? ''}", given once the user confirmed deploying to it`;
  return undefined;
}

function staleness(record: DeployPlanRecord, again: PlannedSpec): string | undefined {
  if (again.environment?.name !== record.environment || (again.environment?.protected ?? false) !== (record.protected ?? false))
    return 'the environment changed';
  if (again.specHash !== record.specHash) return 'the spec file changed';
  if (again.liveHash !== record.liveHash) return 'the live endpoint changed';
  if (again.planHash !== record.planHash || again.blocked !== undefined) return 'the plan changed';
  return undefined;
}

async function apply(planned: PlannedSpec): Promise<ToolResult> {
  const { client, environment } = planned;
  const { plan, target, listed } = planned.planned;
  const outcome = await applyDeploy({ client, plan, target, document: planned.ref, ...(listed ? { listed } : {}) });
  const file = planned.ref.key;
  if (!outcome.ok) {
    const { failure, action } = outcome.applied;
    const problems = failure.problems.map((p) =>
      placeServiceProblem(planned.file.text, planned.document.document, planned.document.index, p),
    );
    const lines = [`${action} failed: ${failure.message}`, ...problems.map((p) => problemLine(file, p))];
    if (failure.endpointGone) lines.push('the bound endpoint no longer exists; plan again to create a new one');
    if (failure.outcomeUnknown) lines.push('the change may or may not have been made; run plan_deploy to see where the endpoint stands');
    throw new ToolFailure(lines.join('\n'), { status: failure.status, problems, outcomeUnknown: failure.outcomeUnknown });
  }
  const result = outcome.applied;
  const bound = outcome.binding ? outcome.binding.saved : target.kind === 'bound';
  const where = environment ? ` in the ${environment.name} environment` : '';
  const lines = [`${result.action} endpoint ${result.endpoint.id} ${JSON.stringify(result.endpoint.name)}${where}`];
  if (outcome.binding?.saved && target.kind === 'adopted') lines.push(`bound the spec to endpoint ${result.endpoint.id}`);
  if (outcome.binding && !outcome.binding.saved)
    lines.push(`the binding was not saved (${outcome.binding.error}); until it is, deploying this spec again creates another endpoint`);
  if (result.readBackError) lines.push(`not verified: reading the endpoint back failed: ${result.readBackError}`);
  else if (result.verified) lines.push('verified: the endpoint read back matches the spec');
  else
    lines.push(
      'not verified: the endpoint read back differs from the spec (before = live, after = spec):',
      ...result.differences.map((c) => `  ${renderChange(c)}`),
    );
  return {
    text: lines.join('\n'),
    structured: {
      action: result.action,
      ...(environment ? { environment: environment.name } : {}),
      endpointId: result.endpoint.id,
      endpointName: result.endpoint.name,
      verified: result.verified && result.readBackError === undefined,
      differences: result.differences.map((c) => ({ path: c.path, before: c.before, after: c.after })),
      bound,
      ...(outcome.binding?.saved ? { bindingsFile: outcome.binding.path } : {}),
      ...(result.readBackError ? { readBackError: result.readBackError } : {}),
    },
  };
}
