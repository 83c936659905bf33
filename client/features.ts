/**
 * Everything the extension contributes besides checking specs: sign-in, deploy, the views, jobs, logs, billing
 * and the agent tools. extension.ts imports this module only once the language server runs, so a spec opened
 * on the first activation is checked without waiting for these; the build makes it a bundle of its own
 * (dist/client-features.js, with the libraries only it needs, zod among them), read only on that import.
 */
import type * as vscode from 'vscode';
import { registerAgents } from './agents';
import { registerAuthCommands } from './auth/commands';
import { ProfileLanguageStatus } from './auth/profileLanguageStatus';
import type { ProfileStore } from './auth/profiles';
import { Session } from './auth/session';
import { ProfileStatusItem } from './auth/statusBar';
import { registerBilling } from './billing';
import { CatalogStatusItem } from './catalogStatus';
import { registerDeploy } from './deploy';
import { EnvironmentLanguageStatus, SpecClients, SpecFiles } from './environments';
import { registerExplorer } from './explorer';
import { registerJobs } from './jobs';
import type { LanguageServerHost } from './languageClient';
import { registerLogs } from './logs';
import { registerNewSpecCommand } from './newSpec';

export async function registerFeatures(
  context: vscode.ExtensionContext,
  profiles: ProfileStore,
  host: LanguageServerHost,
  log: vscode.LogOutputChannel,
): Promise<{ dispose(): unknown }[]> {
  const session = new Session(profiles, log);
  await session.reload();
  // The server reads the catalog with the profile's key: a new profile needs a new server process.
  const restarts = session.onDidChange(() => void host.useProfile(session.profile));
  await host.useProfile(session.profile);
  const specClients = new SpecClients(session, new SpecFiles(host));
  return [
    session,
    restarts,
    new ProfileStatusItem(session),
    new CatalogStatusItem(host, log),
    new ProfileLanguageStatus(session),
    registerAuthCommands(session.profiles, log),
    registerNewSpecCommand(),
    specClients,
    registerDeploy(specClients, log),
    new EnvironmentLanguageStatus(specClients),
    registerExplorer(context, session, log, specClients.files),
    registerLogs(context, session, log),
    registerJobs(context, session, log),
    registerBilling(context, session, log),
    registerAgents(context, session, log),
  ];
}
