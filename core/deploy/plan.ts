/**
 * What a deploy will do, decided before anything is sent: create a new endpoint, PATCH only the
 * fields that differ (in the contract's update semantics), leave it alone, or refuse because the
 * difference cannot be made by an update. The plan's notes also warn of what may not do what the
 * spec seems to ask: an image without a pinned tag, workers restarted for an unchanged image, an
 * endpoint drained by `workers.max: 0`. (A change of `type` is refused, so it needs no warning.)
 */
import type { StockShortage } from '../endpointSpec/catalog/stock';
import type { JsonPathSegment } from '../endpointSpec/tree';
import { toServiceBody } from '../endpointSpec/validate';
import type { Endpoint } from '../api/types';
import { diffEffective, type Change } from './diff';
import { effectiveLive, effectiveSpec, type EffectiveSpec, type Spec } from './effective';
import { threeWay, type ThreeWay } from './outside';
import { restartsWorkers } from './workerRestart';
import { record } from '../endpointSpec/rules/rule';

interface PlanProblem {
  readonly path: string;
  readonly segments: readonly JsonPathSegment[];
  readonly message: string;
}

interface PlanBase {
  /** The spec as it will be verified after applying (editor-only keys removed). */
  readonly spec: Spec;
  /**
   * Things worth saying before saying yes: what changes nothing (a template that only mattered at
   * create time) and what may not do what the spec seems to ask (an unpinned image, a restart without
   * a new image, a drained endpoint). Every front-end shows them with the plan.
   */
  readonly notes: readonly string[];
  /**
   * The plan measured against what the last deploy set as well (an update, or a plan with nothing to change): what
   * the spec changed since, and what was changed outside. Absent for a create and for a binding that recorded no
   * release.
   */
  readonly threeWay?: ThreeWay;
  /**
   * Nothing the spec chooses has serverless stock (core/operations adds it from the live catalog): a warning
   * with priced alternatives, never a refusal, and left out of what makes two plans the same, since it moves by the minute.
   */
  readonly stock?: StockShortage;
}

/** What the last deploy of the spec set, from its binding. */
export interface LastDeploy {
  readonly body: Spec;
  readonly deployedAt: string;
  readonly version?: number;
}

export type DeploymentPlan =
  | (PlanBase & { kind: 'create'; body: Spec })
  | (PlanBase & { kind: 'update'; endpointId: string; endpointName: string; patch: Spec; changes: Change[] })
  | (PlanBase & { kind: 'unchanged'; endpointId: string; endpointName: string })
  /** The spec differs in a way no PATCH can make; `changes` still says how. */
  | (PlanBase & { kind: 'refused'; endpointId: string; endpointName: string; problems: PlanProblem[]; changes: Change[] });

/** An id or name from a live record as text; absent is empty. */
const text = (v: unknown): string =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : v === undefined || v === null ? '' : JSON.stringify(v);

/**
 * `live` is the endpoint the spec is bound to, or `undefined` for a spec never deployed; `last` what the last
 * deploy set, when its binding recorded it.
 */
export function planDeployment(input: Spec, live: Endpoint | Spec | undefined, last?: LastDeploy): DeploymentPlan {
  const spec = toServiceBody(input);
  if (live === undefined) return { kind: 'create', spec, body: spec, notes: createWarnings(spec) };
  const liveRecord = live as Spec;
  const endpointId = text(liveRecord.id);
  const endpointName = text(liveRecord.name);
  const wanted = effectiveSpec(spec);
  const current = effectiveLive(live);
  const changes = diffEffective(wanted, current);
  const notes = templateNotes(spec, liveRecord);
  const three = last ? { threeWay: threeWay(spec, live, last.body, last.deployedAt, last.version) } : {};

  const identity = identityProblems(wanted, current, spec);
  if (identity.length > 0) return { kind: 'refused', spec, endpointId, endpointName, problems: identity, changes, notes, ...three };
  const { patch, problems } = buildPatch(spec, wanted, liveRecord, changes);
  if (problems.length > 0) return { kind: 'refused', spec, endpointId, endpointName, problems, changes, notes, ...three };
  if (changes.length === 0) return { kind: 'unchanged', spec, endpointId, endpointName, notes, ...three };
  return { kind: 'update', spec, endpointId, endpointName, patch, changes, notes: [...notes, ...updateWarnings(spec, changes)], ...three };
}

const DELETE_AND_CREATE = 'delete the endpoint and deploy the spec again to create a new one';

/** Differences that make it another endpoint: the type and the kind of compute are fixed at create. */
function identityProblems(wanted: EffectiveSpec, current: EffectiveSpec, spec: Spec): PlanProblem[] {
  const problems: PlanProblem[] = [];
  // A service that leaves `type` out of its answer (the contract makes it optional) cannot be compared on it.
  if (current.type !== undefined && wanted.type !== current.type) {
    problems.push({
      path: 'type',
      segments: ['type'],
      message: `the type of an endpoint cannot change (it is ${current.type}, the spec says ${wanted.type ?? 'nothing'}): set it back, or ${DELETE_AND_CREATE}`,
    });
  }
  if (wanted.compute !== current.compute && wanted.compute !== undefined && current.compute !== undefined) {
    const field = record(spec.gpu) ? 'gpu' : 'cpu';
    problems.push({
      path: field,
      segments: [field],
      message: `the endpoint runs on ${current.compute.toUpperCase()} and cannot move to ${wanted.compute.toUpperCase()}: go back to ${current.compute}, or ${DELETE_AND_CREATE}`,
    });
  }
  return problems;
}

/**
 * The PATCH body for `changes`. Groups the service reads as a whole go whole: workers and scaling
 * together with their siblings, and the GPU selection as pools plus exclusions, since pools sent
 * alone clear the exclusions (GPU rule 4). A field removed from the spec is sent as its create
 * default or clearing value; one the contract gives no clearing value for is a problem.
 */
function buildPatch(spec: Spec, wanted: EffectiveSpec, live: Spec, changes: readonly Change[]): { patch: Spec; problems: PlanProblem[] } {
  const patch: Spec = {};
  const problems: PlanProblem[] = [];
  const gpuPatch: Spec = {};
  const value = (path: string): unknown => wanted.fields.get(path)?.value;
  const changed = new Set(changes.map((c) => (c.segments[0] === 'env' ? 'env' : c.path)));
  const specGpu = record(spec.gpu) ?? {};

  for (const key of ['name', 'image', 'disk', 'timeout', 'flashboot', 'registry', 'ports', 'dataCenterIds', 'networkVolumes']) {
    if (!changed.has(key)) continue;
    // Lists go in the spec's own order, so a problem path such as ports[2] names the spec's item.
    patch[key] = Array.isArray(spec[key]) ? spec[key] : value(key);
  }
  if (changed.has('entrypoint') || changed.has('cmd')) Object.assign(patch, commandPatch(spec));
  if (changed.has('env')) {
    const specEnv = record(spec.env) ?? {};
    // `env` is replaced as a whole; with a template, the keys the spec leaves to it must be kept.
    patch.env = wanted.envBeyondSpecUnmanaged ? { ...(record(live.env) ?? {}), ...specEnv } : { ...specEnv };
  }
  if (changed.has('gpu.pools') || changed.has('gpu.excludedTypes')) {
    gpuPatch.pools = specGpu.pools;
    gpuPatch.excludedTypes = specGpu.excludedTypes ?? [];
  }
  if (changed.has('gpu.count')) gpuPatch.count = value('gpu.count');
  if (changed.has('gpu.allowedCudaVersions')) gpuPatch.allowedCudaVersions = specGpu.allowedCudaVersions ?? [];
  if (changed.has('gpu.minCudaVersion')) {
    if (typeof specGpu.minCudaVersion === 'string') gpuPatch.minCudaVersion = specGpu.minCudaVersion;
    else {
      problems.push({
        path: 'gpu.minCudaVersion',
        segments: ['gpu', 'minCudaVersion'],
        message: `the endpoint has minCudaVersion ${JSON.stringify(record(live.gpu)?.minCudaVersion)} and an update cannot remove a CUDA floor: keep minCudaVersion in the spec, or ${DELETE_AND_CREATE}`,
      });
    }
  }
  if (Object.keys(gpuPatch).length > 0) patch.gpu = gpuPatch;
  if (changed.has('cpu')) patch.cpu = spec.cpu;
  if ([...changed].some((path) => path.startsWith('workers.'))) {
    const workers: Spec = { min: value('workers.min'), max: value('workers.max') };
    // Absent from the effective spec when it does not apply (QUEUE + REQUEST_COUNT): sending it is refused.
    if (wanted.fields.has('workers.idleTimeout')) workers.idleTimeout = value('workers.idleTimeout');
    patch.workers = workers;
  }
  if ([...changed].some((path) => path.startsWith('scaling.'))) patch.scaling = spec.scaling;
  return { patch, problems };
}

/** The command in the spec's own spelling, or the clearing value when the spec has none. */
function commandPatch(spec: Spec): Spec {
  if (typeof spec.args === 'string') return { args: spec.args };
  if (spec.entrypoint !== undefined || spec.cmd !== undefined) {
    // Both halves: one sent alone would keep the other half of the live command.
    return { entrypoint: spec.entrypoint ?? [], cmd: spec.cmd ?? [] };
  }
  return { args: '' };
}

function templateNotes(spec: Spec, live: Spec): string[] {
  const notes: string[] = [];
  if (typeof spec.templateId === 'string' && typeof live.templateId === 'string' && spec.templateId !== live.templateId) {
    notes.push(
      `templateId ${spec.templateId} differs from ${live.templateId}, the template the endpoint was created from; a template is only read at create time, so this changes nothing`,
    );
  }
  return notes;
}

/** A digest, `@sha256:<hex>` (or another algorithm), pins an image to one build. */
const DIGEST = /@[a-z0-9]+(?:[+._-][a-z0-9]+)*:[0-9a-f]{32,}$/i;

/**
 * Why an image reference may not pull what was pushed last, or undefined when it is pinned. The tag
 * follows the last `/`, so the port of a registry host (`host:5000/img`) is not taken for one.
 */
export function unpinnedImage(image: string): string | undefined {
  if (DIGEST.test(image)) return undefined;
  const at = image.indexOf('@');
  const reference = at < 0 ? image : image.slice(0, at);
  const name = reference.slice(reference.lastIndexOf('/') + 1);
  const colon = name.indexOf(':');
  const tag = colon < 0 ? undefined : name.slice(colon + 1);
  if (tag !== undefined && tag !== 'latest') return undefined;
  const what = tag === undefined ? 'has no tag (so it means latest)' : 'is tagged latest';
  return `image ${image} ${what}: workers may go on running a cached copy rather than what was pushed last; pin a version tag or a digest (@sha256:…)`;
}

function imageWarnings(spec: Spec): string[] {
  const warning = typeof spec.image === 'string' && spec.image !== '' ? unpinnedImage(spec.image) : undefined;
  return warning === undefined ? [] : [warning];
}

const maxWorkers = (spec: Spec): unknown => record(spec.workers)?.max;

function createWarnings(spec: Spec): string[] {
  const warnings = imageWarnings(spec);
  if (maxWorkers(spec) === 0) warnings.push('workers.max is 0: the endpoint starts no workers, and jobs sent to it wait in its queue');
  return warnings;
}

function updateWarnings(spec: Spec, changes: readonly Change[]): string[] {
  const restarting = changes.filter((c) => restartsWorkers(c.path)).map((c) => c.path);
  // The image is pulled only by workers that start, so it matters only to an update that starts them.
  const warnings = restarting.length > 0 ? imageWarnings(spec) : [];
  if (restarting.length > 0 && !restarting.includes('image'))
    warnings.push(`the image stays the same, but this restarts every worker (a rolling release) for: ${restarting.join(', ')}`);
  if (changes.some((c) => c.path === 'workers.max' && c.after === 0))
    warnings.push('workers.max set to 0 drains the endpoint: its workers stop once their jobs end, and new jobs wait in the queue');
  return warnings;
}
