/**
 * Catalog values by JSON path: what may be written at `gpu.pools[*]`, `cpu[*].vcpuCount`, ...
 * with the facts that help choose (member GPUs, VRAM, stock, prices). Completions and hovers
 * both read from here, so they always agree.
 */
import type { Catalog, CatalogGpuType } from '../../core/endpointSpec/catalog/catalog';
import { compareVersions } from '../../core/endpointSpec/catalog/rules';
import { isRecord } from '../../core/endpointSpec/ownData';
import { valueAt } from '../../core/endpointSpec/schemaValidation';
import type { JsonPath } from '../../core/endpointSpec/tree';

export interface CatalogValue {
  readonly value: string | number;
  /** One line, shown beside the value in the completion list. */
  readonly detail: string;
  /** Markdown facts, shown in the completion's documentation and in hovers. */
  readonly documentation: string;
}

interface ValueProvider {
  /** The path with `*` for any list index. */
  readonly pattern: readonly (string | number)[];
  values(catalog: Catalog, spec: Record<string, unknown>, path: JsonPath): CatalogValue[];
}

const money = (n: number): string => `$${n.toFixed(n < 1 ? 3 : 2)}`;

/** The strings of the list at `path`: the pools or data centers the spec chose. */
function chosen(spec: Record<string, unknown>, path: JsonPath): string[] {
  const ids = valueAt(spec, path);
  return Array.isArray(ids) ? ids.filter((p): p is string => typeof p === 'string') : [];
}

const chosenPools = (spec: Record<string, unknown>): string[] => chosen(spec, ['gpu', 'pools']);

function stockLine(type: CatalogGpuType, only: readonly string[] = []): string {
  const entries = (type.dataCenters ?? []).filter((dc) => only.length === 0 || only.includes(dc.id));
  return entries.length === 0 ? 'stock unknown' : entries.map((dc) => `${dc.id} ${dc.availability}`).join(', ');
}

function gpuTypeLine(type: CatalogGpuType, dataCenters: readonly string[] = []): string {
  const price = type.price ? `, ${money(type.price.secure)}/h` : '';
  return `${type.name}: ${type.memory} GB${price}; CUDA ${(type.cudaVersions ?? []).join(', ') || 'unknown'}; stock ${stockLine(type, dataCenters)}`;
}

/** A pool with its members; stock is judged in `dataCenters` when the spec names some. */
function poolValue(catalog: Catalog, pool: string, dataCenters: readonly string[] = []): CatalogValue | undefined {
  const members = catalog.pools.get(pool);
  if (!members) return undefined;
  const memory = [...new Set(members.map((t) => t.memory))].join('/');
  const prices = members.map((t) => t.price?.secure).filter((p): p is number => p !== undefined && p > 0);
  const [cheapest, priciest] = [Math.min(...prices), Math.max(...prices)];
  const price = cheapest === priciest ? money(cheapest) : `${money(cheapest)}-${money(priciest)}`;
  const priceRange = prices.length > 0 ? `, ${price}/h per GPU` : '';
  const inStock = members.some((t) =>
    t.dataCenters?.some((dc) => dc.availability !== 'NONE' && (dataCenters.length === 0 || dataCenters.includes(dc.id))),
  );
  const where = dataCenters.length > 0 ? ` in ${dataCenters.join(', ')}` : '';
  return {
    value: pool,
    detail: `${memory} GB · ${members.map((t) => t.name).join(', ')}${priceRange}${inStock ? '' : ` · no serverless stock${where}`}`,
    documentation: [`**Pool ${pool}**`, '', ...members.map((t) => `- ${gpuTypeLine(t, dataCenters)}`)].join('\n'),
  };
}

function gpuTypeValue(catalog: Catalog, id: string): CatalogValue | undefined {
  const type = catalog.gpuTypes.get(id);
  if (!type) return undefined;
  return {
    value: id,
    detail: `${type.memory} GB, pool ${type.pool ?? 'none'}`,
    documentation: `**${type.name}** (${id})\n\n${gpuTypeLine(type)}\n\nPool: ${type.pool ?? 'in no serverless pool'}`,
  };
}

const PROVIDERS: ValueProvider[] = [
  {
    pattern: ['gpu', 'pools', '*'],
    values: (catalog, spec) =>
      [...catalog.pools.keys()].sort().flatMap((pool) => poolValue(catalog, pool, chosen(spec, ['dataCenterIds'])) ?? []),
  },
  {
    pattern: ['gpu', 'excludedTypes', '*'],
    // Only types inside the chosen pools can be excluded.
    values: (catalog, spec) => catalog.selectedTypes(chosenPools(spec)).flatMap((t) => gpuTypeValue(catalog, t.id) ?? []),
  },
  { pattern: ['gpu', 'allowedCudaVersions', '*'], values: cudaValues },
  { pattern: ['gpu', 'minCudaVersion'], values: cudaValues },
  {
    pattern: ['cpu', '*', 'id'],
    values: (catalog) =>
      [...catalog.cpuFlavors.values()].map((f) => ({
        value: f.id,
        detail: `${f.name}: ${f.vcpu.min}-${f.vcpu.max} vCPU, ${f.ramGbPerVcpu} GB RAM per vCPU${f.price ? `, ${money(f.price.serverlessPerVcpu)}/vCPU·h` : ''}`,
        documentation: `**${f.name}** (${f.id})\n\n${f.vcpu.min} to ${f.vcpu.max} vCPUs; ${f.ramGbPerVcpu} GB RAM per vCPU${f.price ? `; serverless ${money(f.price.serverlessPerVcpu)} per vCPU-hour` : ''}`,
      })),
  },
  {
    pattern: ['cpu', '*', 'vcpuCount'],
    values: (catalog, spec, path) => {
      const flavor = catalog.cpuFlavors.get(String(valueAt(spec, [...path.slice(0, -1), 'id'])));
      const counts = [2, 4, 8, 16, 32, 64, 128].filter((n) => !flavor || (n >= flavor.vcpu.min && n <= flavor.vcpu.max));
      return counts.map((n) => ({
        value: n,
        detail: flavor
          ? `${n * flavor.ramGbPerVcpu} GB RAM${flavor.price ? `, ${money(n * flavor.price.serverlessPerVcpu)}/h` : ''}`
          : 'power of two',
        documentation: flavor ? `${n} vCPUs of ${flavor.name}: ${n * flavor.ramGbPerVcpu} GB RAM` : `${n} vCPUs`,
      }));
    },
  },
  {
    pattern: ['dataCenterIds', '*'],
    values: (catalog, spec) => {
      const types = catalog.selectedTypes(chosenPools(spec));
      return [...catalog.dataCenters.values()].map((dc) => {
        const stock = types.map((t) => t.dataCenters?.find((d) => d.id === dc.id)?.availability ?? 'NONE');
        const best = ['HIGH', 'MEDIUM', 'LOW', 'NONE'].find((level) => stock.includes(level as never)) ?? 'unknown';
        return {
          value: dc.id,
          detail: `${dc.name}${types.length > 0 ? ` · stock for the chosen pools: ${best}` : ''}`,
          documentation: `**${dc.name}** (${dc.id})`,
        };
      });
    },
  },
  {
    pattern: ['templateId'],
    values: (catalog) =>
      [...catalog.templates.values()]
        .filter((t) => t.serverless)
        .map((t) => ({ value: t.id, detail: `${t.name} · ${t.image}`, documentation: templateDoc(catalog, t.id) })),
  },
  {
    pattern: ['networkVolumes', '*'],
    values: (catalog) =>
      [...(catalog.networkVolumes?.values() ?? [])].map((v) => ({
        value: v.id,
        detail: `${v.name} · ${v.dataCenter}`,
        documentation: `**${v.name}** in ${v.dataCenter}`,
      })),
  },
  {
    pattern: ['registry'],
    values: (catalog) =>
      [...(catalog.data.registries ?? [])].map((r) => ({
        value: r.id,
        detail: r.name,
        documentation: `Registry credential **${r.name}**`,
      })),
  },
];

function cudaValues(catalog: Catalog, spec: Record<string, unknown>): CatalogValue[] {
  const pools = chosenPools(spec);
  const types = pools.length > 0 ? catalog.selectedTypes(pools) : [...catalog.gpuTypes.values()];
  const versions = [...new Set(types.flatMap((t) => t.cudaVersions ?? []))].sort(compareVersions).reverse();
  return versions.map((version) => {
    const supporting = types.filter((t) => t.cudaVersions?.includes(version));
    return {
      value: version,
      detail: `${supporting.length} of ${types.length} GPU types`,
      documentation: `CUDA **${version}** on: ${supporting.map((t) => t.name).join(', ')}`,
    };
  });
}

function templateDoc(catalog: Catalog, id: string): string {
  const t = catalog.templates.get(id);
  if (!t) return '';
  const env = Object.entries(t.env ?? {}).map(([k, v]) => `- \`${k}\` = \`${v}\``);
  const cuda = t.allowedCudaVersions?.length
    ? [`CUDA: ${t.allowedCudaVersions.join(', ')} (seeds gpu.allowedCudaVersions when the spec sets no CUDA constraint)`]
    : [];
  return [
    `**${t.name}** (${t.id})${t.serverless ? '' : ' — pod template, not usable for endpoints'}`,
    '',
    `Image: \`${t.image}\``,
    ...cuda,
    ...(env.length > 0 ? ['', 'Environment:', ...env] : []),
  ].join('\n');
}

function matches(pattern: readonly (string | number)[], path: JsonPath): boolean {
  return pattern.length === path.length && pattern.every((p, i) => (p === '*' ? typeof path[i] === 'number' : p === path[i]));
}

/** Values allowed at `path`, or undefined when the catalog has nothing to say there. */
export function catalogValuesAt(catalog: Catalog, spec: unknown, path: JsonPath): CatalogValue[] | undefined {
  const provider = PROVIDERS.find((p) => matches(p.pattern, path));
  return provider?.values(catalog, isRecord(spec) ? spec : {}, path);
}
