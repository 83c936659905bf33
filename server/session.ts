/**
 * What the client's initialize request settles for the rest of the session: the options (the
 * process's defaults, overridden by `initializationOptions`) and whether the client pulls
 * diagnostics or has them pushed. The features read it only after initialize has arrived.
 */
import {
  CodeActionKind,
  TextDocumentSyncKind,
  type Connection,
  type InitializeResult,
  type ServerCapabilities,
} from 'vscode-languageserver';
import type { ServerInitializationOptions } from '../core/protocol';

export interface ServerOptions {
  /** Milliseconds to wait after the last change before pushing diagnostics (clients that do not pull them). */
  debounceMs: number;
  /** A pinned catalog snapshot to check against (see core/endpointSpec/catalog/load.ts). */
  catalogFile?: string;
  /** Where the catalog cache lives; default ~/.cache/endpoint-studio. */
  cacheDir?: string;
}

export interface ServerSession {
  options: ServerOptions;
  /** The client asks for diagnostics itself (LSP 3.17 pull), so none are pushed. */
  pullDiagnostics: boolean;
}

const SERVER_INFO = { name: 'endpoint-studio', version: '0.1.0' };

export function registerInitialize(connection: Connection, defaults: ServerOptions): ServerSession {
  const session: ServerSession = { options: { ...defaults }, pullDiagnostics: false };
  connection.onInitialize((params): InitializeResult => {
    session.pullDiagnostics = params.capabilities.textDocument?.diagnostic !== undefined;
    session.options = withInitializationOptions(session.options, params.initializationOptions);
    return { capabilities: serverCapabilities(session.pullDiagnostics), serverInfo: SERVER_INFO };
  });
  return session;
}

/** The options with what the client sent applied; a value of the wrong type is ignored rather than trusted. */
export function withInitializationOptions(options: ServerOptions, sent: unknown): ServerOptions {
  if (typeof sent !== 'object' || sent === null) return options;
  const init = sent as ServerInitializationOptions;
  let result = options;
  if (typeof init.debounceMs === 'number' && init.debounceMs >= 0) result = { ...result, debounceMs: init.debounceMs };
  if (typeof init.catalogFile === 'string') result = { ...result, catalogFile: init.catalogFile };
  if (typeof init.cacheDir === 'string') result = { ...result, cacheDir: init.cacheDir };
  return result;
}

function serverCapabilities(pullDiagnostics: boolean): ServerCapabilities {
  return {
    textDocumentSync: TextDocumentSyncKind.Incremental,
    completionProvider: { triggerCharacters: [':', ' ', '-', '"'], resolveProvider: false },
    hoverProvider: true,
    codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
    ...(pullDiagnostics ? { diagnosticProvider: { interFileDependencies: false, workspaceDiagnostics: false } } : {}),
  };
}
