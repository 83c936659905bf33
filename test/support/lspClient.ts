/**
 * A minimal LSP client for tests: spawns the bundled server over stdio and speaks JSON-RPC,
 * exactly as Neovim, Helix or VS Code would.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ENVIRONMENT_FROM_PARENT } from '../../core/protocol';
import {
  createMessageConnection,
  ErrorCodes,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import { declaresRequest } from './declaredRequests';
import type {
  ClientCapabilities,
  CodeAction,
  CompletionItem,
  CompletionList,
  Diagnostic,
  DocumentDiagnosticReport,
  Hover,
  InitializeResult,
  InlayHint,
  Range,
  Registration,
  PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol';

export const REPO_ROOT = resolve(__dirname, '..', '..');

export interface LspClientOptions {
  /** Advertise pull diagnostics (textDocument/diagnostic) and their refresh; otherwise the server pushes. */
  pull?: boolean;
  debounceMs?: number;
  /** Run through the CLI (`endpoint-studio lsp --stdio`) instead of dist/server.js. */
  viaCli?: boolean;
  /** A catalog snapshot file the server checks against. */
  catalogFile?: string;
  /** Extra environment for the server (API URL and key for a live catalog, cache folder). */
  env?: Record<string, string>;
  /**
   * Start the server as the editor does: forked with `--environment-from-parent`, this message sent on its IPC
   * channel (the profile's variables, see core/protocol/serverStart.ts) before initialize.
   */
  environmentMessage?: unknown;
  /** The client capabilities to declare instead of the few this client picks (see vscodeClientCapabilities.ts). */
  capabilities?: ClientCapabilities;
  /** More `initializationOptions` (beside `debounceMs` and `catalogFile`). */
  initializationOptions?: Record<string, unknown>;
  /** What `workspace/configuration` answers, looked up by section as Neovim, Helix and Eglot do (null when absent). */
  settings?: Record<string, unknown>;
  /** The workspace's folders (absolute paths), as `workspaceFolders` of initialize. */
  workspaceFolders?: string[];
  /**
   * Answer every server request that `capabilities` do not declare with MethodNotFound, as Neovim does, and
   * record it in `undeclaredRequests`; or, given capabilities, answer only what those declare.
   */
  onlyDeclared?: boolean | ClientCapabilities;
  /** `clientInfo` of initialize. */
  clientInfo?: { name: string; version?: string };
}

const SERVICE_VARIABLES = new Set([
  'ENDPOINT_STUDIO_API_KEY',
  'RUNPOD_API_KEY',
  'ENDPOINT_STUDIO_API_URL',
  'ENDPOINT_STUDIO_JOBS_URL',
  'ENDPOINT_STUDIO_CATALOG_FILE',
]);

/** The test process's environment without any real key or cache location, so no test reaches a real service. */
function isolatedEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !SERVICE_VARIABLES.has(name)));
  return { ...env, ENDPOINT_STUDIO_CACHE_DIR: join(tmpdir(), `es-lsp-cache-${process.pid}`), ...extra };
}

/** A diagnostic's message as text: LSP allows Markdown content there, which failure messages should show by its value. */
export function diagnosticText(diagnostic: Diagnostic): string {
  return typeof diagnostic.message === 'string' ? diagnostic.message : diagnostic.message.value;
}

export class LspClient {
  private readonly versions = new Map<string, number>();
  private readonly published: PublishDiagnosticsParams[] = [];
  private readonly waiters: Array<() => void> = [];
  readonly stderr: string[] = [];
  readonly catalogStatuses: { state: string; fetchedAt?: string; error?: string }[] = [];
  /** The sections the server asked for with `workspace/configuration`, one entry per item. */
  readonly configurationRequests: (string | undefined)[] = [];
  /** What the server registered with `client/registerCapability`. */
  readonly registrations: Registration[] = [];
  /** How often the server asked to fetch inlay hints again (`workspace/inlayHint/refresh`). */
  inlayHintRefreshes = 0;
  /** How often the server asked to pull diagnostics again (`workspace/diagnostic/refresh`). */
  diagnosticRefreshes = 0;
  /** Requests the server sent that the client's capabilities do not declare (with `onlyDeclared`). */
  readonly undeclaredRequests: string[] = [];
  /** What the server wrote to the client's log (`window/logMessage`). */
  readonly logMessages: string[] = [];
  /** Every request the server sent, by method, in order. */
  readonly serverRequests: string[] = [];
  settings: Record<string, unknown> = {};
  initializeResult?: InitializeResult;
  private declared?: ClientCapabilities;

  private constructor(
    readonly process: ChildProcess,
    readonly connection: MessageConnection,
  ) {
    connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
      this.published.push(params);
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.handle('workspace/configuration', (params: { items: { section?: string }[] }) =>
      params.items.map(({ section }) => {
        this.configurationRequests.push(section);
        let value: unknown = this.settings;
        for (const part of section ? section.split('.') : []) value = (value as Record<string, unknown> | undefined)?.[part];
        return value ?? null;
      }),
    );
    this.handle('client/registerCapability', (params: { registrations: Registration[] }) => {
      this.registrations.push(...params.registrations);
      return null;
    });
    this.handle('workspace/inlayHint/refresh', () => {
      this.inlayHintRefreshes++;
      for (const wake of this.waiters.splice(0)) wake();
      return null;
    });
    connection.onNotification('window/logMessage', (params: { message: string }) => {
      this.logMessages.push(params.message);
    });
    connection.onNotification('endpointStudio/catalogStatus', (status: { state: string; error?: string }) => {
      this.catalogStatuses.push(status);
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.handle('workspace/diagnostic/refresh', () => {
      this.diagnosticRefreshes++;
      for (const wake of this.waiters.splice(0)) wake();
      return null;
    });
    // Anything else the server asks is a method this client does not know.
    connection.onRequest((method) => this.refuse(method));
  }

  /** Handles `method`, unless the client runs with `onlyDeclared` and its capabilities do not declare it. */
  private handle(method: string, handler: (params: never) => unknown): void {
    this.connection.onRequest(method, (params: never): unknown => {
      this.serverRequests.push(method);
      if (this.declared && !declaresRequest(this.declared, method, params)) return this.refuse(method, false);
      return handler(params);
    });
  }

  private refuse(method: string, count = true): ResponseError {
    if (count) this.serverRequests.push(method);
    this.undeclaredRequests.push(method);
    for (const wake of this.waiters.splice(0)) wake();
    return new ResponseError(ErrorCodes.MethodNotFound, `Unhandled method ${method}`);
  }

  static async start(options: LspClientOptions = {}): Promise<LspClient> {
    const script = options.viaCli
      ? [resolve(REPO_ROOT, 'dist/cli.js'), 'lsp', '--stdio']
      : [resolve(REPO_ROOT, 'dist/server.js'), '--stdio'];
    const env = isolatedEnvironment(options.env);
    const child =
      options.environmentMessage === undefined
        ? spawn(process.execPath, script, { stdio: ['pipe', 'pipe', 'pipe'], env })
        : fork(script[0], [...script.slice(1), ENVIRONMENT_FROM_PARENT], { silent: true, env });
    if (options.environmentMessage !== undefined) child.send(options.environmentMessage as object);
    const { stdin, stdout, stderr } = child;
    if (!stdin || !stdout || !stderr) throw new Error('the server was started without pipes');
    const connection = createMessageConnection(new StreamMessageReader(stdout), new StreamMessageWriter(stdin));
    const client = new LspClient(child, connection);
    client.settings = options.settings ?? {};
    if (options.onlyDeclared) client.declared = options.onlyDeclared === true ? (options.capabilities ?? {}) : options.onlyDeclared;
    stderr.on('data', (chunk: Buffer) => client.stderr.push(chunk.toString()));
    // A server that died fails the requests waiting on it at once, rather than leaving the test to time out.
    child.on('exit', () => {
      connection.dispose();
    });
    connection.listen();
    client.initializeResult = await connection.sendRequest('initialize', {
      processId: process.pid,
      ...(options.clientInfo ? { clientInfo: options.clientInfo } : {}),
      rootUri: null,
      workspaceFolders: options.workspaceFolders?.map((folder) => ({ uri: pathToFileURL(folder).href, name: basename(folder) })) ?? null,
      capabilities: options.capabilities ?? {
        ...(options.pull ? { workspace: { diagnostics: { refreshSupport: true } } } : {}),
        textDocument: {
          ...(options.pull ? { diagnostic: { dynamicRegistration: false } } : {}),
          publishDiagnostics: { versionSupport: true },
          completion: { completionItem: { snippetSupport: true } },
          hover: { contentFormat: ['markdown'] },
        },
      },
      initializationOptions: {
        debounceMs: options.debounceMs ?? 0,
        ...(options.catalogFile ? { catalogFile: options.catalogFile } : {}),
        ...options.initializationOptions,
      },
    });
    await connection.sendNotification('initialized', {});
    return client;
  }

  async open(uri: string, text: string, languageId = uri.endsWith('.json') ? 'json' : 'yaml'): Promise<void> {
    this.versions.set(uri, 1);
    await this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text } });
  }

  /** Replaces the whole text; returns the new version. */
  async change(uri: string, text: string): Promise<number> {
    const version = (this.versions.get(uri) ?? 0) + 1;
    this.versions.set(uri, version);
    await this.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text }] });
    return version;
  }

  async close(uri: string): Promise<void> {
    await this.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }

  /** Waits for pushed diagnostics of `uri` (at `version`, when given). */
  async pushedDiagnostics(uri: string, version?: number, timeoutMs = 5000): Promise<Diagnostic[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.published.find((p) => p.uri === uri && (version === undefined || p.version === version));
      if (found) return found.diagnostics;
      if (Date.now() > deadline) throw new Error(`no diagnostics for ${uri} v${version ?? '?'} within ${timeoutMs} ms`);
      await new Promise<void>((wake) => {
        this.waiters.push(wake);
        setTimeout(wake, 50);
      });
    }
  }

  /** Waits for a catalog status notification that satisfies `accept`. */
  async catalogStatus(
    accept: (status: { state: string; error?: string }) => boolean,
    timeoutMs = 10000,
  ): Promise<{ state: string; fetchedAt?: string; error?: string }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.catalogStatuses.find(accept);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no matching catalog status; saw ${JSON.stringify(this.catalogStatuses)}`);
      await new Promise<void>((wake) => {
        this.waiters.push(wake);
        setTimeout(wake, 50);
      });
    }
  }

  publishedFor(uri: string): PublishDiagnosticsParams[] {
    return this.published.filter((p) => p.uri === uri);
  }

  async pulledDiagnostics(uri: string): Promise<Diagnostic[]> {
    const report: DocumentDiagnosticReport = await this.connection.sendRequest('textDocument/diagnostic', { textDocument: { uri } });
    return report.kind === 'full' ? report.items : [];
  }

  /** Diagnostics of an opened document, by whichever mode the client was started in. */
  async diagnostics(uri: string): Promise<Diagnostic[]> {
    return this.initializeResult?.capabilities.diagnosticProvider
      ? this.pulledDiagnostics(uri)
      : this.pushedDiagnostics(uri, this.versions.get(uri));
  }

  async completion(uri: string, line: number, character: number): Promise<CompletionItem[]> {
    const result: CompletionItem[] | CompletionList | null = await this.connection.sendRequest('textDocument/completion', {
      textDocument: { uri },
      position: { line, character },
    });
    return Array.isArray(result) ? result : (result?.items ?? []);
  }

  async codeActions(uri: string, diagnostics: Diagnostic[]): Promise<CodeAction[]> {
    const range = diagnostics[0]?.range ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    return this.connection.sendRequest('textDocument/codeAction', { textDocument: { uri }, range, context: { diagnostics } });
  }

  /** The inlay hints in `range`, the whole of a short document when left out. */
  async inlayHints(
    uri: string,
    range: Range = { start: { line: 0, character: 0 }, end: { line: 10000, character: 0 } },
  ): Promise<InlayHint[]> {
    return (await this.connection.sendRequest<InlayHint[] | null>('textDocument/inlayHint', { textDocument: { uri }, range })) ?? [];
  }

  /** Sends `workspace/didChangeConfiguration`; `settings` also becomes what `workspace/configuration` answers. */
  async changeSettings(settings: Record<string, unknown>, sent: unknown = settings): Promise<void> {
    this.settings = settings;
    await this.connection.sendNotification('workspace/didChangeConfiguration', { settings: sent });
  }

  /** Waits until `condition` holds, checking again on every message the server sends and every 50 ms. */
  async until(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>((wake) => {
        this.waiters.push(wake);
        setTimeout(wake, 50);
      });
    }
  }

  async hover(uri: string, line: number, character: number): Promise<Hover | null> {
    return this.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line, character } });
  }

  async stop(): Promise<void> {
    try {
      await Promise.race([this.connection.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 2000))]);
      await this.connection.sendNotification('exit');
    } catch {
      // The server may already be gone; the kill below makes sure.
    }
    this.connection.dispose();
    this.process.kill();
  }

  get alive(): boolean {
    return this.process.exitCode === null && this.process.signalCode === null;
  }
}
