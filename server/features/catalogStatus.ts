/**
 * The catalog the checks run against, over the connection: the service starts once the client is
 * initialized (its options are known then), its status goes to the client at start and on every
 * change, and the client can ask for a refresh. A new catalog is announced to the rest of the
 * server, because every open spec must then be checked again.
 */
import type { Connection } from 'vscode-languageserver';
import type { ValidationContext } from '../../core/endpointSpec/validate';
import type { Catalog } from '../../core/endpointSpec/catalog/catalog';
import { CATALOG_STATUS_NOTIFICATION, onRequest, REFRESH_CATALOG_REQUEST, sendNotification } from '../../core/protocol';
import type { CatalogService } from '../../core/catalog/catalogService';
import { createCatalogService } from '../../core/catalog/setup';
import type { ServerSession } from '../session';

export class ServerCatalog {
  private service?: CatalogService;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly connection: Connection,
    private readonly session: ServerSession,
  ) {
    session.onInitialized(() => {
      this.start();
    });
    onRequest(connection, REFRESH_CATALOG_REQUEST, () => (this.service ? this.service.refresh() : { state: 'none' }));
    connection.onShutdown(() => this.service?.dispose());
  }

  get catalog(): Catalog | undefined {
    return this.service?.catalog;
  }

  /** What a check needs from the catalog; a new object each time, since the catalog can change. */
  validationContext(): ValidationContext {
    return { catalog: this.service?.catalog, liveProperties: this.service?.liveProperties };
  }

  /** Called after the catalog itself changed (not only its status). */
  onDidChangeCatalog(listener: () => void): void {
    this.listeners.add(listener);
  }

  private start(): void {
    const { catalogFile, cacheDir } = this.session.options;
    const service = createCatalogService({
      catalogFile,
      cacheDir,
      log: (message) => {
        this.connection.console.log(message);
      },
    });
    this.service = service;
    service.onDidChange((catalogChanged) => {
      void this.publish(service);
      if (catalogChanged) for (const listener of this.listeners) listener();
    });
    void service.start().then(() => this.publish(service));
  }

  private publish(service: CatalogService): Promise<void> {
    return sendNotification(this.connection, CATALOG_STATUS_NOTIFICATION, service.status);
  }
}
