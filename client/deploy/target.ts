/**
 * The spec document an editor command acts on, and where its binding lives: shared by deploy, diff,
 * pull and bind so each resolves "this spec" the same way (CodeLens arguments, else the cursor), with the body
 * a deploy sends (an overlay merged into its base) and the environment it deploys to, as the language server
 * answers for the editor's text.
 */
import * as vscode from 'vscode';
import type { Spec } from '../../core/deploy';
import { readSpecBindings, type SpecBindingsResult } from '../../core/operations';
import { environmentOf, unanswered, type SpecEnvironment, type SpecFiles } from '../environments/specFile';
import { specDocuments, type SpecDocumentInfo } from './specState';

/** The spec document a command acts on. */
export interface SpecTarget {
  readonly text: vscode.TextDocument;
  readonly info: SpecDocumentInfo;
  /** What a deploy sends: the document's data, or an overlay's base with it merged in. */
  readonly spec: Spec;
  /** The environment an overlay deploys to. */
  readonly environment?: SpecEnvironment;
}

/**
 * The spec document a command was invoked on (CodeLenses pass the file and the document's index),
 * or the one under the cursor in the active editor.
 */
export async function resolveTarget(
  files: SpecFiles,
  uri: vscode.Uri | undefined,
  index: unknown,
  verb = 'deploy',
): Promise<SpecTarget | undefined> {
  const target = uri ?? vscode.window.activeTextEditor?.document.uri;
  if (!target) return void vscode.window.showInformationMessage(`open an endpoint spec to ${verb} it`);
  const text = await vscode.workspace.openTextDocument(target);
  let documents: SpecDocumentInfo[];
  try {
    documents = await specDocuments(files, text);
  } catch (error) {
    return void vscode.window.showErrorMessage(`${verb} refused: ${unanswered(error)}`);
  }
  // Menus other than the CodeLenses pass their own context object second: only a number is an index.
  const chosen = typeof index === 'number' ? index : documentAtCursor(text, documents);
  const info = chosen >= 0 ? documents.at(chosen) : undefined;
  if (info?.overlay?.firstError !== undefined)
    return void vscode.window.showErrorMessage(`${verb} refused: this environment's spec is broken: ${info.overlay.firstError}`);
  if (!info?.spec) return void vscode.window.showErrorMessage(`${verb} refused: this document is not a spec (see the Problems panel)`);
  const environment = environmentOf(text.uri, info);
  return { text, info, spec: info.spec, ...(environment ? { environment } : {}) };
}

/** The index of the document holding the cursor; the first when the file is not the active editor. */
function documentAtCursor(text: vscode.TextDocument, documents: readonly SpecDocumentInfo[]): number {
  const editor = vscode.window.activeTextEditor;
  const cursor = editor?.document === text ? text.offsetAt(editor.selection.active) : 0;
  return Math.max(
    0,
    documents.findIndex((d) => cursor <= d.span.offset + d.span.length),
  );
}

/** The bindings of the spec's file, kept under its workspace folder's `.endpoint-studio/`. */
export function targetBindings(target: SpecTarget): SpecBindingsResult {
  const uri = target.text.uri;
  return readSpecBindings(uri.fsPath, vscode.workspace.getWorkspaceFolder(uri)?.uri.fsPath);
}
