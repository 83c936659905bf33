/**
 * Rules that need the service's catalog. They run only when a catalog is at hand: without one,
 * nothing is guessed. The emulator runs the same objects against its seeded catalog.
 */
import type { Severity } from '../problem';
import type { RuleFinding } from '../rules/rule';
import type { JsonPath } from '../tree';
import { has, record, stringArray } from '../rules/rule';
import { closestMatch } from '../suggest';
import type { Catalog } from './catalog';
import { stockShortage, type StockShortage } from './stock';

export interface CatalogRule {
  readonly code: string;
  readonly severity: Severity;
  readonly status?: 400 | 404 | 422;
  readonly description: string;
  check(spec: Record<string, unknown>, catalog: Catalog): RuleFinding[];
}

const MORE_ROOM = 'listing more pools and leaving dataCenterIds unset gives the scheduler more room';

function gpuSelection(spec: Record<string, unknown>): { gpu: Record<string, unknown>; pools: string[]; excluded: string[] } | undefined {
  const gpu = record(spec.gpu);
  const pools = stringArray(gpu?.pools);
  if (!gpu || !pools) return undefined;
  return { gpu, pools, excluded: stringArray(gpu.excludedTypes) ?? [] };
}

const poolKnown: CatalogRule = {
  code: 'pool-unknown',
  severity: 'error',
  status: 422,
  description: 'Each of `gpu.pools` is a serverless pool of the catalog.',
  check(spec, catalog) {
    const selection = gpuSelection(spec);
    if (!selection) return [];
    // A GPU type id is not unknown: gpu-type-as-pool says what it is.
    const written = selection.pools.filter((id) => !catalog.gpuTypes.has(id));
    return notAmong(listed(written, ['gpu', 'pools']), catalog.pools, (id) => `unknown GPU pool: ${id}`);
  },
};

const gpuTypeAsPool: CatalogRule = {
  code: 'gpu-type-as-pool',
  severity: 'error',
  status: 422,
  description: '`gpu.pools` takes pool ids; a GPU type id belongs there only through its pool and `excludedTypes`.',
  check(spec, catalog) {
    const selection = gpuSelection(spec);
    if (!selection) return [];
    return selection.pools.flatMap((id, index): RuleFinding[] => {
      const type = catalog.gpuTypes.has(id) && !catalog.pools.has(id) ? catalog.gpuTypes.get(id) : undefined;
      if (!type) return [];
      const message = type.pool
        ? `${id} is a GPU type, not a pool: use its pool ${type.pool} (with excludedTypes for the pool's other types to keep only this one)`
        : `${id} is a GPU type in no serverless pool, so no endpoint can run on it; choose a pool`;
      const others = type.pool ? (catalog.pools.get(type.pool) ?? []).map((t) => t.id).filter((other) => other !== id) : undefined;
      return [
        { path: ['gpu', 'pools', index], target: 'value', message, ...(type.pool ? { suggestion: type.pool, related: others } : {}) },
      ];
    });
  },
};

const excludedTypesInPools: CatalogRule = {
  code: 'excluded-type-outside-pools',
  severity: 'error',
  status: 400,
  description: 'Each of `gpu.excludedTypes` is a GPU type inside one of the chosen pools.',
  check(spec, catalog) {
    const selection = gpuSelection(spec);
    if (!selection) return [];
    const knownPools = selection.pools.filter((p) => catalog.pools.has(p));
    if (knownPools.length === 0) return [];
    const members = new Set(catalog.selectedTypes(knownPools).map((t) => t.id));
    return selection.excluded.flatMap((raw, index): RuleFinding[] => {
      const id = raw.trim();
      // Items the schema's pattern rejects (empty, leading hyphen) are reported there.
      if (members.has(id) || !/^\s*[^\s-]/.test(raw)) return [];
      const type = catalog.gpuTypes.get(id);
      const message = type
        ? `${id} is not in the chosen pools (${knownPools.join(', ')}); it belongs to ${type.pool ?? 'no serverless pool'}: remove it`
        : `unknown GPU type: ${id}${didYouMean(closestMatch(id, [...members]))}`;
      return [{ path: ['gpu', 'excludedTypes', index], target: 'value', message }];
    });
  },
};

const gpuTypeRemains: CatalogRule = {
  code: 'no-gpu-type-left',
  severity: 'error',
  status: 400,
  description: 'At least one GPU type of the chosen pools remains after `excludedTypes`.',
  check(spec, catalog) {
    const selection = gpuSelection(spec);
    if (!selection || selection.excluded.length === 0) return [];
    const knownPools = selection.pools.filter((p) => catalog.pools.has(p));
    if (knownPools.length === 0 || knownPools.length !== selection.pools.length) return [];
    if (catalog.selectedTypes(knownPools, selection.excluded).length > 0) return [];
    return [
      {
        path: ['gpu', 'excludedTypes'],
        target: 'key',
        message: `excludedTypes removes every GPU type of ${knownPools.join(', ')}; keep at least one, or add a pool`,
      },
    ];
  },
};

const cpuFlavorKnown: CatalogRule = {
  code: 'cpu-flavor-unknown',
  severity: 'error',
  status: 422,
  description: 'Each `cpu[].id` is a CPU flavor of the catalog.',
  check(spec, catalog) {
    if (!Array.isArray(spec.cpu)) return [];
    const written = spec.cpu.flatMap((item: unknown, index) => {
      const id = record(item)?.id;
      return typeof id === 'string' && id !== '' ? [{ id, path: ['cpu', index, 'id'] }] : [];
    });
    return notAmong(written, catalog.cpuFlavors, (id) => `unknown CPU flavor: ${id}`);
  },
};

const vcpuCountForFlavor: CatalogRule = {
  code: 'vcpu-invalid-for-flavor',
  severity: 'error',
  status: 422,
  description: "`cpu[].vcpuCount` lies within the flavor's vCPU range.",
  check(spec, catalog) {
    if (!Array.isArray(spec.cpu)) return [];
    return spec.cpu.flatMap((item: unknown, index): RuleFinding[] => {
      const entry = record(item);
      const flavor = typeof entry?.id === 'string' ? catalog.cpuFlavors.get(entry.id) : undefined;
      const count = entry?.vcpuCount;
      if (!flavor || typeof count !== 'number' || (count >= flavor.vcpu.min && count <= flavor.vcpu.max)) return [];
      const message = `${flavor.id} offers ${flavor.vcpu.min} to ${flavor.vcpu.max} vCPUs; got: ${count}`;
      return [{ path: ['cpu', index, 'vcpuCount'], target: 'value', message }];
    });
  },
};

const dataCenterKnown: CatalogRule = {
  code: 'data-center-unknown',
  severity: 'error',
  status: 422,
  description: 'Each of `dataCenterIds` is a data center of the catalog.',
  check(spec, catalog) {
    const ids = stringArray(spec.dataCenterIds);
    return ids ? notAmong(listed(ids, ['dataCenterIds']), catalog.dataCenters, (id) => `unknown data center: ${id}`) : [];
  },
};

const templateKnown: CatalogRule = {
  code: 'template-unknown',
  severity: 'error',
  status: 404,
  description: '`templateId` names a template you own or a public catalog template.',
  check(spec, catalog) {
    const id = spec.templateId;
    if (typeof id !== 'string' || id === '') return [];
    return notAmong(
      [{ id, path: ['templateId'] }],
      catalog.templates,
      (id) => `no template ${id} among your templates or the public catalog`,
    );
  },
};

const templateServerless: CatalogRule = {
  code: 'template-not-serverless',
  severity: 'error',
  status: 422,
  description: '`templateId` names a serverless template, not a pod template.',
  check(spec, catalog) {
    const template = typeof spec.templateId === 'string' ? catalog.templates.get(spec.templateId) : undefined;
    if (!template || template.serverless) return [];
    return [
      { path: ['templateId'], target: 'value', message: `${template.name} is a pod template; an endpoint needs a serverless template` },
    ];
  },
};

const cudaOffered: CatalogRule = {
  code: 'cuda-not-offered',
  severity: 'warning',
  description: 'The CUDA constraint leaves some GPU of the selection to run on.',
  check(spec, catalog) {
    const selection = gpuSelection(spec);
    if (!selection) return [];
    const types = catalog.selectedTypes(selection.pools, selection.excluded).filter((t) => t.cudaVersions);
    if (types.length === 0) return [];
    const offered = new Set(types.flatMap((t) => t.cudaVersions ?? []));
    const gpu = selection.gpu;
    const template = typeof spec.templateId === 'string' ? catalog.templates.get(spec.templateId) : undefined;
    // Rule 5: the template's set seeds a GPU create that states no constraint of its own.
    const seeded = !has(gpu, 'allowedCudaVersions') && !has(gpu, 'minCudaVersion') ? template?.allowedCudaVersions : undefined;
    const allowed = stringArray(gpu.allowedCudaVersions) ?? (seeded ? [...seeded] : undefined);
    const findings: RuleFinding[] = [];
    if (allowed && allowed.length > 0 && !allowed.some((v) => offered.has(v))) {
      findings.push({
        path: seeded ? ['templateId'] : ['gpu', 'allowedCudaVersions'],
        target: seeded ? 'value' : 'key',
        message: `no GPU in ${selection.pools.join(', ')} offers CUDA ${allowed.join(', ')} (offered: ${[...offered].sort(compareVersions).join(', ')}); workers could never start: ${MORE_ROOM}`,
      });
    }
    const floor = gpu.minCudaVersion;
    if (typeof floor === 'string' && /^\d+\.\d+$/.test(floor) && ![...offered].some((v) => compareVersions(v, floor) >= 0)) {
      findings.push({
        path: ['gpu', 'minCudaVersion'],
        target: 'value',
        message: `no GPU in ${selection.pools.join(', ')} offers CUDA ${floor} or later (highest: ${[...offered].sort(compareVersions).pop()}); ${MORE_ROOM}`,
      });
    }
    return findings;
  },
};

const stockInDataCenters: CatalogRule = {
  code: 'no-stock-in-data-centers',
  severity: 'warning',
  description:
    'The chosen GPU types (or CPU flavors) have serverless stock in the chosen data centers; the warning names pools (or flavors) that do.',
  check(spec, catalog) {
    const shortage = stockShortage(spec, catalog);
    return shortage?.dataCenters ? [stockFinding(shortage, ['dataCenterIds'])] : [];
  },
};

const stockSomewhere: CatalogRule = {
  code: 'no-serverless-stock',
  severity: 'warning',
  description:
    'The chosen GPU types (or CPU flavors) have serverless stock in some data center; the warning names pools (or flavors) that do, with their price.',
  check(spec, catalog) {
    const shortage = stockShortage(spec, catalog);
    if (!shortage || shortage.dataCenters) return [];
    return [stockFinding(shortage, shortage.compute === 'gpu' ? ['gpu', 'pools'] : ['cpu'])];
  },
};

/** On the key, with the alternatives' ids as `related`: a quick fix adds one of them. */
function stockFinding(shortage: StockShortage, path: JsonPath): RuleFinding {
  const ids = shortage.alternatives.map((a) => a.id);
  return { path, target: 'key', message: shortage.message, ...(ids.length > 0 ? { related: ids } : {}) };
}

const networkVolumeKnown: CatalogRule = {
  code: 'network-volume-unknown',
  severity: 'error',
  status: 422,
  description: 'Each of `networkVolumes` is a network volume of your account.',
  check(spec, catalog) {
    const volumes = stringArray(spec.networkVolumes);
    const known = catalog.networkVolumes;
    if (!volumes || !known) return [];
    return notAmong(listed(volumes, ['networkVolumes']), known, (id) => `no network volume ${id} in your account`);
  },
};

const networkVolumesPlaced: CatalogRule = {
  code: 'network-volume-placement',
  severity: 'warning',
  description: 'Each network volume sits in one of the chosen data centers.',
  check(spec, catalog) {
    const volumes = stringArray(spec.networkVolumes);
    const dataCenters = stringArray(spec.dataCenterIds) ?? [];
    const known = catalog.networkVolumes;
    if (!volumes || !known || dataCenters.length === 0) return [];
    return volumes.flatMap((id, index): RuleFinding[] => {
      const volume = known.get(id);
      if (!volume || dataCenters.includes(volume.dataCenter)) return [];
      const message = `volume ${volume.name} lives in ${volume.dataCenter}, outside dataCenterIds (${dataCenters.join(', ')}); workers could not mount it`;
      return [{ path: ['networkVolumes', index], target: 'value', message }];
    });
  },
};

const registryKnown: CatalogRule = {
  code: 'registry-unknown',
  severity: 'error',
  status: 422,
  description: '`registry` names a registry credential of your account.',
  check(spec, catalog) {
    const id = spec.registry;
    if (typeof id !== 'string' || !catalog.registries) return [];
    return notAmong([{ id, path: ['registry'] }], catalog.registries, (id) => `no registry credential ${id} in your account`);
  },
};

export const CATALOG_RULES: readonly CatalogRule[] = [
  poolKnown,
  gpuTypeAsPool,
  excludedTypesInPools,
  gpuTypeRemains,
  cpuFlavorKnown,
  vcpuCountForFlavor,
  dataCenterKnown,
  templateKnown,
  templateServerless,
  cudaOffered,
  stockInDataCenters,
  stockSomewhere,
  networkVolumeKnown,
  networkVolumesPlaced,
  registryKnown,
];

function didYouMean(suggestion: string | undefined): string {
  return suggestion ? `; did you mean ${suggestion}?` : '';
}

/** An id the spec wrote, and where. */
interface WrittenId {
  readonly id: string;
  readonly path: JsonPath;
}

function listed(ids: readonly string[], path: JsonPath): WrittenId[] {
  return ids.map((id, index) => ({ id, path: [...path, index] }));
}

/**
 * The one shape of "is it in the catalog": a finding for each written id that `known` (a catalog map or set)
 * does not hold, with the closest known id as a suggestion.
 */
function notAmong(
  written: readonly WrittenId[],
  known: ReadonlyMap<string, unknown> | ReadonlySet<string>,
  unknown: (id: string) => string,
): RuleFinding[] {
  return written.flatMap(({ id, path }): RuleFinding[] => {
    if (known.has(id)) return [];
    const suggestion = closestMatch(id, [...known.keys()]);
    return [{ path, target: 'value', message: `${unknown(id)}${didYouMean(suggestion)}`, ...(suggestion ? { suggestion } : {}) }];
  });
}

export function compareVersions(a: string, b: string): number {
  const [am, an] = a.split('.').map(Number);
  const [bm, bn] = b.split('.').map(Number);
  return am - bm || an - bn;
}
