/**
 * The Billing view: spend over the last N days (a setting, 30 by default) for serverless, pods,
 * network volumes, public endpoints and everything, each with the total in its description and
 * its groups (endpoints, GPU types, volumes, cost components) as children, largest first. Each
 * kind is read once per refresh, and only while the view is shown; a row opens the chart.
 */
import * as vscode from 'vscode';
import { formatUsd } from '../../core/billing/format';
import { BILLING_KINDS, KINDS, type BillingKind } from '../../core/billing/query';
import { shapeBilling, withGroupNames, type BillingGroup, type BillingTable } from '../../core/billing/series';
import { queryBilling } from '../../core/operations';
import type { Session } from '../auth/session';
import { LoadCache, wasAbandoned } from '../explorer/loadCache';
import type { PanelQuery } from './messages';

export const BILLING_VIEW = 'endpointStudio.billing';
export const LAST_DAYS_SETTING = 'endpointStudio.billing.lastDays';

export type BillingNode =
  | { kind: 'category'; category: BillingKind }
  | { kind: 'group'; category: BillingKind; group: BillingGroup; grouping: string | undefined }
  | { kind: 'message'; id: string; text: string; icon: string; retry?: BillingKind };

const ICONS: Record<BillingKind, string> = {
  serverless: 'server-process',
  pods: 'vm',
  networkVolumes: 'database',
  publicEndpoints: 'globe',
  all: 'graph',
};

export function lastDaysSetting(): number {
  const value = vscode.workspace.getConfiguration().get<number>(LAST_DAYS_SETTING, 30);
  return Number.isInteger(value) && value >= 1 ? Math.min(value, 366) : 30;
}

/** The panel query a row stands for: its kind over the same days, filtered to the row's group where a filter exists. */
export function queryOf(node: BillingNode, days = lastDaysSetting()): Partial<PanelQuery> | undefined {
  if (node.kind === 'message') return node.retry ? { kind: node.retry, range: 'last', lastN: days, bucketSize: 'day' } : undefined;
  const base: Partial<PanelQuery> = { kind: node.category, range: 'last', lastN: days, bucketSize: 'day' };
  if (node.kind === 'category') return base;
  if (node.category === 'serverless' && node.grouping === 'endpointId') return { ...base, endpointId: node.group.id };
  if (node.grouping === 'gpuId') return { ...base, gpuId: node.group.id, grouping: 'gpuId' };
  if (node.category === 'pods' && node.grouping === 'podId') return { ...base, podId: node.group.id, grouping: 'podId' };
  return base;
}

export class BillingTree implements vscode.TreeDataProvider<BillingNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<BillingNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly cache = new LoadCache();
  /** Settled answers of this generation, so rows can show totals synchronously. */
  private readonly tables = new Map<BillingKind, BillingTable | Error>();
  private readonly settingWatch = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(LAST_DAYS_SETTING)) this.refresh();
  });

  constructor(
    private readonly session: Session,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  refresh(): void {
    this.cache.clear();
    this.tables.clear();
    this.changed.fire(undefined);
  }

  private load(category: BillingKind): Promise<BillingTable | Error> {
    const api = this.session.api;
    if (!api) return Promise.resolve(new Error('signed out'));
    const signal = this.cache.signal;
    const grouping = KINDS[category].groupings[0];
    // Serverless rows are endpoints: named from the endpoint list, read once alongside (and optional).
    const names = (): Promise<Map<string, string>> =>
      category === 'serverless'
        ? this.cache
            .get('endpoints', (s) => api.serverless.list({ signal: s }))
            .then(
              (list) => new Map(list.map((e) => [e.id, e.name])),
              () => new Map<string, string>(),
            )
        : Promise.resolve(new Map<string, string>());
    return this.cache.remember(`billing/${category}`, () =>
      Promise.all([
        this.cache.get(`billing/${category}/answer`, async (s) => {
          const result = await queryBilling(api, { kind: category, bucketSize: 'day', lastN: lastDaysSetting(), grouping }, { signal: s });
          if (!result.ok) throw new Error(result.message);
          return result.response;
        }),
        names(),
      ])
        .then(
          ([response, endpointNames]) => withGroupNames(shapeBilling(category, grouping, response), endpointNames),
          (error: unknown) => {
            const reason = this.session.redact(error instanceof Error ? error.message : String(error));
            if (!wasAbandoned(error, signal)) this.log.warn(`billing of ${KINDS[category].label.toLowerCase()} failed: ${reason}`);
            return new Error(reason);
          },
        )
        .then((table) => {
          if (this.cache.signal === signal) this.tables.set(category, table);
          return table;
        }),
    );
  }

  getTreeItem(node: BillingNode): vscode.TreeItem {
    switch (node.kind) {
      case 'category': {
        const table = this.tables.get(node.category);
        const item = new vscode.TreeItem(KINDS[node.category].label, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `billing/${node.category}`;
        item.iconPath = new vscode.ThemeIcon(ICONS[node.category]);
        const days = lastDaysSetting();
        item.description =
          table instanceof Error ? 'could not be read' : table ? `${formatUsd(table.total)} · last ${days} days` : undefined;
        item.tooltip =
          table instanceof Error
            ? `Billing could not be read: ${table.message}`
            : `${KINDS[node.category].label} spend over the last ${days} days (UTC days, today included). Click to open the chart.`;
        item.contextValue = 'billing.category';
        item.command = { command: 'endpointStudio.billing.openPanel', title: 'Open Billing Chart', arguments: [node] };
        return item;
      }
      case 'group': {
        const item = new vscode.TreeItem(node.group.label);
        item.id = `billing/${node.category}/${node.group.id}`;
        const named = node.group.label !== node.group.id;
        item.description = named ? `${formatUsd(node.group.total)} · ${node.group.id}` : formatUsd(node.group.total);
        item.tooltip = `${node.group.label}${named ? ` (${node.group.id})` : ''}: ${formatUsd(node.group.total)} over the last ${lastDaysSetting()} days. Click to open the chart.`;
        item.contextValue = 'billing.group';
        item.command = { command: 'endpointStudio.billing.openPanel', title: 'Open Billing Chart', arguments: [node] };
        return item;
      }
      case 'message': {
        const item = new vscode.TreeItem(node.text);
        item.id = node.id;
        item.iconPath = new vscode.ThemeIcon(node.icon);
        if (node.retry) item.command = { command: 'endpointStudio.billing.refresh', title: 'Retry' };
        return item;
      }
    }
  }

  async getChildren(node?: BillingNode): Promise<BillingNode[]> {
    if (!this.session.api) return [];
    if (!node) {
      const roots: BillingNode[] = BILLING_KINDS.map((category) => ({ kind: 'category', category }));
      // Totals for the descriptions: read together, then the rows are drawn once with them.
      await Promise.all(BILLING_KINDS.map((category) => this.load(category)));
      return roots;
    }
    if (node.kind !== 'category') return [];
    const table = await this.load(node.category);
    if (table instanceof Error)
      return [
        {
          kind: 'message',
          id: `billing/${node.category}/error`,
          text: 'Could not read billing (click to retry)',
          icon: 'error',
          retry: node.category,
        },
      ];
    const spent = table.groups.filter((g) => g.total !== 0);
    if (spent.length === 0)
      return [
        {
          kind: 'message',
          id: `billing/${node.category}/none`,
          text: `No spend in the last ${lastDaysSetting()} days`,
          icon: 'circle-slash',
        },
      ];
    const grouping = KINDS[node.category].groupings[0];
    return spent.map((group) => ({ kind: 'group', category: node.category, group, grouping }));
  }

  dispose(): void {
    this.cache.clear();
    this.changed.dispose();
    this.settingWatch.dispose();
  }
}
