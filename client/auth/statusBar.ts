/** The active profile and the tightest rate-limit window in the status bar; click to switch profile. */
import * as vscode from 'vscode';
import type { RateLimitSnapshot, RetryNotice } from '../../core/api';
import type { Session } from './session';

export class ProfileStatusItem implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('endpointStudio.profile', vscode.StatusBarAlignment.Right, 91);
  private readonly disposables: { dispose(): void }[] = [this.item];
  private quota?: RateLimitSnapshot;
  /** While a rate-limited call waits: when it goes out again; the item counts down to it. */
  private retryAt?: number;
  private countdown?: NodeJS.Timeout;

  constructor(private readonly session: Session) {
    this.item.name = 'Endpoint Studio Profile';
    this.disposables.push(
      session.onDidChange(() => {
        this.quota = undefined;
        this.render();
      }),
      session.onDidChangeQuota((snapshot) => {
        this.quota = snapshot;
        this.render();
      }),
      session.onDidScheduleRetry((notice) => {
        this.showRetry(notice);
      }),
      new vscode.Disposable(() => {
        clearInterval(this.countdown);
      }),
    );
    this.render();
    this.item.show();
  }

  /** Says when a rate-limited call goes out again, so a wait never looks like a hang; ticks each second. */
  private showRetry(notice: RetryNotice): void {
    if (notice.reason !== 'rateLimited') return;
    this.retryAt = Math.max(this.retryAt ?? 0, notice.retryAt);
    clearInterval(this.countdown);
    this.countdown = setInterval(() => {
      this.render();
    }, 1000);
    this.render();
  }

  private render(): void {
    const profile = this.session.profile;
    const waitS = this.retryAt !== undefined ? Math.ceil((this.retryAt - Date.now()) / 1000) : 0;
    if (waitS > 0 && profile) {
      this.item.text = `$(watch) ${profile.name} · rate limited: retrying in ${waitS}s`;
      this.item.tooltip = 'The service answered 429 Too Many Requests; the request is sent again when the service said it may be.';
      return;
    }
    if (this.retryAt !== undefined) {
      this.retryAt = undefined;
      clearInterval(this.countdown);
    }
    if (!profile) {
      this.item.text = '$(account) Endpoint Studio: signed out';
      this.item.tooltip = vscode.workspace.isTrusted
        ? 'Sign in, or use the local emulator, to deploy and browse endpoints'
        : 'Untrusted workspace: specs are checked, nothing is sent to the service';
      this.item.command = vscode.workspace.isTrusted ? 'endpointStudio.auth.signIn' : undefined;
      return;
    }
    const window = this.quota?.tightest;
    const quota =
      window?.remaining !== undefined ? ` · ${window.remaining}${window.quota ? `/${window.quota}` : ''} per ${window.name}` : '';
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
