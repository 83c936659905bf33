/**
 * Deploy from the editor on the operations layer (`core/operations`), which plans against the live
 * state (naming any namesakes), applies with read-back and binds; this module asks (the plan as a
 * live ↔ spec diff and a modal), shows progress and reports. The spec's errors are the language
 * server's, already on screen. Problem answers land on the spec lines their `errors` paths name.
 * Drift: show it, or pull the live configuration into the spec. An overlay deploys its merged body to its
 * environment's endpoint with that environment's profile (environmentDeploy.ts).
 */
import * as vscode from 'vscode';
import { renderPlan, type ApplyFailure, type MappedProblem } from '../../core/deploy';
import { writeConfigurationIntoSpec } from '../../core/endpointSpec/serialize';
import { readPriceCatalog } from '../../core/billing/priceCatalog';
import {
  applyDeploy,
  forgetBinding,
  needsApplying,
  planDeploy,
  protectedImageRefusal,
  pullSpec,
  type ApplyDeployInput,
  type ApplyDeployResult,
  type PlanDeployResult,
  type SpecDocumentRef,
} from '../../core/operations';
import { specFormatOf } from '../../core/protocol';
import type { Session } from '../auth/session';
import type { SpecClients } from '../environments/clients';
import { rangeOfSpan } from '../environments/specFile';
import { plural } from '../../core/util/plural';
import { noteDeployed } from '../walkthrough';
import { registerBindCommand } from './bindCommand';
import { liveUri, specUri } from './liveDocuments';
import { confirmProtected, deployClientFor, planHeader, type DeployClient } from './environmentDeploy';
import { chooseForNamesakes } from './namesakes';
import { applySpecRewrite, chooseForOutsideChanges } from './outsideChanges';
import { watchRolloutInEditor } from './rollout';
import { bindingFor, type LiveStates } from './specState';
import { resolveTarget, targetBindings, type SpecTarget } from './target';

/** What the deploy commands share. */
interface DeployContext {
  readonly session: Session;
  readonly clients: SpecClients;
  readonly states: LiveStates;
  readonly log: vscode.LogOutputChannel;
  /** Where the service's answer to a failed deploy is marked, on the spec lines it names. */
  readonly problems: vscode.DiagnosticCollection;
}

type Planned = Extract<PlanDeployResult, { ok: true }>;
type Applied = Extract<ApplyDeployResult, { ok: true }>;

export function registerDeployCommands(clients: SpecClients, states: LiveStates, log: vscode.LogOutputChannel): vscode.Disposable {
  const problems = vscode.languages.createDiagnosticCollection('endpoint-studio-deploy');
  const session = clients.session;
  const context: DeployContext = { session, clients, states, log, problems };
  return vscode.Disposable.from(
    problems,
    vscode.commands.registerCommand('endpointStudio.deploy.run', (uri?: vscode.Uri, index?: unknown) => deploy(context, uri, index)),
    vscode.commands.registerCommand('endpointStudio.deploy.diff', (uri?: vscode.Uri, index?: unknown) => showDiff(clients, uri, index)),
    vscode.commands.registerCommand('endpointStudio.deploy.pullIntoSpec', (uri?: vscode.Uri, index?: unknown) =>
      pullIntoSpec(context, uri, index),
    ),
    registerBindCommand(clients, states),
    vscode.workspace.onDidChangeTextDocument((event) => {
      problems.delete(event.document.uri);
    }),
  );
}

/** Errors the language server reports inside this document of the file. */
function specErrors({ text, info }: SpecTarget): vscode.Diagnostic[] {
  const start = info.span.offset;
  const end = start + info.span.length;
  return vscode.languages
    .getDiagnostics(text.uri)
    .filter((d) => d.source === 'endpoint-studio' && d.severity === vscode.DiagnosticSeverity.Error)
    .filter((d) => text.offsetAt(d.range.start) >= start && text.offsetAt(d.range.start) <= end);
}

/** Marks each field the service refused on its line; the server finds the fields, on the document's first line if it cannot. */
async function showProblems(
  { clients, problems }: DeployContext,
  { text, info }: SpecTarget,
  mapped: readonly MappedProblem[],
): Promise<void> {
  const paths = mapped.map((p) => p.segments);
  const spans = await clients.files.locate(text.uri, info.index, paths).then(
    (located) => located.spans,
    () => [],
  );
  problems.set(
    text.uri,
    mapped.map((p, i) => {
      const span = spans.at(i);
      const diagnostic = new vscode.Diagnostic(
        span ? rangeOfSpan(text, span) : text.lineAt(info.range.start.line).range,
        `the service rejected this: ${p.message}`,
        vscode.DiagnosticSeverity.Error,
      );
      diagnostic.source = 'endpoint-studio-deploy';
      diagnostic.code = 'service-rejected';
      return diagnostic;
    }),
  );
}

/** How a deploy ended, for its one log line: `deploy stopped: cancelled at the plan`. */
interface Ended {
  readonly how: 'done' | 'stopped' | 'failed';
  readonly detail: string;
}

const stopped = (detail: string): Ended => ({ how: 'stopped', detail });

/** Deploys one spec document and logs how it ended, whatever ended it: a question, a refusal, a failure. */
async function deploy(context: DeployContext, uri: vscode.Uri | undefined, index: unknown): Promise<void> {
  const { how, detail } = await deployDocument(context, uri, index);
  context.log[how === 'failed' ? 'error' : 'info'](`deploy ${how}: ${detail}`);
}

/** Resolve the document, check it, plan and confirm, apply, report. */
async function deployDocument(context: DeployContext, uri: vscode.Uri | undefined, index: unknown): Promise<Ended> {
  const target = await resolveTarget(context.clients.files, uri, index);
  if (!target) return stopped('no spec document to deploy');
  const client = await deployClientFor(context.clients, target);
  if (!client) return stopped('no profile to deploy with (refused or not chosen)');
  const { api } = client;
  context.problems.delete(target.text.uri);
  const refused = refusalForErrors(target);
  if (refused !== undefined) return stopped(refused);
  const unpinned = protectedImageRefusal(target.environment, target.spec);
  if (unpinned !== undefined) {
    void vscode.window.showErrorMessage(`deploy refused: ${unpinned}`);
    return stopped(unpinned);
  }
  const bindings = targetBindings(target);
  if (!bindings.ok) {
    void vscode.window.showErrorMessage(`deploy refused: ${bindings.error}`);
    return stopped(bindings.error);
  }
  const ref: SpecDocumentRef = { ...bindings.location, documentIndex: target.info.index };
  const planned = await planDeploy({ client: api, spec: target.spec, binding: bindings.binding(ref.documentIndex) });
  if (!planned.ok) {
    context.session.reportError('deploy', new Error(planned.message));
    return { how: 'failed', detail: context.session.redact(planned.message) };
  }
  if (planned.target.kind === 'missing' && !(await createAnew(planned.target.binding.endpointId, ref)))
    return stopped('its deleted endpoint was not created anew');
  const confirmed = await confirmPlan(context.session, client, target, planned);
  if ('stopped' in confirmed) return stopped(confirmed.stopped);
  if (!(await confirmProtected(target.environment))) return stopped(`${target.environment?.name ?? ''}'s name was not typed`);
  const outcome = await applyWithProgress(`${confirmed.plan.kind === 'create' ? 'Creating' : 'Updating'} ${String(target.spec.name)}`, {
    client: api,
    plan: confirmed.plan,
    target: confirmed.target,
    document: ref,
    ...(confirmed.listed ? { listed: confirmed.listed } : {}),
  });
  context.states.invalidate();
  if (!outcome.ok) return { how: 'failed', detail: await reportFailure(context, target, outcome.applied.failure) };
  // A create or a change is a new release, which the service rolls out worker by worker.
  const { action, endpoint } = outcome.applied;
  if (action !== 'unchanged') void watchRolloutInEditor(context.session, endpoint, api);
  return { how: 'done', detail: reportSuccess(outcome, confirmed) };
}

/**
 * A spec the language server finds errors in is not sent: the Problems panel says why. The server's answer for
 * this very text decides, so a deploy never goes ahead on problems not yet drawn (a policy file just saved); a
 * finding of the team policy refuses with its own message, which names the rule, and a broken policy refuses all.
 */
function refusalForErrors(target: SpecTarget): string | undefined {
  const { brokenPolicy, errors: answered } = target.info;
  const shown = specErrors(target);
  const policyFinding = answered.find((e) => e.code.startsWith('policy-'));
  const why =
    brokenPolicy ??
    policyFinding?.message ??
    (answered.length > 0 || shown.length > 0
      ? `the spec has ${plural(Math.max(answered.length, shown.length), 'error')}; the first: ${answered.at(0)?.message ?? shown[0].message}`
      : undefined);
  if (why === undefined) return undefined;
  void vscode.commands.executeCommand('workbench.actions.view.problems');
  void vscode.window.showErrorMessage(`deploy refused: ${why}`);
  return why;
}

/** The bound endpoint was deleted elsewhere: create it anew only when asked to, forgetting the old binding. */
async function createAnew(endpointId: string, ref: SpecDocumentRef): Promise<boolean> {
  const choice = await vscode.window.showWarningMessage(
    `the endpoint ${endpointId} bound to this spec was deleted elsewhere`,
    { modal: true },
    'Create It Anew',
  );
  if (choice !== 'Create It Anew') return false;
  forgetBinding(ref);
  return true;
}

/** Why a deploy stops at the question about changes made outside. */
const OUTSIDE_STOPS = {
  kept: 'the live values of the changes made outside were kept in the spec',
  cancelled: 'cancelled at the changes made outside',
  unwritable: 'the live values could not be written into the spec',
} as const;

/** A plan the user agreed to, or why nothing is applied. */
type Confirmed = Planned | { readonly stopped: string };

/**
 * Shows the plan as a live ↔ spec diff and asks; the plan the user agreed to. A create next to
 * namesakes asks first whether to update one of them and bind it, or to create another.
 */
async function confirmPlan(session: Session, client: DeployClient, target: SpecTarget, planned: Planned): Promise<Confirmed> {
  const { plan } = planned;
  const { api } = client;
  if (!needsApplying(plan, planned.target) && plan.kind === 'unchanged') {
    const matches = `${plan.endpointName} (${plan.endpointId}) already matches the spec`;
    void vscode.window.showInformationMessage(`${matches}: nothing to deploy`);
    return { stopped: matches };
  }
  // Catalog prices give the plan its always-on cost line; without them the line is left out.
  const summary = `${renderPlan(plan, { catalog: await readPriceCatalog(api, { timeoutMs: 5000 }) })}${replacedNote(target)}`;
  const header = planHeader(client, plan.kind === 'create' ? 'new endpoint' : plan.endpointId);
  await showPlanDiff(target, planned, client, header);
  if (plan.kind === 'refused') {
    const reasons = plan.problems.map((p) => p.message).join('; ');
    void vscode.window.showErrorMessage(`deploy refused: ${reasons}`, { modal: true, detail: summary });
    return { stopped: `the plan was refused: ${reasons}` };
  }
  if (plan.kind === 'create' && planned.namesakes.length > 0) return adoptOrCreate(session, client, target, planned, summary);
  // Overwriting what was changed outside is chosen here, with the plan: that choice is the confirmation.
  const outside = await chooseForOutsideChanges(target, plan, header, summary);
  if (outside === 'overwrite') return planned;
  if (outside !== 'none') return { stopped: OUTSIDE_STOPS[outside] };
  // An adopted namesake that already matches needs no question beyond the one that chose it.
  if (plan.kind === 'unchanged') return planned;
  const verb = plan.kind === 'create' ? 'Create' : 'Update';
  const bindNote = planned.target.kind === 'adopted' ? '\n\nThe spec will be bound to this endpoint.' : '';
  const answer = await vscode.window.showInformationMessage(
    `${verb} endpoint "${String(target.spec.name)}"? ${header}`,
    { modal: true, detail: `${summary}${bindNote}` },
    verb,
  );
  // Back to the spec, where the CodeLens and any problem markers will show the outcome.
  await vscode.window.showTextDocument(target.text, { preview: false });
  return answer === verb ? planned : { stopped: 'cancelled at the plan' };
}

/** The namesake question; adopting one replans as an update of it, which is shown and confirmed in turn. */
async function adoptOrCreate(
  session: Session,
  client: DeployClient,
  target: SpecTarget,
  planned: Planned,
  summary: string,
): Promise<Confirmed> {
  const choice = await chooseForNamesakes(String(target.spec.name), planned.namesakes, summary);
  await vscode.window.showTextDocument(target.text, { preview: false });
  if (choice === undefined) return { stopped: 'cancelled at the namesake question' };
  if (choice.action === 'create') return planned;
  const adopted = await planDeploy({ client: client.api, spec: target.spec, adopt: choice.endpointId });
  if (!adopted.ok) {
    const message = `cannot read endpoint ${choice.endpointId}: ${adopted.message}`;
    session.reportError('deploy', new Error(message));
    return { stopped: session.redact(message) };
  }
  return confirmPlan(session, client, target, adopted);
}

/** The arrays an overlay replaces whole, which a reader of the merged plan could take for a merge. */
function replacedNote({ info }: SpecTarget): string {
  const replaced = info.overlay?.replacedArrays ?? [];
  return replaced.length > 0 ? `\nReplaced whole by this environment (not merged with the base): ${replaced.join(', ')}` : '';
}

async function showPlanDiff(target: SpecTarget, { plan, namesakes }: Planned, client: DeployClient, header: string): Promise<void> {
  const taken = namesakes.length > 0 ? ` (name taken by ${namesakes.map((e) => e.id).join(', ')})` : '';
  await vscode.commands.executeCommand(
    'vscode.diff',
    liveUri(plan.kind === 'create' ? undefined : plan.endpointId, client.profile),
    // Compared with the endpoint planned against: an adopted namesake is not bound yet, and the profile may be another.
    specUri(target.text.uri, target.info.index, plan.kind === 'create' ? 'none' : { endpointId: plan.endpointId, profile: client.profile }),
    `${plan.kind === 'create' ? `New endpoint${taken}` : plan.endpointName}: live ↔ spec (${header})`,
    { preview: true },
  );
}

/** Applies with the steps in a progress notification; the rollback applies its plan the same way. */
export function applyWithProgress(title: string, input: Omit<ApplyDeployInput, 'onProgress'>): Thenable<ApplyDeployResult> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title }, (progress) =>
    applyDeploy({
      ...input,
      onProgress: (_step, message) => {
        progress.report({ message });
      },
    }),
  );
}

/** Marks what the service rejected on the spec and says whether anything changed; the failure, redacted, for the log. */
async function reportFailure(context: DeployContext, target: SpecTarget, failure: ApplyFailure): Promise<string> {
  await showProblems(context, target, failure.problems);
  const state = failure.outcomeUnknown
    ? ' The outcome is unknown: refresh the Endpoints view before deploying again.'
    : ' Nothing was changed.';
  const message = context.session.redact(failure.message);
  void vscode.window.showErrorMessage(
    `deploy failed: ${message}.${failure.problems.length > 0 ? ' The problems are marked in the spec.' : ''}${state}`,
  );
  return message;
}

/** Says how the read-back went and whether the spec is now bound to the endpoint; what was done, for the log. */
function reportSuccess({ applied, binding }: Applied, planned: Planned): string {
  if (binding && !binding.saved)
    void vscode.window.showErrorMessage(
      `the endpoint ${applied.endpoint.id} was deployed, but the binding was not saved (a new deploy would create another endpoint): ${binding.error}`,
    );
  const verified = applied.verified
    ? 'read back and verified'
    : `read back, but it still differs: ${applied.differences.map((c) => c.path).join(', ') || applied.readBackError}`;
  noteDeployed();
  void vscode.commands.executeCommand('endpointStudio.endpoints.refresh').then(undefined, () => undefined);
  const action = { created: 'Created', reconciled: 'Created', updated: 'Updated', unchanged: 'Bound' }[applied.action];
  const bound = planned.target.kind === 'adopted' && applied.action !== 'unchanged' ? ' and bound the spec to it' : '';
  void (applied.verified ? vscode.window.showInformationMessage : vscode.window.showWarningMessage)(
    `${action} ${applied.endpoint.name} (${applied.endpoint.id})${bound}: ${verified}`,
  );
  return `${applied.action} ${applied.endpoint.id} (${verified})`;
}

async function showDiff(clients: SpecClients, uri: vscode.Uri | undefined, index: unknown): Promise<void> {
  const target = await resolveTarget(clients.files, uri, index, 'diff');
  if (!target) return;
  const binding = bindingFor(target.text.uri, target.info.index);
  const client = await clients.forSpec(target.text.uri, target.info);
  const name = target.spec.name;
  const where = target.environment ? ` (${target.environment.name})` : '';
  const profile = client.ok ? client.client.profile.name : target.environment?.profile;
  await vscode.commands.executeCommand(
    'vscode.diff',
    liveUri(binding?.endpointId, profile),
    specUri(target.text.uri, target.info.index, binding ? { endpointId: binding.endpointId, ...(profile ? { profile } : {}) } : 'none'),
    `${typeof name === 'string' ? name : 'spec'}${where}: live ↔ spec`,
  );
}

/** Drift the other way: the live configuration, read fresh, replaces the spec document (undo brings it back). */
async function pullIntoSpec(context: DeployContext, uri: vscode.Uri | undefined, index: unknown): Promise<void> {
  const target = await resolveTarget(context.clients.files, uri, index, 'pull');
  if (target?.info.overlay)
    return void vscode.window.showErrorMessage(
      'pull refused: this file is an overlay, which holds only what differs from its base; use Diff and edit the overlay or its base',
    );
  const live = target ? await context.states.get(target.text.uri, target.info, true) : undefined;
  const api = context.session.api;
  if (!target || live?.kind !== 'bound' || !api)
    return void vscode.window.showErrorMessage('pull failed: this spec is not bound to a live endpoint');
  const answer = await vscode.window.showWarningMessage(
    `Replace this spec with the live configuration of ${live.endpoint.id}?`,
    {
      modal: true,
      detail: `Changed: ${live.drift.map((c) => c.path).join(', ')}. Its comments and $schema stay; undo brings the old values back.`,
    },
    'Replace',
  );
  if (answer !== 'Replace') return;
  const pulled = await pullSpec({ client: api, endpointId: live.endpoint.id, format: specFormatOf(target.text.fileName) });
  if (!pulled.ok) {
    context.session.reportError('pull', new Error(pulled.message));
    return;
  }
  // Set into the document as it is now: only the values that differ change; its `$schema` and comments stay.
  const { text } = target;
  const rewritten = writeConfigurationIntoSpec(text.getText(), specFormatOf(text.fileName), target.info.index, pulled.spec);
  if (!rewritten) return void vscode.window.showErrorMessage('pull failed: this spec document cannot be read as a mapping');
  await applySpecRewrite(text, rewritten);
  context.states.invalidate();
}
