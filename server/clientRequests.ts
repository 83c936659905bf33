/**
 * Everything the server asks of the client goes through here. A client answers only what it declared in
 * `initialize`: Neovim 0.10 pulls diagnostics but answers `workspace/diagnostic/refresh` with MethodNotFound, and
 * an unhandled rejection of that answer once took the whole server down. So a request is sent only when the
 * client's capabilities declare it, a registration only where the client registers that method dynamically,
 * and a rejected answer is logged once per method and never thrown back into a feature.
 */
import type { ClientCapabilities, Connection } from 'vscode-languageserver';

/** The server-to-client requests the server sends, with where a client declares its support for each. */
const DECLARED_BY: Readonly<Partial<Record<string, (capabilities: ClientCapabilities) => boolean | undefined>>> = {
  'workspace/diagnostic/refresh': (c) => c.workspace?.diagnostics?.refreshSupport,
  'workspace/inlayHint/refresh': (c) => c.workspace?.inlayHint?.refreshSupport,
  'workspace/configuration': (c) => c.workspace?.configuration,
  'window/showDocument': (c) => c.window?.showDocument?.support,
};

export class ClientRequests {
  private readonly failedMethods = new Set<string>();

  constructor(
    private readonly connection: Connection,
    private readonly capabilities: () => ClientCapabilities,
  ) {}

  /** Whether the client declared that it takes `method` from the server. */
  declares(method: string): boolean {
    return DECLARED_BY[method]?.(this.capabilities()) === true;
  }

  /** Whether the client registers `method` (`workspace/didChangeWatchedFiles`, `textDocument/hover`) dynamically. */
  private registersDynamically(method: string): boolean {
    const [area, name] = method.split('/');
    if ((area !== 'workspace' && area !== 'textDocument') || !name) return false;
    const group = this.capabilities()[area] as Record<string, { dynamicRegistration?: boolean } | undefined> | undefined;
    return group?.[name]?.dynamicRegistration === true;
  }

  /**
   * Sends `method` through `send` when the client declared it; undefined when it did not, or when its answer
   * was an error (logged the first time for each method).
   */
  async ask<T>(method: string, send: () => Promise<T>): Promise<T | undefined> {
    return this.declares(method) ? this.settle(method, send) : undefined;
  }

  /** Registers `method` with the client when it takes that registration; whether it did. */
  async register(method: string, send: () => Promise<unknown>): Promise<boolean> {
    if (!this.registersDynamically(method)) return false;
    const registered = await this.settle(`client/registerCapability (${method})`, async () => {
      await send();
      return true;
    });
    return registered === true;
  }

  private async settle<T>(what: string, send: () => Promise<T>): Promise<T | undefined> {
    try {
      return await send();
    } catch (error) {
      this.logFailure(what, error);
      return undefined;
    }
  }

  private logFailure(what: string, error: unknown): void {
    if (this.failedMethods.has(what)) return;
    this.failedMethods.add(what);
    const reason = error instanceof Error ? error.message : String(error);
    this.connection.console.warn(`the client rejected ${what}; later failures of it are not logged: ${reason}`);
  }
}
