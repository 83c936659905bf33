/** The catalog's source and age in the status bar, and the Refresh Catalog command. */
import * as vscode from 'vscode';
import {
  CATALOG_STATUS_NOTIFICATION,
  isSpecFile,
  onNotification,
  REFRESH_CATALOG_REQUEST,
  sendRequest,
  type CatalogStatus,
} from '../core/protocol';
import type { LanguageServerHost } from './languageClient';

export function age(fetchedAt: string | undefined, now = Date.now()): string {
  if (!fetchedAt) return 'unknown age';
  const minutes = Math.max(0, Math.round((now - Date.parse(fetchedAt)) / 60000));
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h ago` : `${Math.round(hours / 24)} days ago`;
}

export class CatalogStatusItem implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('endpointStudio.catalog', vscode.StatusBarAlignment.Right, 90);
  // The status bar item is disposable without being a vscode.Disposable instance.
  private readonly disposables: { dispose(): unknown }[] = [];
  private status: CatalogStatus = { state: 'none' };

  constructor(
    private readonly host: LanguageServerHost,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.item.name = 'Endpoint Studio Catalog';
    this.item.command = 'endpointStudio.catalog.refresh';
    this.disposables.push(
      this.item,
      host.onDidStart((client) => {
        this.disposables.push(
          onNotification(client, CATALOG_STATUS_NOTIFICATION, (status) => {
            this.show(status);
          }),
        );
      }),
      vscode.commands.registerCommand('endpointStudio.catalog.refresh', () => this.refresh()),
      vscode.window.onDidChangeActiveTextEditor(() => {
        this.render();
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
    const spec = isSpecFile(vscode.window.activeTextEditor?.document.fileName ?? '');
    const { state, fetchedAt, error } = this.status;
    const labels = {
      live: `$(database) Catalog ${age(fetchedAt)}`,
      cached: `$(warning) Catalog ${age(fetchedAt)} (offline)`,
      pinned: '$(pinned) Catalog pinned',
      none: '$(circle-slash) No catalog',
    };
    this.item.text = labels[state];
    this.item.tooltip = new vscode.MarkdownString(
      state === 'none'
        ? 'No catalog: pools, GPU types, flavors and templates are not checked. Sign in or use the local emulator, then refresh.'
        : `Catalog ${state === 'pinned' ? 'from a pinned file' : `fetched ${fetchedAt ?? ''}`}${error ? `\n\nLast refresh failed: ${error}` : ''}\n\nClick to refresh.`,
    );
    if (spec) this.item.show();
    else this.item.hide();
  }

  private async refresh(): Promise<void> {
    const client = this.host.client;
    if (!client) return;
    const status = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Refreshing the catalog' }, () =>
      sendRequest(client, REFRESH_CATALOG_REQUEST),
    );
    this.show(status);
    if (status.error)
      void vscode.window.showWarningMessage(`catalog refresh failed, using the catalog from ${age(status.fetchedAt)}: ${status.error}`);
    else if (status.state === 'none')
      void vscode.window.showInformationMessage('no catalog to refresh: sign in or use the local emulator first');
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
