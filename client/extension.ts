/**
 * The extension: starts the spec language server, signs in, and contributes the commands and views.
 * Everything the editor shows about a spec comes from the server, the same engine as the CLI.
 */
import * as vscode from 'vscode';
import { registerAuthCommands } from './auth/commands';
import { ProfileStore } from './auth/profiles';
import { Session } from './auth/session';
import { ProfileStatusItem } from './auth/statusBar';
import { CatalogStatusItem } from './catalogStatus';
import { LanguageServerHost } from './languageClient';
import { registerNewSpecCommand } from './newSpec';
import { registerDeploy } from './deploy';
import { registerExplorer } from './explorer';
import { registerLogs } from './logs';
import { registerJobs } from './jobs';
import { registerBilling } from './billing';
import { registerAgents } from './agents';
import { registerWalkthrough } from './walkthrough';

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  // Read by the benchmark and by anyone wondering what the extension costs the editor at start.
  const activationStarted = performance.now();
  const log = vscode.window.createOutputChannel('Endpoint Studio', { log: true });
  const manifest = context.extension.packageJSON as { version?: unknown };
  log.info(
    `Endpoint Studio ${String(manifest.version)} activating; language server: ${context.asAbsolutePath('dist/server.js')}; workspace ${vscode.workspace.isTrusted ? 'trusted' : 'untrusted (nothing is sent to the service)'}`,
  );
  const session = new Session(new ProfileStore(context), log);
  const host = new LanguageServerHost(context, log, session);
  context.subscriptions.push(
    log,
    session,
    host,
    new ProfileStatusItem(session),
    new CatalogStatusItem(host, log),
    registerAuthCommands(session.profiles, log),
    registerNewSpecCommand(),
    registerDeploy(session, log),
    registerExplorer(context, session, log),
    registerLogs(context, session, log),
    registerJobs(context, session, log),
    registerBilling(context, session, log),
    registerAgents(context, session, log),
    registerWalkthrough(context, log),
    vscode.commands.registerCommand('endpointStudio.server.restart', async () => {
      log.info('restarting the language server');
      await host.restart();
    }),
  );
  await session.reload();
  await host.start();
  // The server reads the catalog with the profile's key: a new profile needs a new server process.
  context.subscriptions.push(session.onDidChange(() => void host.restart()));
  log.info(`activated in ${(performance.now() - activationStarted).toFixed(1)} ms (language server started)`);
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
