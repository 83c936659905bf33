/**
 * The custom LSP messages between the language server and the editor, with their payload types, so
 * both ends compile against one declaration. The descriptors are plain objects rather than
 * vscode-languageserver-protocol's NotificationType/RequestType: the server and the client bundle
 * different versions of that package, whose classes do not type-check across versions, and importing
 * it here would also put a second copy of it into the server bundle.
 */
import type { JsonPathSegment, TextSpan } from '../endpointSpec/tree';

/** Where the server's catalog comes from and how old it is. */
export interface CatalogStatus {
  /** `live`: fetched this session; `cached`: from disk, not yet refreshed; `pinned`: a catalog file; `none`: nothing. */
  readonly state: 'live' | 'cached' | 'pinned' | 'none';
  readonly fetchedAt?: string;
  /** Why the last refresh failed, with the key redacted; absent after a success. */
  readonly error?: string;
}

/** Which inlay hints the server shows: the defaults of fields left out, and the cost at `workers.min` and `workers.max`. */
export interface InlayHintSettings {
  readonly defaults: boolean;
  readonly cost: boolean;
  /** In a base, the value each environment's overlay gives a field, beside it. */
  readonly environments: boolean;
}

/**
 * The section of `workspace/configuration` the server reads (VS Code's `endpointStudio.*` settings). It holds
 * the options below that can change while the server runs (`debounceMs`, `inlayHints`), in the same shape.
 */
export const SETTINGS_SECTION = 'endpointStudio';

/** What the editor may pass in `initializationOptions`; the server ignores anything else. */
export interface ServerInitializationOptions {
  /** Milliseconds to wait after the last change before pushing diagnostics to a client that does not pull them. */
  readonly debounceMs?: number;
  /** A pinned catalog snapshot to check against (see core/endpointSpec/catalog/load.ts). */
  readonly catalogFile?: string;
  /** Where the catalog cache lives. */
  readonly cacheDir?: string;
  /** Which inlay hints to show; a kind left out stays on. */
  readonly inlayHints?: Partial<InlayHintSettings>;
}

/** Which spec file the editor asks about: open or not (the server reads a closed file from disk). */
export interface SpecFileParams {
  readonly uri: string;
  /** Only this document of the file (0-based); every document when absent. */
  readonly documentIndex?: number;
}

/** One document of a spec file as a deploy sees it. Offsets count UTF-16 code units of the text answered for. */
export interface SpecDocumentFacts {
  readonly index: number;
  /** Whether the document holds a spec at all (an empty document does not). */
  readonly isSpec: boolean;
  /**
   * What a deploy of the document sends: its data, or for an overlay its base with it merged in; absent when it
   * is not a mapping, or while the overlay or its base is broken.
   */
  readonly body?: Record<string, unknown>;
  /** The whole document, between its `---` markers. */
  readonly span: TextSpan;
  /** Its top node (the mapping): where the lenses stand, and what a pull replaces. */
  readonly root?: TextSpan;
  /**
   * The errors of its check, the team policy's findings among them (after its severities and exceptions), which
   * refuse a deploy; absent when there is none.
   */
  readonly errors?: readonly { readonly code: string; readonly message: string }[];
}

/** What an overlay's check adds: where it deploys, what it extends, and why it cannot deploy yet. */
export interface SpecOverlayFacts {
  /** From its file name; absent when the name says none. */
  readonly environment?: string;
  /** Absolute path of the base, once `extends` names one that can be read. */
  readonly basePath?: string;
  /** The first error of its check merged into the base, which refuses a deploy. */
  readonly firstError?: string;
  /** The base's arrays it replaces whole (`gpu.pools`), for the plan to say. */
  readonly replacedArrays: readonly string[];
}

/** One environment of a base: its overlay's path, the environment its name says, and what it deploys. */
export interface SpecEnvironmentFacts {
  readonly path: string;
  readonly environment: string;
  /** The overlay's own values (without `extends`). */
  readonly patch: Record<string, unknown>;
  /** The base as the editor holds it now with the overlay merged in; absent while either is broken. */
  readonly body?: Record<string, unknown>;
}

/** The language server's answer about one spec file: its documents, and its place among its environments. */
export interface SpecFileFacts {
  /** The version of the open document answered for; null when the text was the disk's. */
  readonly version: number | null;
  /** None when the file is not a spec file, cannot be read, or is too large to check in the editor. */
  readonly documents: readonly SpecDocumentFacts[];
  /** Set when the file is an overlay (it has `extends`), however broken. */
  readonly overlay?: SpecOverlayFacts;
  /** A base's overlays, in name order; empty for an overlay or a spec without environments. */
  readonly environments: readonly SpecEnvironmentFacts[];
  /** Set when the team policy over the file is broken: why every deploy under it is refused until it is fixed. */
  readonly brokenPolicy?: string;
}

/** JSON paths of one document of a spec file, to be found in its text (a service's answer names fields so). */
export interface LocatePathsParams {
  readonly uri: string;
  readonly documentIndex: number;
  readonly paths: readonly (readonly JsonPathSegment[])[];
}

export interface LocatedPaths {
  readonly version: number | null;
  /** One span per path, in order: the value's, or its closest ancestor's that the text has. */
  readonly spans: readonly TextSpan[];
}

/** A notification's method; `P` is its payload, known to the compiler only (the field is never set). */
export interface NotificationKind<P> {
  readonly method: string;
  readonly payloadType?: P;
}

/** A request without parameters; `R` is its result, known to the compiler only. */
export interface RequestKind<R> {
  readonly method: string;
  readonly resultType?: R;
}

/** A request with parameters `P`; `R` is its result. Both are known to the compiler only. */
export interface ParamsRequestKind<P, R> {
  readonly method: string;
  readonly paramsType?: P;
  readonly resultType?: R;
}

/** Server to client: the catalog's status, sent at start and whenever it changes. */
export const CATALOG_STATUS_NOTIFICATION: NotificationKind<CatalogStatus> = { method: 'endpointStudio/catalogStatus' };
/** Client to server: refresh the catalog now; answers the new status. */
export const REFRESH_CATALOG_REQUEST: RequestKind<CatalogStatus> = { method: 'endpointStudio/refreshCatalog' };

/** Client to server: a spec file's documents, the body each deploys, and its environments, from the workspace's owner. */
export const SPEC_FILE_REQUEST: ParamsRequestKind<SpecFileParams, SpecFileFacts> = { method: 'endpointStudio/specFile' };
/** Client to server: where JSON paths of a spec document lie in its text (to mark a field the service refused). */
export const LOCATE_PATHS_REQUEST: ParamsRequestKind<LocatePathsParams, LocatedPaths> = { method: 'endpointStudio/locatePaths' };

/*
 * The helpers below take only the connection method they call. vscode-languageserver's Connection and
 * vscode-languageclient's LanguageClient both have these methods, so this module needs neither package;
 * `D` is whatever the connection's own registrations return (an editor Disposable in the client).
 */

export function sendNotification<P>(
  connection: { sendNotification(method: string, payload: unknown): Promise<void> },
  kind: NotificationKind<P>,
  payload: P,
): Promise<void> {
  return connection.sendNotification(kind.method, payload);
}

export function onNotification<P, D>(
  connection: { onNotification(method: string, handler: (payload: unknown) => void): D },
  kind: NotificationKind<P>,
  handler: (payload: P) => void,
): D {
  // The other end compiles against the same kind, which is all that vouches for the payload's shape.
  return connection.onNotification(kind.method, (payload) => {
    handler(payload as P);
  });
}

export async function sendRequest<R>(connection: { sendRequest(method: string): Promise<unknown> }, kind: RequestKind<R>): Promise<R> {
  return (await connection.sendRequest(kind.method)) as R;
}

export function onRequest<R, D>(
  connection: { onRequest(method: string, handler: () => R | Promise<R>): D },
  kind: RequestKind<R>,
  handler: () => R | Promise<R>,
): D {
  return connection.onRequest(kind.method, handler);
}

export async function sendRequestWith<P, R>(
  connection: { sendRequest(method: string, params: unknown): Promise<unknown> },
  kind: ParamsRequestKind<P, R>,
  params: P,
): Promise<R> {
  return (await connection.sendRequest(kind.method, params)) as R;
}

/** The handler gets the parameters as sent, unchecked: any LSP client may send anything, so it reads them warily. */
export function onRequestWith<P, R, D>(
  connection: { onRequest(method: string, handler: (params: unknown) => R | Promise<R>): D },
  kind: ParamsRequestKind<P, R>,
  handler: (params: unknown) => R | Promise<R>,
): D {
  return connection.onRequest(kind.method, handler);
}
