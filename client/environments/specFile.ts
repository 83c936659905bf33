/**
 * A spec file as the editor deploys it: checked with `checkSpec` where it lives, so an overlay is merged into
 * its base (the open editor's text of either first, else the disk's), and the environment it deploys to with
 * the settings `.endpoint-studio/environments.yaml` gives it. Deploy, the drift lenses, Diff, Compare and the
 * language status all read a file through here, so each sees the same body and the same environment.
 */
import * as vscode from 'vscode';
import { findWorkspaceRoot } from '../../core/deploy';
import { ENVIRONMENTS_FILE } from '../../core/environments/config';
import { DISK_FILE_VIEW, overlayTarget, readSpecFromDisk, type ReadSpecText } from '../../core/environments/overlays';
import { checkSpec, environmentOfSpecFile, environmentSettings, type CheckSpecResult, type DeployEnvironment } from '../../core/operations';
import { specFormatOf } from '../../core/protocol';

/** An open editor's text of a spec file first (unsaved edits count), else the file on disk. */
export const readOpenOrDisk: ReadSpecText = (path) =>
  vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === path)?.getText() ?? readSpecFromDisk(path);

/** The folder holding the file's `.endpoint-studio/` (bindings, environments): its workspace folder, else the nearest. */
export function specRoot(uri: vscode.Uri): string {
  return vscode.workspace.getWorkspaceFolder(uri)?.uri.fsPath ?? findWorkspaceRoot(uri.fsPath);
}

/** Whether the text is an overlay (it has `extends`), however broken. */
export function isOverlay(uri: vscode.Uri, text: string): boolean {
  return overlayTarget(text, specFormatOf(uri.fsPath)) !== undefined;
}

/** The file checked where it lives: an overlay merged into its base, without the catalog (the server has it). */
export function checkSpecFile(uri: vscode.Uri, text: string): Promise<CheckSpecResult> {
  const roots = vscode.workspace.workspaceFolders?.map((folder) => folder.uri.fsPath) ?? [];
  return checkSpec({
    text,
    format: specFormatOf(uri.fsPath),
    catalog: { kind: 'none' },
    file: { path: uri.fsPath, view: { ...DISK_FILE_VIEW, read: readOpenOrDisk }, roots: roots.length > 0 ? roots : [specRoot(uri)] },
  });
}

/** The environment a spec file deploys to, with its settings. */
export interface SpecEnvironment extends DeployEnvironment {
  /** Why the environments file configures nothing (it does not parse, or names what it may not). */
  readonly settingsProblem?: string;
}

/** The environment an overlay deploys to; undefined for a base or any other spec. */
export function environmentOf(uri: vscode.Uri, text: string): SpecEnvironment | undefined {
  if (uri.scheme !== 'file') return undefined;
  const name = environmentOfSpecFile(uri.fsPath, text);
  if (name === undefined) return undefined;
  const { environment, problems } = environmentSettings(name, uri.fsPath, specRoot(uri));
  const first = problems.at(0);
  return first ? { ...environment, settingsProblem: `${ENVIRONMENTS_FILE} is broken: ${first.message}` } : environment;
}
