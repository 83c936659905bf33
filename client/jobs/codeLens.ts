/**
 * CodeLenses of the job console: above a request file, Run against its endpoint (bound or chosen),
 * runsync, Other Endpoint… and Smoke Check (one job that must pass on the endpoint's new release); or
 * what keeps it from being sent. Above a job's result document:
 * Cancel while it runs, and for a failed or timed-out job Retry and the logs of the worker that
 * ran it.
 */
import * as vscode from 'vscode';
import { parseRequestText } from './requestFile';
import { JOB_SCHEME, type JobDocuments } from './results';
import type { JobTargets } from './targets';

const TOP = new vscode.Range(0, 0, 0, 0);

export class RequestCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly targets: JobTargets,
    bindingsChanged: vscode.Event<unknown>,
  ) {
    this.subscriptions = [
      targets.onDidChange(() => {
        this.changed.fire();
      }),
      bindingsChanged(() => {
        this.changed.fire();
      }),
    ];
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const parsed = parseRequestText(document.getText());
    if (!parsed.ok) {
      const more = parsed.problems.length > 1 ? ` (and ${parsed.problems.length - 1} more)` : '';
      return [
        new vscode.CodeLens(TOP, {
          title: `$(warning) Not runnable: ${parsed.problems[0]}${more}`,
          command: '',
          tooltip: parsed.problems.join('\n'),
        }),
      ];
    }
    const args = [document.uri];
    const target = this.targets.known(document.uri);
    if (!target) {
      return [
        new vscode.CodeLens(TOP, {
          title: '$(play) Run…',
          command: 'endpointStudio.jobs.runOn',
          arguments: args,
          tooltip: 'Choose a queue endpoint, submit this request with run and follow the job',
        }),
        new vscode.CodeLens(TOP, {
          title: '$(watch) runsync…',
          command: 'endpointStudio.jobs.runSync',
          arguments: args,
          tooltip: 'Choose a queue endpoint and submit with runsync',
        }),
      ];
    }
    const because = `${target.name} (${target.id}): ${target.because}`;
    return [
      new vscode.CodeLens(TOP, {
        title: `$(play) Run on ${target.name}`,
        command: 'endpointStudio.jobs.run',
        arguments: args,
        tooltip: `Submit with run and follow the job on ${because}`,
      }),
      new vscode.CodeLens(TOP, {
        title: '$(watch) runsync',
        command: 'endpointStudio.jobs.runSync',
        arguments: args,
        tooltip: `Submit with runsync (wait: endpointStudio.jobs.runsyncWaitMs) on ${because}`,
      }),
      new vscode.CodeLens(TOP, {
        title: 'Other Endpoint…',
        command: 'endpointStudio.jobs.runOn',
        arguments: args,
        tooltip: 'Choose another queue endpoint for this file and run',
      }),
      new vscode.CodeLens(TOP, {
        title: '$(beaker) Smoke Check',
        command: 'endpointStudio.jobs.smokeCheck',
        arguments: args,
        tooltip: `Run this request once on ${because} and say whether it passed on the endpoint's latest release`,
      }),
    ];
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.changed.dispose();
  }
}

export class ResultCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly docs: JobDocuments) {
    this.subscription = docs.onDidChangeRecords(() => {
      this.changed.fire();
    });
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    if (document.uri.scheme !== JOB_SCHEME) return [];
    const tracked = this.docs.get(document.uri);
    if (!tracked?.record.jobId) return [];
    const { record } = tracked;
    const ref = { endpointId: record.endpointId, endpointName: record.endpointName, jobId: record.jobId };
    if (tracked.controller)
      return [new vscode.CodeLens(TOP, { title: '$(debug-stop) Cancel Job', command: 'endpointStudio.jobs.cancel', arguments: [ref] })];
    if (record.status !== 'FAILED' && record.status !== 'TIMED_OUT') return [];
    const lenses = [
      new vscode.CodeLens(TOP, {
        title: '$(debug-restart) Retry',
        command: 'endpointStudio.jobs.retry',
        arguments: [ref],
        tooltip: 'Requeue this job and follow it again',
      }),
    ];
    const workerId = record.job?.workerId;
    if (workerId) {
      lenses.push(
        new vscode.CodeLens(TOP, {
          title: `$(output) Open Worker Logs (${workerId})`,
          command: 'endpointStudio.logs.openWorker',
          arguments: [{ endpointId: record.endpointId, endpointName: record.endpointName, workerId }],
          tooltip: 'The logs of the worker that ran this job',
        }),
      );
    }
    return lenses;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
