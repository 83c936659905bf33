/**
 * The deploy feature: CodeLenses, the deploy/diff/pull/bind commands, Compare Environments, Promote to Environment,
 * and the live virtual documents they all show.
 */
import * as vscode from 'vscode';
import { SPEC_FILE_DOCUMENTS } from '../../core/protocol';
import type { SpecClients } from '../environments/clients';
import { DeployCodeLensProvider } from './codeLens';
import { registerDeployCommands } from './commands';
import { registerCompareCommand } from './compareEnvironments';
import { LIVE_SCHEME, LiveDocumentProvider, SPEC_SCHEME } from './liveDocuments';
import { registerPromoteCommand } from './promote';
import { LiveStates } from './specState';

export function registerDeploy(clients: SpecClients, log: vscode.LogOutputChannel): vscode.Disposable {
  const states = new LiveStates(clients);
  const lenses = new DeployCodeLensProvider(states, clients.files);
  const content = new LiveDocumentProvider(clients);
  return vscode.Disposable.from(
    states,
    lenses,
    content,
    vscode.languages.registerCodeLensProvider(SPEC_FILE_DOCUMENTS, lenses),
    vscode.workspace.registerTextDocumentContentProvider(LIVE_SCHEME, content),
    vscode.workspace.registerTextDocumentContentProvider(SPEC_SCHEME, content),
    registerDeployCommands(clients, states, log),
    registerCompareCommand(clients),
    registerPromoteCommand(clients),
    clients.session.onDidChange(() => {
      states.invalidate();
    }),
  );
}
