/**
 * Where the catalog a spec is checked against comes from and how old it is, as a language status item of
 * spec files (it says nothing about any other file), with the Refresh Catalog command.
 */
import * as vscode from 'vscode';
import { REFRESH_CATALOG_REQUEST, sendRequest, SPEC_FILE_DOCUMENTS, type CatalogStatus } from '../core/protocol';
// Types only: this module is in the bundle loaded after activation, which must not carry the language client again.
import type { LanguageServerHost } from './languageClient';

/** Spec files: by their languages (untitled ones too), and by name when a user's association gives them plain YAML or JSON. */
export const SPEC_STATUS_SELECTOR: vscode.DocumentSelector = [
  { language: 'endpoint-yaml' },
  { language: 'endpoint-json' },
  ...SPEC_FILE_DOCUMENTS,
];

export function age(fetchedAt: string | undefined, now = Date.now()): string {
  if (!fetchedAt) return 'unknown age';
  const minutes = Math.max(0, Math.round((now - Date.parse(fetchedAt)) / 60000));
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h ago` : `${Math.round(hours / 24)} days ago`;
}

/** What the item says in each state: its text, the detail beside it, and whether it is a warning. */
function describe(status: CatalogStatus): { text: string; detail: string; warning: boolean } {
  const failed = status.error ? `; last refresh failed: ${status.error}` : '';
  switch (status.state) {
    case 'live':
      return { text: `$(database) Catalog ${age(status.fetchedAt)}`, detail: `fetched from the service${failed}`, warning: !!status.error };
    case 'cached':
      return { text: `$(warning) Catalog ${age(status.fetchedAt)}`, detail: `from the cache, offline${failed}`, warning: true };
    case 'pinned':
      return { text: '$(pinned) Catalog pinned', detail: 'from a catalog file', warning: false };
    case 'none':
      return {
        text: '$(circle-slash) No catalog',
        detail: 'pools, GPU types, flavors and templates are not checked; sign in first',
        warning: true,
      };
  }
}

export class CatalogStatusItem implements vscode.Disposable {
  private readonly item = vscode.languages.createLanguageStatusItem('endpointStudio.spec.catalog', SPEC_STATUS_SELECTOR);
  // The status item is disposable without being a vscode.Disposable instance.
  private readonly disposables: { dispose(): unknown }[] = [this.item];
  private status: CatalogStatus;
  // The age is counted from the last status, so the text is written again as time passes.
  private readonly ticker = setInterval(() => {
    this.render();
  }, 60_000);

  constructor(
    private readonly host: LanguageServerHost,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.item.name = 'Endpoint Studio Catalog';
    this.item.command = { title: 'Refresh', command: 'endpointStudio.catalog.refresh', tooltip: 'Refresh the catalog now' };
    this.status = host.catalogStatus;
    this.disposables.push(
      host.onDidChangeCatalogStatus((status) => {
        this.show(status);
      }),
      vscode.commands.registerCommand('endpointStudio.catalog.refresh', () => this.refresh()),
      new vscode.Disposable(() => {
        clearInterval(this.ticker);
      }),
    );
    this.render();
  }

  private show(status: CatalogStatus): void {
    this.status = status;
    if (status.error) this.log.warn(`catalog: ${status.error}`);
    this.render();
  }

  private render(): void {
    const { text, detail, warning } = describe(this.status);
    this.item.text = text;
    this.item.detail = detail;
    this.item.severity = warning ? vscode.LanguageStatusSeverity.Warning : vscode.LanguageStatusSeverity.Information;
  }

  private async refresh(): Promise<void> {
    const client = this.host.client;
    if (!client) return;
    this.item.busy = true;
    try {
      const status = await sendRequest(client, REFRESH_CATALOG_REQUEST);
      this.show(status);
      if (status.error)
        void vscode.window.showWarningMessage(`catalog refresh failed, using the catalog from ${age(status.fetchedAt)}: ${status.error}`);
      else if (status.state === 'none')
        void vscode.window.showInformationMessage('no catalog to refresh: sign in or use the local emulator first');
    } finally {
      this.item.busy = false;
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
