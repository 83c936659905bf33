/** Starts the language server for spec files and restarts it when its profile changes. */
import type { ChildProcess } from 'node:child_process';
import * as vscode from 'vscode';
import { LanguageClient, type LanguageClientOptions, type Middleware, type ServerOptions } from 'vscode-languageclient/node';
import {
  CATALOG_STATUS_NOTIFICATION,
  isSpecFile,
  onNotification,
  POLICY_FILE_GLOB,
  SPEC_FILE_DOCUMENTS,
  type CatalogStatus,
  type ServerInitializationOptions,
} from '../core/protocol';
import { forkServer, sendProfile } from './serverProcess';
import type { ResolvedProfile } from './auth/profiles';
import { noteAppliedQuickFixes } from './walkthrough';

/**
 * The server's documents: the specs, and the team policy (`.endpoint-studio/policy.yaml`, whatever language the
 * editor gives it), so its problems show in it and its unsaved text is what the open specs are judged by.
 */
const SERVED_DOCUMENT_SELECTOR = [...SPEC_FILE_DOCUMENTS, { scheme: 'file', pattern: POLICY_FILE_GLOB }];

/** How long activation waits for the first problems of the specs open then, at most. */
const FIRST_DIAGNOSTICS_WAIT_MS = 1500;

/**
 * The settings the server takes, in the shape of the `endpointStudio` section it also reads through
 * workspace/configuration (and again on each change, which it registers for); sent at start so the first
 * inlay hints already follow them.
 */
function serverInitializationOptions(): ServerInitializationOptions {
  const hints = vscode.workspace.getConfiguration('endpointStudio.inlayHints');
  const flag = (name: string) => hints.get<boolean>(name, true);
  return { inlayHints: { defaults: flag('defaults'), cost: flag('cost'), environments: flag('environments') } };
}

/**
 * Once VS Code's JSON features run, they give a JSON spec an outline of their own (package.json's
 * `jsonLanguageParticipants`; VS Code 1.139 starts them for a JSON spec, 1.100 only for another JSON file).
 * The server's symbols would then list every key a second time, in a group of their own, so they are left out.
 */
const symbolsUnlessJson: Middleware['provideDocumentSymbols'] = (document, token, next) =>
  /json/.test(document.languageId) && vscode.extensions.getExtension('vscode.json-language-features')?.isActive
    ? undefined
    : next(document, token);

/**
 * Owns the language client. A restart builds a new client, because the server's environment (the
 * key, the API URL) is fixed when its process starts: `useProfile` restarts only when the profile differs
 * from the one the running server was given.
 */
export class LanguageServerHost implements vscode.Disposable {
  private current?: LanguageClient;
  private readonly listeners = new Set<(client: LanguageClient) => void>();
  private restarting: Promise<void> = Promise.resolve();
  private catalog: CatalogStatus = { state: 'none' };
  private readonly catalogListeners = new Set<(status: CatalogStatus) => void>();
  private profile?: ResolvedProfile;
  private serverProcess?: ChildProcess;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  get client(): LanguageClient | undefined {
    return this.current;
  }

  /** The catalog's status as the server last sent it (kept here because it may come before the features load). */
  get catalogStatus(): CatalogStatus {
    return this.catalog;
  }

  onDidChangeCatalogStatus(listener: (status: CatalogStatus) => void): vscode.Disposable {
    this.catalogListeners.add(listener);
    return new vscode.Disposable(() => this.catalogListeners.delete(listener));
  }

  /** Called with every new client, so features can attach their notifications again. */
  onDidStart(listener: (client: LanguageClient) => void): vscode.Disposable {
    this.listeners.add(listener);
    if (this.current) listener(this.current);
    return new vscode.Disposable(() => this.listeners.delete(listener));
  }

  /**
   * Starts the server with `profile`'s key and URLs, or with none (signed out, untrusted), in `forked` when a
   * process was forked for it already. The client forks a new one whenever it restarts a server that stopped.
   */
  async start(profile: ResolvedProfile | undefined, forked?: ChildProcess): Promise<void> {
    this.profile = profile;
    let next = forked;
    const serverOptions: ServerOptions = () => {
      const server = next ?? forkServer();
      next = undefined;
      sendProfile(server, this.context, profile);
      this.serverProcess = server;
      return Promise.resolve(server);
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: SERVED_DOCUMENT_SELECTOR,
      outputChannel: this.log,
      initializationOptions: serverInitializationOptions,
      middleware: { provideCodeActions: noteAppliedQuickFixes, provideDocumentSymbols: symbolsUnlessJson },
      // Pull on every change, with no delay: the server reads a burst's cancellations before it checks, so
      // only the latest text is checked, and a spec's check takes far less than a frame.
      diagnosticPullOptions: { onChange: true, onSave: false },
    };
    const client = new LanguageClient('endpointStudio', 'Endpoint Studio Language Server', serverOptions, clientOptions);
    // Before start: the server sends its first status as soon as it runs.
    onNotification(client, CATALOG_STATUS_NOTIFICATION, (status) => {
      this.catalog = status;
      for (const listener of this.catalogListeners) listener(status);
    });
    await client.start();
    this.current = client;
    for (const listener of this.listeners) listener(client);
  }

  /**
   * Resolves once the server's first diagnostics for one of the specs open now were set, or after 1.5 s at
   * most, with true; at once, with false, when no spec is open.
   */
  firstDiagnostics(): Promise<boolean> {
    const wanted = openSpecUris();
    if (wanted.size === 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        listener.dispose();
        resolve(true);
      };
      const timer = setTimeout(done, FIRST_DIAGNOSTICS_WAIT_MS);
      const listener = vscode.languages.onDidChangeDiagnostics(({ uris }) => {
        if (uris.some((uri) => wanted.has(uri.toString()))) done();
      });
    });
  }

  /**
   * Restarts run one after another: two at once (a sign-in changes the profile list and the active profile
   * in quick succession) would each start a client, and both servers would report every problem.
   */
  restart(profile = this.profile): Promise<void> {
    const next = this.restarting.then(() => this.restartNow(profile));
    this.restarting = next.catch(() => undefined);
    return next;
  }

  /** Restarts the server when `profile` is not the one it runs with (another profile, key or URL). */
  async useProfile(profile: ResolvedProfile | undefined): Promise<void> {
    const environment = (p: ResolvedProfile | undefined) => (p ? [p.apiUrl, p.jobsUrl, p.apiKey] : []).join('\n');
    if (environment(profile) !== environment(this.profile)) await this.restart(profile);
  }

  private async restartNow(profile: ResolvedProfile | undefined): Promise<void> {
    await this.stop();
    await this.start(profile);
  }

  /**
   * Stops the client, which asks the server to exit. The client ends only the processes it forked itself, so a
   * server that has not exited 2 s later is ended here.
   */
  private async stop(): Promise<void> {
    const [client, server] = [this.current, this.serverProcess];
    this.current = this.serverProcess = undefined;
    await client?.dispose().catch(() => undefined);
    setTimeout(() => {
      if (server && server.exitCode === null && server.signalCode === null) server.kill();
    }, 2000).unref();
  }

  dispose(): void {
    void this.stop();
    this.listeners.clear();
    this.catalogListeners.clear();
  }
}

/**
 * The specs open now, by their tabs as well as their documents: the spec whose opening activated the extension
 * has its tab from the start, but in a remote window (code-server) its document can reach the extension host
 * seconds later, after activation has asked. Only the tabs on screen: a tab behind another gets no problems
 * until it is shown, and waiting for it would only hold the rest back.
 */
function openSpecUris(): Set<string> {
  const documents = vscode.workspace.textDocuments
    .filter((document) => vscode.languages.match(SPEC_FILE_DOCUMENTS, document) > 0)
    .map((document) => document.uri);
  const tabs = vscode.window.tabGroups.all
    .flatMap(({ activeTab }) => (activeTab?.input instanceof vscode.TabInputText ? [activeTab.input.uri] : []))
    .filter((uri) => uri.scheme === 'file' && isSpecFile(uri.path));
  return new Set([...documents, ...tabs].map((uri) => uri.toString()));
}
