/**
 * The read-only tools over the service: the catalog a spec chooses from, the endpoints, and one
 * endpoint with how it has drifted from the spec it is bound to. Answers are bounded, so a large
 * account or catalog never floods the model's context.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { Endpoint } from '../core/api';
import { readBindings } from '../core/deploy/bindings';
import { driftBetween, type Change } from '../core/deploy/diff';
import type { Spec } from '../core/deploy/effective';
import { renderChange } from '../core/deploy/render';
import { Catalog, type AvailabilityLevel, type CatalogGpuType } from '../core/endpointSpec/catalog/catalog';
import { describeCatalogUsed } from '../core/catalog/catalogUsed';
import { fetchCatalogData } from '../core/catalog/fetch';
import { checkSpec } from '../core/operations';
import { callOptions, catalogOrigin, fileCheck, fromService, pinnedCatalog, requireClient, type AgentContext } from './context';
import { changeShape, openObject } from './schemas';
import { defineTool, type ToolResult } from './tool';

/** Rows per list in a catalog answer: the best matches are enough to choose from. */
const MAX_ROWS = 50;
const STOCK_ORDER: readonly AvailabilityLevel[] = ['NONE', 'LOW', 'MEDIUM', 'HIGH'];

const matches = (query: string, ...values: (string | undefined)[]): boolean =>
  query === '' || values.some((v) => v !== undefined && v.toLowerCase().includes(query));

function bestStock(types: readonly CatalogGpuType[]): AvailabilityLevel | 'UNKNOWN' {
  const levels = types.flatMap((t) => (t.dataCenters ?? []).map((d) => d.availability));
  if (levels.length === 0) return 'UNKNOWN';
  return levels.reduce((best, level) => (STOCK_ORDER.indexOf(level) > STOCK_ORDER.indexOf(best) ? level : best), 'NONE');
}

function priceRange(types: readonly CatalogGpuType[]): { low: number; high: number } | undefined {
  const prices = types.map((t) => t.price?.secure).filter((p): p is number => p !== undefined && p > 0);
  return prices.length === 0 ? undefined : { low: Math.min(...prices), high: Math.max(...prices) };
}

function searchCatalogData(catalog: Catalog, query: string) {
  const pools = [...catalog.pools]
    .filter(([pool, types]) => matches(query, pool, ...types.flatMap((t) => [t.id, t.name])))
    .map(([pool, types]) => ({
      id: pool,
      vramGb: Math.min(...types.map((t) => t.memory)),
      stock: bestStock(types),
      pricePerGpuHour: priceRange(types),
      gpuTypes: types.map((t) => t.name),
    }));
  const gpuTypes = [...catalog.gpuTypes.values()]
    .filter((t) => matches(query, t.id, t.name, t.pool ?? undefined, ...(t.cudaVersions ?? [])))
    .map((t) => ({
      id: t.id,
      name: t.name,
      pool: t.pool,
      vramGb: t.memory,
      stock: bestStock([t]),
      pricePerHour: t.price?.secure,
      cudaVersions: t.cudaVersions,
    }));
  const cpuFlavors = [...catalog.cpuFlavors.values()]
    .filter((f) => matches(query, f.id, f.name))
    .map((f) => ({ id: f.id, name: f.name, vcpu: f.vcpu, ramGbPerVcpu: f.ramGbPerVcpu, pricePerVcpuHour: f.price?.serverlessPerVcpu }));
  const dataCenters = [...catalog.dataCenters.values()]
    .filter((d) => matches(query, d.id, d.name))
    .map((d) => ({ id: d.id, name: d.name }));
  const cudaVersions = [...new Set([...catalog.gpuTypes.values()].flatMap((t) => t.cudaVersions ?? []))]
    .filter((v) => matches(query, v) || query === 'cuda')
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  return { pools, gpuTypes, cpuFlavors, dataCenters, cudaVersions };
}

export const searchCatalog = defineTool({
  name: 'search_catalog',
  title: 'Search the service catalog',
  description:
    'Search what a spec can choose from: GPU pools (for gpu.pools) with VRAM, stock and price per GPU-hour, GPU types (for gpu.excludedTypes), CPU flavors (for cpu[].id) with vCPU range and RAM per vCPU, data centers (for dataCenterIds) and CUDA versions. The query matches ids and names case-insensitively ("48", "A100", "EU", "cpu3"); an empty query lists everything. At most 50 rows per list.',
  writes: false,
  input: z.object({ query: z.string().max(200).describe('Text to look for in ids and names; empty for everything.') }),
  output: openObject({
    pools: z.array(openObject({ id: z.string(), vramGb: z.number(), stock: z.string() })),
    gpuTypes: z.array(openObject({ id: z.string(), name: z.string() })),
    cpuFlavors: z.array(openObject({ id: z.string() })),
    dataCenters: z.array(openObject({ id: z.string() })),
    cudaVersions: z.array(z.string()),
  }),
  async run(input, context): Promise<ToolResult> {
    const pinned = pinnedCatalog(context);
    const catalog = pinned ? pinned.catalog : await liveCatalog(context);
    const found = searchCatalogData(catalog, input.query.trim().toLowerCase());
    const truncated = Object.entries(found)
      .filter(([, rows]) => rows.length > MAX_ROWS)
      .map(([list]) => list);
    const structured = {
      query: input.query,
      pools: found.pools.slice(0, MAX_ROWS),
      gpuTypes: found.gpuTypes.slice(0, MAX_ROWS),
      cpuFlavors: found.cpuFlavors.slice(0, MAX_ROWS),
      dataCenters: found.dataCenters.slice(0, MAX_ROWS),
      cudaVersions: found.cudaVersions.slice(0, MAX_ROWS),
      ...(truncated.length > 0 ? { truncated } : {}),
      ...catalogOrigin(pinned),
    };
    const lines = [
      `pools: ${structured.pools.map((p) => `${p.id} (${p.vramGb} GB, stock ${p.stock}${p.pricePerGpuHour ? `, $${p.pricePerGpuHour.low}–$${p.pricePerGpuHour.high}/GPU-h` : ''})`).join('; ') || 'none'}`,
      `GPU types: ${structured.gpuTypes.map((t) => `${t.name} [${t.pool ?? 'no pool'}]`).join('; ') || 'none'}`,
      `CPU flavors: ${structured.cpuFlavors.map((f) => `${f.id} (${f.vcpu.min}–${f.vcpu.max} vCPU, ${f.ramGbPerVcpu} GB/vCPU)`).join('; ') || 'none'}`,
      `data centers: ${structured.dataCenters.map((d) => d.id).join(', ') || 'none'}`,
      `CUDA versions: ${structured.cudaVersions.join(', ') || 'none'}`,
      ...(pinned ? [describeCatalogUsed(pinned.used)] : []),
    ];
    return { text: lines.join('\n'), structured };
  },
});

async function liveCatalog(context: AgentContext): Promise<Catalog> {
  const client = requireClient(context);
  return fromService(
    client,
    'cannot read the catalog',
    async () => new Catalog(await fetchCatalogData(client, { timeoutMs: 15_000, ...callOptions(context) })),
  );
}

function summaryOf(endpoint: Endpoint) {
  return {
    id: endpoint.id,
    name: endpoint.name,
    type: endpoint.type,
    compute: endpoint.gpu ? 'gpu' : Array.isArray(endpoint.cpu) && endpoint.cpu.length > 0 ? 'cpu' : undefined,
    ...(endpoint.gpu ? { pools: endpoint.gpu.pools } : {}),
    workers: endpoint.workers,
    image: endpoint.image,
  };
}

export const listEndpoints = defineTool({
  name: 'list_endpoints',
  title: 'List the serverless endpoints',
  description:
    "List the account's serverless endpoints with id, name, type (QUEUE or LOAD_BALANCER), GPU or CPU, pools, worker limits and image. At most 200.",
  writes: false,
  input: z.object({}),
  output: openObject({ count: z.number(), endpoints: z.array(openObject({ id: z.string(), name: z.string() })) }),
  async run(_input, context): Promise<ToolResult> {
    const client = requireClient(context);
    const endpoints = await fromService(client, 'cannot list endpoints', () => client.serverless.list(callOptions(context)));
    const shown = endpoints.slice(0, 200).map(summaryOf);
    const lines = shown.map(
      (e) => `${e.id} ${JSON.stringify(e.name)} ${e.type ?? ''} ${e.compute ?? ''} workers ${e.workers.min}–${e.workers.max}`,
    );
    return {
      text: [`${endpoints.length} endpoint(s)`, ...lines].join('\n'),
      structured: { count: endpoints.length, endpoints: shown, ...(endpoints.length > shown.length ? { truncated: true } : {}) },
    };
  },
});

interface BoundSpec {
  readonly file: string;
  readonly document: number;
  readonly drift: readonly Change[];
}

/** The spec documents in the workspace bound to this endpoint, with where the endpoint differs from each. */
async function boundSpecs(context: AgentContext, endpoint: Endpoint): Promise<{ specs: BoundSpec[]; note?: string }> {
  const read = readBindings(context.workspaceRoot);
  if (!read.ok) return { specs: [], note: read.error };
  const specs: BoundSpec[] = [];
  for (const [key, documents] of Object.entries(read.store)) {
    for (const [index, binding] of Object.entries(documents)) {
      if (binding.endpointId !== endpoint.id) continue;
      const file = join(context.workspaceRoot, key);
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        return { specs, note: `${key} is bound to this endpoint but cannot be read` };
      }
      const checked = await checkSpec({ ...fileCheck(context, { path: file, text }), catalog: { kind: 'none' } });
      const document = checked.documents.at(Number(index));
      // An overlay is compared as it deploys: merged into its base.
      if (document?.isSpec && document.body !== undefined)
        specs.push({ file: key, document: document.index, drift: driftBetween(document.body as Spec, endpoint) });
    }
  }
  return { specs };
}

export const getEndpoint = defineTool({
  name: 'get_endpoint',
  title: 'Read one endpoint',
  description:
    'Read one serverless endpoint by id: its configuration, request URLs, its workers by state, and, when a spec in the workspace is bound to it (.endpoint-studio/deployments.json), the drift between the live endpoint and that spec (before = live, after = spec), which is what a deploy of the spec would change.',
  writes: false,
  input: z.object({ endpointId: z.string().min(1).describe('The endpoint id, as list_endpoints shows it.') }),
  output: openObject({
    endpoint: openObject({ id: z.string(), name: z.string() }),
    boundSpecs: z.array(z.object({ file: z.string(), document: z.number(), matches: z.boolean(), drift: z.array(changeShape) })),
  }),
  async run(input, context): Promise<ToolResult> {
    const client = requireClient(context);
    const call = callOptions(context);
    const endpoint = await fromService(client, `cannot read endpoint ${input.endpointId}`, () =>
      client.serverless.get(input.endpointId, call),
    );
    const workers = await client.serverless.workers(endpoint.id, call).then(
      (list) => list.summary,
      () => undefined,
    );
    const bound = await boundSpecs(context, endpoint);
    const lines = [`endpoint ${endpoint.id} ${JSON.stringify(endpoint.name)} (${endpoint.type ?? 'type not given'})`];
    if (workers)
      lines.push(`workers: ${workers.running} running, ${workers.idle} idle, ${workers.initializing} initializing, ${workers.total} total`);
    if (bound.specs.length === 0) lines.push('no spec in the workspace is bound to it');
    for (const spec of bound.specs) {
      lines.push(
        spec.drift.length === 0
          ? `bound spec ${spec.file} (document ${spec.document}): matches`
          : `bound spec ${spec.file} (document ${spec.document}): ${spec.drift.length} difference(s) (before = live, after = spec)`,
        ...spec.drift.map((c) => `  ${renderChange(c)}`),
      );
    }
    if (bound.note) lines.push(`note: ${bound.note}`);
    return {
      text: lines.join('\n'),
      structured: {
        endpoint,
        ...(workers ? { workers } : {}),
        boundSpecs: bound.specs.map((s) => ({
          file: s.file,
          document: s.document,
          matches: s.drift.length === 0,
          drift: s.drift.map((c) => ({ path: c.path, before: c.before, after: c.after })),
        })),
        ...(bound.note ? { note: bound.note } : {}),
      },
    };
  },
});
