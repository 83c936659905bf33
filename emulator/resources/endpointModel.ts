/**
 * The endpoint record: built from a validated create body with the contract's defaults, merged
 * with PATCH bodies, compared for release diffs, and rendered in the response shape.
 */
import { isIP } from 'node:net';
import { isLoopbackHost } from '../../core/api/loopback';
import { serviceFieldOf } from '../../core/api/releaseFields';
import { record } from '../../core/endpointSpec/rules/rule';
import {
  CREATE_ENDPOINT_FIELDS,
  type CreateEndpointField,
  type CpuSelection,
  type FlashBoot,
  type ReleaseDiffEntry,
  type Scaling,
} from '../../core/api/types';
import { restartsWorkers } from '../../core/deploy/workerRestart';
import { decodeArgs } from '../../core/endpointSpec/args';
import { defaultNumber, defaultString, fieldApplies } from '../../core/endpointSpec/contract';
import type { StoredEndpoint, StoredGpu } from '../state';
import { findCpuFlavor } from '../catalog/seed';

/** The contract names no default disk; this is the size the service's own examples show. */
const DEFAULT_DISK_GB = 20;
const IDLE_TIMEOUT = 'workers.idleTimeout';

/**
 * Whether the endpoint keeps an idleTimeout (the schema's `x-notApplicableWhen` decides), and
 * the one it keeps: its own, else the create default.
 */
export function idleTimeoutOf(endpoint: Pick<StoredEndpoint, 'type' | 'scaling' | 'workers'>): number | undefined {
  if (!fieldApplies(IDLE_TIMEOUT, endpoint)) return undefined;
  return endpoint.workers.idleTimeout ?? defaultNumber(IDLE_TIMEOUT);
}

type Body = Record<string, unknown>;

const asStrings = (v: unknown): string[] | undefined => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? [...v] : undefined);

/** Encodes a command into the JSON-object form of `args`; empty parts are left out, all-empty is "". */
export function encodeCommand(entrypoint: readonly string[] | undefined, cmd: readonly string[]): string {
  const object: Record<string, string[]> = {};
  if (entrypoint && entrypoint.length > 0) object.entrypoint = [...entrypoint];
  if (cmd.length > 0) object.cmd = [...cmd];
  return Object.keys(object).length > 0 ? JSON.stringify(object) : '';
}

/**
 * `args` after applying a body over `base`. `args` wins as sent (rules already checked that any
 * `entrypoint`/`cmd` beside it agree); otherwise `entrypoint`/`cmd` replace their half of the
 * stored command and the result is re-encoded.
 */
export function resolveArgs(base: string, body: Body): string {
  if (typeof body.args === 'string') return body.args;
  const entrypoint = asStrings(body.entrypoint);
  const cmd = asStrings(body.cmd);
  if (!entrypoint && !cmd) return base;
  const decoded = decodeArgs(base);
  const current = decoded.ok ? decoded.command : { entrypoint: undefined, cmd: [] };
  return encodeCommand(entrypoint ?? current.entrypoint, cmd ?? current.cmd);
}

function toScaling(value: unknown): Scaling {
  const s = record(value) ?? {};
  return s.type === 'REQUEST_COUNT'
    ? { type: 'REQUEST_COUNT', requestCount: Number(s.requestCount) }
    : { type: 'QUEUE_DELAY', queueDelay: Number(s.queueDelay) };
}

function toGpu(value: Body, previous?: StoredGpu): StoredGpu {
  const pools = asStrings(value.pools);
  const excluded = asStrings(value.excludedTypes)?.map((t) => t.trim());
  return {
    // Pools and exclusions are one selection: new pools without exclusions clear them, and a gpu
    // update without pools leaves both unchanged (GPU rule 4), exclusions sent alone included.
    pools: pools ?? previous?.pools ?? [],
    excludedTypes: pools ? (excluded ?? []) : previous ? previous.excludedTypes : (excluded ?? []),
    count: typeof value.count === 'number' ? value.count : (previous?.count ?? defaultNumber('gpu.count')),
    allowedCudaVersions: asStrings(value.allowedCudaVersions) ?? previous?.allowedCudaVersions ?? [],
    minCudaVersion: typeof value.minCudaVersion === 'string' ? value.minCudaVersion : (previous?.minCudaVersion ?? null),
  };
}

function toCpu(value: unknown): CpuSelection[] {
  return (Array.isArray(value) ? value : []).map((item) => {
    const r = record(item) ?? {};
    return { id: String(r.id), vcpuCount: Number(r.vcpuCount) };
  });
}

/** A new endpoint from a create body that passed every rule (template already resolved into it). */
export function buildEndpoint(body: Body, id: string, createdAt: string): StoredEndpoint {
  const type = body.type === 'LOAD_BALANCER' ? 'LOAD_BALANCER' : 'QUEUE';
  const scaling = toScaling(body.scaling);
  const workers = record(body.workers) ?? {};
  const endpoint: StoredEndpoint = {
    id,
    name: String(body.name),
    type,
    ...(typeof body.templateId === 'string' ? { templateId: body.templateId } : {}),
    image: typeof body.image === 'string' ? body.image : '',
    args: resolveArgs('', body),
    disk: typeof body.disk === 'number' ? body.disk : DEFAULT_DISK_GB,
    ports: asStrings(body.ports) ?? [],
    env: { ...((record(body.env) as Record<string, string> | undefined) ?? {}) },
    registry: typeof body.registry === 'string' ? body.registry : null,
    workers: {
      min: typeof workers.min === 'number' ? workers.min : defaultNumber('workers.min'),
      max: typeof workers.max === 'number' ? workers.max : defaultNumber('workers.max'),
    },
    scaling,
    dataCenterIds: asStrings(body.dataCenterIds) ?? [],
    networkVolumes: asStrings(body.networkVolumes) ?? [],
    timeout: typeof body.timeout === 'number' ? body.timeout : defaultNumber('timeout'),
    // Schema-checked: the body's value and the schema's default are both of the flashboot enum.
    flashboot: (typeof body.flashboot === 'string' ? body.flashboot : defaultString('flashboot')) as FlashBoot,
    createdAt,
    version: 1,
  };
  if (fieldApplies(IDLE_TIMEOUT, endpoint))
    endpoint.workers.idleTimeout = typeof workers.idleTimeout === 'number' ? workers.idleTimeout : defaultNumber(IDLE_TIMEOUT);
  const gpu = record(body.gpu);
  if (gpu) endpoint.gpu = toGpu(gpu);
  else endpoint.cpu = toCpu(body.cpu);
  return endpoint;
}

/**
 * The endpoint after a PATCH body (already schema-checked). The caller re-validates the result
 * as a whole, since some rules only fail on the combination of stored and sent fields.
 */
export function mergePatch(current: StoredEndpoint, body: Body): StoredEndpoint {
  const next: StoredEndpoint = structuredClone(current);
  if (typeof body.name === 'string') next.name = body.name;
  if (typeof body.image === 'string') next.image = body.image;
  next.args = resolveArgs(current.args, body);
  if (typeof body.disk === 'number') next.disk = body.disk;
  const ports = asStrings(body.ports);
  if (ports) next.ports = ports;
  const env = record(body.env);
  if (env) next.env = { ...(env as Record<string, string>) };
  if (body.registry !== undefined) next.registry = typeof body.registry === 'string' ? body.registry : null;
  const dataCenterIds = asStrings(body.dataCenterIds);
  if (dataCenterIds) next.dataCenterIds = dataCenterIds;
  const networkVolumes = asStrings(body.networkVolumes);
  if (networkVolumes) next.networkVolumes = networkVolumes;
  if (typeof body.timeout === 'number') next.timeout = body.timeout;
  if (typeof body.flashboot === 'string') next.flashboot = body.flashboot as FlashBoot;
  if (record(body.scaling)) next.scaling = toScaling(body.scaling);
  const workers = record(body.workers);
  if (workers) {
    if (typeof workers.min === 'number') next.workers.min = workers.min;
    if (typeof workers.max === 'number') next.workers.max = workers.max;
    if (typeof workers.idleTimeout === 'number') next.workers.idleTimeout = workers.idleTimeout;
  }
  const gpu = record(body.gpu);
  if (gpu) next.gpu = toGpu(gpu, current.gpu);
  if (Array.isArray(body.cpu)) next.cpu = toCpu(body.cpu);
  return next;
}

/** The endpoint as a create body, so the rule engine can judge a merged result as a whole. */
export function asCreateBody(endpoint: StoredEndpoint, sentIdleTimeout: boolean): Body {
  const workers: Body = { min: endpoint.workers.min, max: endpoint.workers.max };
  // A stored idleTimeout that a scaler switch made inapplicable is dropped, not held against the
  // caller; only one sent in this very request is an error.
  if (endpoint.workers.idleTimeout !== undefined && (fieldApplies(IDLE_TIMEOUT, endpoint) || sentIdleTimeout))
    workers.idleTimeout = endpoint.workers.idleTimeout;
  let gpu: Body | undefined;
  if (endpoint.gpu) {
    gpu = { pools: endpoint.gpu.pools, count: endpoint.gpu.count, allowedCudaVersions: endpoint.gpu.allowedCudaVersions };
    if (endpoint.gpu.excludedTypes.length > 0) gpu.excludedTypes = endpoint.gpu.excludedTypes;
    if (endpoint.gpu.minCudaVersion !== null) gpu.minCudaVersion = endpoint.gpu.minCudaVersion;
  }
  // The template was resolved into the endpoint at create time: the rules about it belong to that create.
  const stored: Partial<Record<CreateEndpointField, unknown>> = { ...endpoint, templateId: undefined, workers, gpu };
  const body: Body = {};
  for (const key of CREATE_ENDPOINT_FIELDS) if (stored[key] !== undefined) body[key] = stored[key];
  return body;
}

/** Fields a release diff names one level down (`gpu.count`); `env` and `cpu` change as a whole. */
const DIFFED_BY_MEMBER = new Set(['gpu', 'workers', 'scaling']);

/** The endpoint's create-body fields by spec path. `entrypoint`/`cmd` are kept in `args`, so absent. */
function flatten(endpoint: StoredEndpoint): Map<string, unknown> {
  const fields = new Map<string, unknown>();
  const stored: Partial<Record<CreateEndpointField, unknown>> = endpoint;
  for (const key of CREATE_ENDPOINT_FIELDS) {
    const value = stored[key];
    if (value === undefined) continue;
    if (DIFFED_BY_MEMBER.has(key)) for (const [k, v] of Object.entries(value as object)) fields.set(`${key}.${k}`, v);
    else fields.set(key, value);
  }
  return fields;
}

/** What changed between two versions of an endpoint, by spec path (`gpu.count`). */
function changedPaths(before: StoredEndpoint, after: StoredEndpoint): ReleaseDiffEntry[] {
  const a = flatten(before);
  const b = flatten(after);
  const diff: ReleaseDiffEntry[] = [];
  for (const field of new Set([...a.keys(), ...b.keys()])) {
    const old = a.get(field);
    const next = b.get(field);
    if (JSON.stringify(old) !== JSON.stringify(next)) diff.push({ field, old: old ?? null, new: next ?? null });
  }
  return diff;
}

/** Whether the change needs new workers (core/deploy/workerRestart.ts); the others reach running workers in place. */
export function needsRestart(before: StoredEndpoint, after: StoredEndpoint): boolean {
  return changedPaths(before, after).some((d) => restartsWorkers(d.field));
}

/**
 * A release's diff as the service writes it: each field by the service's name
 * (core/api/releaseFields.ts), values as raw JSON. Two spec paths the service keeps in one field
 * (a scaler switch's `scaling.queueDelay` and `scaling.requestCount` are both `scalerValue`) are
 * one entry, from the value that was set to the value that is.
 */
export function diffEndpoints(before: StoredEndpoint, after: StoredEndpoint): ReleaseDiffEntry[] {
  const byField = new Map<string, ReleaseDiffEntry>();
  for (const change of changedPaths(before, after)) {
    const field = serviceFieldOf(change.field);
    const seen = byField.get(field);
    byField.set(field, seen ? { field, old: seen.old ?? change.old, new: seen.new ?? change.new } : { ...change, field });
  }
  return [...byField.values()].filter((d) => JSON.stringify(d.old) !== JSON.stringify(d.new));
}

/**
 * A load balancer's own host, as the service shapes it (`https://<id>.<jobs domain>`): the jobs
 * server routes on the Host header's first label. A jobs host on loopback gives
 * `http://<id>.localhost:<port>` (names under `localhost` are loopback; core/api/loopback.ts
 * resolves them). Any other IP address has no subdomains, so there the base is the `/lb/<id>` path
 * prefix the jobs server also answers.
 */
export function loadBalancerBase(id: string, jobsUrl: string): string {
  const jobs = new URL(jobsUrl);
  const port = jobs.port ? `:${jobs.port}` : '';
  const bare = jobs.hostname.replace(/^\[|\]$/g, '');
  if (isLoopbackHost(jobs.hostname) || bare === '0.0.0.0' || bare === '::') return `${jobs.protocol}//${id}.localhost${port}`;
  if (isIP(bare) !== 0) return `${jobsUrl}/lb/${id}`;
  return `${jobs.protocol}//${id}.${jobs.hostname}${port}`;
}

export function requestUrls(endpoint: StoredEndpoint, jobsUrl: string): Record<string, string> {
  if (endpoint.type === 'LOAD_BALANCER') {
    const base = loadBalancerBase(endpoint.id, jobsUrl);
    const healthPath = endpoint.env.HEALTH_CHECK_PATH || '/ping';
    return { base, health: `${base}${healthPath.startsWith('/') ? healthPath : `/${healthPath}`}` };
  }
  const root = `${jobsUrl}/v2/${endpoint.id}`;
  return {
    run: `${root}/run`,
    runSync: `${root}/runsync`,
    status: `${root}/status/{job_id}`,
    stream: `${root}/stream/{job_id}`,
    cancel: `${root}/cancel/{job_id}`,
    retry: `${root}/retry/{job_id}`,
    purgeQueue: `${root}/purge-queue`,
    health: `${root}/health`,
  };
}

export function endpointResponse(endpoint: StoredEndpoint, jobsUrl: string): Body {
  const decoded = decodeArgs(endpoint.args);
  const command: Body = {};
  if (decoded.ok) {
    if (decoded.command.entrypoint !== undefined) command.entrypoint = decoded.command.entrypoint;
    command.cmd = decoded.command.cmd;
  }
  const workers: Body = { min: endpoint.workers.min, max: endpoint.workers.max };
  const idleTimeout = idleTimeoutOf(endpoint);
  if (idleTimeout !== undefined) workers.idleTimeout = idleTimeout;
  const body: Body = {
    id: endpoint.id,
    name: endpoint.name,
    type: endpoint.type,
    requestUrls: requestUrls(endpoint, jobsUrl),
    image: endpoint.image,
    args: endpoint.args,
    ...command,
    disk: endpoint.disk,
    ports: endpoint.ports,
    env: endpoint.env,
    registry: endpoint.registry,
    ...(endpoint.templateId ? { templateId: endpoint.templateId } : {}),
    gpu: endpoint.gpu ? { ...endpoint.gpu } : null,
  };
  if (endpoint.cpu) {
    body.cpu = endpoint.cpu.map((c) => ({
      id: c.id,
      vcpuCount: c.vcpuCount,
      memory: Math.max(1, Math.round(c.vcpuCount * (findCpuFlavor(c.id)?.ramGbPerVcpu ?? 1))),
    }));
  }
  return {
    ...body,
    workers,
    scaling: endpoint.scaling,
    dataCenterIds: endpoint.dataCenterIds,
    networkVolumes: endpoint.networkVolumes,
    timeout: endpoint.timeout,
    flashboot: endpoint.flashboot,
    createdAt: endpoint.createdAt,
  };
}
