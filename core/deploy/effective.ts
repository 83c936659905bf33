/**
 * The comparable form of an endpoint configuration. A spec and a live endpoint say the same
 * thing in different words (defaults left out, `args` versus `entrypoint`/`cmd`, whitespace in
 * excluded types, response-only fields), so both are reduced to one flat map of leaves before
 * they are compared. What the spec leaves to a template or to the service is marked as not
 * managed and never compared.
 */
import { decodeArgs } from '../endpointSpec/args';
import { defaultNumber, defaultString, fieldApplies } from '../endpointSpec/contract';
import { formatFieldPath, type JsonPathSegment } from '../endpointSpec/tree';
import { toServiceBody } from '../endpointSpec/validate';
import { CREATE_ENDPOINT_FIELDS, type Endpoint } from '../api/types';
import { record } from '../endpointSpec/rules/rule';

export type Spec = Record<string, unknown>;

/** One comparable leaf: `gpu.pools`, `env.DEBUG`, `workers.max`. */
interface EffectiveField {
  readonly segments: readonly JsonPathSegment[];
  readonly value: unknown;
}

export interface EffectiveSpec {
  readonly type: string | undefined;
  readonly compute: 'gpu' | 'cpu' | undefined;
  readonly templateId: string | undefined;
  /** Keyed by the readable path (`formatFieldPath`), in a stable field order. */
  readonly fields: ReadonlyMap<string, EffectiveField>;
  /**
   * Paths the spec does not manage: left to its template, or to a service default the contract
   * does not name (`disk`). A live value there is never a difference.
   */
  readonly unmanaged: ReadonlySet<string>;
  /** With a template, `env` keys the spec does not name come from the template and are not compared. */
  readonly envBeyondSpecUnmanaged: boolean;
}

const strings = (v: unknown): string[] | undefined => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? [...v] : undefined);
const has = (object: Spec | undefined, key: string): boolean => object !== undefined && object[key] !== undefined;

/** A `cpu` list as the create body takes it: `id` and `vcpuCount` of each item. */
const cpuItems = (list: unknown[]): Spec[] => list.map((item) => ({ id: record(item)?.id, vcpuCount: record(item)?.vcpuCount }));

/** Unordered selections compare as sets: the order of pools or excluded types means nothing to the scheduler. */
const asSet = (values: readonly string[]): string[] => [...new Set(values)].sort();

/**
 * The command in one form. `entrypoint` absent and empty are the same here, as in the rule
 * engine's `args-mismatch` check: the service encodes both the same way.
 */
function commandOf(spec: Spec): { entrypoint: string[]; cmd: string[] } | undefined {
  if (typeof spec.args === 'string') {
    const decoded = decodeArgs(spec.args);
    if (!decoded.ok) return undefined;
    return { entrypoint: decoded.command.entrypoint ?? [], cmd: decoded.command.cmd };
  }
  const entrypoint = strings(spec.entrypoint);
  const cmd = strings(spec.cmd);
  if (!entrypoint && !cmd) return undefined;
  return { entrypoint: entrypoint ?? [], cmd: cmd ?? [] };
}

export function effectiveSpec(input: Spec): EffectiveSpec {
  const spec = toServiceBody(input);
  const templateId = typeof spec.templateId === 'string' ? spec.templateId : undefined;
  const fields = new Map<string, EffectiveField>();
  const unmanaged = new Set<string>();
  const put = (segments: JsonPathSegment[], value: unknown): void => {
    fields.set(formatFieldPath(segments), { segments, value });
  };
  /** A container field: the spec's value, else the template's (unmanaged), else the service's empty value. */
  const container = (key: string, emptyValue: unknown): void => {
    if (has(spec, key)) put([key], spec[key]);
    else if (templateId !== undefined || emptyValue === undefined) unmanaged.add(key);
    else put([key], emptyValue);
  };

  put(['name'], spec.name);
  put(['type'], spec.type);
  container('image', undefined);
  const command = commandOf(spec);
  if (command) {
    put(['entrypoint'], command.entrypoint);
    put(['cmd'], command.cmd);
  } else if (templateId !== undefined) {
    unmanaged.add('entrypoint');
    unmanaged.add('cmd');
  } else {
    put(['entrypoint'], []);
    put(['cmd'], []);
  }
  // The contract names no default disk, so an absent one is whatever the service chose.
  container('disk', undefined);
  container('ports', []);
  container('registry', null);
  const env = record(spec.env);
  if (env) for (const key of Object.keys(env).sort()) put(['env', key], env[key]);

  const gpu = record(spec.gpu);
  const cpu = Array.isArray(spec.cpu) ? spec.cpu : undefined;
  if (gpu) {
    put(['gpu', 'pools'], asSet(strings(gpu.pools) ?? []));
    put(['gpu', 'excludedTypes'], asSet((strings(gpu.excludedTypes) ?? []).map((t) => t.trim())));
    put(['gpu', 'count'], typeof gpu.count === 'number' ? gpu.count : defaultNumber('gpu.count'));
    // Rule 5: a template seeds the CUDA set of a GPU create that names no CUDA constraint.
    const seededByTemplate = templateId !== undefined && !has(gpu, 'allowedCudaVersions') && !has(gpu, 'minCudaVersion');
    if (seededByTemplate) unmanaged.add('gpu.allowedCudaVersions');
    else put(['gpu', 'allowedCudaVersions'], asSet(strings(gpu.allowedCudaVersions) ?? []));
    put(['gpu', 'minCudaVersion'], typeof gpu.minCudaVersion === 'string' ? gpu.minCudaVersion : null);
  } else if (cpu) {
    put(['cpu'], cpuItems(cpu));
  }

  const workers = record(spec.workers) ?? {};
  put(['workers', 'min'], typeof workers.min === 'number' ? workers.min : defaultNumber('workers.min'));
  put(['workers', 'max'], typeof workers.max === 'number' ? workers.max : defaultNumber('workers.max'));
  if (fieldApplies('workers.idleTimeout', spec)) {
    put(['workers', 'idleTimeout'], typeof workers.idleTimeout === 'number' ? workers.idleTimeout : defaultNumber('workers.idleTimeout'));
  }
  const scaling = record(spec.scaling) ?? {};
  put(['scaling', 'type'], scaling.type);
  if (scaling.type === 'REQUEST_COUNT') put(['scaling', 'requestCount'], scaling.requestCount);
  else put(['scaling', 'queueDelay'], scaling.queueDelay);
  put(['dataCenterIds'], strings(spec.dataCenterIds) ?? []);
  put(['networkVolumes'], asSet(strings(spec.networkVolumes) ?? []));
  put(['timeout'], typeof spec.timeout === 'number' ? spec.timeout : defaultNumber('timeout'));
  put(['flashboot'], typeof spec.flashboot === 'string' ? spec.flashboot : defaultString('flashboot'));

  return {
    type: typeof spec.type === 'string' ? spec.type : undefined,
    compute: gpu ? 'gpu' : cpu ? 'cpu' : undefined,
    templateId,
    fields,
    unmanaged,
    envBeyondSpecUnmanaged: templateId !== undefined,
  };
}

/**
 * The create-body fields copied from a live endpoint, in the order a spec file shows them. `id`, `createdAt`
 * and `requestUrls` are the service's, so not among them; `entrypoint`/`cmd` are `args` decoded and follow it;
 * `templateId` is left off (see liveAsSpec).
 */
const SPEC_FIELD_ORDER = CREATE_ENDPOINT_FIELDS.filter((key) => key !== 'templateId' && key !== 'entrypoint' && key !== 'cmd');

/** Absent, null, '' or an empty list or map: on create, the same as leaving the field out. */
export const isEmpty = (v: unknown): boolean =>
  v === undefined ||
  v === null ||
  v === '' ||
  (Array.isArray(v) && v.length === 0) ||
  (record(v) !== undefined && Object.keys(v).length === 0);

/**
 * A live endpoint as a create body that, sent to the service, makes the same endpoint. Values
 * the service already resolved (a template's image, args, env and CUDA set) are written out, so
 * `templateId` is left off: the template only matters at create time and could have changed
 * since. Empty lists, empty maps and nulls are left off, since absent means the same on create.
 * Fields unknown to the create body (from a newer service) are dropped rather than sent back.
 */
export function liveAsSpec(endpoint: Endpoint | Spec): Spec {
  const live = endpoint as Spec;
  const spec: Spec = {};
  for (const key of SPEC_FIELD_ORDER) {
    const value = live[key];
    const object = record(value);
    switch (key) {
      case 'type': {
        const urls = record(live.requestUrls);
        if (typeof value === 'string') spec.type = value;
        // The contract makes `type` optional in answers; the shape of requestUrls still tells.
        else if (urls) spec.type = 'base' in urls ? 'LOAD_BALANCER' : 'QUEUE';
        break;
      }
      case 'gpu':
        if (object) spec.gpu = liveGpu(object);
        break;
      case 'cpu':
        // `memory` is derived by the service from the flavor; the create body refuses it.
        if (Array.isArray(value) && !record(live.gpu)) spec.cpu = cpuItems(value);
        break;
      case 'workers': {
        const workers = object ?? {};
        const out: Spec = { min: workers.min ?? defaultNumber('workers.min'), max: workers.max ?? defaultNumber('workers.max') };
        // `scaling` is copied after `workers`, so the live record's scaler decides here.
        if (typeof workers.idleTimeout === 'number' && fieldApplies('workers.idleTimeout', { type: spec.type, scaling: live.scaling }))
          out.idleTimeout = workers.idleTimeout;
        spec.workers = out;
        break;
      }
      case 'scaling':
        if (object) spec.scaling = { ...object };
        break;
      case 'args':
        if (typeof value === 'string') {
          if (value !== '') spec.args = value;
        } else if (!isEmpty(live.entrypoint) || !isEmpty(live.cmd)) {
          // A service that answers only the decoded command: send that back instead.
          spec.entrypoint = strings(live.entrypoint) ?? [];
          spec.cmd = strings(live.cmd) ?? [];
        }
        break;
      case 'env':
        if (object && !isEmpty(object)) spec.env = { ...object };
        break;
      default:
        if (!isEmpty(value)) spec[key] = Array.isArray(value) ? [...(value as unknown[])] : value;
    }
  }
  return spec;
}

function liveGpu(gpu: Spec): Spec {
  const out: Spec = { pools: [...(strings(gpu.pools) ?? [])] };
  if (!isEmpty(gpu.excludedTypes)) out.excludedTypes = [...(strings(gpu.excludedTypes) ?? [])];
  out.count = typeof gpu.count === 'number' ? gpu.count : defaultNumber('gpu.count');
  if (!isEmpty(gpu.allowedCudaVersions)) out.allowedCudaVersions = [...(strings(gpu.allowedCudaVersions) ?? [])];
  if (typeof gpu.minCudaVersion === 'string') out.minCudaVersion = gpu.minCudaVersion;
  return out;
}

/** The comparable form of a live endpoint. */
export function effectiveLive(endpoint: Endpoint | Spec): EffectiveSpec {
  return effectiveSpec(liveAsSpec(endpoint));
}
