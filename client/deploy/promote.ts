/**
 * Promote to Environment: what one environment last deployed and verified (by default its image) written into
 * another's overlay, in the editor, then that environment's deploy begun on the overlay, so its plan is the deploy
 * command's own (the diff, the modal, its profile and a protected environment's typed name). What may be promoted
 * and the text written are core's (core/operations/promote.ts), read from the open editors first; this module
 * asks which environments, writes the overlay as one edit the person can undo, and hands over to the deploy.
 */
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { renderValue } from '../../core/deploy/render';
import { environmentOfFile } from '../../core/endpointSpec/overlay';
import { DISK_FILE_VIEW } from '../../core/environments/overlays';
import { planPromotion, releaseName, verificationLine, type Promotion } from '../../core/operations';
import { isSpecFile } from '../../core/protocol';
import type { FileView } from '../../core/workspace/specWorkspace';
import type { SpecClients } from '../environments/clients';
import { familyOf, specRoot } from '../environments/specFile';

export function registerPromoteCommand(clients: SpecClients): vscode.Disposable {
  return vscode.commands.registerCommand('endpointStudio.environments.promote', (uri?: vscode.Uri, from?: unknown, to?: unknown) =>
    promote(clients, uri, typeof from === 'string' ? from : undefined, typeof to === 'string' ? to : undefined),
  );
}

/** The spec files as the editor has them: an open document's text, unsaved edits included, else the disk's. */
const EDITOR_FILE_VIEW: FileView = {
  read: (path) =>
    vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === path)?.getText() ?? DISK_FILE_VIEW.read(path),
  list: (folder) => DISK_FILE_VIEW.list(folder),
};

async function promote(clients: SpecClients, uri: vscode.Uri | undefined, from?: string, to?: string): Promise<void> {
  const start = uri ?? vscode.window.activeTextEditor?.document.uri;
  if (start?.scheme !== 'file' || !isSpecFile(start.fsPath))
    return void vscode.window.showInformationMessage('open an endpoint spec or one of its environments to promote between them');
  const found = await familyOf(clients.files, start);
  if ('error' in found) return void vscode.window.showErrorMessage(`promote refused: ${found.error}`);
  const family = { base: found.base, environments: found.environments.map((e) => e.environment).sort() };
  if (family.environments.length < 2)
    return void vscode.window.showInformationMessage(
      `promote needs two environments of ${basename(family.base)}; it has ${family.environments.join(', ') || 'none'}`,
    );
  const plan = (pair: { from: string; to: string }): Promotion | undefined =>
    planPromotion({
      ...pair,
      files: [family.base],
      view: EDITOR_FILE_VIEW,
      root: specRoot(vscode.Uri.file(family.base)),
      shown: (path) => vscode.workspace.asRelativePath(path),
    }).at(0);
  const pair = from !== undefined && to !== undefined ? { from, to } : await pickPair(family, start, plan);
  if (!pair) return;
  const promotion = plan(pair);
  if (!promotion) return;
  if (promotion.kind === 'refused') return void vscode.window.showErrorMessage(`promote refused: ${promotion.reason}`);
  const target = await vscode.workspace.openTextDocument(vscode.Uri.file(promotion.target.path));
  if (promotion.kind === 'write' && !(await writeOverlay(target, promotion))) return;
  await vscode.window.showTextDocument(target, { preview: false });
  void vscode.window.showInformationMessage(promotedMessage(promotion));
  // The target's own deploy from here: its plan, its profile, its typed name; nothing is applied unasked.
  await vscode.commands.executeCommand('endpointStudio.deploy.run', target.uri, 0);
}

/** Every ordered pair of environments, the file's own first as the source, each saying what it would promote. */
async function pickPair(
  family: { base: string; environments: readonly string[] },
  current: vscode.Uri,
  plan: (pair: { from: string; to: string }) => Promotion | undefined,
): Promise<{ from: string; to: string } | undefined> {
  const own = environmentOfFile(basename(current.fsPath));
  const pairs = family.environments.flatMap((from) => family.environments.filter((to) => to !== from).map((to) => ({ from, to })));
  const ordered = [...pairs.filter((p) => p.from === own), ...pairs.filter((p) => p.from !== own)];
  const items = ordered.map((pair) => ({ ...pair, label: `${pair.from} → ${pair.to}`, detail: describe(plan(pair)) }));
  const picked = await vscode.window.showQuickPick(items, {
    title: `Promote between the environments of ${basename(family.base)}`,
    placeHolder: 'What one environment last deployed and verified, written into the other’s overlay, then planned there',
    matchOnDetail: true,
  });
  return picked ? { from: picked.from, to: picked.to } : undefined;
}

function describe(promotion: Promotion | undefined): string {
  if (!promotion) return '';
  if (promotion.kind === 'refused') return `refused: ${promotion.reason}`;
  const fields = promotion.values.map((v) => `${v.field} ${renderValue(v.value)}`).join(', ');
  return `${verificationLine(promotion.source)} · ${promotion.kind === 'unchanged' ? `already deployed there: ${fields}` : fields}`;
}

/** The promoted values in the overlay's editor as one edit, saved so the plan and the disk agree; false if it moved on. */
async function writeOverlay(target: vscode.TextDocument, promotion: Exclude<Promotion, { kind: 'refused' }>): Promise<boolean> {
  if (target.getText() !== promotion.before) {
    void vscode.window.showErrorMessage(`promote refused: ${basename(target.fileName)} changed while promoting; run it again`);
    return false;
  }
  const edit = new vscode.WorkspaceEdit();
  edit.replace(target.uri, new vscode.Range(target.positionAt(0), target.positionAt(target.getText().length)), promotion.text);
  if (!(await vscode.workspace.applyEdit(edit)) || !(await target.save())) {
    void vscode.window.showErrorMessage(`promote failed: ${basename(target.fileName)} could not be written`);
    return false;
  }
  return true;
}

/** `Promoted staging's release 3 into sdxl.prod.endpoint.yaml: image "…:1.5" (smoke job passed)`. */
function promotedMessage(promotion: Exclude<Promotion, { kind: 'refused' }>): string {
  const { source, target } = promotion;
  const fields = promotion.values.map((v) => `${v.field} ${renderValue(v.value)}`).join(', ');
  const smoke = source.smoke.state === 'none' ? 'no smoke job ran on it' : `its smoke job ${source.smoke.state}`;
  const file = basename(target.path);
  return promotion.kind === 'unchanged'
    ? `${file} has ${releaseName(source)}'s ${fields} already (${smoke}); ${target.environment}'s plan follows`
    : `Promoted ${releaseName(source)} into ${file}: ${fields} (${smoke}); ${target.environment}'s plan follows`;
}
