/**
 * Roll Back to This Release: puts an endpoint back to the configuration of one of its releases, from a
 * release in the Endpoints view, or from the rollout watcher's "Roll Back…" (`{ endpointId }`: the release is
 * asked for). The operations layer works out release N's configuration and plans the update (`planRollback`);
 * this module shows that plan as a deploy's is shown (live ↔ release N, and the plan in a modal), applies it
 * (`applyDeploy`, no document: no binding changes), reports the read-back, watches the rollout, and then offers
 * release N's configuration to the specs bound to the endpoint, as an unsaved edit the user sees and saves.
 * What each bound spec deploys, and whether it is an overlay, is the language server's answer.
 */
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import type { ApiClient, Endpoint } from '../../core/api';
import { readPriceCatalog } from '../../core/billing/priceCatalog';
import { driftBetween, renderPlan } from '../../core/deploy';
import { writeConfigurationIntoSpec } from '../../core/endpointSpec/serialize';
import { planRollback, type PlanRollbackResult } from '../../core/operations';
import { specFormatOf } from '../../core/protocol';
import type { Session } from '../auth/session';
import { applyWithProgress } from '../deploy/commands';
import { planHeader } from '../deploy/environmentDeploy';
import { liveUri, releaseUri, specUri } from '../deploy/liveDocuments';
import { applySpecRewrite } from '../deploy/outsideChanges';
import { ROLLBACK_COMMAND, watchRolloutInEditor } from '../deploy/rollout';
import { specDocuments, type SpecDocumentInfo } from '../deploy/specState';
import { specRoot, unanswered, type SpecFiles } from '../environments/specFile';
import { specsBoundTo, type BoundSpec } from './boundSpecs';
import { target, type EndpointCommandContext } from './endpointCommands';
import { releaseChoices } from './endpointFacts';
import type { EndpointNode } from './endpointsTree';

const UPDATE_SPEC = 'Update the spec';

type Planned = Extract<PlanRollbackResult, { ok: true }>;

/** What the rollback acts on: the endpoint (its record when the caller had one) and the release, when chosen. */
interface RollbackTarget {
  readonly endpointId: string;
  readonly endpoint?: Endpoint;
  readonly version?: number;
}

/** What a rollback needs: the Endpoints view's commands' context, and the language server's answers about specs. */
interface RollbackContext extends EndpointCommandContext {
  readonly files: SpecFiles;
}

export function registerRollback(context: EndpointCommandContext, files: SpecFiles): vscode.Disposable {
  return vscode.commands.registerCommand(ROLLBACK_COMMAND, (arg?: unknown) => rollback({ ...context, files }, arg));
}

/** A release node, `{ endpointId, version? }` (the rollout watcher's button), or an endpoint's node. */
function targetOf(arg: unknown): RollbackTarget | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  if ('kind' in arg) {
    const node = arg as EndpointNode;
    if (node.kind === 'release') return { endpointId: node.endpoint.id, endpoint: node.endpoint, ...versionOf(node.release.version) };
    return node.kind === 'message' ? undefined : { endpointId: node.endpoint.id, endpoint: node.endpoint };
  }
  const { endpointId, version } = arg as { endpointId?: unknown; version?: unknown };
  return typeof endpointId === 'string' && endpointId !== '' ? { endpointId, ...versionOf(version) } : undefined;
}

const isRelease = (arg: unknown): boolean => typeof arg === 'object' && arg !== null && (arg as { kind?: unknown }).kind === 'release';

const versionOf = (version: unknown): { version?: number } =>
  typeof version === 'number' && Number.isInteger(version) && version > 0 ? { version } : {};

async function rollback(context: RollbackContext, arg: unknown): Promise<void> {
  const { session } = context;
  const api = session.api;
  if (!api) return void vscode.window.showErrorMessage('rollback failed: sign in, or use the local emulator, to roll an endpoint back');
  const chosen = targetOf(arg) ?? (await fromPalette(context));
  if (!chosen) return;
  if (isRelease(arg) && chosen.version === undefined)
    return void vscode.window.showErrorMessage('rollback failed: the service did not say which version this release is');
  const endpoint = chosen.endpoint ?? (await readEndpoint(session, api, chosen.endpointId));
  if (!endpoint) return;
  const version = chosen.version ?? (await pickRelease(session, api, endpoint));
  if (version === undefined) return;
  const planned = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Planning the rollback of ${endpoint.name} to release ${version}…` },
    () => planRollback({ client: api, endpointId: endpoint.id, toVersion: version }),
  );
  if (!planned.ok) return void vscode.window.showErrorMessage(`rollback failed: ${session.redact(planned.message)}`);
  if (!(await confirmRollback(session, api, endpoint, planned))) return;
  if (!(await applyRollback(context, api, endpoint, planned))) return;
  // The configuration is release N's whatever the rollout does; the watcher says how that goes.
  await watchRolloutInEditor(session, endpoint, api);
  for (const bound of await specsBoundTo(endpoint.id, context.log))
    if (existsSync(bound.uri.fsPath)) await offerSpecUpdate(context, endpoint, planned, bound);
}

/** From the Command Palette: the endpoint selected in the view, or one the user picks. */
async function fromPalette(context: EndpointCommandContext): Promise<RollbackTarget | undefined> {
  const selected = context.view.selection.at(0);
  if (selected?.kind === 'release') return targetOf(selected);
  const chosen = await target(context, undefined);
  return chosen && { endpointId: chosen.endpoint.id, endpoint: chosen.endpoint };
}

async function readEndpoint(session: Session, api: ApiClient, endpointId: string): Promise<Endpoint | undefined> {
  try {
    return await api.serverless.get(endpointId);
  } catch (error) {
    session.reportError(`Reading endpoint ${endpointId}`, error);
    return undefined;
  }
}

/** Which release to go back to: newest first, each with what it changed; the one the endpoint is on is left out. */
async function pickRelease(session: Session, api: ApiClient, endpoint: Endpoint): Promise<number | undefined> {
  let choices;
  let current: number | undefined;
  try {
    const list = await api.serverless.releases(endpoint.id);
    choices = releaseChoices(list, endpoint.scaling.type);
    current = list.endpointVersion;
  } catch (error) {
    session.reportError(`Listing the releases of ${endpoint.name}`, error);
    return undefined;
  }
  if (choices.length === 0) return void vscode.window.showInformationMessage(`${endpoint.name} has no earlier release to roll back to`);
  const picked = await vscode.window.showQuickPick(choices, {
    title: `Roll back ${endpoint.name} to which release?`,
    placeHolder: `it is on release ${current ?? '?'} now; each release lists the fields it changed`,
    matchOnDescription: true,
  });
  return picked?.version;
}

/** The plan as a deploy's is shown: live ↔ release N as a diff, then the plan in a modal; whether the user agreed. */
async function confirmRollback(session: Session, api: ApiClient, endpoint: Endpoint, planned: Planned): Promise<boolean> {
  const { plan, toVersion } = planned;
  const to = `release ${toVersion}`;
  if (plan.kind === 'unchanged') {
    void vscode.window.showInformationMessage(`${endpoint.name} already has the configuration of ${to}: nothing to roll back`);
    return false;
  }
  const header = planHeader({ api, profile: session.profile?.name ?? 'active', overridden: false }, endpoint.id);
  await vscode.commands.executeCommand(
    'vscode.diff',
    liveUri(endpoint.id),
    releaseUri(endpoint.id, toVersion),
    `${endpoint.name}: live ↔ ${to} (${header})`,
    { preview: true },
  );
  // The plan's notes name the fields a newer release changed that this client cannot roll back.
  const summary = renderPlan(plan, { catalog: await readPriceCatalog(api, { timeoutMs: 5000 }) });
  if (plan.kind !== 'update') {
    const why = plan.kind === 'refused' ? plan.problems.map((p) => p.message).join('; ') : `the plan is a ${plan.kind}`;
    void vscode.window.showErrorMessage(`rollback refused: ${why}`, { modal: true, detail: summary });
    return false;
  }
  const from = planned.fromVersion === undefined ? '' : ` from release ${planned.fromVersion}`;
  const answer = await vscode.window.showWarningMessage(
    `Roll back ${endpoint.name}${from} to ${to}? ${header}`,
    { modal: true, detail: `${summary}\n\nThe specs bound to it are not changed now: you are asked afterwards.` },
    'Roll Back',
  );
  return answer === 'Roll Back';
}

/** Applies the plan with progress and reports the read-back as a deploy does; whether it was applied. */
async function applyRollback(context: EndpointCommandContext, api: ApiClient, endpoint: Endpoint, planned: Planned): Promise<boolean> {
  const { session, log, tree } = context;
  const to = `release ${planned.toVersion}`;
  // The specs bound to the endpoint record the rollback as their last release: it is no change made outside.
  const bound = (await specsBoundTo(endpoint.id, log)).at(0);
  const outcome = await applyWithProgress(`Rolling back ${endpoint.name} to ${to}`, {
    client: api,
    plan: planned.plan,
    target: planned.target,
    ...(bound ? { rolledBackIn: specRoot(bound.uri) } : {}),
  });
  void tree.refresh();
  if (!outcome.ok) {
    const { failure } = outcome.applied;
    const message = session.redact(failure.message);
    log.error(`rollback failed: ${message}`);
    const state = failure.outcomeUnknown
      ? ' The outcome is unknown: refresh the Endpoints view before trying again.'
      : ' Nothing was changed.';
    void vscode.window.showErrorMessage(`rollback failed: ${message}.${state}`);
    return false;
  }
  const { applied } = outcome;
  const verified = applied.verified
    ? 'read back and verified'
    : `read back, but it still differs: ${applied.differences.map((c) => c.path).join(', ') || applied.readBackError}`;
  log.info(`rollback: ${endpoint.id} to ${to} (${verified})`);
  void (applied.verified ? vscode.window.showInformationMessage : vscode.window.showWarningMessage)(
    `Rolled back ${endpoint.name} (${endpoint.id}) to ${to}: ${verified}`,
  );
  return true;
}

/**
 * Each spec bound to the endpoint that no longer describes it is offered release N's configuration (deploying
 * it unchanged would undo the rollback). A plain spec document gets it as an unsaved edit when the user says
 * so; an environment's overlay holds only its differences from the base, so it is never rewritten: the fields
 * that differ are named and the diff opened on request.
 */
async function offerSpecUpdate(context: RollbackContext, endpoint: Endpoint, planned: Planned, bound: BoundSpec): Promise<void> {
  const text = await vscode.workspace.openTextDocument(bound.uri);
  let info: SpecDocumentInfo | undefined;
  try {
    info = (await specDocuments(context.files, text, bound.documentIndex)).at(0);
  } catch (error) {
    context.log.warn(`rollback: ${bound.key} was not offered the release: ${unanswered(error)}`);
    return;
  }
  // Release N's configuration as a pull writes one, set into the document: its `$schema`, comments and key order stay.
  const rewritten =
    info?.spec && writeConfigurationIntoSpec(text.getText(), specFormatOf(text.fileName), bound.documentIndex, planned.spec);
  if (!info?.spec || !rewritten) {
    context.log.warn(`rollback: ${bound.key} is not a spec document now; it was not offered the release`);
    return;
  }
  const differing = driftBetween(info.spec, planned.spec).map((c) => c.path);
  if (differing.length === 0) return;
  const file = vscode.workspace.asRelativePath(bound.uri);
  const to = `release ${planned.toVersion}`;
  if (info.overlay) {
    const choice = await vscode.window.showInformationMessage(
      `${file} is an environment's overlay, so it is not rewritten: what it deploys differs from ${to} in ${differing.join(', ')}`,
      'Open Diff',
    );
    if (choice === 'Open Diff')
      await vscode.commands.executeCommand(
        'vscode.diff',
        specUri(bound.uri, bound.documentIndex),
        releaseUri(endpoint.id, planned.toVersion),
        `${file} ↔ ${endpoint.name} ${to}`,
      );
    return;
  }
  const choice = await vscode.window.showInformationMessage(
    `Write the configuration of ${to} into ${file}? It differs in ${differing.join(', ')}; deploying it as it is would undo the rollback.`,
    UPDATE_SPEC,
    'Not now',
  );
  if (choice !== UPDATE_SPEC) return;
  // Shown first, so the edit lands in an editor the user is looking at.
  await vscode.window.showTextDocument(text, { preview: false });
  // Applied, not saved: the user reads it and saves it, and undo brings the old text back.
  if (!(await applySpecRewrite(text, rewritten))) return void vscode.window.showErrorMessage(`rollback: ${file} could not be edited`);
}
