/**
 * CodeLenses of the job console: above a request file, Run against its endpoint (bound or chosen),
 * runsync, Other Endpoint… and Smoke Check (one job that must pass on the endpoint's new release); or
 * what keeps it from being sent. Above a job's result document:
 * Cancel while it runs, and for a failed or timed-out job Retry and the logs of the worker that
 * ran it.
 */
import * as vscode from 'vscode';
import { watchBindings } from '../explorer/boundSpecs';
import { parseRequestText } from './requestFile';
import { JOB_SCHEME, type JobDocuments } from './results';
import type { JobTargets } from './targets';

const TOP = new vscode.Range(0, 0, 0, 0);

/** A lens at the top of the document; an empty `command` only shows its title. */
function lens(title: string, command: string, args?: unknown[], tooltip?: string): vscode.CodeLens {
  return new vscode.CodeLens(TOP, { title, command, arguments: args, tooltip });
}

export class RequestCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly targets: JobTargets) {
    const refresh = (): void => {
      this.changed.fire();
    };
    // A deploy writes the binding file: a request file beside the spec then runs on that endpoint.
    this.subscriptions = [targets.onDidChange(refresh), watchBindings(refresh)];
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const parsed = parseRequestText(document.getText());
    if (!parsed.ok) {
      const more = parsed.problems.length > 1 ? ` (and ${parsed.problems.length - 1} more)` : '';
      return [lens(`$(warning) Not runnable: ${parsed.problems[0]}${more}`, '', undefined, parsed.problems.join('\n'))];
    }
    const args = [document.uri];
    const target = this.targets.known(document.uri);
    if (!target) {
      return [
        lens('$(play) Run…', 'endpointStudio.jobs.runOn', args, 'Choose a queue endpoint, submit this request with run and follow the job'),
        lens('$(watch) runsync…', 'endpointStudio.jobs.runSync', args, 'Choose a queue endpoint and submit with runsync'),
      ];
    }
    const because = `${target.name} (${target.id}): ${target.because}`;
    return [
      lens(`$(play) Run on ${target.name}`, 'endpointStudio.jobs.run', args, `Submit with run and follow the job on ${because}`),
      lens(
        '$(watch) runsync',
        'endpointStudio.jobs.runSync',
        args,
        `Submit with runsync (wait: endpointStudio.jobs.runsyncWaitMs) on ${because}`,
      ),
      lens('Other Endpoint…', 'endpointStudio.jobs.runOn', args, 'Choose another queue endpoint for this file and run'),
      lens(
        '$(beaker) Smoke Check',
        'endpointStudio.jobs.smokeCheck',
        args,
        `Run this request once on ${because} and say whether it passed on the endpoint's latest release`,
      ),
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
    if (tracked.controller) return [lens('$(debug-stop) Cancel Job', 'endpointStudio.jobs.cancel', [ref])];
    if (record.status !== 'FAILED' && record.status !== 'TIMED_OUT') return [];
    const retry = lens('$(debug-restart) Retry', 'endpointStudio.jobs.retry', [ref], 'Requeue this job and follow it again');
    const workerId = record.job?.workerId;
    if (!workerId) return [retry];
    const worker = { endpointId: record.endpointId, endpointName: record.endpointName, workerId };
    return [
      retry,
      lens(
        `$(output) Open Worker Logs (${workerId})`,
        'endpointStudio.logs.openWorker',
        [worker],
        'The logs of the worker that ran this job',
      ),
    ];
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
