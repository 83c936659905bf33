/**
 * The signed-in session: the API client of the active profile, rebuilt when the profile changes,
 * absent when signed out or in an untrusted workspace. Errors from any feature are reported
 * through `reportError`, so 401, 403 and 429 read the same everywhere.
 */
import * as vscode from 'vscode';
import { ApiError, createApiClient, type ApiClient, type RateLimitSnapshot, type RetryNotice } from '../../core/api';
import type { ProfileStore, ResolvedProfile } from './profiles';

export class Session implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly quota = new vscode.EventEmitter<RateLimitSnapshot>();
  private readonly retry = new vscode.EventEmitter<RetryNotice>();
  /** Fires after the profile, the key or trust changed (and once at start). */
  readonly onDidChange = this.changed.event;
  readonly onDidChangeQuota = this.quota.event;
  /** Fires when a call waits before trying again (a 429 waited out, a backoff), so the wait can be shown. */
  readonly onDidScheduleRetry = this.retry.event;
  private current?: { profile: ResolvedProfile; api: ApiClient };
  private unsubscribe?: () => void;
  private readonly disposables: { dispose(): void }[] = [this.changed, this.quota, this.retry];

  constructor(
    readonly profiles: ProfileStore,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.disposables.push(
      profiles.onDidChange(() => void this.reload()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.reload()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('endpointStudio.api')) void this.reload();
      }),
    );
  }

  get profile(): ResolvedProfile | undefined {
    return this.current?.profile;
  }

  /** The client to call the service with; undefined when signed out or the workspace is untrusted. */
  get api(): ApiClient | undefined {
    return this.current?.api;
  }

  async reload(): Promise<void> {
    this.unsubscribe?.();
    this.current = undefined;
    const profile = vscode.workspace.isTrusted ? await this.profiles.resolveActive() : undefined;
    if (profile) {
      try {
        const api = this.clientOf(profile);
        const offQuota = api.onRateLimit((snapshot) => {
          this.quota.fire(snapshot);
        });
        const offRetry = api.onRetry((notice) => {
          this.log.warn(
            `${notice.method} ${notice.path}: ${notice.reason === 'rateLimited' ? 'rate limited' : notice.reason}; retrying in ${Math.ceil(notice.waitMs / 1000)} s`,
          );
          this.retry.fire(notice);
        });
        this.unsubscribe = () => {
          offQuota();
          offRetry();
        };
        this.current = { profile, api };
      } catch (error) {
        this.log.error(`profile ${profile.name} cannot be used: ${(error as Error).message}`);
      }
    }
    // Not awaited: a round trip to the window, which at activation is busy showing the spec that activated the
    // extension, while the language server waits for this reload to start. The `when` clauses follow a moment later.
    void vscode.commands.executeCommand('setContext', 'endpointStudio.signedIn', this.current !== undefined);
    this.changed.fire();
  }

  /** A client for `profile`, logged like the session's own; the caller keeps it (an environment's profile, say). */
  clientOf(profile: ResolvedProfile): ApiClient {
    return createApiClient({
      apiUrl: profile.apiUrl,
      jobsUrl: profile.jobsUrl,
      apiKey: profile.apiKey,
      // Entries are redacted by the client; they never carry the key.
      log: (entry) => {
        this.log.trace(`${entry.method} ${entry.url} ${entry.status ?? entry.note ?? ''} ${entry.durationMs}ms`);
      },
    });
  }

  /** Says what went wrong in the user's terms: `<action> failed: <reason>`, with the next step for 401/403. */
  reportError(action: string, error: unknown): void {
    const reason = this.redact(error instanceof Error ? error.message : String(error));
    this.log.error(`${action} failed: ${reason}`);
    if (error instanceof ApiError && error.status === 401) {
      void vscode.window
        .showErrorMessage(`${action} failed: the service rejected the key of profile ${this.profile?.name ?? ''}; sign in again`, 'Sign In')
        .then((choice) => {
          if (choice) void vscode.commands.executeCommand('endpointStudio.auth.signIn');
        });
    } else if (error instanceof ApiError && error.status === 403) {
      void vscode.window.showErrorMessage(
        `${action} failed: the key of profile ${this.profile?.name ?? ''} lacks access to this (it may be read-only)`,
      );
    } else if (error instanceof ApiError && error.status === 429) {
      void vscode.window.showWarningMessage(
        `${action} failed: rate limit reached; try again in ${error.retryAfterSeconds ?? 'a few'} seconds`,
      );
    } else {
      void vscode.window.showErrorMessage(`${action} failed: ${reason}`);
    }
  }

  redact(text: string): string {
    return this.current ? this.current.api.redact(text) : text;
  }

  dispose(): void {
    this.unsubscribe?.();
    for (const d of this.disposables) d.dispose();
  }
}
