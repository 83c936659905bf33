/** The active profile and the tightest rate-limit window in the status bar; click to switch profile. */
import * as vscode from 'vscode';
import type { RateLimitSnapshot } from '../../core/api';
import type { Session } from './session';

export class ProfileStatusItem implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('endpointStudio.profile', vscode.StatusBarAlignment.Right, 91);
  private readonly disposables: vscode.Disposable[] = [this.item];
  private quota?: RateLimitSnapshot;

  constructor(private readonly session: Session) {
    this.item.name = 'Endpoint Studio Profile';
    this.item.command = 'endpointStudio.auth.switchProfile';
    this.disposables.push(
      session.onDidChange(() => {
        this.quota = undefined;
        this.render();
      }),
      session.onDidChangeQuota((snapshot) => {
        this.quota = snapshot;
        this.render();
      }),
    );
    this.render();
    this.item.show();
  }

  private render(): void {
    const profile = this.session.profile;
    if (!profile) {
      this.item.text = '$(account) Endpoint Studio: signed out';
      this.item.tooltip = vscode.workspace.isTrusted ? 'Sign in, or use the local emulator, to deploy and browse endpoints' : 'Untrusted workspace: specs are checked, nothing is sent to the service';
      this.item.command = vscode.workspace.isTrusted ? 'endpointStudio.auth.signIn' : undefined;
      return;
    }
    const window = this.quota?.tightest;
    const quota = window?.remaining !== undefined ? ` · ${window.remaining}${window.quota ? `/${window.quota}` : ''} per ${window.name}` : '';
    this.item.text = `$(account) ${profile.name}${quota}`;
    this.item.tooltip = new vscode.MarkdownString(
      `Profile **${profile.name}** on ${profile.apiUrl} (key from ${profile.keySource})${window ? `\n\nRate limit: ${window.remaining ?? '?'} requests left in the ${window.name} window, resets in ${window.resetSeconds ?? '?'} s` : ''}\n\nClick to switch profile.`,
    );
    this.item.command = 'endpointStudio.auth.switchProfile';
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
