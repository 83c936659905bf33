/**
 * Which spec in the workspace deployed to which endpoint, read from every
 * `.endpoint-studio/deployments.json` the deploy feature wrote (one per workspace root), and the environment
 * of each overlay among them, so the Endpoints view can say which endpoint is staging and which prod, and which
 * one a deleted spec left behind, still running and billed.
 */
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { BINDINGS_DIR, BINDINGS_FILE, readBindings } from '../../core/deploy';
import { readSpecFromDisk } from '../../core/environments/overlays';
import { environmentOfSpecFile, orphanedBindings } from '../../core/operations';

export interface BoundSpec {
  readonly uri: vscode.Uri;
  /** The document inside a multi-document YAML file, 0-based. */
  readonly documentIndex: number;
  /** The spec's path relative to its root, as the binding file keys it. */
  readonly key: string;
  /** The environment the spec deploys to, when it is an overlay (`x.prod.endpoint.yaml` → `prod`). */
  readonly environment?: string;
  /** The folder whose `.endpoint-studio/deployments.json` holds the binding. */
  readonly root: string;
  /** The spec file is gone, or no longer holds the document: the binding is left behind. */
  readonly gone?: true;
}

const BINDINGS_GLOB = `**/${BINDINGS_DIR}/${BINDINGS_FILE}`;

/** Calls `changed` whenever a binding file is created, changed or deleted: deploys, pulls and rollbacks write them. */
export function watchBindings(changed: () => void): vscode.Disposable {
  const files = vscode.workspace.createFileSystemWatcher(BINDINGS_GLOB);
  return vscode.Disposable.from(files, files.onDidCreate(changed), files.onDidChange(changed), files.onDidDelete(changed));
}

/**
 * Endpoint id → the spec bound to it. A malformed binding file is logged and skipped, never fatal here. A spec
 * that is still there wins over one that is gone, so an endpoint a present spec describes never reads as left behind.
 */
export async function findBoundSpecs(log: vscode.LogOutputChannel): Promise<Map<string, BoundSpec>> {
  const bound = new Map<string, BoundSpec>();
  for (const { endpointId, spec } of await allBindings(log)) if (!bound.has(endpointId) || !spec.gone) bound.set(endpointId, spec);
  return bound;
}

/** Every spec document bound to the endpoint (a file may hold several, and overlays have their own). */
export async function specsBoundTo(endpointId: string, log: vscode.LogOutputChannel): Promise<BoundSpec[]> {
  return (await allBindings(log)).filter((b) => b.endpointId === endpointId).map((b) => b.spec);
}

async function allBindings(log: vscode.LogOutputChannel): Promise<{ endpointId: string; spec: BoundSpec }[]> {
  const bound: { endpointId: string; spec: BoundSpec }[] = [];
  const files = await vscode.workspace.findFiles(BINDINGS_GLOB, '**/node_modules/**', 50);
  for (const file of files) {
    const root = dirname(dirname(file.fsPath));
    const result = readBindings(root);
    if (!result.ok) {
      log.warn(`explorer: ${result.error}`);
      continue;
    }
    const orphans = orphanedBindings(root);
    const isGone = (key: string, index: number): boolean =>
      orphans.ok && orphans.orphans.some((o) => o.key === key && o.documentIndex === index);
    for (const [key, documents] of Object.entries(result.store)) {
      for (const [index, binding] of Object.entries(documents)) {
        const path = join(root, ...key.split('/'));
        const environment = environmentOfSpecFile(path, readSpecFromDisk(path) ?? '');
        const gone = isGone(key, Number(index));
        bound.push({
          endpointId: binding.endpointId,
          spec: {
            uri: vscode.Uri.file(path),
            documentIndex: Number(index),
            key,
            root,
            ...(environment ? { environment } : {}),
            ...(gone ? { gone } : {}),
          },
        });
      }
    }
  }
  return bound;
}

/** Opens the spec and puts the cursor on its document (`---` separated) when the file holds several. */
export async function openBoundSpec(spec: BoundSpec): Promise<void> {
  const document = await vscode.workspace.openTextDocument(spec.uri);
  let line = 0;
  if (spec.documentIndex > 0) {
    let seen = 0;
    for (let i = 0; i < document.lineCount; i++) {
      if (/^---(\s|$)/.test(document.lineAt(i).text) && ++seen === spec.documentIndex) {
        line = Math.min(i + 1, document.lineCount - 1);
        break;
      }
    }
  }
  const position = new vscode.Position(line, 0);
  await vscode.window.showTextDocument(document, { selection: new vscode.Range(position, position), preview: false });
}
