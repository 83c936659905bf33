/**
 * One spec document planned against the live state, for `plan_deploy` and again for `deploy_spec`:
 * the same steps both times (read the file, check it, find its binding, plan, settle namesakes,
 * fingerprint what the plan depends on), so comparing the two runs' hashes tells whether anything
 * the plan was shown for has changed since. An overlay is planned merged into its base, as its
 * environment, with that environment's client.
 */
import { createHash } from 'node:crypto';
import type { ApiClient, Endpoint } from '../core/api';
import { stableJson } from '../core/deploy/diff';
import { liveAsSpec, type Spec } from '../core/deploy/effective';
import type { DeploymentPlan } from '../core/deploy/plan';
import { readPriceCatalog } from '../core/billing/priceCatalog';
import type { Catalog } from '../core/endpointSpec/catalog/catalog';
import { relative } from 'node:path';
import {
  checkSpec,
  decideNamesakes,
  overlayEnvironment,
  planDeploy,
  protectedImageRefusal,
  readSpecBindings,
  specForEnvironment,
  type CheckedDocument,
  type CheckSpecResult,
  type OverlayEnvironment,
  type PlanDeployResult,
  type SpecDocumentRef,
} from '../core/operations';
import { costLimitUnpriced, policyRefusal } from '../core/operations/policyGate';
import {
  clientFor,
  fileCheck,
  fromService,
  pinnedCatalog,
  placeDiagnostic,
  problemLine,
  readSpecAt,
  ToolFailure,
  type AgentContext,
  type SpecFile,
} from './context';

export interface PlanRequest {
  readonly path: string;
  readonly document?: number;
  readonly namesakes?: 'adopt' | 'create-new';
  /** The environment to deploy: the base's overlay of it, or a check that the overlay given is that environment's. */
  readonly environment?: string;
}

export interface PlannedSpec {
  readonly file: SpecFile;
  readonly client: ApiClient;
  readonly document: CheckedDocument;
  /** Set for an overlay. */
  readonly environment?: OverlayEnvironment;
  readonly ref: SpecDocumentRef;
  readonly planned: Extract<PlanDeployResult, { ok: true }>;
  /** Why the plan cannot be deployed as it stands (namesakes to decide on); undefined when it can. */
  readonly blocked?: string;
  readonly specHash: string;
  readonly liveHash: string;
  readonly planHash: string;
}

export async function planSpec(context: AgentContext, request: PlanRequest): Promise<PlannedSpec> {
  const file = readSpecAt(context, environmentPath(context, request));
  const first = await checkedDocument(context, file, request);
  const { checked } = first;
  let { document } = first;
  const settings = overlayEnvironment(file.path, checked.overlay);
  if (!settings.ok) throw new ToolFailure(settings.message);
  const { environment } = settings;
  const refusal = protectedImageRefusal(environment, document.body);
  if (refusal !== undefined) throw new ToolFailure(`${refusal}, then plan again (nothing was sent)`);
  const client = clientFor(context, environment);
  // A cost limit the check could not price is judged again with the pinned snapshot's or the service's prices.
  const prices = costLimitUnpriced(checked) ? (pinnedCatalog(context)?.catalog ?? (await readPriceCatalog(client))) : undefined;
  if (prices) ({ document } = await checkedDocument(context, file, request, prices));
  const bindings = readSpecBindings(file.path);
  if (!bindings.ok) throw new ToolFailure(`cannot read the bindings of ${request.path}: ${bindings.error}`);
  const ref = { ...bindings.location, documentIndex: document.index };
  // What a deploy sends: for an overlay, its base with it merged in.
  const spec = document.body as Spec;
  let planned = await plan({ client, spec, binding: bindings.binding(document.index) });
  let blocked: string | undefined;
  const decision = decideNamesakes(planned.namesakes, request.namesakes ?? 'refuse');
  if (decision.action === 'refuse') {
    blocked = `${decision.reason}; plan again with namesakes "adopt" to update it and bind the spec to it, or "create-new" to create another`;
  } else if (decision.action === 'adopt') {
    planned = await plan({ client, spec, adopt: decision.endpointId });
  }
  const liveHash = await liveStateHash(client, planned, spec.name);
  return {
    file,
    client,
    document,
    ...(environment ? { environment } : {}),
    ref,
    planned,
    ...(blocked !== undefined ? { blocked } : {}),
    specHash: hashOf(file.text),
    liveHash,
    planHash: planHashOf(planned.plan),
  };
}

/** What must not change between a plan and its deploy: the stock warning may, it moves by the minute and refuses nothing. */
function planHashOf(plan: DeploymentPlan): string {
  const { stock: _stock, ...decided } = plan;
  return hashOf(stableJson(decided));
}

/** The file to plan: the path given, or with an environment, the overlay of it (the path's own when it is one). */
function environmentPath(context: AgentContext, request: PlanRequest): string {
  if (request.environment === undefined) return request.path;
  const picked = specForEnvironment(readSpecAt(context, request.path).path, request.environment);
  if (!picked.ok) throw new ToolFailure(picked.message);
  return picked.path;
}

/** The document to plan: the one asked for, else the file's only spec; refused while it has errors. */
async function checkedDocument(
  context: AgentContext,
  file: SpecFile,
  request: PlanRequest,
  prices?: Catalog,
): Promise<{ document: CheckedDocument; checked: CheckSpecResult }> {
  const checked = await checkSpec({ ...fileCheck(context, file), catalog: { kind: 'none' }, ...(prices ? { prices } : {}) });
  const specs = checked.documents.filter((d) => d.isSpec);
  const document = request.document === undefined ? specs.at(0) : specs.find((d) => d.index === request.document);
  if (request.document === undefined && specs.length > 1)
    throw new ToolFailure(
      `${request.path} holds ${specs.length} spec documents (${specs.map((d) => d.index).join(', ')}); say which with document`,
    );
  const name = relative(context.workspaceRoot, file.path) || file.path;
  refuseByPolicy(name, checked, document);
  const errors = checked.diagnostics
    .filter((d) => d.severity === 'error' && (!document || d.documentIndex === document.index))
    .map(placeDiagnostic);
  if (errors.length > 0 || (document && document.body === undefined))
    throw new ToolFailure(
      [`${name} has errors; fix them first (nothing was sent)`, ...errors.map((p) => problemLine(name, p))].join('\n'),
      { problems: errors },
    );
  if (!document)
    throw new ToolFailure(request.document === undefined ? `${name} holds no spec` : `${name} has no spec document ${request.document}`);
  return { document, checked };
}

/**
 * The team policy refuses the document: a finding left an error (named with its rule), or a broken policy file,
 * which refuses every plan under it until it is fixed.
 */
function refuseByPolicy(name: string, checked: CheckSpecResult, document: CheckedDocument | undefined): void {
  const refused = policyRefusal(checked, document ? [document.index] : undefined);
  if (!refused) return;
  const problems = refused.findings.map(placeDiagnostic);
  const why =
    refused.code === 'policy-invalid'
      ? `${name} is refused (nothing was sent): ${refused.message}`
      : `${name} breaks the team policy (nothing was sent); fix it, or silence the finding with a reason: ${refused.message}`;
  throw new ToolFailure([why, ...problems.map((p) => problemLine(name, p))].join('\n'), { code: refused.code, problems });
}

async function plan(input: Parameters<typeof planDeploy>[0]): Promise<Extract<PlanDeployResult, { ok: true }>> {
  const planned = await planDeploy(input);
  if (!planned.ok) throw new ToolFailure(`cannot plan: ${input.client.redact(planned.message)}`, planned.notFound ? { status: 404 } : {});
  return planned;
}

/** The live configuration the plan was measured against, or the namesakes a create stands next to. */
async function liveStateHash(client: ApiClient, planned: Extract<PlanDeployResult, { ok: true }>, name: unknown): Promise<string> {
  const { target } = planned;
  const endpointId = target.kind === 'bound' ? target.binding.endpointId : target.kind === 'adopted' ? target.endpointId : undefined;
  if (endpointId === undefined) {
    const namesakes = (planned.listed ?? []).filter((e) => e.name === name);
    return liveFingerprint({ target: target.kind, namesakes });
  }
  return fromService(client, `cannot read endpoint ${endpointId}`, async () =>
    liveFingerprint({ target: `${target.kind}:${endpointId}`, endpoint: await client.serverless.get(endpointId) }),
  );
}

/** The plan's changes as data: `before` is live, `after` the spec. */
export function changesOf(plan: DeploymentPlan): { path: string; before?: unknown; after?: unknown }[] {
  if (plan.kind !== 'update' && plan.kind !== 'refused') return [];
  return plan.changes.map((c) => ({
    path: c.path,
    ...(c.before !== undefined ? { before: c.before } : {}),
    ...(c.after !== undefined ? { after: c.after } : {}),
  }));
}

export function hashOf(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/**
 * What a plan depends on in the live state: the bound (or adopted) endpoint's configuration, or,
 * for a create, the endpoints already carrying the spec's name. Worker counts and timestamps are
 * left out: they move all the time and change nothing a plan does.
 */
function liveFingerprint(state: { target: string; endpoint?: Endpoint; namesakes?: readonly { id: string; name: string }[] }): string {
  const endpoint = state.endpoint ? liveAsSpec(state.endpoint) : undefined;
  const namesakes = state.namesakes ? [...state.namesakes].map((e) => e.id).sort() : undefined;
  return hashOf(stableJson({ target: state.target, endpoint, namesakes }));
}
