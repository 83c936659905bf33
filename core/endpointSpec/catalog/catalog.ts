/**
 * The service's catalog as the rules see it: the fields they need from the catalog, template,
 * network-volume and registry records, indexed once per snapshot (never per keystroke).
 */

export type AvailabilityLevel = 'NONE' | 'LOW' | 'MEDIUM' | 'HIGH';

export interface DataCenterStock {
  readonly id: string;
  readonly availability: AvailabilityLevel;
}

export interface CatalogGpuType {
  readonly id: string;
  readonly name: string;
  /** Serverless pool of the type; null when it is in none. */
  readonly pool: string | null;
  /** VRAM in GB. */
  readonly memory: number;
  readonly cudaVersions?: readonly string[];
  /** Serverless stock per data center, when the catalog was read with availability. */
  readonly dataCenters?: readonly DataCenterStock[];
  /** Serverless stock over all data centers, when the catalog was read with availability. */
  readonly availability?: AvailabilityLevel;
  /** Price per GPU-hour, for the cost figures. */
  readonly price?: { readonly secure: number; readonly community: number };
}

export interface CatalogCpuFlavor {
  readonly id: string;
  readonly name: string;
  readonly vcpu: { readonly min: number; readonly max: number };
  readonly ramGbPerVcpu: number;
  readonly price?: { readonly serverlessPerVcpu: number };
  /** Serverless stock per data center, when the catalog was read with availability. */
  readonly dataCenters?: readonly DataCenterStock[];
  /** Serverless stock over all data centers, when the catalog was read with availability. */
  readonly availability?: AvailabilityLevel;
}

export interface CatalogTemplate {
  readonly id: string;
  readonly name: string;
  readonly image: string;
  readonly serverless: boolean;
  readonly env?: Readonly<Record<string, string>>;
  readonly allowedCudaVersions?: readonly string[];
}

export interface CatalogDataCenter {
  readonly id: string;
  readonly name: string;
}

export interface CatalogNetworkVolume {
  readonly id: string;
  readonly name: string;
  readonly dataCenter: string;
}

export interface CatalogData {
  readonly gpuTypes: readonly CatalogGpuType[];
  readonly cpuFlavors: readonly CatalogCpuFlavor[];
  readonly dataCenters: readonly CatalogDataCenter[];
  /** Public serverless catalog templates and the caller's own. */
  readonly templates: readonly CatalogTemplate[];
  /** The caller's network volumes; undefined when they could not be read (checks are then skipped). */
  readonly networkVolumes?: readonly CatalogNetworkVolume[];
  /** The caller's registry credentials; undefined when unknown. */
  readonly registries?: readonly { readonly id: string; readonly name: string }[];
}

export class Catalog {
  readonly gpuTypes = new Map<string, CatalogGpuType>();
  readonly pools = new Map<string, CatalogGpuType[]>();
  readonly cpuFlavors = new Map<string, CatalogCpuFlavor>();
  readonly dataCenters = new Map<string, CatalogDataCenter>();
  readonly templates = new Map<string, CatalogTemplate>();
  readonly networkVolumes?: Map<string, CatalogNetworkVolume>;
  readonly registries?: Set<string>;

  constructor(readonly data: CatalogData) {
    for (const type of data.gpuTypes) {
      this.gpuTypes.set(type.id, type);
      if (type.pool) this.pools.set(type.pool, [...(this.pools.get(type.pool) ?? []), type]);
    }
    for (const flavor of data.cpuFlavors) this.cpuFlavors.set(flavor.id, flavor);
    for (const dc of data.dataCenters) this.dataCenters.set(dc.id, dc);
    for (const template of data.templates) this.templates.set(template.id, template);
    if (data.networkVolumes) this.networkVolumes = new Map(data.networkVolumes.map((v) => [v.id, v]));
    if (data.registries) this.registries = new Set(data.registries.map((r) => r.id));
  }

  /** The GPU types a selection places workers on: the members of the known pools minus the exclusions. */
  selectedTypes(pools: readonly string[], excluded: readonly string[] = []): CatalogGpuType[] {
    const removed = new Set(excluded.map((t) => t.trim()));
    return pools.flatMap((pool) => this.pools.get(pool) ?? []).filter((type) => !removed.has(type.id));
  }
}
