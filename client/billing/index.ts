/**
 * Billing in the editor: the Billing view (spend per kind and group over the last days), the
 * billing panel (chart, table, CSV export) opened from the view, from an endpoint in the
 * Endpoints view, or from the Command Palette.
 */
import * as vscode from 'vscode';
import type { Endpoint } from '../../core/api';
import type { Session } from '../auth/session';
import { BillingPanel } from './panel';
import { BILLING_VIEW, BillingTree, queryOf, type BillingNode } from './tree';
import type { PanelQuery } from './messages';

/** What `endpointStudio.billing.openPanel` accepts: a Billing row, an Endpoints row, or nothing. */
type OpenArgument = BillingNode | { kind?: unknown; endpoint?: Endpoint } | undefined;

function queryFor(arg: OpenArgument): Partial<PanelQuery> | undefined {
  if (!arg || typeof arg !== 'object') return undefined;
  if ('endpoint' in arg && arg.endpoint && typeof arg.endpoint.id === 'string')
    return { kind: 'serverless', endpointId: arg.endpoint.id, grouping: 'endpointId' };
  if (arg.kind === 'category' || arg.kind === 'group' || arg.kind === 'message') return queryOf(arg as BillingNode);
  return undefined;
}

export function registerBilling(context: vscode.ExtensionContext, session: Session, log: vscode.LogOutputChannel): vscode.Disposable {
  const tree = new BillingTree(session, log);
  const view = vscode.window.createTreeView(BILLING_VIEW, { treeDataProvider: tree, showCollapseAll: true });
  const panel = new BillingPanel(context.extensionUri, session, log);
  return vscode.Disposable.from(
    tree,
    view,
    panel,
    session.onDidChange(() => {
      tree.refresh();
    }),
    vscode.commands.registerCommand('endpointStudio.billing.refresh', () => {
      tree.refresh();
    }),
    vscode.commands.registerCommand('endpointStudio.billing.openPanel', (arg?: OpenArgument) => {
      const query = queryFor(arg);
      // From a row: that row's view of billing, from scratch; from the palette: where the panel was.
      panel.open(query ?? {}, query !== undefined);
    }),
    vscode.commands.registerCommand('endpointStudio.billing.exportCsv', () => panel.exportCsv()),
  );
}
