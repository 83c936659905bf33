/**
 * CodeLenses above each spec document: Deploy and Bind for an unbound one, or Update / Diff / drift for a bound one;
 * above a base, the environments its edits would change (reachLenses.ts). A bound endpoint is named as people know
 * it, by its name and an overlay's environment; its id is in the tooltip.
 */
import * as vscode from 'vscode';
import type { SpecFiles } from '../environments/specFile';
import { reachLenses } from './reachLenses';
import { specDocuments, type LiveState, type LiveStates, type SpecDocumentInfo } from './specState';

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
      const endpoint = endpointLabel(info, state.kind === 'bound' ? state.endpoint.name : undefined, id);
      if (state.kind === 'missing') {
        lenses.push(
          new vscode.CodeLens(info.range, {
            title: `$(warning) ${endpoint} was deleted: Deploy anew`,
            command: 'endpointStudio.deploy.run',
            arguments: args,
            tooltip: `Deleted elsewhere; a deploy creates it anew: endpoint ${id}`,
          }),
        );
        continue;
      }
      if (state.kind === 'unknown') {
        lenses.push(
          new vscode.CodeLens(info.range, {
            title: `$(cloud-upload) Update ${endpoint}`,
            command: 'endpointStudio.deploy.run',
            arguments: args,
            tooltip: `Live state of endpoint ${id} unknown: ${state.reason}`,
          }),
        );
        continue;
      }
      const changes = state.drift.length;
      lenses.push(
        new vscode.CodeLens(info.range, {
          title:
            changes === 0 ? `$(check) Deployed as ${endpoint}` : `$(cloud-upload) Update ${endpoint}: ${driftSaid(state.authors, changes)}`,
          command: 'endpointStudio.deploy.run',
          arguments: args,
          tooltip:
            changes === 0
              ? `The live endpoint matches this spec: endpoint ${id}`
              : `Plan and deploy this spec to endpoint ${id}; live differs in ${state.drift.map((c) => c.path).join(', ')}${outsideSaid(state.authors)}`,
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
    return [...lenses, ...documents.flatMap(reachLenses)];
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

/** `sdxl-worker (prod)`: the live name, else the spec's, else the id; an overlay's environment after it. */
function endpointLabel(info: SpecDocumentInfo, liveName: string | undefined, id: string): string {
  const specName = typeof info.spec?.name === 'string' ? info.spec.name : undefined;
  const name = liveName || specName || id;
  const environment = info.overlay?.environment;
  return environment !== undefined ? `${name} (${environment})` : name;
}

const fields = (n: number): string => `${String(n)} field${n === 1 ? '' : 's'}`;

/** `spec edited (1 field), changed outside (2 fields)`; without a recorded release, how many fields differ. */
function driftSaid(authors: Extract<LiveState, { kind: 'bound' }>['authors'], changes: number): string {
  if (!authors) return `live differs in ${fields(changes)}`;
  const said = [
    ...(authors.specEdits.length > 0 ? [`spec edited (${fields(authors.specEdits.length)})`] : []),
    ...(authors.outside.length > 0 ? [`changed outside (${fields(authors.outside.length)})`] : []),
  ];
  return said.length > 0 ? said.join(', ') : `live differs in ${fields(changes)}`;
}

function outsideSaid(authors: Extract<LiveState, { kind: 'bound' }>['authors']): string {
  return authors && authors.outside.length > 0
    ? `. Changed outside since the last deploy: ${authors.outside.join(', ')} (a deploy asks before setting them back)`
    : '';
}
