/**
 * The job console's read-only documents, `endpoint-studio-job:/<endpoint>/<job id>.json` for a
 * job's result and `.../health.md` for an endpoint's health. A result document is opened as soon as
 * the service names the job and rewritten as it moves, so streamed chunks show up while it runs. The jobs of this
 * window are kept here too, for the Cancel and Retry pickers and the lenses on failed results.
 */
import * as vscode from 'vscode';
import { formatJobDocument, type JobRecord } from './format';

export const JOB_SCHEME = 'endpoint-studio-job';
/** Jobs remembered per window; the oldest finished ones go first. */
const MAX_RECORDS = 200;

export interface TrackedJob {
  readonly uri: vscode.Uri;
  record: JobRecord;
  /** Set while this window follows the job: aborting it cancels the job. */
  controller?: AbortController;
}

export class JobDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly recordsChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeRecords = this.recordsChanged.event;
  private readonly texts = new Map<string, string>();
  private readonly jobs = new Map<string, TrackedJob>();

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '// this job console document is gone: it belonged to an earlier window\n';
  }

  /** The document of a job the service has named; the same one again when it is retried. */
  track(record: JobRecord & { jobId: string }): TrackedJob {
    const uri = vscode.Uri.from({ scheme: JOB_SCHEME, path: `/${safeName(record.endpointName)}/${safeName(record.jobId)}.json` });
    const tracked = this.jobs.get(uri.toString()) ?? { uri, record };
    tracked.record = record;
    this.jobs.delete(uri.toString());
    this.jobs.set(uri.toString(), tracked);
    this.prune();
    this.write(tracked);
    return tracked;
  }

  /** Rewrites the job's document from its record. */
  write(tracked: TrackedJob): void {
    const key = tracked.uri.toString();
    this.texts.set(key, formatJobDocument(tracked.record));
    this.changed.fire(tracked.uri);
    this.recordsChanged.fire();
  }

  /**
   * Fires a change for a document just opened: a change fired while it was being opened is not
   * applied to it, and a job that ends meanwhile would leave it showing an earlier state.
   */
  refresh(uri: vscode.Uri): void {
    this.changed.fire(uri);
  }

  /** Shows a plain document (health, a load balancer's ping) under `name`, replacing an earlier one. */
  show(endpointName: string, name: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: JOB_SCHEME, path: `/${safeName(endpointName)}/${safeName(endpointName)}.${name}` });
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
    return uri;
  }

  get(uri: vscode.Uri): TrackedJob | undefined {
    return this.jobs.get(uri.toString());
  }

  find(endpointId: string, jobId: string): TrackedJob | undefined {
    return [...this.jobs.values()].reverse().find((t) => t.record.endpointId === endpointId && t.record.jobId === jobId);
  }

  /** Newest first. */
  list(filter: (tracked: TrackedJob) => boolean = () => true): TrackedJob[] {
    return [...this.jobs.values()].reverse().filter(filter);
  }

  private prune(): void {
    if (this.jobs.size <= MAX_RECORDS) return;
    for (const [key, tracked] of this.jobs) {
      if (this.jobs.size <= MAX_RECORDS) break;
      if (tracked.controller) continue;
      this.jobs.delete(key);
      this.texts.delete(key);
    }
  }

  dispose(): void {
    for (const tracked of this.jobs.values()) tracked.controller?.abort();
    this.changed.dispose();
    this.recordsChanged.dispose();
  }
}

/** A path segment from an endpoint name: no slashes, nothing a file system would refuse. */
function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'endpoint';
}

/** Opens a console document beside the active editor, leaving the focus where it is. */
export async function openBeside(uri: vscode.Uri, language?: string): Promise<vscode.TextEditor> {
  let document = await vscode.workspace.openTextDocument(uri);
  if (language && document.languageId !== language) document = await vscode.languages.setTextDocumentLanguage(document, language);
  return vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true, preview: false });
}
