/**
 * Environments in the editor: one spec deployed as staging and prod through overlays. The clients each spec
 * file deploys with (its environment's profile) and the language status that says which. Deploy, Diff, Compare
 * Environments and the drift lenses take the same clients (client/deploy/), which import from here, never the
 * other way.
 */
import * as vscode from 'vscode';
import type { SpecClients } from './clients';
import { EnvironmentLanguageStatus } from './languageStatus';

export { SpecClients } from './clients';
export { SpecFiles } from './specFile';

export function registerEnvironments(clients: SpecClients): vscode.Disposable {
  return vscode.Disposable.from(new EnvironmentLanguageStatus(clients));
}
