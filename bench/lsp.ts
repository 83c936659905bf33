/**
 * A small stdio LSP client for the benchmark: spawns a language server, speaks JSON-RPC and times
 * the way from a `didChange` to the diagnostics published for it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import type { Diagnostic, InitializeResult, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';

export interface Published {
  readonly params: PublishDiagnosticsParams;
  readonly at: number;
}

export interface StartOptions {
  readonly args: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  readonly initializationOptions?: unknown;
  /** Answers `workspace/configuration` requests (YLS asks for its settings this way). */
  readonly configuration?: (section: string | undefined) => unknown;
  readonly rootUri?: string | null;
}

/** USER_HZ of /proc/<pid>/stat: 100 on every Linux the benchmark runs on (`getconf CLK_TCK`). */
const CLOCK_TICKS_PER_SECOND = 100;

export class BenchLspClient {
  private readonly published: Published[] = [];
  private readonly waiters: Array<() => void> = [];
  private readonly documents = new Map<string, TextDocument>();
  /** The server asked for the whole text with every change (TextDocumentSyncKind.Full), as a client then sends it. */
  private fullSync = false;
  readonly notifications: { method: string; params: unknown }[] = [];
  readonly stderr: string[] = [];
  /** Milliseconds from spawn to the initialize response. */
  readyMs = 0;

  private constructor(
    readonly child: ChildProcess,
    readonly connection: MessageConnection,
  ) {}

  static async start(options: StartOptions): Promise<BenchLspClient> {
    const started = performance.now();
    const child = spawn(process.execPath, [...options.args], { stdio: ['pipe', 'pipe', 'pipe'], env: options.env ?? process.env });
    const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    const client = new BenchLspClient(child, connection);
    child.stderr.on('data', (chunk: Buffer) => client.stderr.push(chunk.toString()));
    connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
      client.published.push({ params, at: performance.now() });
      client.wake();
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
    connection.onRequest('workspace/diagnostic/refresh', () => null);
    connection.onRequest('workspace/semanticTokens/refresh', () => null);
    connection.listen();
    const initialized: InitializeResult = await connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: options.rootUri ?? null,
      workspaceFolders: null,
      capabilities: {
        workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: false } },
        textDocument: {
          synchronization: { dynamicRegistration: false, didSave: false },
          publishDiagnostics: { versionSupport: true, relatedInformation: true },
          completion: { completionItem: { snippetSupport: true } },
          hover: { contentFormat: ['markdown'] },
        },
      },
      initializationOptions: options.initializationOptions,
    });
    client.readyMs = performance.now() - started;
    const sync = initialized.capabilities.textDocumentSync;
    client.fullSync = (typeof sync === 'number' ? sync : sync?.change) === 1;
    await connection.sendNotification('initialized', {});
    return client;
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

  async open(uri: string, text: string, languageId = 'yaml'): Promise<void> {
    this.documents.set(uri, TextDocument.create(uri, languageId, 1, text));
    await this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text } });
  }

  /** How many diagnostics notifications have arrived so far (for servers that do not echo the version). */
  get publishedCount(): number {
    return this.published.length;
  }

  /**
   * Sends one incremental edit and waits for the diagnostics of the new version. When the server does not
   * echo versions, the first publication for `uri` after the edit is taken as its answer.
   */
  async editAndWait(
    uri: string,
    range: { start: { line: number; character: number }; end: { line: number; character: number } },
    text: string,
    timeoutMs = 60000,
  ): Promise<{ ms: number; diagnostics: Diagnostic[] }> {
    const document = this.documents.get(uri);
    if (!document) throw new Error(`${uri} is not open`);
    const version = document.version + 1;
    TextDocument.update(document, [{ range, text }], version);
    const before = this.published.length;
    const sent = performance.now();
    const contentChanges = this.fullSync ? [{ text: document.getText() }] : [{ range, text }];
    await this.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges });
    const found = await this.waitFor(
      () =>
        this.published.slice(before).find((p) => p.params.uri === uri && (p.params.version === undefined || p.params.version === version)),
      timeoutMs,
      `diagnostics of ${uri} v${version}`,
    );
    return { ms: found.at - sent, diagnostics: found.params.diagnostics };
  }

  /** Waits for the first diagnostics of `uri` published at or after index `from`. */
  async diagnosticsAfter(uri: string, from: number, timeoutMs = 60000): Promise<Diagnostic[]> {
    const found = await this.waitFor(
      () => this.published.slice(from).find((p) => p.params.uri === uri),
      timeoutMs,
      `diagnostics of ${uri}`,
    );
    return found.params.diagnostics;
  }

  async notification(method: string, accept: (params: unknown) => boolean, timeoutMs = 20000): Promise<unknown> {
    const found = await this.waitFor(() => this.notifications.find((n) => n.method === method && accept(n.params)), timeoutMs, method);
    return found.params;
  }

  /** CPU time the server process has used so far (user + system, all threads), from /proc/<pid>/stat (Linux). */
  cpuMs(): number {
    // utime and stime are the 12th and 13th fields after the command name.
    const fields = this.statFields();
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  }

  /**
   * Minor page faults of the server process so far (Linux). V8 gives a process that allocates slowly a young
   * generation whose free half is handed back to the system after every scavenge, so each fresh 4 KB the server
   * allocates faults once: this count shows allocation where a CPU figure only shows its cost.
   */
  minorFaults(): number {
    return Number(this.statFields()[7]);
  }

  /** The fields of /proc/<pid>/stat after the command name, which may hold spaces. */
  private statFields(): string[] {
    const stat = readFileSync(`/proc/${this.child.pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  }

  /** VmRSS of the server process in bytes (Linux), undefined elsewhere. */
  rssBytes(): number | undefined {
    try {
      const match = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${this.child.pid}/status`, 'utf8'));
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
      // A server run with --cpu-prof writes its profile as it exits: let it, rather than kill it first.
      if (this.child.exitCode === null) await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))]);
    } catch {
      // Already gone; the kill below makes sure.
    }
    this.connection.dispose();
    this.child.kill();
  }
}

/** Nearest-rank percentile of a list of milliseconds. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
