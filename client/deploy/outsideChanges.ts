/**
 * A deploy from the editor that would set back, or overwrite, what was changed outside since the last deploy (the
 * console, a script) never does so silently: the person chooses to keep the live values, written into the spec
 * file being deployed (the overlay, for an environment, which then owns them), or to overwrite them.
 */
import * as vscode from 'vscode';
import { overwrittenOutside, outsideAuthor, type OutsideChange } from '../../core/deploy/outside';
import type { DeploymentPlan } from '../../core/deploy/plan';
import { renderValue } from '../../core/deploy/render';
import { writeValuesIntoSpec, type SpecRewrite } from '../../core/endpointSpec/serialize';
import { specFormatOf } from '../../core/protocol';
import { rangeOfSpan } from '../environments/specFile';
import type { SpecTarget } from './target';

export type OutsideChoice = 'none' | 'overwrite' | 'kept' | 'cancelled' | 'unwritable';

const KEEP = 'Keep the Live Values';
const OVERWRITE = 'Overwrite';

/** Asks when `plan` overwrites changes made outside; `none` when it does not. */
export async function chooseForOutsideChanges(
  target: SpecTarget,
  plan: DeploymentPlan,
  header: string,
  summary: string,
): Promise<OutsideChoice> {
  const changes = overwrittenOutside(plan.threeWay);
  if (changes.length === 0 || !plan.threeWay) return 'none';
  const fields = changes.map((c) => `${c.path} ${renderValue(c.deployed)} → ${renderValue(c.live)}`).join(', ');
  const choice = await vscode.window.showWarningMessage(
    `${outsideAuthor(plan.threeWay)} since the last deploy: ${fields}. ${header}`,
    {
      modal: true,
      detail: `${summary}\n${KEEP}: write them into ${vscode.workspace.asRelativePath(target.text.uri)} (nothing is sent).\n${OVERWRITE}: deploy the spec over them.`,
    },
    KEEP,
    OVERWRITE,
  );
  // Back to the spec, where kept values land and the CodeLens shows the outcome.
  await vscode.window.showTextDocument(target.text, { preview: false });
  if (choice === OVERWRITE) return 'overwrite';
  if (choice !== KEEP) return 'cancelled';
  return (await keepLiveValues(target, changes)) ? 'kept' : 'unwritable';
}

/** The live values set in the spec document being deployed, as an edit the person can undo and save. */
async function keepLiveValues({ text, info }: SpecTarget, changes: readonly OutsideChange[]): Promise<boolean> {
  const values = changes.map((c) => ({ path: c.segments.map(String), value: c.live }));
  const rewritten = writeValuesIntoSpec(text.getText(), specFormatOf(text.fileName), info.index, values);
  if (!rewritten) {
    void vscode.window.showErrorMessage('keeping the live values failed: this spec document cannot be read as a mapping');
    return false;
  }
  await applySpecRewrite(text, rewritten);
  void vscode.window.showInformationMessage(
    `Kept the live values of ${changes.map((c) => c.path).join(', ')} in the spec: review and save it, then deploy again`,
  );
  return true;
}

/** Puts a rewrite of the document's text into its editor as one edit; whether the editor took it. */
export function applySpecRewrite(text: vscode.TextDocument, { edit }: SpecRewrite): Thenable<boolean> {
  const change = new vscode.WorkspaceEdit();
  change.replace(text.uri, rangeOfSpan(text, edit), edit.text);
  return vscode.workspace.applyEdit(change);
}
