/**
 * A small stdio LSP client for the benchmark that gets diagnostics the way VS Code does. It declares pull
 * diagnostics; a server that offers them is asked (`textDocument/diagnostic`) right after every didOpen and
 * didChange, with vscode-languageclient 11's rules for a pull still running (lib/common/diagnostic.js,
 * `DiagnosticRequestor.pullAsync`), so a server is timed under the traffic it really gets. A server that only
 * pushes is heard on `publishDiagnostics`. Whichever way they come, the client records which version of the
 * document the diagnostics it shows are of, and when they arrived.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import {
  CancellationTokenSource,
  createMessageConnection,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import {
  DiagnosticServerCancellationData,
  DocumentDiagnosticReportKind,
  DocumentDiagnosticRequest,
  ErrorCodes,
  LSPErrorCodes,
  type Diagnostic,
  type DocumentDiagnosticReport,
  type InitializeResult,
  type PublishDiagnosticsParams,
  type Range,
} from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';

/** Diagnostics as they reached the client: the editor would show them from `at`. */
export interface Shown {
  readonly uri: string;
  /** The version of the document they were computed for. */
  readonly version: number;
  /** No newer change had been sent when they arrived: they were the document's current problems. */
  readonly latest: boolean;
  readonly at: number;
  readonly diagnostics: readonly Diagnostic[];
}

export interface StartOptions {
  /** Node's arguments: the script and its own, after any `--require` of the benchmark's. */
  readonly args: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  readonly initializationOptions?: unknown;
  /** Answers `workspace/configuration` requests (yaml-language-server asks for its settings this way). */
  readonly configuration?: (section: string | undefined) => unknown;
}

/**
 * A pull in flight, as vscode-languageclient keeps it per document: `active` while it runs; `reschedule` once a
 * newer change cancelled it (one more pull follows when it returns, of the version current then); `outdated`
 * when its answer is to be dropped.
 */
type PullState = { state: 'active'; cancel: CancellationTokenSource } | { state: 'reschedule' } | { state: 'outdated' };

/** USER_HZ of /proc/<pid>/stat: 100 on every Linux the benchmark runs on (`getconf CLK_TCK`). */
const CLOCK_TICKS_PER_SECOND = 100;

export class BenchLspClient {
  /** Every diagnostics the client received and would show, in order of arrival. */
  readonly shown: Shown[] = [];
  readonly notifications: { method: string; params: unknown }[] = [];
  readonly stderr: string[] = [];
  /** The `bench-fs` lines of bench/countFsCalls.cjs, when the server was started with it: each a file touched. */
  readonly fsCalls: string[] = [];
  private stderrTail = '';
  /** Pull requests sent, and how many of them a newer change cancelled. */
  pulls = 0;
  cancels = 0;
  /** Pulls that failed with an error other than a cancellation (vscode-languageclient logs these). */
  readonly pullErrors: string[] = [];
  /** Milliseconds from spawn to the initialize response. */
  readyMs = 0;
  /** The server offers pull diagnostics, so the client pulls; otherwise it waits for pushes. */
  pullMode = false;
  private readonly waiters: (() => void)[] = [];
  private readonly documents = new Map<string, TextDocument>();
  private readonly inFlight = new Map<string, PullState>();
  private readonly resultIds = new Map<string, string | undefined>();
  /** What an `unchanged` report keeps showing. */
  private readonly lastShown = new Map<string, readonly Diagnostic[]>();
  /** The server asked for the whole text with every change (TextDocumentSyncKind.Full), as a client then sends it. */
  private fullSync = false;

  private constructor(
    readonly child: ChildProcess,
    readonly connection: MessageConnection,
  ) {}

  static async start(options: StartOptions): Promise<BenchLspClient> {
    const started = performance.now();
    const child = spawn(process.execPath, [...options.args], { stdio: ['pipe', 'pipe', 'pipe'], env: options.env ?? process.env });
    const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    const client = new BenchLspClient(child, connection);
    child.stderr.on('data', (chunk: Buffer) => {
      client.readStderr(chunk.toString());
    });
    connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
      // yaml-language-server sends no version: its diagnostics are taken for the latest text it was sent.
      const version = params.version ?? client.documents.get(params.uri)?.version;
      if (version !== undefined) client.show(params.uri, version, params.diagnostics);
    });
    connection.onNotification((method, params) => {
      client.notifications.push({ method, params });
      client.wake();
    });
    connection.onRequest('workspace/configuration', (params: { items: { section?: string }[] }) =>
      params.items.map((i) => options.configuration?.(i.section) ?? null),
    );
    connection.onRequest('client/registerCapability', () => null);
    connection.onRequest('client/unregisterCapability', () => null);
    connection.onRequest('window/workDoneProgress/create', () => null);
    connection.onRequest('workspace/semanticTokens/refresh', () => null);
    // As vscode-languageclient does on a refresh: every open document is pulled again.
    connection.onRequest('workspace/diagnostic/refresh', () => {
      if (client.pullMode) for (const uri of client.documents.keys()) client.pull(uri);
      return null;
    });
    connection.listen();
    const initialized: InitializeResult = await connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: null,
      workspaceFolders: null,
      capabilities: {
        workspace: {
          configuration: true,
          didChangeConfiguration: { dynamicRegistration: false },
          // As VS Code: a server may register the files it wants to hear about, and needs no watcher of its own.
          didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true },
          diagnostics: { refreshSupport: true },
        },
        textDocument: {
          synchronization: { dynamicRegistration: false, didSave: false },
          publishDiagnostics: { versionSupport: true, relatedInformation: true },
          diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false },
          completion: { completionItem: { snippetSupport: true } },
          hover: { contentFormat: ['markdown'] },
        },
      },
      initializationOptions: options.initializationOptions,
    });
    client.readyMs = performance.now() - started;
    const sync = initialized.capabilities.textDocumentSync;
    client.fullSync = (typeof sync === 'number' ? sync : sync?.change) === 1;
    client.pullMode = initialized.capabilities.diagnosticProvider !== undefined;
    await connection.sendNotification('initialized', {});
    return client;
  }

  /** didOpen, and the pull VS Code sends after it. */
  async open(uri: string, text: string, languageId = 'yaml'): Promise<void> {
    this.documents.set(uri, TextDocument.create(uri, languageId, 1, text));
    await this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text } });
    if (this.pullMode) this.pull(uri);
  }

  /** One edit: didChange, then (pull mode) the pull VS Code sends after it. Returns the new version and when it was sent. */
  async change(uri: string, range: Range, text: string): Promise<{ version: number; sentAt: number }> {
    const document = this.documents.get(uri);
    if (!document) throw new Error(`${uri} is not open`);
    const version = document.version + 1;
    TextDocument.update(document, [{ range, text }], version);
    const sentAt = performance.now();
    const contentChanges = this.fullSync ? [{ text: document.getText() }] : [{ range, text }];
    await this.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges });
    if (this.pullMode) this.pull(uri);
    return { version, sentAt };
  }

  /** The first diagnostics of `uri` shown at or after index `from` of `shown` for `version` or a later one. */
  async diagnosticsOf(uri: string, version = 1, from = 0, timeoutMs = 60_000): Promise<Shown> {
    return this.waitFor(
      () => this.shown.slice(from).find((s) => s.uri === uri && s.version >= version),
      timeoutMs,
      `diagnostics of ${uri} v${version}`,
    );
  }

  async notification(method: string, accept: (params: unknown) => boolean, timeoutMs = 20_000): Promise<unknown> {
    const found = await this.waitFor(() => this.notifications.find((n) => n.method === method && accept(n.params)), timeoutMs, method);
    return found.params;
  }

  /**
   * vscode-languageclient's `pullAsync`: with no pull of this document in flight, one is sent for its current
   * version; with one running, that one is cancelled (`$/cancelRequest`) and another follows when it returns;
   * with one already cancelled, nothing more.
   */
  private pull(uri: string): void {
    const current = this.inFlight.get(uri);
    if (current === undefined) void this.request(uri);
    else if (current.state === 'active') {
      current.cancel.cancel();
      this.cancels++;
      this.inFlight.set(uri, { state: 'reschedule' });
    } else if (current.state === 'outdated') this.inFlight.set(uri, { state: 'reschedule' });
  }

  private async request(uri: string): Promise<void> {
    const version = this.documents.get(uri)?.version;
    if (version === undefined) return;
    const cancel = new CancellationTokenSource();
    this.inFlight.set(uri, { state: 'active', cancel });
    this.pulls++;
    let report: DocumentDiagnosticReport | undefined;
    let after: PullState | undefined;
    try {
      report = await this.connection.sendRequest(
        DocumentDiagnosticRequest.type,
        { textDocument: { uri }, previousResultId: this.resultIds.get(uri) },
        cancel.token,
      );
      // An answer that arrives after the client cancelled its request is dropped, and the document pulled again.
      if (cancel.token.isCancellationRequested) [report, after] = [undefined, { state: 'reschedule' }];
    } catch (error) {
      const answer = failedPull(error);
      if (answer === 'error') {
        this.inFlight.delete(uri);
        this.pullErrors.push(error instanceof Error ? error.message : String(error));
        return;
      }
      if (answer === 'outdated' || answer === 'reschedule') after = { state: answer };
      else report = answer;
    }
    after ??= this.inFlight.get(uri);
    this.inFlight.delete(uri);
    if (after === undefined || after.state === 'outdated') return;
    if (report !== undefined) {
      if (report.kind === DocumentDiagnosticReportKind.Full) this.show(uri, version, report.items);
      else this.show(uri, version, this.lastShown.get(uri) ?? []);
      this.resultIds.set(uri, report.resultId);
    }
    if (after.state === 'reschedule') this.pull(uri);
  }

  private show(uri: string, version: number, diagnostics: readonly Diagnostic[]): void {
    const latest = this.documents.get(uri)?.version === version;
    this.shown.push({ uri, version, latest, at: performance.now(), diagnostics });
    this.lastShown.set(uri, diagnostics);
    this.wake();
  }

  private wake(): void {
    for (const wake of this.waiters.splice(0)) wake();
  }

  private async waitFor<T>(find: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const found = find();
      if (found !== undefined) return found;
      if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
      await new Promise<void>((wake) => {
        this.waiters.push(wake);
        setTimeout(wake, 20);
      });
    }
  }

  private readStderr(text: string): void {
    this.stderr.push(text);
    const lines = (this.stderrTail + text).split('\n');
    this.stderrTail = lines.pop() ?? '';
    for (const line of lines) if (line.startsWith('bench-fs ')) this.fsCalls.push(line.slice('bench-fs '.length));
  }

  /** CPU time the server process has used so far (user + system, all threads), from /proc/<pid>/stat (Linux). */
  cpuMs(): number {
    const stat = readFileSync(`/proc/${String(this.child.pid)}/stat`, 'utf8');
    // utime and stime are the 12th and 13th fields after the command name, which may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  }

  /** VmRSS of the server process in bytes (Linux), undefined elsewhere. */
  rssBytes(): number | undefined {
    try {
      const match = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${String(this.child.pid)}/status`, 'utf8'));
      return match ? Number(match[1]) * 1024 : undefined;
    } catch {
      return undefined;
    }
  }

  async stop(): Promise<void> {
    const exited = new Promise((r) => this.child.once('exit', r));
    try {
      await Promise.race([this.connection.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 2000))]);
      await this.connection.sendNotification('exit');
      if (this.child.exitCode === null) await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))]);
    } catch {
      // Already gone; the kill below makes sure.
    }
    this.connection.dispose();
    this.child.kill();
  }
}

/**
 * What vscode-languageclient makes of a failed pull (`handleFailedRequest` with throwOnCancel, then `pullAsync`):
 * a cancellation by either side pulls again, unless the server said not to (`retriggerRequest: false`); a closed
 * connection or `ContentModified` reads as no problems; anything else is logged and nothing is shown.
 */
function failedPull(error: unknown): 'outdated' | 'reschedule' | 'error' | DocumentDiagnosticReport {
  if (!(error instanceof ResponseError)) return 'error';
  const empty: DocumentDiagnosticReport = { kind: DocumentDiagnosticReportKind.Full, items: [] };
  switch (error.code) {
    case ErrorCodes.PendingResponseRejected:
    case ErrorCodes.ConnectionInactive:
    case LSPErrorCodes.ContentModified:
      return empty;
    case LSPErrorCodes.RequestCancelled:
    case LSPErrorCodes.ServerCancelled:
      return DiagnosticServerCancellationData.is(error.data) && !error.data.retriggerRequest ? 'outdated' : 'reschedule';
    default:
      return 'error';
  }
}

/** Nearest-rank percentile of a list of milliseconds. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
