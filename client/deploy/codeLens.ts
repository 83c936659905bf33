/** CodeLenses above each spec document: Deploy and Bind for an unbound one, or Update / Diff / drift for a bound one. */
import * as vscode from 'vscode';
import type { SpecFiles } from '../environments/specFile';
import { specDocuments, type LiveStates, type SpecDocumentInfo } from './specState';

export class DeployCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly states: LiveStates,
    private readonly files: SpecFiles,
  ) {
    this.subscription = states.onDidChange(() => {
      this.changed.fire();
    });
  }

  async provideCodeLenses(document: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    const lenses: vscode.CodeLens[] = [];
    let documents: SpecDocumentInfo[];
    try {
      documents = await specDocuments(this.files, document);
    } catch {
      // No answer from the language server (it is restarting): no lenses until the next request.
      return [];
    }
    for (const info of documents) {
      if (!info.spec) continue;
      const args = [document.uri, info.index];
      const state = await this.states.get(document.uri, info);
      if (state.kind === 'unbound') {
        lenses.push(
          new vscode.CodeLens(info.range, {
            title: '$(cloud-upload) Deploy',
            command: 'endpointStudio.deploy.run',
            arguments: args,
            tooltip: 'Validate, plan, confirm and create this endpoint',
          }),
          new vscode.CodeLens(info.range, {
            title: '$(link) Bind to Endpoint…',
            command: 'endpointStudio.deploy.bind',
            arguments: args,
            tooltip: 'This spec describes an endpoint that already exists: bind it, so a deploy updates that endpoint',
          }),
        );
        continue;
      }
      const id = state.binding.endpointId;
      if (state.kind === 'missing') {
        lenses.push(
          new vscode.CodeLens(info.range, {
            title: `$(warning) ${id} was deleted: Deploy anew`,
            command: 'endpointStudio.deploy.run',
            arguments: args,
          }),
        );
        continue;
      }
      if (state.kind === 'unknown') {
        lenses.push(
          new vscode.CodeLens(info.range, {
            title: `$(cloud-upload) Update ${id}`,
            command: 'endpointStudio.deploy.run',
            arguments: args,
            tooltip: `live state unknown: ${state.reason}`,
          }),
        );
        continue;
      }
      const changes = state.drift.length;
      lenses.push(
        new vscode.CodeLens(info.range, {
          title:
            changes === 0
              ? `$(check) Deployed as ${id}`
              : `$(cloud-upload) Update ${id}: live differs in ${changes} field${changes === 1 ? '' : 's'}`,
          command: 'endpointStudio.deploy.run',
          arguments: args,
        }),
        new vscode.CodeLens(info.range, {
          title: '$(diff) Diff',
          command: 'endpointStudio.deploy.diff',
          arguments: args,
          tooltip: 'Live configuration (left) against this spec (right)',
        }),
      );
      // An overlay holds only what differs: the live configuration cannot replace it.
      if (changes > 0 && !info.overlay) {
        lenses.push(
          new vscode.CodeLens(info.range, {
            title: `$(cloud-download) Pull live config`,
            command: 'endpointStudio.deploy.pullIntoSpec',
            arguments: args,
            tooltip: `The endpoint differs from this spec (changed in the console, or not yet deployed): ${state.drift.map((c) => c.path).join(', ')}. Replace the spec with the live configuration.`,
          }),
        );
      }
    }
    return lenses;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
