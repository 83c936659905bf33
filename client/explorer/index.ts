/**
 * The Endpoint Studio activity bar container: the Endpoints view (live endpoints, their workers and
 * releases, with copy, open/pull spec, filter, delete and roll back to a release) and the Catalog view (GPU pools and types,
 * CPU flavors, data centers, templates). Both read through the session's client, lazily, and start
 * over when the profile changes.
 */
import * as vscode from 'vscode';
import type { Session } from '../auth/session';
import type { SpecFiles } from '../environments/specFile';
import { watchBindings } from './boundSpecs';
import { CATALOG_VIEW, CatalogTree, type CatalogNode } from './catalogTree';
import { copy, registerEndpointCommands } from './endpointCommands';
import { ENDPOINTS_VIEW, EndpointsTree } from './endpointsTree';
import { registerRollback } from './rollback';

/** Per workspace, so a filter set for one project does not hide endpoints in another. */
const FILTER_STATE_KEY = 'endpointStudio.endpoints.filter';

export function registerExplorer(
  context: vscode.ExtensionContext,
  session: Session,
  log: vscode.LogOutputChannel,
  /** The language server's answers about spec files, for the rollback's offer to the specs bound to an endpoint. */
  files: SpecFiles,
): vscode.Disposable {
  const endpoints = new EndpointsTree(session, log);
  const catalog = new CatalogTree(session);
  const endpointsView = vscode.window.createTreeView(ENDPOINTS_VIEW, { treeDataProvider: endpoints, showCollapseAll: true });
  const catalogView = vscode.window.createTreeView(CATALOG_VIEW, { treeDataProvider: catalog, showCollapseAll: true });
  endpoints.visible = endpointsView.visible;

  // The view title says what is hidden, so a filtered list is never mistaken for the whole account.
  const filterShown = endpoints.onDidChangeFilter((filter) => {
    endpointsView.description = filter ? `name contains "${filter}"` : undefined;
    void context.workspaceState.update(FILTER_STATE_KEY, filter || undefined);
  });
  endpoints.setFilter(context.workspaceState.get<string>(FILTER_STATE_KEY, ''));

  return vscode.Disposable.from(
    endpoints,
    catalog,
    endpointsView,
    catalogView,
    // The tree's spec links follow the binding files without a service call.
    watchBindings(() => {
      endpoints.bindingsChanged();
    }),
    endpointsView.onDidChangeVisibility(({ visible }) => {
      endpoints.visible = visible;
    }),
    filterShown,
    session.onDidChange(() => {
      void endpoints.restart();
      catalog.restart();
    }),
    registerEndpointCommands(session, endpoints, endpointsView, log),
    registerRollback({ session, tree: endpoints, view: endpointsView, log }, files),
    vscode.commands.registerCommand('endpointStudio.catalogView.refresh', () => catalog.refresh()),
    vscode.commands.registerCommand('endpointStudio.catalogView.retry', (node: CatalogNode) => {
      catalog.retry(node);
    }),
    vscode.commands.registerCommand('endpointStudio.catalogView.copyId', async (node?: CatalogNode) => {
      const id = node && catalogId(node);
      if (id) await copy(id, id);
    }),
  );
}

/** The value a spec uses for this catalog entry (`gpu.pools`, `cpu[].id`, `dataCenterIds`, `templateId`). */
function catalogId(node: CatalogNode): string | undefined {
  switch (node.kind) {
    case 'pool':
      return node.pool;
    case 'gpu':
      return node.gpu.id;
    case 'cpu':
      return node.cpu.id;
    case 'dataCenter':
      return node.dataCenter.id;
    case 'template':
      return node.template.id;
    default:
      return undefined;
  }
}
