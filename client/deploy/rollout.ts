/**
 * Watching a rollout in the editor. An apply that makes a release is not yet serving: the service replaces
 * the workers one by one, and a release whose image crash-loops never gets there. After any apply (a deploy,
 * a rollback) `watchRolloutInEditor` shows where the release stands in a cancellable progress notification
 * and beside the endpoint in the Endpoints tree, and says how it ended, with the stuck workers' logs and a
 * rollback at hand. A stall or failure names why the workers are not serving (crash-looping with the line its
 * container died on, no capacity, still starting), and the Endpoints tree keeps saying it beside the endpoint
 * until the next rollout of it. The core's `watchRollout` polls, with backoff and inside the rate-limit budget,
 * decides done, stalled or failed and their cause, and records the release's time to ready in the bindings of the
 * workspace's folders (the Endpoints tree shows it on the release); this module only shows it.
 */
import * as vscode from 'vscode';
import type { ApiClient } from '../../core/api';
import { ROLLOUT_DEFAULTS, watchRollout, type NotServingCause, type RolloutOutcome, type RolloutProgress } from '../../core/operations';
import type { Session } from '../auth/session';
import { openWorkersLogs } from '../logs';
import { rolloutReport, type RolloutReport } from './rolloutReport';

const STALL_SETTING = 'endpointStudio.rollout.stallAfterSeconds';
/** The setting's default in package.json, which a test holds to it. */
const DEFAULT_STALL_SECONDS = ROLLOUT_DEFAULTS.stallAfterMs / 1000;
const MIN_STALL_SECONDS = 10;
/** Registered by the releases feature; takes `{ endpointId }` and asks which release to go back to. */
export const ROLLBACK_COMMAND = 'endpointStudio.releases.rollback';
const SMOKE_CHECK_COMMAND = 'endpointStudio.jobs.smokeCheck';

/** The endpoint a rollout runs on; `type` (when known) decides whether a smoke job can be offered. */
export interface RolloutEndpoint {
  readonly id: string;
  readonly name: string;
  readonly type?: string;
}

/**
 * Watches the rollout of `endpoint`'s latest release after an apply: a cancellable progress notification
 * with the core's progress line ("release 7: 3 of 5 workers on it, 2 draining"), the same beside the
 * endpoint in the Endpoints tree, then a message: done (offering a smoke check on a queue endpoint), or a
 * warning naming the stalled or crash-looping workers, with **Open Logs** (exactly those workers, merged)
 * and, for a failure, **Roll Back…** (`endpointStudio.releases.rollback` with `{ endpointId }`). Closing
 * the notification stops watching and says nothing. A newer watch of the same endpoint replaces an older
 * one. Resolves with the outcome once it is shown (the message's buttons are not awaited); undefined when
 * signed out.
 */
export async function watchRolloutInEditor(
  session: Session,
  endpoint: RolloutEndpoint,
  /** The client the change was applied with (an environment's profile, say); the session's when left out. */
  api?: ApiClient,
): Promise<RolloutOutcome | undefined> {
  const client = api ?? session.api;
  if (!client) return undefined;
  const controller = watchedRollouts.begin(endpoint.id);
  const stallAfterMs = stallAfterSeconds() * 1000;
  let outcome: RolloutOutcome | undefined;
  try {
    outcome = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Rolling out ${endpoint.name}`, cancellable: true },
      async (progress, token) => {
        const dismissed = token.onCancellationRequested(() => {
          controller.abort();
        });
        try {
          return await watchRollout({
            client,
            endpointId: endpoint.id,
            signal: controller.signal,
            stallAfterMs,
            // A failed release (a crash loop) is never called later than a stall.
            failAfterMs: Math.min(ROLLOUT_DEFAULTS.failAfterMs, stallAfterMs),
            // Only the bindings that recorded this endpoint's release are written.
            recordReadinessIn: (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath),
            onProgress: (current) => {
              progress.report({ message: current.text });
              watchedRollouts.update(endpoint.id, controller, current);
            },
          });
        } finally {
          dismissed.dispose();
        }
      },
    );
  } finally {
    watchedRollouts.end(endpoint.id, controller, outcome);
  }
  const report = rolloutReport(endpoint.name, outcome);
  if (report) show(session, endpoint, report, outcome.kind === 'done' && endpoint.type !== 'LOAD_BALANCER');
  return outcome;
}

/** Asks the releases feature to roll `endpointId` back; says so when it cannot. */
export async function rollBack(endpointId: string): Promise<void> {
  try {
    await vscode.commands.executeCommand(ROLLBACK_COMMAND, { endpointId });
  } catch (error) {
    void vscode.window.showErrorMessage(`roll back failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function stallAfterSeconds(): number {
  const value = vscode.workspace.getConfiguration().get<number>(STALL_SETTING, DEFAULT_STALL_SECONDS);
  return Number.isInteger(value) && value >= MIN_STALL_SECONDS ? value : DEFAULT_STALL_SECONDS;
}

function show(session: Session, endpoint: RolloutEndpoint, report: RolloutReport, offerSmokeCheck: boolean): void {
  const OPEN_LOGS = 'Open Logs';
  const ROLL_BACK = 'Roll Back…';
  const SMOKE_CHECK = 'Smoke Check';
  const buttons = [
    ...(report.logWorkers.length > 0 ? [OPEN_LOGS] : []),
    ...(report.rollBack ? [ROLL_BACK] : []),
    ...(offerSmokeCheck ? [SMOKE_CHECK] : []),
  ];
  const message = session.redact(report.message);
  const shown =
    report.level === 'info'
      ? vscode.window.showInformationMessage(message, ...buttons)
      : vscode.window.showWarningMessage(message, ...buttons);
  void shown.then((choice) => {
    if (choice === OPEN_LOGS) void openWorkersLogs({ endpointId: endpoint.id, endpointName: endpoint.name, workerIds: report.logWorkers });
    else if (choice === ROLL_BACK) void rollBack(endpoint.id);
    else if (choice === SMOKE_CHECK)
      void vscode.commands.executeCommand(SMOKE_CHECK_COMMAND, { endpointId: endpoint.id, endpointName: endpoint.name });
  });
}

/**
 * The rollouts this window watches, by endpoint id: the Endpoints tree shows each beside its endpoint, and after
 * one stalled or failed, why its workers are not serving, until the endpoint's next rollout is watched.
 */
class WatchedRollouts {
  private readonly watches = new Map<string, { controller: AbortController; progress?: RolloutProgress }>();
  private readonly causes = new Map<string, NotServingCause>();
  private readonly changed = new vscode.EventEmitter<string>();
  /** Fires with the endpoint id whose rollout progressed, started or ended. */
  readonly onDidChange = this.changed.event;

  /** The latest progress of the rollout watched on this endpoint; undefined when none is. */
  progress(endpointId: string): RolloutProgress | undefined {
    return this.watches.get(endpointId)?.progress;
  }

  /** Why the workers of the endpoint's last watched rollout were not serving when it stalled or failed. */
  cause(endpointId: string): NotServingCause | undefined {
    return this.causes.get(endpointId);
  }

  /** A new watch of the endpoint; one already running is dismissed, since the newer apply is what counts. */
  begin(endpointId: string): AbortController {
    this.watches.get(endpointId)?.controller.abort();
    this.causes.delete(endpointId);
    const controller = new AbortController();
    this.watches.set(endpointId, { controller });
    return controller;
  }

  update(endpointId: string, controller: AbortController, progress: RolloutProgress): void {
    if (this.watches.get(endpointId)?.controller !== controller) return;
    this.watches.set(endpointId, { controller, progress });
    this.changed.fire(endpointId);
  }

  end(endpointId: string, controller: AbortController, outcome: RolloutOutcome | undefined): void {
    if (this.watches.get(endpointId)?.controller !== controller) return;
    this.watches.delete(endpointId);
    if (outcome && 'cause' in outcome && outcome.cause) this.causes.set(endpointId, outcome.cause);
    this.changed.fire(endpointId);
  }
}

export const watchedRollouts = new WatchedRollouts();
