/**
 * CodeLenses above each spec document: Deploy and Bind for an unbound one, or Update / Diff / drift for a bound one;
 * above a base, the environments its edits would change (reachLenses.ts). A bound endpoint is named as people know
 * it, by its name and an overlay's environment; its id is in the tooltip.
 */
import * as vscode from 'vscode';
import type { SpecFiles } from '../environments/specFile';
import { plural } from '../../core/util/plural';
import { reachLenses } from './reachLenses';
import { specDocuments, type LiveState, type LiveStates, type SpecDocumentInfo } from './specState';

const DEPLOY = 'endpointStudio.deploy.run';

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
      const lens = (title: string, command: string, tooltip: string): vscode.CodeLens =>
        new vscode.CodeLens(info.range, { title, command, arguments: [document.uri, info.index], tooltip });
      const state = await this.states.get(document.uri, info);
      if (state.kind === 'unbound') {
        lenses.push(
          lens('$(cloud-upload) Deploy', DEPLOY, 'Validate, plan, confirm and create this endpoint'),
          lens(
            '$(link) Bind to Endpoint…',
            'endpointStudio.deploy.bind',
            'This spec describes an endpoint that already exists: bind it, so a deploy updates that endpoint',
          ),
        );
        continue;
      }
      const id = state.binding.endpointId;
      const endpoint = endpointLabel(info, state.kind === 'bound' ? state.endpoint.name : undefined, id);
      if (state.kind === 'missing') {
        lenses.push(
          lens(`$(warning) ${endpoint} was deleted: Deploy anew`, DEPLOY, `Deleted elsewhere; a deploy creates it anew: endpoint ${id}`),
        );
        continue;
      }
      if (state.kind === 'unknown') {
        lenses.push(lens(`$(cloud-upload) Update ${endpoint}`, DEPLOY, `Live state of endpoint ${id} unknown: ${state.reason}`));
        continue;
      }
      const changes = state.drift.length;
      const drifted = state.drift.map((c) => c.path).join(', ');
      lenses.push(
        changes === 0
          ? lens(`$(check) Deployed as ${endpoint}`, DEPLOY, `The live endpoint matches this spec: endpoint ${id}`)
          : lens(
              `$(cloud-upload) Update ${endpoint}: ${driftSaid(state.authors, changes)}`,
              DEPLOY,
              `Plan and deploy this spec to endpoint ${id}; live differs in ${drifted}${outsideSaid(state.authors)}`,
            ),
        lens('$(diff) Diff', 'endpointStudio.deploy.diff', 'Live configuration (left) against this spec (right)'),
      );
      // An overlay holds only what differs: the live configuration cannot replace it.
      if (changes > 0 && !info.overlay) {
        lenses.push(
          lens(
            `$(cloud-download) Pull live config`,
            'endpointStudio.deploy.pullIntoSpec',
            `The endpoint differs from this spec (changed in the console, or not yet deployed): ${drifted}. Replace the spec with the live configuration.`,
          ),
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

/** `spec edited (1 field), changed outside (2 fields)`; without a recorded release, how many fields differ. */
function driftSaid(authors: Extract<LiveState, { kind: 'bound' }>['authors'], changes: number): string {
  if (!authors) return `live differs in ${plural(changes, 'field')}`;
  const said = [
    ...(authors.specEdits.length > 0 ? [`spec edited (${plural(authors.specEdits.length, 'field')})`] : []),
    ...(authors.outside.length > 0 ? [`changed outside (${plural(authors.outside.length, 'field')})`] : []),
  ];
  return said.length > 0 ? said.join(', ') : `live differs in ${plural(changes, 'field')}`;
}

function outsideSaid(authors: Extract<LiveState, { kind: 'bound' }>['authors']): string {
  return authors && authors.outside.length > 0
    ? `. Changed outside since the last deploy: ${authors.outside.join(', ')} (a deploy asks before setting them back)`
    : '';
}
