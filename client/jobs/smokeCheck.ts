/**
 * A smoke check in the editor: one job on an endpoint once its release has rolled out, passed only when it
 * completed on the new release (core/operations/smoke.ts decides). It runs under a cancellable progress
 * notification and says pass or fail; a failure offers the worker's logs and a rollback.
 */
import * as vscode from 'vscode';
import type { ApiClient, Endpoint, JobRequest } from '../../core/api';
import { recordSmoke, smokeCheck, type SmokeOutcome } from '../../core/operations';
import type { Session } from '../auth/session';
import { rollBack } from '../deploy/rollout';
import { openWorkersLogs } from '../logs';

/** Runs the smoke job and reports the outcome; undefined when signed out, stopped by the user or it could not run. */
export async function runSmokeCheck(session: Session, endpoint: Endpoint, request: JobRequest): Promise<SmokeOutcome | undefined> {
  const client = session.api;
  if (!client) return void vscode.window.showWarningMessage('Sign in to run a smoke check');
  const controller = new AbortController();
  let outcome: SmokeOutcome;
  try {
    outcome = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Smoke check on ${endpoint.name}`, cancellable: true },
      async (_progress, token) => {
        const cancelled = token.onCancellationRequested(() => {
          controller.abort();
        });
        try {
          return await smokeCheck({ client, endpointId: endpoint.id, request, signal: controller.signal });
        } finally {
          cancelled.dispose();
        }
      },
    );
  } catch (error) {
    session.reportError(`Smoke check on ${endpoint.name}`, error);
    return undefined;
  }
  // Stopped by the user, who knows: nothing to report.
  if (controller.signal.aborted) return undefined;
  report(session, endpoint, outcome);
  void noteSmoke(session, client, endpoint, outcome);
  return outcome;
}

/** The verdict kept on the bindings (in any workspace folder) that recorded the release it ran on, for a promotion. */
async function noteSmoke(session: Session, client: ApiClient, endpoint: Endpoint, outcome: SmokeOutcome): Promise<void> {
  const roots = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
  const recorded = await recordSmoke({ outcome, endpointId: endpoint.id, roots, client });
  const failure = recorded.saved.flatMap((result) => (result.saved ? [] : [result.error])).at(0);
  if (failure !== undefined) session.reportError(`Recording the smoke check on ${endpoint.name}`, new Error(failure));
}

function report(session: Session, endpoint: Endpoint, outcome: SmokeOutcome): void {
  const message = session.redact(outcome.message);
  if (outcome.passed) return void vscode.window.showInformationMessage(`smoke check on ${endpoint.name} passed: ${message}`);
  const workerId = outcome.job?.workerId;
  const OPEN_LOGS = 'Open Worker Logs';
  const ROLL_BACK = 'Roll Back…';
  void vscode.window
    .showWarningMessage(`smoke check on ${endpoint.name} failed: ${message}`, ...(workerId ? [OPEN_LOGS] : []), ROLL_BACK)
    .then((choice) => {
      if (choice === ROLL_BACK) void rollBack(endpoint.id);
      else if (choice === OPEN_LOGS && workerId) void openWorkersLogs({ endpointId: endpoint.id, endpointName: endpoint.name, workerId });
    });
}
