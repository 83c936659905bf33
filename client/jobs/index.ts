/**
 * The job console: run `*.request.json` files (or the last input) on queue endpoints with run or
 * runsync, follow them with progress and streamed output, cancel, retry, purge a queue, read an
 * endpoint's health, ping a load balancer.
 */
import * as vscode from 'vscode';
import type { Session } from '../auth/session';
import { RequestCodeLensProvider, ResultCodeLensProvider } from './codeLens';
import { registerJobCommands } from './commands';
import { JobConsole } from './console';
import { EndpointHealthActions } from './health';
import { REQUEST_FILE_GLOB } from './requestFile';
import { JOB_SCHEME, JobDocuments } from './results';
import { JobTargets } from './targets';

export function registerJobs(context: vscode.ExtensionContext, session: Session, log: vscode.LogOutputChannel): vscode.Disposable {
  const docs = new JobDocuments();
  const targets = new JobTargets(context.workspaceState, session, log);
  const requestLenses = new RequestCodeLensProvider(targets);
  const resultLenses = new ResultCodeLensProvider(docs);
  return vscode.Disposable.from(
    docs,
    targets,
    requestLenses,
    resultLenses,
    vscode.workspace.registerTextDocumentContentProvider(JOB_SCHEME, docs),
    vscode.languages.registerCodeLensProvider({ scheme: 'file', pattern: REQUEST_FILE_GLOB }, requestLenses),
    vscode.languages.registerCodeLensProvider({ scheme: JOB_SCHEME }, resultLenses),
    registerJobCommands(session, new JobConsole(session, docs, log), targets, docs, new EndpointHealthActions(session, docs, log)),
  );
}
