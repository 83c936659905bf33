/**
 * What the client's initialize request settles for the rest of the session: the options (the
 * process's defaults, overridden by `initializationOptions`) and whether the client pulls
 * diagnostics or has them pushed. The features read it only after initialize has arrived.
 */
import {
  CodeActionKind,
  TextDocumentSyncKind,
  type ClientCapabilities,
  type Connection,
  type InitializeParams,
  type InitializeResult,
  type ServerCapabilities,
} from 'vscode-languageserver';
import type { InlayHintSettings, ServerInitializationOptions } from '../core/protocol';
import { packageInfo } from '../core/util/packageInfo';
import { ClientRequests } from './clientRequests';
import { filePathOf, TEMPLATE_SCHEME } from './uris';

export interface ServerOptions {
  /** Milliseconds to wait after the last change before pushing diagnostics (clients that do not pull them). */
  debounceMs: number;
  /** A pinned catalog snapshot to check against (see core/endpointSpec/catalog/load.ts). */
  catalogFile?: string;
  /** Where the catalog cache lives; default ~/.cache/endpoint-studio. */
  cacheDir?: string;
  /** Which inlay hints to show; every kind when absent. */
  inlayHints?: InlayHintSettings;
}

export interface ServerSession {
  options: ServerOptions;
  /**
   * The client asks for diagnostics itself (LSP 3.17 pull), so none are pushed. Only a client that can also be
   * asked to pull again pulls: a change on disk or in a linked file must reach it without an edit.
   */
  pullDiagnostics: boolean;
  /** What the client declared it supports (snippets, workspace/configuration, refresh requests). */
  capabilities: ClientCapabilities;
  /** The one way to ask the client anything: only what it declared, its refusals logged, never thrown. */
  requests: ClientRequests;
  /** Runs `listener` once the client has sent `initialized`: from then on the server may send it requests. */
  onInitialized(listener: () => void): void;
  /** The workspace's folders on disk (an overlay's base must lie in one); none for a single file. */
  workspaceRoots: string[];
}

/**
 * The command a quick fix runs after inserting a placeholder as plain text (an ignore comment's `reason`), so the
 * user types over it: declared only to a client that takes no snippet edits and can be asked to show a document.
 */
export const SELECT_TEXT_COMMAND = 'endpointStudio.selectText';

/** Whether the client applies snippet text edits (LSP 3.18), which only come in versioned document changes. */
export function takesSnippetEdits(capabilities: ClientCapabilities): boolean {
  const edits = capabilities.workspace?.workspaceEdit;
  return edits?.snippetEditSupport === true && edits.documentChanges === true;
}

/** Every kind of inlay hint: what a client that says nothing of them gets. */
export const ALL_INLAY_HINTS: InlayHintSettings = { defaults: true, cost: true, environments: true };

export function registerInitialize(connection: Connection, defaults: ServerOptions): ServerSession {
  // The connection takes one handler per notification, so the features that wait for `initialized` share this one.
  const initializedListeners: (() => void)[] = [];
  const session: ServerSession = {
    options: { ...defaults },
    pullDiagnostics: false,
    capabilities: {},
    requests: new ClientRequests(connection, () => session.capabilities),
    workspaceRoots: [],
    onInitialized: (listener) => {
      initializedListeners.push(listener);
    },
  };
  connection.onInitialized(() => {
    for (const listener of initializedListeners) listener();
  });
  connection.onInitialize((params): InitializeResult => {
    session.capabilities = params.capabilities;
    session.workspaceRoots = workspaceRootsOf(params);
    session.pullDiagnostics = pullsDiagnostics(params.capabilities);
    session.options = withInitializationOptions(session.options, params.initializationOptions);
    return {
      capabilities: serverCapabilities(session.pullDiagnostics, selectsText(params.capabilities)),
      serverInfo: { name: 'endpoint-studio', version: packageInfo().version },
    };
  });
  return session;
}

/** A client that pulls but cannot be asked to pull again (Neovim 0.10) has its diagnostics pushed instead. */
function pullsDiagnostics(capabilities: ClientCapabilities): boolean {
  return capabilities.textDocument?.diagnostic !== undefined && capabilities.workspace?.diagnostics?.refreshSupport === true;
}

function workspaceRootsOf(params: InitializeParams): string[] {
  return (params.workspaceFolders ?? []).flatMap(({ uri }) => {
    const path = filePathOf(uri);
    return path === undefined ? [] : [path];
  });
}

/** The options with what the client sent applied; a value of the wrong type is ignored rather than trusted. */
export function withInitializationOptions(options: ServerOptions, sent: unknown): ServerOptions {
  if (typeof sent !== 'object' || sent === null) return options;
  const init = sent as ServerInitializationOptions;
  let result = options;
  if (typeof init.debounceMs === 'number' && init.debounceMs >= 0) result = { ...result, debounceMs: init.debounceMs };
  if (typeof init.catalogFile === 'string') result = { ...result, catalogFile: init.catalogFile };
  if (typeof init.cacheDir === 'string') result = { ...result, cacheDir: init.cacheDir };
  const hints = init.inlayHints as Record<string, unknown> | null | undefined;
  if (typeof hints === 'object' && hints !== null) {
    const current = result.inlayHints ?? ALL_INLAY_HINTS;
    const flag = (name: keyof InlayHintSettings): boolean => (typeof hints[name] === 'boolean' ? hints[name] : current[name]);
    result = { ...result, inlayHints: { defaults: flag('defaults'), cost: flag('cost'), environments: flag('environments') } };
  }
  return result;
}

/** A client that gets an ignore comment's reason as plain text, and can be asked to select it. */
function selectsText(capabilities: ClientCapabilities): boolean {
  return !takesSnippetEdits(capabilities) && capabilities.window?.showDocument?.support === true;
}

function serverCapabilities(pullDiagnostics: boolean, selectText: boolean): ServerCapabilities {
  return {
    textDocumentSync: TextDocumentSyncKind.Incremental,
    completionProvider: { triggerCharacters: [':', ' ', '-', '"'], resolveProvider: false },
    hoverProvider: true,
    codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
    inlayHintProvider: { resolveProvider: false },
    documentSymbolProvider: { label: 'Endpoint Studio' },
    foldingRangeProvider: true,
    selectionRangeProvider: true,
    documentFormattingProvider: true,
    documentRangeFormattingProvider: true,
    documentLinkProvider: { resolveProvider: false },
    definitionProvider: true,
    workspace: { textDocumentContent: { schemes: [TEMPLATE_SCHEME] } },
    ...(selectText ? { executeCommandProvider: { commands: [SELECT_TEXT_COMMAND] } } : {}),
    ...(pullDiagnostics ? { diagnosticProvider: { interFileDependencies: false, workspaceDiagnostics: false } } : {}),
  };
}
