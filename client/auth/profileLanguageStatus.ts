/**
 * The active profile as a language status item of spec files: the catalog a spec is checked against is read
 * with that profile's key, and a deploy goes to its account. Switch Profile (or Sign In) is its command. The
 * status bar item (statusBar.ts) stays for every file, since the views, logs, jobs and billing act on the
 * profile too and its rate-limit budget is not about specs.
 */
import * as vscode from 'vscode';
import { SPEC_STATUS_SELECTOR } from '../catalogStatus';
import type { Session } from './session';

export class ProfileLanguageStatus implements vscode.Disposable {
  private readonly item = vscode.languages.createLanguageStatusItem('endpointStudio.spec.profile', SPEC_STATUS_SELECTOR);
  // The status item is disposable without being a vscode.Disposable instance.
  private readonly disposables: { dispose(): unknown }[] = [this.item];

  constructor(private readonly session: Session) {
    this.item.name = 'Endpoint Studio Profile';
    this.disposables.push(
      session.onDidChange(() => {
        this.render();
      }),
    );
    this.render();
  }

  private render(): void {
    const profile = this.session.profile;
    if (profile) {
      this.item.text = `$(account) ${profile.name}`;
      this.item.detail = `on ${profile.apiUrl}`;
      this.item.severity = vscode.LanguageStatusSeverity.Information;
      this.item.command = { title: 'Switch Profile', command: 'endpointStudio.auth.switchProfile' };
    } else if (vscode.workspace.isTrusted) {
      this.item.text = '$(account) Signed out';
      this.item.detail = 'the catalog checks need a profile';
      this.item.severity = vscode.LanguageStatusSeverity.Warning;
      this.item.command = { title: 'Sign In', command: 'endpointStudio.auth.signIn' };
    } else {
      this.item.text = '$(shield) Restricted Mode';
      this.item.detail = 'specs are checked, nothing is sent to the service';
      this.item.severity = vscode.LanguageStatusSeverity.Information;
      this.item.command = undefined;
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
