/**
 * Deploy from the editor: validate, plan, show the plan as a live-vs-spec diff and ask, apply with
 * progress, read back and verify, remember the binding. Problem answers land on the spec lines
 * their `errors` paths name. Drift: show it, or pull the live configuration into the spec.
 */
import * as vscode from 'vscode';
import type { ApiClient, Endpoint } from '../../core/api';
import {
  applyPlan,
  liveAsSpec,
  planDeployment,
  renderPlan,
  updateBindings,
  withBinding,
  withoutBinding,
  type ApplyFailure,
  type ApplyResult,
  type DeploymentPlan,
  type MappedProblem,
  type Spec,
} from '../../core/deploy';
import { locatePath } from '../../core/endpointSpec/locate';
import { readPriceCatalog } from '../../core/billing/priceCatalog';
import { serializeSpec } from '../../core/endpointSpec/serialize';
import { specFormatOf } from '../../core/protocol';
import type { Session } from '../auth/session';
import { liveUri, specUri } from './liveDocuments';
import { bindingFor, specDocuments, type LiveStates, type SpecDocumentInfo } from './specState';

/** What the deploy commands share. */
interface DeployContext {
  readonly session: Session;
  readonly states: LiveStates;
  readonly log: vscode.LogOutputChannel;
  /** Where the service's answer to a failed deploy is marked, on the spec lines it names. */
  readonly problems: vscode.DiagnosticCollection;
}

/** The spec document a command acts on. */
interface SpecTarget {
  readonly text: vscode.TextDocument;
  readonly info: SpecDocumentInfo;
  readonly spec: Spec;
}

type BindingLookup = ReturnType<typeof bindingFor>;

/** A plan the user agreed to apply. */
type ConfirmedPlan = Extract<DeploymentPlan, { kind: 'create' | 'update' }>;

type AppliedResult = Extract<ApplyResult, { ok: true }>;

export function registerDeployCommands(session: Session, states: LiveStates, log: vscode.LogOutputChannel): vscode.Disposable {
  const problems = vscode.languages.createDiagnosticCollection('endpoint-studio-deploy');
  const context: DeployContext = { session, states, log, problems };
  return vscode.Disposable.from(
    problems,
    vscode.commands.registerCommand('endpointStudio.deploy.run', (uri?: vscode.Uri, index?: unknown) => deploy(context, uri, index)),
    vscode.commands.registerCommand('endpointStudio.deploy.diff', (uri?: vscode.Uri, index?: unknown) => showDiff(uri, index)),
    vscode.commands.registerCommand('endpointStudio.deploy.pullIntoSpec', (uri?: vscode.Uri, index?: unknown) =>
      pullIntoSpec(states, uri, index),
    ),
    vscode.workspace.onDidChangeTextDocument((event) => {
      problems.delete(event.document.uri);
    }),
  );
}

/**
 * The spec document a command was invoked on (CodeLenses pass the file and the document's index),
 * or the one under the cursor in the active editor.
 */
async function resolveTarget(uri: vscode.Uri | undefined, index: unknown): Promise<SpecTarget | undefined> {
  const target = uri ?? vscode.window.activeTextEditor?.document.uri;
  if (!target) return void vscode.window.showInformationMessage('open an endpoint spec to deploy it');
  const text = await vscode.workspace.openTextDocument(target);
  const documents = specDocuments(text);
  // Menus other than the CodeLenses pass their own context object second: only a number is an index.
  const chosen = typeof index === 'number' ? index : documentAtCursor(text, documents);
  const info = chosen >= 0 ? documents.at(chosen) : undefined;
  if (!info?.spec) return void vscode.window.showErrorMessage('deploy refused: this document is not a spec (see the Problems panel)');
  return { text, info, spec: info.spec };
}

/** The index of the document holding the cursor; the first when the file is not the active editor. */
function documentAtCursor(text: vscode.TextDocument, documents: readonly SpecDocumentInfo[]): number {
  const editor = vscode.window.activeTextEditor;
  const cursor = editor?.document === text ? text.offsetAt(editor.selection.active) : 0;
  return Math.max(
    0,
    documents.findIndex((d) => cursor <= d.document.span.offset + d.document.span.length),
  );
}

/** Errors the language server reports inside this document of the file. */
function specErrors({ text, info }: SpecTarget): vscode.Diagnostic[] {
  const start = info.document.span.offset;
  const end = start + info.document.span.length;
  return vscode.languages
    .getDiagnostics(text.uri)
    .filter((d) => d.source === 'endpoint-studio' && d.severity === vscode.DiagnosticSeverity.Error)
    .filter((d) => text.offsetAt(d.range.start) >= start && text.offsetAt(d.range.start) <= end);
}

function showProblems(problems: vscode.DiagnosticCollection, { text, info }: SpecTarget, mapped: readonly MappedProblem[]): void {
  problems.set(
    text.uri,
    mapped.map((p) => {
      const span = locatePath(info.document.root, p.segments, 'value', info.document.span);
      const diagnostic = new vscode.Diagnostic(
        new vscode.Range(text.positionAt(span.offset), text.positionAt(span.offset + span.length)),
        `the service rejected this: ${p.message}`,
        vscode.DiagnosticSeverity.Error,
      );
      diagnostic.source = 'endpoint-studio-deploy';
      diagnostic.code = 'service-rejected';
      return diagnostic;
    }),
  );
}

/** Deploys one spec document: resolve it, check it, plan and confirm, apply, report. */
async function deploy(context: DeployContext, uri: vscode.Uri | undefined, index: unknown): Promise<void> {
  const api = await signedInApi(context.session);
  if (!api) return;
  const target = await resolveTarget(uri, index);
  if (!target) return;
  context.problems.delete(target.text.uri);
  if (refusedForErrors(target)) return;
  const bound = bindingFor(target.text.uri, target.info.index);
  if (bound.error) return void vscode.window.showErrorMessage(`deploy refused: ${bound.error}`);
  const live = await liveEndpoint(context, target, bound);
  if (live === 'stop') return;
  const plan = await planAndConfirm(context.session, api, target, live);
  if (!plan) return;
  const result = await applyWithProgress(api, plan, target.spec);
  context.states.invalidate();
  if (result.ok) reportSuccess(context.log, result, bound, target.info.index);
  else reportFailure(context, target, result.failure);
}

/** The client to deploy with; without a profile, offers to sign in or to use the local emulator. */
async function signedInApi(session: Session): Promise<ApiClient | undefined> {
  if (session.api) return session.api;
  const choice = await vscode.window.showWarningMessage('deploy needs a signed-in profile', 'Sign In', 'Use Local Emulator');
  if (choice === 'Sign In') void vscode.commands.executeCommand('endpointStudio.auth.signIn');
  if (choice === 'Use Local Emulator') void vscode.commands.executeCommand('endpointStudio.emulator.use');
  return undefined;
}

/** A spec the language server finds errors in is not sent: the Problems panel says why. */
function refusedForErrors(target: SpecTarget): boolean {
  const errors = specErrors(target);
  if (errors.length === 0) return false;
  void vscode.commands.executeCommand('workbench.actions.view.problems');
  void vscode.window.showErrorMessage(
    `deploy refused: the spec has ${errors.length} error${errors.length === 1 ? '' : 's'}; the first: ${errors[0].message}`,
  );
  return true;
}

/**
 * The endpoint the spec is bound to, read fresh; undefined when there is none to update (never
 * deployed, or deleted elsewhere and the user chose to create it anew); 'stop' when the deploy ends here.
 */
async function liveEndpoint(context: DeployContext, target: SpecTarget, bound: BindingLookup): Promise<Endpoint | undefined | 'stop'> {
  if (!bound.binding) return undefined;
  const live = await context.states.get(target.text.uri, target.info, true);
  switch (live.kind) {
    case 'bound':
      return live.endpoint;
    case 'unbound':
      return undefined;
    case 'unknown':
      context.session.reportError('deploy', new Error(`the bound endpoint ${live.binding.endpointId} could not be read: ${live.reason}`));
      return 'stop';
    case 'missing': {
      const choice = await vscode.window.showWarningMessage(
        `the endpoint ${live.binding.endpointId} bound to this spec was deleted elsewhere`,
        { modal: true },
        'Create It Anew',
      );
      if (choice !== 'Create It Anew') return 'stop';
      updateBindings(bound.root, (store) => withoutBinding(store, bound.key, target.info.index));
      return undefined;
    }
  }
}

/** Plans the deploy, shows it as a live ↔ spec diff and asks; the plan when the user agreed to it. */
async function planAndConfirm(
  session: Session,
  api: ApiClient,
  target: SpecTarget,
  live: Endpoint | undefined,
): Promise<ConfirmedPlan | undefined> {
  const plan = planDeployment(target.spec, live);
  if (plan.kind === 'unchanged')
    return void vscode.window.showInformationMessage(
      `${plan.endpointName} (${plan.endpointId}) already matches the spec: nothing to deploy`,
    );
  // Catalog prices give the plan its always-on cost line; without them the line is left out.
  const summary = renderPlan(plan, { catalog: await readPriceCatalog(api, { timeoutMs: 5000 }) });
  await vscode.commands.executeCommand(
    'vscode.diff',
    liveUri(plan.kind === 'create' ? undefined : plan.endpointId),
    specUri(target.text.uri, target.info.index),
    `${plan.kind === 'create' ? 'New endpoint' : plan.endpointName}: live ↔ spec`,
    { preview: true },
  );
  if (plan.kind === 'refused')
    return void vscode.window.showErrorMessage(`deploy refused: ${plan.problems.map((p) => p.message).join('; ')}`, {
      modal: true,
      detail: summary,
    });
  const verb = verbOf(plan);
  const answer = await vscode.window.showInformationMessage(
    `${verb} endpoint "${String(target.spec.name)}" on ${session.profile?.name}?`,
    { modal: true, detail: summary },
    verb,
  );
  // Back to the spec, where the CodeLens and any problem markers will show the outcome.
  await vscode.window.showTextDocument(target.text, { preview: false });
  return answer === verb ? plan : undefined;
}

function verbOf(plan: ConfirmedPlan): 'Create' | 'Update' {
  return plan.kind === 'create' ? 'Create' : 'Update';
}

function applyWithProgress(api: ApiClient, plan: ConfirmedPlan, spec: Spec): Thenable<ApplyResult> {
  return vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `${verbOf(plan) === 'Create' ? 'Creating' : 'Updating'} ${String(spec.name)}`,
      cancellable: false,
    },
    (progress) =>
      applyPlan(api, plan, {
        onProgress: (_step, message) => {
          progress.report({ message });
        },
      }),
  );
}

/** Marks what the service rejected on the spec and says whether anything changed. */
function reportFailure(context: DeployContext, target: SpecTarget, failure: ApplyFailure): void {
  showProblems(context.problems, target, failure.problems);
  const state = failure.outcomeUnknown
    ? ' The outcome is unknown: refresh the Endpoints view before deploying again.'
    : ' Nothing was changed.';
  const message = context.session.redact(failure.message);
  context.log.error(`deploy failed: ${message}`);
  void vscode.window.showErrorMessage(
    `deploy failed: ${message}.${failure.problems.length > 0 ? ' The problems are marked in the spec.' : ''}${state}`,
  );
}

/** Binds the spec to the endpoint (so the next deploy updates it) and says how the read-back went. */
function reportSuccess(log: vscode.LogOutputChannel, result: AppliedResult, bound: BindingLookup, documentIndex: number): void {
  const saved = updateBindings(bound.root, (store) =>
    withBinding(store, bound.key, documentIndex, {
      endpointId: result.endpoint.id,
      endpointName: result.endpoint.name,
      deployedAt: new Date().toISOString(),
    }),
  );
  if (!saved.ok)
    void vscode.window.showErrorMessage(
      `the endpoint ${result.endpoint.id} was deployed, but the binding was not saved (a new deploy would create another endpoint): ${saved.error}`,
    );
  const verified = result.verified
    ? 'read back and verified'
    : `read back, but it still differs: ${result.differences.map((c) => c.path).join(', ') || result.readBackError}`;
  log.info(`deploy: ${result.action} ${result.endpoint.id} (${verified})`);
  void vscode.commands.executeCommand('endpointStudio.endpoints.refresh').then(undefined, () => undefined);
  void (result.verified ? vscode.window.showInformationMessage : vscode.window.showWarningMessage)(
    `${result.action === 'updated' ? 'Updated' : 'Created'} ${result.endpoint.name} (${result.endpoint.id}): ${verified}`,
  );
}

async function showDiff(uri: vscode.Uri | undefined, index: unknown): Promise<void> {
  const target = await resolveTarget(uri, index);
  if (!target) return;
  const { binding } = bindingFor(target.text.uri, target.info.index);
  const name = target.spec.name;
  await vscode.commands.executeCommand(
    'vscode.diff',
    liveUri(binding?.endpointId),
    specUri(target.text.uri, target.info.index),
    `${typeof name === 'string' ? name : 'spec'}: live ↔ spec`,
  );
}

/** Drift the other way: the live configuration replaces the spec document (undo brings it back). */
async function pullIntoSpec(states: LiveStates, uri: vscode.Uri | undefined, index: unknown): Promise<void> {
  const target = await resolveTarget(uri, index);
  const live = target ? await states.get(target.text.uri, target.info, true) : undefined;
  if (!target || live?.kind !== 'bound')
    return void vscode.window.showErrorMessage('pull failed: this spec is not bound to a live endpoint');
  const root = target.info.document.root;
  if (!root) return;
  const answer = await vscode.window.showWarningMessage(
    `Replace this spec with the live configuration of ${live.endpoint.id}?`,
    {
      modal: true,
      detail: `Changed: ${live.drift.map((c) => c.path).join(', ')}. Comments in this spec document are lost; undo brings them back.`,
    },
    'Replace',
  );
  if (answer !== 'Replace') return;
  const edit = new vscode.WorkspaceEdit();
  const format = specFormatOf(target.text.fileName);
  edit.replace(
    target.text.uri,
    new vscode.Range(target.text.positionAt(root.offset), target.text.positionAt(root.offset + root.length)),
    serializeSpec(liveAsSpec(live.endpoint), format),
  );
  await vscode.workspace.applyEdit(edit);
  states.invalidate();
}
