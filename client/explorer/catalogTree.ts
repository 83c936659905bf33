/**
 * The Catalog view: GPU pools with their GPU types, CPU flavors, data centers and serverless
 * templates, as the service offers them to this account. Each section is read when it is expanded,
 * once per refresh, so opening the view costs nothing until the user looks.
 */
import * as vscode from 'vscode';
import type { ApiClient, AvailabilityLevel, CpuType, DataCenter, GpuType, Template } from '../../core/api';
import type { Session } from '../auth/session';
import { plural } from '../../core/util/plural';
import { LoadCache, wasAbandoned } from './loadCache';

export const CATALOG_VIEW = 'endpointStudio.catalog';

type Section = 'pools' | 'cpus' | 'dataCenters' | 'templates';

export type CatalogNode =
  | { kind: 'section'; section: Section }
  | { kind: 'pool'; pool: string; types: GpuType[] }
  | { kind: 'gpu'; gpu: GpuType }
  | { kind: 'cpu'; cpu: CpuType }
  | { kind: 'dataCenter'; dataCenter: DataCenter }
  | { kind: 'template'; template: Template; own: boolean }
  | { kind: 'message'; id: string; text: string; icon: string; retry?: CatalogNode };

const SECTIONS: Record<Section, { label: string; icon: string }> = {
  pools: { label: 'GPU pools', icon: 'circuit-board' },
  cpus: { label: 'CPU flavors', icon: 'server' },
  dataCenters: { label: 'Data centers', icon: 'globe' },
  templates: { label: 'Templates', icon: 'package' },
};

const STOCK_RANK: Record<AvailabilityLevel, number> = { NONE: 0, LOW: 1, MEDIUM: 2, HIGH: 3 };

const money = (n: number): string => `$${n.toFixed(n < 1 ? 3 : 2)}`;

function bestStock(types: readonly GpuType[]): AvailabilityLevel | undefined {
  const levels = types.map((t) => t.availability).filter((a): a is AvailabilityLevel => a !== undefined);
  return levels.length === 0 ? undefined : levels.reduce((best, level) => (STOCK_RANK[level] > STOCK_RANK[best] ? level : best));
}

function cudaRange(versions: readonly string[] | undefined): string {
  if (!versions?.length) return 'CUDA unknown';
  return versions.length === 1 ? `CUDA ${versions[0]}` : `CUDA ${versions[0]}–${versions[versions.length - 1]}`;
}

function poolDescription(types: readonly GpuType[]): string {
  const memory = [...new Set(types.map((t) => t.memory))].sort((a, b) => a - b).join('/');
  const prices = types.map((t) => t.price.secure).filter((p) => p > 0);
  const [low, high] = [Math.min(...prices), Math.max(...prices)];
  const price = prices.length === 0 ? 'price unknown' : low === high ? `${money(low)}/h` : `${money(low)}–${money(high)}/h`;
  return [`${memory} GB`, plural(types.length, 'type'), price, `stock ${bestStock(types) ?? 'unknown'}`].join(' · ');
}

function gpuDescription(gpu: GpuType): string {
  return [
    `${gpu.memory} GB`,
    `${money(gpu.price.secure > 0 ? gpu.price.secure : gpu.price.community)}/h`,
    `stock ${gpu.availability ?? 'unknown'}`,
    cudaRange(gpu.cudaVersions),
  ].join(' · ');
}

function gpuTooltip(gpu: GpuType): string {
  const stock = (gpu.dataCenters ?? []).map((dc) => `  ${dc.id}: ${dc.availability}`);
  return [
    `${gpu.name} (${gpu.id})`,
    `Pool: ${gpu.pool ?? 'none'} · ${gpu.manufacturer} · ${gpu.memory} GB VRAM`,
    `Price per GPU: secure ${money(gpu.price.secure)}/h, community ${money(gpu.price.community)}/h`,
    `Up to ${gpu.maxCount.secure} (secure) / ${gpu.maxCount.community} (community) per worker`,
    `CUDA: ${gpu.cudaVersions?.join(', ') || 'unknown'}`,
    `Serverless stock: ${gpu.availability ?? 'unknown'}`,
    ...(stock.length ? ['By data center:', ...stock] : []),
  ].join('\n');
}

function cpuDescription(cpu: CpuType): string {
  return [
    `${cpu.vcpu.min}–${cpu.vcpu.max} vCPU`,
    `${cpu.ramGbPerVcpu} GB RAM/vCPU`,
    `${money(cpu.price.serverlessPerVcpu)}/vCPU/h`,
    ...(cpu.availability ? [`stock ${cpu.availability}`] : []),
  ].join(' · ');
}

export class CatalogTree implements vscode.TreeDataProvider<CatalogNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<CatalogNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly cache = new LoadCache();

  constructor(private readonly session: Session) {}

  /**
   * Forgets what was read; sections that are open read again (one request each), closed ones wait.
   * While reads are open, a refresh waits for them instead of starting over.
   */
  async refresh(): Promise<void> {
    if (this.cache.busy) return this.cache.settled();
    const wait = this.cache.rateLimitedForSeconds;
    if (wait > 0) return void vscode.window.showWarningMessage(`Catalog not refreshed: the service asked to wait; try again in ${wait} s`);
    this.cache.clear();
    this.changed.fire(undefined);
  }

  /** The profile changed: nothing read so far applies. */
  restart(): void {
    this.cache.clear();
    this.changed.fire(undefined);
  }

  retry(node: CatalogNode): void {
    if (node.kind === 'message' && node.retry?.kind === 'section') {
      this.cache.forget(node.retry.section);
      this.changed.fire(node.retry);
    }
  }

  getTreeItem(node: CatalogNode): vscode.TreeItem {
    switch (node.kind) {
      case 'section': {
        const { label, icon } = SECTIONS[node.section];
        const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `catalog/${node.section}`;
        item.iconPath = new vscode.ThemeIcon(icon);
        return item;
      }
      case 'pool': {
        const tooltip = `Pool ${node.pool}: ${node.types.map((t) => t.name).join(', ')}\nUse it in a spec as gpu.pools: [${node.pool}]`;
        const item = leaf(`catalog/pools/${node.pool}`, node.pool, poolDescription(node.types), tooltip, 'layers');
        item.collapsibleState = vscode.TreeItemCollapsibleState.Collapsed;
        return item;
      }
      case 'gpu':
        return leaf(`catalog/gpu/${node.gpu.id}`, node.gpu.name, gpuDescription(node.gpu), gpuTooltip(node.gpu), 'circuit-board');
      case 'cpu':
        return leaf(
          `catalog/cpu/${node.cpu.id}`,
          node.cpu.id,
          `${node.cpu.group} ${node.cpu.name} · ${cpuDescription(node.cpu)}`,
          `${node.cpu.group} ${node.cpu.name} (${node.cpu.id})\n${cpuDescription(node.cpu)}\nSecure cloud: ${money(node.cpu.price.securePerVcpu)}/vCPU/h`,
          'server',
        );
      case 'dataCenter': {
        const dc = node.dataCenter;
        const inStock = (dc.gpuAvailability ?? []).filter((g) => g.availability !== 'NONE').map((g) => `${g.name} ${g.availability}`);
        const tooltip = [
          `${dc.name} (${dc.id}), ${dc.region}`,
          `Global networking: ${dc.globalNetwork ? 'yes' : 'no'}`,
          `Network volumes: ${dc.networkVolumeTypes.join(', ') || 'none'}`,
          `Compliance: ${dc.compliance.join(', ') || 'none listed'}`,
          `GPU stock: ${inStock.join(', ') || 'none'}`,
        ].join('\n');
        return leaf(`catalog/dc/${dc.id}`, dc.id, `${dc.name} · ${dc.region}`, tooltip, 'location');
      }
      case 'template': {
        const t = node.template;
        const tooltip = [
          `${t.name} (${t.id})`,
          `Image: ${t.image}`,
          `Category: ${t.category}`,
          node.own ? 'Your template' : 'Public template',
          ...(t.allowedCudaVersions?.length ? [`CUDA: ${t.allowedCudaVersions.join(', ')}`] : []),
        ].join('\n');
        return leaf(`catalog/template/${t.id}`, t.name, `${t.image}${node.own ? ' · yours' : ''}`, tooltip, 'package');
      }
      case 'message': {
        const item = new vscode.TreeItem(node.text);
        item.id = node.id;
        item.iconPath = new vscode.ThemeIcon(node.icon);
        if (node.retry) item.command = { command: 'endpointStudio.catalogView.retry', title: 'Retry', arguments: [node] };
        return item;
      }
    }
  }

  async getChildren(node?: CatalogNode): Promise<CatalogNode[]> {
    const api = this.session.api;
    if (!api) return [];
    if (!node) return (Object.keys(SECTIONS) as Section[]).map((section) => ({ kind: 'section', section }));
    if (node.kind === 'pool')
      return [...node.types].sort((a, b) => a.memory - b.memory || a.price.secure - b.price.secure).map((gpu) => ({ kind: 'gpu', gpu }));
    if (node.kind !== 'section') return [];
    const signal = this.cache.signal;
    try {
      return await this.sectionChildren(api, node.section);
    } catch (error) {
      if (wasAbandoned(error, signal)) return [];
      this.session.reportError(`Reading the catalog's ${SECTIONS[node.section].label.toLowerCase()}`, error);
      return [
        {
          kind: 'message',
          id: `catalog/${node.section}/error`,
          text: 'Could not read this part of the catalog (click to retry)',
          icon: 'error',
          retry: node,
        },
      ];
    }
  }

  private async sectionChildren(api: ApiClient, section: Section): Promise<CatalogNode[]> {
    switch (section) {
      case 'pools': {
        const gpus = await this.cache.get('pools', (signal) => api.catalog.gpus({ signal }));
        const pools = new Map<string, GpuType[]>();
        // Types in no pool cannot back a serverless endpoint, so they are left out.
        for (const gpu of gpus) if (gpu.pool) pools.set(gpu.pool, [...(pools.get(gpu.pool) ?? []), gpu]);
        const minMemory = (types: GpuType[]) => Math.min(...types.map((t) => t.memory));
        return [...pools.entries()]
          .sort(([a, at], [b, bt]) => minMemory(at) - minMemory(bt) || a.localeCompare(b))
          .map(([pool, types]) => ({ kind: 'pool', pool, types }));
      }
      case 'cpus': {
        const cpus = await this.cache.get('cpus', (signal) => api.catalog.cpus({ signal, availability: true }));
        return cpus.map((cpu) => ({ kind: 'cpu', cpu }));
      }
      case 'dataCenters': {
        const dataCenters = await this.cache.get('dataCenters', (signal) => api.catalog.dataCenters({ signal }));
        return [...dataCenters].sort((a, b) => a.id.localeCompare(b.id)).map((dataCenter) => ({ kind: 'dataCenter', dataCenter }));
      }
      case 'templates': {
        const [publicTemplates, own] = await Promise.all([
          this.cache.get('templates', (signal) => api.catalog.templates({ signal })),
          this.cache.get('templates/own', (signal) => api.templates.list({ signal })),
        ]);
        const seen = new Set<string>();
        const nodes: CatalogNode[] = [];
        for (const [templates, isOwn] of [
          [own, true],
          [publicTemplates, false],
        ] as const) {
          for (const template of templates) {
            if (!template.serverless || seen.has(template.id)) continue;
            seen.add(template.id);
            nodes.push({ kind: 'template', template, own: isOwn });
          }
        }
        return nodes.length
          ? nodes
          : [{ kind: 'message', id: 'catalog/templates/none', text: 'No serverless templates', icon: 'circle-slash' }];
      }
    }
  }

  dispose(): void {
    this.cache.clear();
    this.changed.dispose();
  }
}

function leaf(id: string, label: string, description: string, tooltip: string, icon: string): vscode.TreeItem {
  const item = new vscode.TreeItem(label);
  item.id = id;
  item.description = description;
  item.tooltip = tooltip;
  item.iconPath = new vscode.ThemeIcon(icon);
  item.contextValue = 'catalogId';
  return item;
}
