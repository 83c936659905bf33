/**
 * Running jobs in the editor: each job gets a cancellable progress notification showing its state
 * (cancelling it sends `cancel` for the job) and a result document, opened beside the editor once
 * the service names the job and rewritten as states and streamed chunks arrive. When it ends, a
 * failure or timeout says why, with Retry and, when the service says which worker ran it, Open
 * Worker Logs. A job IN_QUEUE behind workers that crash-loop or wait for capacity says so in its progress
 * and its document, and a job cancelled while it waited so says why, with the crashing worker's logs.
 */
import * as vscode from 'vscode';
import type { ApiClient, Endpoint, JobRequest } from '../../core/api';
import type { Session } from '../auth/session';
import { cancelJob, isAborted, retryJob, runJob, waitingNote, type JobHandlers, type JobResult } from '../../core/operations';
import { outcomeMessage, progressLine, type JobRecord, type RunMode } from './format';
import { openWorkersLogs } from '../logs';
import { openBeside, type JobDocuments, type TrackedJob } from './results';

export function jobSettings(): { pollIntervalMs: number; runsyncWaitMs: number } {
  const config = vscode.workspace.getConfiguration('endpointStudio.jobs');
  const clamp = (value: number | undefined, min: number, max: number, fallback: number): number =>
    typeof value === 'number' && Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : fallback;
  return {
    pollIntervalMs: clamp(config.get<number>('pollIntervalMs'), 250, 60_000, 1000),
    runsyncWaitMs: clamp(config.get<number>('runsyncWaitMs'), 1000, 300_000, 90_000),
  };
}

/** A job's record before the service has answered its submission. */
function newRecord(endpointId: string, endpointName: string, mode: RunMode, source: string, request: JobRequest): JobRecord {
  return {
    endpointId,
    endpointName,
    jobId: undefined,
    mode,
    status: 'SUBMITTING',
    job: undefined,
    stream: [],
    submittedAt: new Date().toISOString(),
    source,
    request,
    notes: [],
  };
}

/** What a running job's progress and document hang on to. */
interface Follow {
  record: JobRecord;
  tracked?: TrackedJob;
  controller: AbortController;
  progress: vscode.Progress<{ message?: string }>;
}

export class JobConsole {
  constructor(
    private readonly session: Session,
    private readonly docs: JobDocuments,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** Submits a request and follows the job to its end. */
  async submit(endpoint: Endpoint, request: JobRequest, mode: RunMode, source: string): Promise<TrackedJob | undefined> {
    const api = this.requireApi();
    if (!api) return undefined;
    const record = newRecord(endpoint.id, endpoint.name, mode, source, request);
    this.log.info(`jobs: ${mode} on ${endpoint.name} (${endpoint.id}) from ${source}`);
    const { pollIntervalMs, runsyncWaitMs } = jobSettings();
    return this.follow(record, `${mode === 'runsync' ? 'runsync' : 'Run'} on ${endpoint.name}`, (handlers) =>
      runJob(api, { endpointId: endpoint.id, ...request, sync: mode === 'runsync', waitMs: runsyncWaitMs, pollIntervalMs }, handlers),
    );
  }

  /** Requeues a failed or timed-out job and follows it again, in the same document. */
  async retry(endpointId: string, endpointName: string, jobId: string): Promise<TrackedJob | undefined> {
    const api = this.requireApi();
    if (!api) return undefined;
    const earlier = this.docs.find(endpointId, jobId);
    if (earlier?.controller)
      return void vscode.window.showInformationMessage(`Job ${jobId} is still being followed; cancel it first or wait for it to end`);
    const record: JobRecord = earlier
      ? { ...earlier.record, status: 'IN_QUEUE', job: undefined, stream: [], notes: [], finishedAt: undefined, failure: undefined }
      : { ...newRecord(endpointId, endpointName, 'run', 'a job submitted elsewhere', { input: null }), jobId, status: 'IN_QUEUE' };
    this.log.info(`jobs: retry ${jobId} on ${endpointName}`);
    return this.follow(record, `Retry on ${endpointName}`, (handlers) =>
      retryJob(api, { endpointId, jobId, pollIntervalMs: jobSettings().pollIntervalMs }, handlers),
    );
  }

  /** Cancels a job: through its progress when this window follows it, otherwise directly. */
  async cancel(endpointId: string, endpointName: string, jobId: string): Promise<void> {
    const tracked = this.docs.find(endpointId, jobId);
    if (tracked?.controller) {
      tracked.controller.abort();
      return;
    }
    const api = this.requireApi();
    if (!api) return;
    try {
      const job = await cancelJob(api, { endpointId, jobId });
      void vscode.window.showInformationMessage(`Cancel sent for job ${jobId} on ${endpointName}; it is now: ${job.status}`);
    } catch (error) {
      this.session.reportError(`Cancelling job ${jobId}`, error);
    }
  }

  private requireApi(): ApiClient | undefined {
    const api = this.session.api;
    if (!api) void vscode.window.showWarningMessage('Sign in to run jobs');
    return api;
  }

  private async follow(
    record: JobRecord,
    title: string,
    start: (handlers: JobHandlers) => Promise<JobResult>,
  ): Promise<TrackedJob | undefined> {
    const controller = new AbortController();
    let state: Follow | undefined;
    const outcome = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      async (progress, token) => {
        token.onCancellationRequested(() => {
          controller.abort();
        });
        const follow: Follow = { record, controller, progress };
        state = follow;
        if (record.jobId) this.open(follow, record.jobId);
        try {
          return await start({
            signal: controller.signal,
            onStatus: (p) => {
              if (p.jobId && !follow.tracked) this.open(follow, p.jobId);
              const waiting = p.waiting ? this.session.redact(waitingNote(p.waiting)) : undefined;
              const changed =
                record.status !== p.status ||
                record.waiting !== waiting ||
                (p.job !== undefined && JSON.stringify(p.job) !== JSON.stringify(record.job));
              record.status = p.status;
              record.waiting = waiting;
              if (p.job) record.job = p.job;
              progress.report({ message: `${p.jobId ? `${p.jobId}: ` : ''}${progressLine(p.status, p.elapsedMs, p.chunks, waiting)}` });
              if (changed && follow.tracked) this.docs.write(follow.tracked);
            },
            onStream: (chunks) => {
              record.stream.push(...chunks);
              if (follow.tracked) this.docs.write(follow.tracked);
            },
          });
        } catch (error) {
          // Not `error`: a finished job's result has that field too (the job's own error).
          return { thrown: error };
        }
      },
    );
    const follow = state;
    if (!follow) return undefined;
    if (follow.tracked) follow.tracked.controller = undefined;
    if ('thrown' in outcome) {
      this.failed(follow, outcome.thrown);
      return follow.tracked;
    }
    record.status = outcome.status;
    record.job = outcome.job;
    record.stream = outcome.stream;
    record.notes.push(...outcome.notes);
    record.finishedAt = new Date().toISOString();
    if (!follow.tracked) this.open(follow, outcome.jobId);
    else this.docs.write(follow.tracked);
    this.report(follow.tracked as TrackedJob, outcome);
    return follow.tracked;
  }

  /** Starts the job's document once the service has named the job. */
  private open(follow: Follow, jobId: string): void {
    follow.record.jobId = jobId;
    follow.tracked = this.docs.track({ ...follow.record, jobId });
    // The document shows this same record object, so later changes reach it.
    follow.tracked.record = follow.record;
    follow.tracked.controller = follow.controller;
    const uri = follow.tracked.uri;
    void openBeside(uri).then(
      () => {
        this.docs.refresh(uri);
      },
      (error: unknown) => {
        this.log.warn(`jobs: the result document could not be shown: ${String(error)}`);
      },
    );
  }

  private failed(follow: Follow, error: unknown): void {
    const { record } = follow;
    const reason = this.session.redact(error instanceof Error ? error.message : String(error));
    if (isAborted(error)) {
      // Only a runsync in flight gets here: a followed job is cancelled by id instead.
      void vscode.window.showInformationMessage(`Stopped waiting on ${record.endpointName}: ${reason}`);
      this.log.info(`jobs: ${reason}`);
    } else {
      this.session.reportError(
        record.jobId ? `Following job ${record.jobId} on ${record.endpointName}` : `Submitting to ${record.endpointName}`,
        error,
      );
    }
    if (follow.tracked) {
      record.failure = reason;
      this.docs.write(follow.tracked);
    }
  }

  /** A job cancelled while no worker could take it: why it waited, and a crashing worker's logs at hand. */
  private reportWaited(record: JobRecord, message: string, waited: NonNullable<JobResult['waited']>): void {
    const crashing = waited.kind === 'crash-looping' ? waited.workerId : undefined;
    const text = `${message} after it ${this.session.redact(waitingNote(waited)).replace(/^waiting/, 'waited')}`;
    void vscode.window.showWarningMessage(text, ...(crashing ? ['Open Worker Logs'] : [])).then((choice) => {
      if (choice && crashing)
        void openWorkersLogs({ endpointId: record.endpointId, endpointName: record.endpointName, workerId: crashing });
    });
  }

  private report(tracked: TrackedJob, outcome: JobResult): void {
    const record = tracked.record;
    const message = outcomeMessage(record);
    this.log.info(`jobs: ${message}`);
    if (outcome.status === 'COMPLETED') {
      vscode.window.setStatusBarMessage(`$(check) ${message}`, 15_000);
      return;
    }
    if (outcome.waited && outcome.status === 'CANCELLED') {
      this.reportWaited(record, message, outcome.waited);
      return;
    }
    if (outcome.status === 'CANCELLED' || outcome.cancelledByUser) {
      void vscode.window.showInformationMessage(
        outcome.notes.length > 0 && outcome.status !== 'CANCELLED' ? `${message}: ${outcome.notes.at(-1)}` : message,
      );
      return;
    }
    const workerId = outcome.job.workerId;
    const actions = ['Retry', ...(workerId ? ['Open Worker Logs'] : []), 'Show Result'];
    void vscode.window.showErrorMessage(message, ...actions).then((choice) => {
      if (choice === 'Retry') void this.retry(record.endpointId, record.endpointName, outcome.jobId);
      if (choice === 'Open Worker Logs' && workerId)
        void openWorkersLogs({ endpointId: record.endpointId, endpointName: record.endpointName, workerId });
      if (choice === 'Show Result') void openBeside(tracked.uri);
    });
  }
}
