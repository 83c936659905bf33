/**
 * The custom LSP messages between the language server and the editor, with their payload types, so
 * both ends compile against one declaration. The descriptors are plain objects rather than
 * vscode-languageserver-protocol's NotificationType/RequestType: the server and the client bundle
 * different versions of that package, whose classes do not type-check across versions, and importing
 * it here would also put a second copy of it into the server bundle.
 */

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

/** Server to client: the catalog's status, sent at start and whenever it changes. */
export const CATALOG_STATUS_NOTIFICATION: NotificationKind<CatalogStatus> = { method: 'endpointStudio/catalogStatus' };
/** Client to server: refresh the catalog now; answers the new status. */
export const REFRESH_CATALOG_REQUEST: RequestKind<CatalogStatus> = { method: 'endpointStudio/refreshCatalog' };

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
