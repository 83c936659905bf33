/**
 * Deploy from the editor: validate, plan, show the plan as a live-vs-spec diff and ask, apply with
 * progress, read back and verify, remember the binding. Problem answers land on the spec lines
 * their `errors` paths name. Drift: show it, or pull the live configuration into the spec.
 */
import * as vscode from 'vscode';
import {
  applyPlan,
  liveAsSpec,
  planDeployment,
  renderPlan,
  updateBindings,
  withBinding,
  withoutBinding,
  type MappedProblem,
} from '../../core/deploy';
import { locatePath } from '../../core/endpointSpec/locate';
import { readPriceCatalog } from '../../core/billing/priceCatalog';
import { serializeSpec } from '../../core/endpointSpec/serialize';
import type { Session } from '../auth/session';
import { liveUri, specUri } from './liveDocuments';
import { bindingFor, specDocuments, type LiveStates, type SpecDocumentInfo } from './specState';

type Target = [vscode.Uri?, number?];

export function registerDeployCommands(session: Session, states: LiveStates, log: vscode.LogOutputChannel): vscode.Disposable {
  const problems = vscode.languages.createDiagnosticCollection('endpoint-studio-deploy');

  async function resolveTarget(
    uri?: vscode.Uri,
    index?: number,
  ): Promise<{ text: vscode.TextDocument; info: SpecDocumentInfo } | undefined> {
    const target = uri ?? vscode.window.activeTextEditor?.document.uri;
    if (!target) return void vscode.window.showInformationMessage('open an endpoint spec to deploy it');
    const text = await vscode.workspace.openTextDocument(target);
    const documents = specDocuments(text);
    let chosen = index;
    if (chosen === undefined) {
      const cursor = vscode.window.activeTextEditor?.document === text ? text.offsetAt(vscode.window.activeTextEditor.selection.active) : 0;
      chosen = Math.max(
        0,
        documents.findIndex((d) => cursor <= d.document.span.offset + d.document.span.length),
      );
    }
    const info = documents[chosen];
    if (!info?.spec) return void vscode.window.showErrorMessage('deploy refused: this document is not a spec (see the Problems panel)');
    return { text, info };
  }

  /** Errors the language server reports inside this document of the file. */
  function specErrors(text: vscode.TextDocument, info: SpecDocumentInfo): vscode.Diagnostic[] {
    const start = info.document.span.offset;
    const end = start + info.document.span.length;
    return vscode.languages
      .getDiagnostics(text.uri)
      .filter((d) => d.source === 'endpoint-studio' && d.severity === vscode.DiagnosticSeverity.Error)
      .filter((d) => text.offsetAt(d.range.start) >= start && text.offsetAt(d.range.start) <= end);
  }

  function showProblems(text: vscode.TextDocument, info: SpecDocumentInfo, mapped: readonly MappedProblem[]): void {
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

  async function deploy(...[uri, index]: Target): Promise<void> {
    const api = session.api;
    if (!api) {
      const choice = await vscode.window.showWarningMessage('deploy needs a signed-in profile', 'Sign In', 'Use Local Emulator');
      if (choice === 'Sign In') void vscode.commands.executeCommand('endpointStudio.auth.signIn');
      if (choice === 'Use Local Emulator') void vscode.commands.executeCommand('endpointStudio.emulator.use');
      return;
    }
    const target = await resolveTarget(uri, index);
    if (!target) return;
    const { text, info } = target;
    problems.delete(text.uri);
    const errors = specErrors(text, info);
    if (errors.length > 0) {
      void vscode.commands.executeCommand('workbench.actions.view.problems');
      return void vscode.window.showErrorMessage(
        `deploy refused: the spec has ${errors.length} error${errors.length === 1 ? '' : 's'}; the first: ${errors[0].message}`,
      );
    }
    const bound = bindingFor(text.uri, info.index);
    if (bound.error) return void vscode.window.showErrorMessage(`deploy refused: ${bound.error}`);
    let live = bound.binding ? await states.get(text.uri, info, true) : undefined;
    if (live?.kind === 'unknown') {
      session.reportError('deploy', new Error(`the bound endpoint ${live.binding.endpointId} could not be read: ${live.reason}`));
      return;
    }
    if (live?.kind === 'missing') {
      const choice = await vscode.window.showWarningMessage(
        `the endpoint ${live.binding.endpointId} bound to this spec was deleted elsewhere`,
        { modal: true },
        'Create It Anew',
      );
      if (choice !== 'Create It Anew') return;
      updateBindings(bound.root, (store) => withoutBinding(store, bound.key, info.index));
      live = undefined;
    }
    const plan = planDeployment(info.spec!, live?.kind === 'bound' ? live.endpoint : undefined);
    // Catalog prices give the plan its always-on cost line; without them the line is left out.
    const summary = renderPlan(plan, { catalog: plan.kind === 'unchanged' ? undefined : await readPriceCatalog(api, { timeoutMs: 5000 }) });
    if (plan.kind === 'unchanged')
      return void vscode.window.showInformationMessage(
        `${plan.endpointName} (${plan.endpointId}) already matches the spec: nothing to deploy`,
      );
    await vscode.commands.executeCommand(
      'vscode.diff',
      liveUri(plan.kind === 'create' ? undefined : plan.endpointId),
      specUri(text.uri, info.index),
      `${plan.kind === 'create' ? 'New endpoint' : plan.endpointName}: live ↔ spec`,
      { preview: true },
    );
    if (plan.kind === 'refused')
      return void vscode.window.showErrorMessage(`deploy refused: ${plan.problems.map((p) => p.message).join('; ')}`, {
        modal: true,
        detail: summary,
      });
    const verb = plan.kind === 'create' ? 'Create' : 'Update';
    const answer = await vscode.window.showInformationMessage(
      `${verb} endpoint "${String(info.spec!.name)}" on ${session.profile?.name}?`,
      { modal: true, detail: summary },
      verb,
    );
    // Back to the spec, where the CodeLens and any problem markers will show the outcome.
    await vscode.window.showTextDocument(text, { preview: false });
    if (answer !== verb) return;

    const result = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `${verb === 'Create' ? 'Creating' : 'Updating'} ${String(info.spec!.name)}`,
        cancellable: false,
      },
      (progress) =>
        applyPlan(api, plan, {
          onProgress: (_step, message) => {
            progress.report({ message });
          },
        }),
    );
    states.invalidate();
    if (!result.ok) {
      showProblems(text, info, result.failure.problems);
      const state = result.failure.outcomeUnknown
        ? ' The outcome is unknown: refresh the Endpoints view before deploying again.'
        : ' Nothing was changed.';
      log.error(`deploy failed: ${session.redact(result.failure.message)}`);
      return void vscode.window.showErrorMessage(
        `deploy failed: ${session.redact(result.failure.message)}.${result.failure.problems.length > 0 ? ' The problems are marked in the spec.' : ''}${state}`,
      );
    }
    const saved = updateBindings(bound.root, (store) =>
      withBinding(store, bound.key, info.index, {
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

  async function diff(...[uri, index]: Target): Promise<void> {
    const target = await resolveTarget(uri, index);
    if (!target) return;
    const { binding } = bindingFor(target.text.uri, target.info.index);
    await vscode.commands.executeCommand(
      'vscode.diff',
      liveUri(binding?.endpointId),
      specUri(target.text.uri, target.info.index),
      `${String(target.info.spec?.name ?? 'spec')}: live ↔ spec`,
    );
  }

  async function pullIntoSpec(...[uri, index]: Target): Promise<void> {
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
    const format = target.text.fileName.endsWith('.json') ? 'json' : 'yaml';
    edit.replace(
      target.text.uri,
      new vscode.Range(target.text.positionAt(root.offset), target.text.positionAt(root.offset + root.length)),
      serializeSpec(liveAsSpec(live.endpoint), format),
    );
    await vscode.workspace.applyEdit(edit);
    states.invalidate();
  }

  return vscode.Disposable.from(
    problems,
    vscode.commands.registerCommand('endpointStudio.deploy.run', deploy),
    vscode.commands.registerCommand('endpointStudio.deploy.diff', diff),
    vscode.commands.registerCommand('endpointStudio.deploy.pullIntoSpec', pullIntoSpec),
    vscode.workspace.onDidChangeTextDocument((event) => {
      problems.delete(event.document.uri);
    }),
  );
}
