/**
 * The Endpoints view: the signed-in account's endpoints, each with its configuration, request URLs,
 * workers and releases. Only the list is read on refresh; workers and releases are read when their
 * node is expanded, once per refresh (see LoadCache). The view's state (signed out, loading, empty,
 * error) is published as a context key for the welcome views. Workers that are not serving are named for
 * what keeps them (crash-looping, no capacity, still starting) on their endpoint after a watched rollout
 * stalled or failed, on their release (a crash-looping release opens its workers' logs in one click), and
 * on each worker. A release says how long it took to serve, as a watch of it recorded in the spec's binding.
 */
import * as vscode from 'vscode';
import type { ApiClient, Endpoint, Release, ReleaseDiffEntry, Worker, WorkerList, WorkerStatus } from '../../core/api';
import type { Binding } from '../../core/deploy';
import type { ReadinessReport } from '../../core/deploy/readiness';
import { readinessOfRelease, readSpecBindings, type NotServingCause } from '../../core/operations';
import type { Session } from '../auth/session';
import { findBoundSpecs, type BoundSpec } from './boundSpecs';
import {
  configurationFacts,
  diffLine,
  diffTooltip,
  endpointDescription,
  endpointTooltip,
  endpointType,
  isStaleWorker,
  releaseScalingType,
  requestUrls,
  workerDescription,
  workerTooltip,
  type Fact,
} from './endpointFacts';
import { LoadCache, wasAbandoned } from './loadCache';
import { watchedRollouts } from '../deploy/rollout';
import { causeLabel, rolloutBadge } from '../deploy/rolloutReport';
import { causeNote, releaseItem, releaseNode } from './notServingNodes';
import { ENDPOINT_SPEND_DAYS, endpointSpend } from '../../core/billing/spend';
import { formatUsd } from '../../core/billing/format';

export const ENDPOINTS_VIEW = 'endpointStudio.endpoints';
/** `signedOut` | `loading` | `loaded` | `empty` | `error`: what the welcome views choose by. */
const ENDPOINTS_STATE_KEY = 'endpointStudio.endpoints.state';
const ENDPOINTS_FILTERED_KEY = 'endpointStudio.endpoints.filtered';

type ListOutcome = { endpoints: Endpoint[] } | { error: unknown; abandoned: boolean };
type ViewState = 'signedOut' | 'loading' | 'loaded' | 'empty' | 'error';
type GroupKind = 'configuration' | 'urls' | 'workers' | 'releases';

export type EndpointNode =
  | { kind: 'endpoint'; endpoint: Endpoint; spec: BoundSpec | undefined; spend?: number }
  | { kind: 'group'; group: GroupKind; endpoint: Endpoint }
  | { kind: 'fact'; endpoint: Endpoint; fact: Fact }
  | { kind: 'url'; endpoint: Endpoint; name: string; url: string }
  | { kind: 'worker'; endpoint: Endpoint; worker: Worker; endpointVersion: number | null | undefined }
  | { kind: 'release'; endpoint: Endpoint; release: Release; cause?: NotServingCause; readiness?: ReadinessReport }
  | { kind: 'diff'; endpoint: Endpoint; release: Release; entry: ReleaseDiffEntry }
  | { kind: 'message'; id: string; text: string; icon: string; command?: vscode.Command; retry?: EndpointNode };

type EndpointItem = Extract<EndpointNode, { kind: 'endpoint' }>;

const GROUP_LABELS: Record<GroupKind, { label: string; icon: string }> = {
  configuration: { label: 'Configuration', icon: 'settings-gear' },
  urls: { label: 'Request URLs', icon: 'link' },
  workers: { label: 'Workers', icon: 'vm' },
  releases: { label: 'Releases', icon: 'history' },
};

// Keyed by any string: a status newer than these shows as a question mark.
const WORKER_ICONS: Partial<Record<string, vscode.ThemeIcon>> = {
  RUNNING: new vscode.ThemeIcon('pass-filled', new vscode.ThemeColor('testing.iconPassed')),
  IDLE: new vscode.ThemeIcon('circle-large-outline'),
  INITIALIZING: new vscode.ThemeIcon('loading~spin'),
  THROTTLED: new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground')),
  UNHEALTHY: new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground')),
} satisfies Record<WorkerStatus, vscode.ThemeIcon>;

/** Why an endpoint reads "no spec": the binding names a spec the workspace no longer has. */
function goneNote(spec: BoundSpec): string {
  const document = spec.documentIndex > 0 ? ` (document ${spec.documentIndex})` : '';
  return `**No spec**: it was deployed from \`${spec.key}\`${document}, which is gone, and it is still running and billed. Delete it, or forget the binding to keep it.`;
}

export class EndpointsTree implements vscode.TreeDataProvider<EndpointNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<EndpointNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly filterChanged = new vscode.EventEmitter<string>();
  readonly onDidChangeFilter = this.filterChanged.event;
  private readonly cache = new LoadCache();
  /** The refresh in flight: a manual refresh meanwhile joins it instead of starting another. */
  private refreshing: Promise<void> | undefined;
  private nameFilter = '';
  private state: ViewState | undefined;
  /** Kept up to date by the view: whether anyone can see the tree. */
  visible = false;
  /** The endpoint nodes last shown, by id: a rollout's progress re-renders its endpoint's node alone. */
  private shownEndpoints = new Map<string, EndpointItem>();
  private readonly rollouts = watchedRollouts.onDidChange((endpointId) => {
    const node = this.shownEndpoints.get(endpointId);
    if (node) this.changed.fire(node);
  });

  constructor(
    private readonly session: Session,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  get filter(): string {
    return this.nameFilter;
  }

  setFilter(filter: string): void {
    this.nameFilter = filter.trim();
    void vscode.commands.executeCommand('setContext', ENDPOINTS_FILTERED_KEY, this.nameFilter !== '');
    this.filterChanged.fire(this.nameFilter);
    // Filtering reuses the list already read: no request.
    this.changed.fire(undefined);
  }

  /** The endpoints of this generation (read once), for commands invoked from the palette. */
  async endpoints(): Promise<Endpoint[]> {
    const outcome = await this.listing();
    if ('error' in outcome) throw outcome.error;
    return outcome.endpoints;
  }

  /**
   * Reads everything again. While a refresh is in flight, another joins it; after a 429 it waits
   * until the service's Retry-After has passed instead of asking again.
   */
  refresh(): Promise<void> {
    if (this.refreshing) return this.refreshing;
    const wait = this.cache.rateLimitedForSeconds;
    if (wait > 0) {
      void vscode.window.showWarningMessage(`Endpoints not refreshed: the service asked to wait; try again in ${wait} s`);
      return Promise.resolve();
    }
    return this.restart();
  }

  /** Starts over whatever is in flight: the profile changed, so old answers belong to someone else. */
  restart(): Promise<void> {
    this.cache.clear();
    // A hidden view reads nothing: the tree asks when it is shown.
    const refreshing = (this.visible ? this.listing() : Promise.resolve()).then(() => {
      if (this.refreshing === refreshing) this.refreshing = undefined;
    });
    this.refreshing = refreshing;
    void vscode.window.withProgress({ location: { viewId: ENDPOINTS_VIEW } }, () => refreshing);
    this.changed.fire(undefined);
    return refreshing;
  }

  /**
   * The list, read once per generation. A failure is kept as the outcome (not retried) until the
   * next refresh, so re-renders (a filter, a binding change) neither ask nor report again.
   */
  private listing(): Promise<ListOutcome> {
    const api = this.session.api;
    if (!api) return Promise.resolve({ endpoints: [] });
    const signal = this.cache.signal;
    return this.cache.remember('list-outcome', () =>
      this.cache
        .get('endpoints', (s) => api.serverless.list({ signal: s }))
        .then(
          (endpoints): ListOutcome => ({ endpoints }),
          (error: unknown): ListOutcome => {
            if (!wasAbandoned(error, signal)) this.session.reportError('Listing endpoints', error);
            return { error, abandoned: wasAbandoned(error, signal) };
          },
        ),
    );
  }

  /** Reads one node's children again (a Workers or Releases group, or the node an error leaf names). */
  refreshNode(node: EndpointNode): void {
    if (node.kind === 'message' && node.retry) {
      this.refreshNode(node.retry);
      return;
    }
    if (node.kind !== 'group') return void this.refresh();
    this.cache.forget(`endpoint/${node.endpoint.id}/${node.group}`);
    this.changed.fire(node);
  }

  /** The spec bound to an endpoint, as the binding files say now. */
  async boundSpec(endpointId: string): Promise<BoundSpec | undefined> {
    return (await this.bindings()).get(endpointId);
  }

  /** Each endpoint's spend over the last days: one billing request per refresh; undefined when turned off or unreadable. */
  private spend(): Promise<Map<string, number> | undefined> {
    const api = this.session.api;
    if (!api || !vscode.workspace.getConfiguration().get<boolean>('endpointStudio.billing.endpointSpend', true))
      return Promise.resolve(undefined);
    const signal = this.cache.signal;
    return this.cache.remember('spend', () =>
      this.cache
        .get('billing/spend', (s) => endpointSpend(api, ENDPOINT_SPEND_DAYS, { signal: s }))
        .catch((error: unknown) => {
          if (!wasAbandoned(error, signal))
            this.log.warn(
              `endpoint spend not shown: billing failed: ${this.session.redact(error instanceof Error ? error.message : String(error))}`,
            );
          return undefined;
        }),
    );
  }

  private bindings(): Promise<Map<string, BoundSpec>> {
    return this.cache.remember('bindings', () => findBoundSpecs(this.log).catch(() => new Map<string, BoundSpec>()));
  }

  /** Binding files changed: re-render with the new spec links, without calling the service. */
  bindingsChanged(): void {
    this.cache.forget('bindings');
    this.changed.fire(undefined);
  }

  getTreeItem(node: EndpointNode): vscode.TreeItem {
    switch (node.kind) {
      case 'endpoint': {
        const item = new vscode.TreeItem(node.endpoint.name, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `endpoint/${node.endpoint.id}`;
        const spent = node.spend === undefined ? undefined : formatUsd(node.spend);
        // The environment leads, so staging and prod of one service read apart at a glance.
        const environment = node.spec?.environment;
        // A rollout being watched comes first while it runs: the rest says what the endpoint is, this what it does now.
        const rollout = watchedRollouts.progress(node.endpoint.id);
        // A spec deleted from the workspace leaves its endpoint running and billed: said first, with its own icon.
        const gone = node.spec?.gone === true;
        // Why the last watched rollout's workers did not serve, until the next rollout of this endpoint is watched.
        const cause = rollout ? undefined : watchedRollouts.cause(node.endpoint.id);
        item.description = `${gone ? 'no spec · ' : ''}${rollout ? `${rolloutBadge(rollout)} · ` : ''}${cause ? `${causeLabel(cause)} · ` : ''}${environment ? `${environment} · ` : ''}${endpointDescription(node.endpoint)}${spent ? ` · ${spent} last ${ENDPOINT_SPEND_DAYS} days` : ''}`;
        item.tooltip = new vscode.MarkdownString(
          `${gone && node.spec ? `${goneNote(node.spec)}\n\n` : ''}${cause ? `${causeNote(cause)}\n\n` : ''}${environment ? `Environment **${environment}**\n\n` : ''}${endpointTooltip(node.endpoint, node.spec ? vscode.workspace.asRelativePath(node.spec.uri) : undefined)}${spent ? `\n\nSpend over the last ${ENDPOINT_SPEND_DAYS} days (UTC days, today included): **${spent}**` : ''}`,
        );
        item.iconPath = gone
          ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'))
          : new vscode.ThemeIcon(endpointType(node.endpoint) === 'LOAD_BALANCER' ? 'globe' : 'server-process');
        // The type decides the menu: jobs for queue endpoints, a health ping for load balancers; `.nospec` adds Forget Binding.
        item.contextValue = `endpoint.${node.endpoint.type === 'LOAD_BALANCER' ? 'lb' : 'queue'}${gone ? '.nospec' : node.spec ? '.bound' : ''}`;
        return item;
      }
      case 'group': {
        const { label, icon } = GROUP_LABELS[node.group];
        const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `endpoint/${node.endpoint.id}/${node.group}`;
        item.iconPath = new vscode.ThemeIcon(icon);
        item.contextValue = `group.${node.group}`;
        if (node.group === 'workers') item.description = `min ${node.endpoint.workers.min} · max ${node.endpoint.workers.max}`;
        return item;
      }
      case 'fact': {
        const item = new vscode.TreeItem(node.fact.label);
        item.id = `endpoint/${node.endpoint.id}/configuration/${node.fact.label}`;
        item.description = node.fact.value;
        item.tooltip = `${node.fact.label}: ${node.fact.value}`;
        item.contextValue = 'fact';
        return item;
      }
      case 'url': {
        const item = new vscode.TreeItem(node.name);
        item.id = `endpoint/${node.endpoint.id}/urls/${node.name}`;
        item.description = node.url;
        item.tooltip = `${node.url}\n\nCopy it with the button on the right.`;
        item.iconPath = new vscode.ThemeIcon('link');
        item.contextValue = 'requestUrl';
        return item;
      }
      case 'worker': {
        const item = new vscode.TreeItem(node.worker.id);
        item.id = `endpoint/${node.endpoint.id}/workers/${node.worker.id}`;
        item.description = workerDescription(node.worker, node.endpointVersion);
        item.tooltip = workerTooltip(node.worker, node.endpointVersion);
        item.iconPath = WORKER_ICONS[node.worker.status] ?? new vscode.ThemeIcon('question');
        item.contextValue = isStaleWorker(node.worker, node.endpointVersion) ? 'worker.stale' : 'worker';
        return item;
      }
      case 'release':
        return releaseItem(node);
      case 'diff': {
        const item = new vscode.TreeItem(diffLine(node.entry, releaseScalingType(node.release)));
        item.id = `endpoint/${node.endpoint.id}/releases/${node.release.id}/${node.entry.field}`;
        item.tooltip = diffTooltip(node.entry, releaseScalingType(node.release));
        item.iconPath = new vscode.ThemeIcon('diff');
        return item;
      }
      case 'message': {
        const item = new vscode.TreeItem(node.text);
        item.id = node.id;
        item.iconPath = new vscode.ThemeIcon(node.icon);
        item.command = node.command;
        item.contextValue = node.retry ? 'message.retry' : 'message';
        return item;
      }
    }
  }

  async getChildren(node?: EndpointNode): Promise<EndpointNode[]> {
    if (!node) return this.roots();
    const api = this.session.api;
    if (!api) return [];
    const { endpoint } = node as { endpoint: Endpoint };
    switch (node.kind) {
      case 'endpoint':
        return (['configuration', 'urls', 'workers', 'releases'] as const).map((group) => ({ kind: 'group', group, endpoint }));
      case 'group':
        if (node.group === 'configuration') return configurationFacts(endpoint).map((fact) => ({ kind: 'fact', endpoint, fact }));
        if (node.group === 'urls') return requestUrls(endpoint).map(({ name, url }) => ({ kind: 'url', endpoint, name, url }));
        return this.groupChildren(api, node);
      case 'release':
        return node.release.diff.map((entry) => ({ kind: 'diff', endpoint, release: node.release, entry }));
      default:
        return [];
    }
  }

  private async roots(): Promise<EndpointNode[]> {
    if (!this.session.api) return this.show('signedOut', []);
    if (this.state !== 'loaded') await this.publish('loading');
    const [outcome, bound, spend] = await Promise.all([this.listing(), this.bindings(), this.spend()]);
    if ('error' in outcome) return outcome.abandoned ? [] : this.show('error', []);
    if (outcome.endpoints.length === 0) return this.show('empty', []);
    const needle = this.nameFilter.toLowerCase();
    const shown = outcome.endpoints.filter((e) => e.name.toLowerCase().includes(needle)).sort((a, b) => a.name.localeCompare(b.name));
    if (shown.length === 0) {
      return this.show('loaded', [
        {
          kind: 'message',
          id: 'no-match',
          text: `No endpoint name contains "${this.nameFilter}" (click to clear the filter)`,
          icon: 'filter',
          command: { command: 'endpointStudio.endpoints.clearFilter', title: 'Clear Filter' },
        },
      ]);
    }
    const nodes = shown.map((endpoint): EndpointItem => ({
      kind: 'endpoint',
      endpoint,
      spec: bound.get(endpoint.id),
      spend: spend && (spend.get(endpoint.id) ?? 0),
    }));
    this.shownEndpoints = new Map(nodes.map((node) => [node.endpoint.id, node]));
    return this.show('loaded', nodes);
  }

  private async groupChildren(api: ApiClient, node: Extract<EndpointNode, { kind: 'group' }>): Promise<EndpointNode[]> {
    const { endpoint } = node;
    const signal = this.cache.signal;
    try {
      if (node.group === 'workers') {
        const list = await this.cache.get(`endpoint/${endpoint.id}/workers`, (s) => api.serverless.workers(endpoint.id, { signal: s }));
        if (list.workers.length === 0)
          return [{ kind: 'message', id: `endpoint/${endpoint.id}/workers/none`, text: 'No workers running', icon: 'circle-slash' }];
        return list.workers.map((worker) => ({ kind: 'worker', endpoint, worker, endpointVersion: list.endpointVersion }));
      }
      const [list, workers] = await Promise.all([
        this.cache.get(`endpoint/${endpoint.id}/releases`, (s) => api.serverless.releases(endpoint.id, { signal: s })),
        this.releaseWorkers(api, endpoint),
      ]);
      const rollout: EndpointNode[] = list.rollout?.inProgress
        ? [
            {
              kind: 'message',
              id: `endpoint/${endpoint.id}/releases/rollout`,
              text: `Rollout: ${list.rollout.workersOnLatest ?? '?'}/${list.rollout.workersTotal ?? '?'} workers on v${list.endpointVersion ?? '?'}`,
              icon: 'sync',
            },
          ]
        : [];
      const binding = this.bindingOf(endpoint);
      return [
        ...rollout,
        ...list.releases.map((release) => releaseNode(endpoint, release, workers?.workers, readinessOfRelease(binding, release.version))),
      ];
    } catch (error) {
      if (wasAbandoned(error, signal)) return [];
      const what = node.group === 'workers' ? 'workers' : 'releases';
      this.session.reportError(`Listing the ${what} of ${endpoint.name}`, error);
      return [
        {
          kind: 'message',
          id: `endpoint/${endpoint.id}/${node.group}/error`,
          text: `Could not read the ${what} (click to retry)`,
          icon: 'error',
          command: { command: 'endpointStudio.endpoints.refreshNode', title: 'Retry', arguments: [node] },
          retry: node,
        },
      ];
    }
  }

  /** The binding of the spec that deploys to the endpoint, which keeps its releases' time to ready; read afresh. */
  private bindingOf(endpoint: Endpoint): Binding | undefined {
    const spec = this.shownEndpoints.get(endpoint.id)?.spec;
    if (!spec) return undefined;
    const bindings = readSpecBindings(spec.uri.fsPath, spec.root);
    return bindings.ok ? bindings.binding(spec.documentIndex) : undefined;
  }

  /** The workers, to say which release does not serve: the Workers group's read, shared; none when it fails. */
  private releaseWorkers(api: ApiClient, endpoint: Endpoint): Promise<WorkerList | undefined> {
    return this.cache
      .get(`endpoint/${endpoint.id}/workers`, (s) => api.serverless.workers(endpoint.id, { signal: s }))
      .catch((error: unknown) => {
        if (!wasAbandoned(error, this.cache.signal))
          this.log.warn(`the releases of ${endpoint.name} are shown without their workers' state: ${this.session.redact(String(error))}`);
        return undefined;
      });
  }

  private async show(state: ViewState, nodes: EndpointNode[]): Promise<EndpointNode[]> {
    await this.publish(state);
    return nodes;
  }

  private async publish(state: ViewState): Promise<void> {
    if (this.state === state) return;
    this.state = state;
    await vscode.commands.executeCommand('setContext', ENDPOINTS_STATE_KEY, state);
  }

  dispose(): void {
    this.cache.clear();
    this.rollouts.dispose();
    this.changed.dispose();
    this.filterChanged.dispose();
  }
}
