/**
 * The Logs view in the bottom panel: a webview that shows the rows of one target (a worker, or an
 * endpoint's workers merged). The extension holds the ring of rows and the filter; the webview only
 * renders what it is sent, in batches at most every 100 ms. Streams run while the view is visible:
 * hiding or closing it aborts them, showing it again resumes each worker after its last line.
 */
import * as vscode from 'vscode';
import { webviewHtml } from '../webviewPage';
import type { Session } from '../auth/session';
import { LogFollower, type LogTarget } from './follower';
import { compileFilter, formatRow, RingBuffer, TAIL_CHOICES, type LineFilter, type LogRow, type SourceFilter } from './model';
import { parseWebviewMessage, type ToWebview } from './messages';

export const LOGS_VIEW = 'endpointStudio.logs';
export const MAX_LINES_SETTING = 'endpointStudio.logs.maxLines';
const BATCH_MS = 100;

export function maxLinesSetting(): number {
  const value = vscode.workspace.getConfiguration().get<number>(MAX_LINES_SETTING, 5000);
  return Number.isInteger(value) && value >= 100 ? Math.min(value, 100_000) : 5000;
}

export class LogsView implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private viewDisposables: vscode.Disposable[] = [];
  private follower: LogFollower | undefined;
  private target: LogTarget | undefined;
  private source: SourceFilter = 'all';
  private tail = 100;
  private filter: LineFilter = { text: '', regex: false };
  private matches: (row: LogRow) => boolean = () => true;
  private paused = false;
  private readonly ring = new RingBuffer<LogRow>(maxLinesSetting());
  private pending: LogRow[] = [];
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly session: Session,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration(MAX_LINES_SETTING)) return;
        this.ring.resize(maxLinesSetting());
        this.resetWebview();
      }),
      // Another profile: the streams belong to another account.
      session.onDidChange(() => {
        if (this.target) this.restart();
      }),
    );
  }

  /** Shows the panel on a new target; the old target's streams are aborted. */
  async open(target: LogTarget): Promise<void> {
    this.target = target;
    this.restart(true);
    await vscode.commands.executeCommand(`${LOGS_VIEW}.focus`);
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const media = vscode.Uri.joinPath(this.extensionUri, 'media', 'logs');
    view.webview.options = { enableScripts: true, enableCommandUris: false, localResourceRoots: [media] };
    view.webview.html = webviewHtml(view.webview, media, { title: 'Logs', script: 'logs.js', style: 'logs.css', body: BODY });
    this.viewDisposables = [
      view.webview.onDidReceiveMessage((raw: unknown) => {
        this.receive(raw);
      }),
      view.onDidChangeVisibility(() => (view.visible ? this.follower?.start() : this.follower?.stop())),
      view.onDidDispose(() => {
        this.follower?.stop();
        this.view = undefined;
        for (const d of this.viewDisposables.splice(0)) d.dispose();
      }),
    ];
    this.follower?.start();
  }

  private receive(raw: unknown): void {
    const message = parseWebviewMessage(raw);
    if (!message) {
      this.log.warn('logs view: ignored a message of unknown shape from the webview');
      return;
    }
    switch (message.type) {
      case 'ready':
        this.resetWebview();
        return;
      case 'pause':
        this.paused = message.paused;
        if (!this.paused) this.resetWebview();
        this.status();
        return;
      case 'source':
        if (message.source === this.source) return;
        this.source = message.source;
        this.restart(true);
        return;
      case 'tail':
        this.tail = message.tail;
        this.restart(true);
        return;
      case 'filter': {
        const compiled = compileFilter(message);
        if ('error' in compiled) {
          this.post({ type: 'filterError', error: compiled.error });
          return;
        }
        this.filter = { text: message.text, regex: message.regex };
        this.matches = compiled.test;
        this.post({ type: 'filterError', error: '' });
        this.resetWebview();
        return;
      }
      case 'clear':
        this.ring.clear();
        this.pending = [];
        this.resetWebview();
        return;
      case 'save':
        return void this.save();
    }
  }

  /** New streams for the current target and options; `fresh` also forgets the rows and cursors. */
  private restart(fresh = false): void {
    this.follower?.stop();
    this.follower = undefined;
    const api = this.session.api;
    if (fresh) {
      this.ring.clear();
      this.pending = [];
    }
    if (!this.target) {
      this.resetWebview();
      return;
    }
    if (!api) {
      this.resetWebview();
      this.post({ type: 'status', text: 'Signed out: sign in to read logs', live: false });
      return;
    }
    const target = this.target;
    this.follower = new LogFollower(
      api.serverless,
      target,
      { source: this.source, tail: this.tail },
      {
        onRow: (row) => {
          this.add(row);
        },
        onError: (workerId, error) => {
          this.log.warn(
            `logs of ${target.endpointName}${workerId ? ` worker ${workerId}` : ''}: ${this.session.redact(error instanceof Error ? error.message : String(error))}`,
          );
        },
      },
    );
    this.log.info(`logs: following ${describe(target)} (source ${this.source}, tail ${this.tail})`);
    this.resetWebview();
    if (this.view?.visible) this.follower.start();
  }

  private add(row: LogRow): void {
    this.ring.push(row);
    if (this.paused || !this.matches(row)) return;
    this.pending.push(row);
    this.flushTimer ??= setTimeout(() => {
      this.flush();
    }, BATCH_MS);
  }

  private flush(): void {
    this.flushTimer = undefined;
    const rows = this.pending.slice(-this.ring.capacity);
    this.pending = [];
    if (rows.length > 0) this.post({ type: 'append', rows });
    this.status();
  }

  private resetWebview(): void {
    this.pending = [];
    this.post({
      type: 'reset',
      rows: this.ring.toArray().filter(this.matches),
      maxLines: this.ring.capacity,
      target: this.target ? describe(this.target) : '',
      merged: this.target !== undefined && this.target.workerId === undefined,
      state: {
        source: this.source,
        tail: this.tail,
        paused: this.paused,
        filter: this.filter.text,
        regex: this.filter.regex,
        tails: [...TAIL_CHOICES],
      },
    });
    this.status();
  }

  private status(): void {
    const f = this.follower;
    const text = !this.target
      ? 'Open logs from a worker or an endpoint in the Endpoints view'
      : `${this.ring.size} line(s) kept (max ${this.ring.capacity})${f && f.reconnects > 0 ? ` · ${f.reconnects} reconnect(s)` : ''}${this.paused ? ' · paused' : ''}`;
    this.post({ type: 'status', text, live: f?.active === true && !this.paused });
  }

  private async save(): Promise<void> {
    if (!this.target) return;
    const rows = this.ring.toArray().filter(this.matches);
    const name = `${this.target.endpointName}${this.target.workerId ? `-${this.target.workerId}` : ''}.log`.replace(/[^\w.-]+/g, '_');
    const base = vscode.workspace.workspaceFolders?.[0]?.uri;
    const uri = await vscode.window.showSaveDialog({
      defaultUri: base ? vscode.Uri.joinPath(base, name) : undefined,
      filters: { Logs: ['log', 'txt'] },
      title: `Save ${rows.length} log line(s)`,
    });
    if (!uri) return;
    const merged = this.target.workerId === undefined;
    try {
      await vscode.workspace.fs.writeFile(uri, Buffer.from(rows.map((r) => formatRow(r, merged)).join('\n') + '\n', 'utf8'));
      vscode.window.setStatusBarMessage(`$(save) Saved ${rows.length} log line(s) to ${vscode.workspace.asRelativePath(uri)}`, 4000);
    } catch (error) {
      this.session.reportError('Saving the log', error);
    }
  }

  private post(message: ToWebview): void {
    void this.view?.webview.postMessage(message);
  }

  dispose(): void {
    this.follower?.stop();
    if (this.flushTimer) clearTimeout(this.flushTimer);
    for (const d of [...this.disposables, ...this.viewDisposables]) d.dispose();
  }
}

function describe(target: LogTarget): string {
  if (target.workerIds) return `${target.endpointName} · workers ${target.workerIds.join(', ')}`;
  return target.workerId ? `${target.endpointName} · worker ${target.workerId}` : `${target.endpointName} · all workers`;
}

const BODY = `<div class="toolbar" role="toolbar" aria-label="Log controls">
  <span id="target" class="target"></span>
  <button id="pause" type="button" aria-pressed="false" title="Pause or resume following (Space in the log)">Pause</button>
  <label>Source <select id="source"><option value="all">all</option><option value="container">container</option><option value="system">system</option></select></label>
  <label>Backfill <select id="tail"></select></label>
  <input id="filter" type="search" placeholder="Filter" aria-label="Filter lines" spellcheck="false">
  <label><input id="regex" type="checkbox"> Regex</label>
  <label><input id="timestamps" type="checkbox" checked> Timestamps</label>
  <button id="clear" type="button">Clear</button>
  <button id="save" type="button">Save…</button>
  <span id="filterError" class="error" role="alert"></span>
</div>
<div id="lines" class="lines" role="log" aria-live="polite" aria-label="Log lines" tabindex="0"></div>
<div id="status" class="status" aria-live="polite"></div>`;
