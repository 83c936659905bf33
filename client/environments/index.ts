/**
 * Environments in the editor: one spec deployed as staging and prod through overlays. The clients each spec
 * file deploys with (its environment's profile), the language status that says which, and Compare
 * Environments. Deploy, Diff and the drift lenses take the same clients (client/deploy/).
 */
import * as vscode from 'vscode';
import type { SpecClients } from './clients';
import { registerCompareCommand } from './compare';
import { EnvironmentLanguageStatus } from './languageStatus';

export { SpecClients } from './clients';
export { SpecFiles } from './specFile';

export function registerEnvironments(clients: SpecClients): vscode.Disposable {
  return vscode.Disposable.from(new EnvironmentLanguageStatus(clients), registerCompareCommand(clients));
}
