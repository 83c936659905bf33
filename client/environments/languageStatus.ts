/**
 * The environment of the spec in the active editor, as a language status item beside the profile's
 * (auth/profileLanguageStatus.ts): an overlay says its environment and the profile it deploys with (a
 * warning when that profile is not signed in here, and whether it is protected); a base lists its
 * environments. Compare Environments is its command. A spec with no environments has no item: nothing to say.
 * One item per concern: the active profile stays the profile item's, since the catalog is read with it
 * whatever the file. Which file is an overlay, and a base's overlays, are the language server's answer.
 */
import * as vscode from 'vscode';
import { ENVIRONMENTS_FILE } from '../../core/environments/config';
import { isSpecFile } from '../../core/protocol';
import { SPEC_STATUS_SELECTOR } from '../catalogStatus';
import type { SpecClients } from './clients';
import { environmentOf } from './specFile';

const COMPARE: vscode.Command = { title: 'Compare', command: 'endpointStudio.environments.compare' };

interface Shown {
  readonly text: string;
  readonly detail: string;
  readonly warning: boolean;
}

export class EnvironmentLanguageStatus implements vscode.Disposable {
  /** Made while the active spec has environments, disposed otherwise: an item cannot be hidden for one file. */
  private item: vscode.LanguageStatusItem | undefined;
  private readonly disposables: { dispose(): unknown }[] = [];
  /** Renders finish out of order (a profile is resolved asynchronously): only the latest one writes. */
  private generation = 0;

  constructor(private readonly clients: SpecClients) {
    const environmentsFile = vscode.workspace.createFileSystemWatcher(`**/${ENVIRONMENTS_FILE.replace(/\\/g, '/')}`);
    const update = (): void => void this.render();
    this.disposables.push(
      environmentsFile,
      environmentsFile.onDidChange(update),
      environmentsFile.onDidCreate(update),
      environmentsFile.onDidDelete(update),
      vscode.window.onDidChangeActiveTextEditor(update),
      vscode.workspace.onDidSaveTextDocument(update),
      clients.session.onDidChange(update),
    );
    update();
  }

  private async render(): Promise<void> {
    const generation = ++this.generation;
    const document = vscode.window.activeTextEditor?.document;
    if (!document || document.uri.scheme !== 'file' || !isSpecFile(document.uri.fsPath)) return;
    let shown: Shown | undefined;
    try {
      shown = await this.describe(document);
    } catch {
      // The language server did not answer (it stopped): the item stays as it was until the next change.
      return;
    }
    if (generation !== this.generation) return;
    if (!shown) {
      this.item?.dispose();
      this.item = undefined;
      return;
    }
    if (!this.item) {
      this.item = vscode.languages.createLanguageStatusItem('endpointStudio.spec.environment', SPEC_STATUS_SELECTOR);
      this.item.name = 'Endpoint Studio Environment';
      this.item.command = COMPARE;
    }
    this.item.text = shown.text;
    this.item.detail = shown.detail;
    this.item.severity = shown.warning ? vscode.LanguageStatusSeverity.Warning : vscode.LanguageStatusSeverity.Information;
  }

  private async describe(document: vscode.TextDocument): Promise<Shown | undefined> {
    const facts = await this.clients.files.facts(document.uri, { text: document });
    const environment = environmentOf(document.uri, facts);
    if (environment) {
      const guard = environment.protected ? ' · protected' : '';
      const name = `$(layers) ${environment.name}`;
      if (environment.settingsProblem !== undefined) return { text: name, detail: environment.settingsProblem, warning: true };
      if (environment.profile === undefined) return { text: name, detail: `the active profile deploys it${guard}`, warning: false };
      const text = `${name} · ${environment.profile}`;
      if (!vscode.workspace.isTrusted) return { text, detail: 'Restricted Mode: nothing is deployed', warning: false };
      const signedIn = (await this.clients.forProfile(environment.profile)) !== undefined;
      return { text, detail: signedIn ? `deploy profile${guard}` : `profile not signed in${guard}`, warning: !signedIn };
    }
    if (facts.overlay) return { text: '$(layers) Overlay', detail: 'its name says no environment', warning: true };
    const overlays = facts.environments.map((o) => o.environment);
    if (overlays.length === 0) return undefined;
    return { text: `$(layers) Base of ${overlays.sort().join(', ')}`, detail: 'deployable by itself too', warning: false };
  }

  dispose(): void {
    this.item?.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
