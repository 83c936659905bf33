/**
 * Everything the extension contributes besides checking specs: sign-in, deploy, the views, jobs, logs, billing
 * and the agent tools. extension.ts imports this module only once the language server runs, so a spec opened
 * on the first activation is checked without waiting for these, and the bundle builds it (with the libraries
 * only it needs, zod among them) into modules that are evaluated on that import rather than at load.
 */
import type * as vscode from 'vscode';
import { registerAgents } from './agents';
import { registerAuthCommands } from './auth/commands';
import type { Session } from './auth/session';
import { ProfileStatusItem } from './auth/statusBar';
import { registerBilling } from './billing';
import { CatalogStatusItem } from './catalogStatus';
import { registerDeploy } from './deploy';
import { registerExplorer } from './explorer';
import { registerJobs } from './jobs';
import type { LanguageServerHost } from './languageClient';
import { registerLogs } from './logs';
import { registerNewSpecCommand } from './newSpec';

export function registerFeatures(
  context: vscode.ExtensionContext,
  session: Session,
  host: LanguageServerHost,
  log: vscode.LogOutputChannel,
): { dispose(): unknown }[] {
  return [
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
  ];
}
