/**
 * How an endpoint, its workers and its releases read in the tree: one-line descriptions, the
 * configuration as facts, and tooltips; a release's diff with the spec's names of the service's fields.
 * Plain functions over API records (read tolerantly: what the service left out shows as "?"), so
 * what the tree says can be checked without an editor. Why workers are not serving is named by the
 * core (`notServingCause`), so the tree says it as the CLI and the rollout watch do.
 */
import {
  releaseSpecPath,
  type Endpoint,
  type FlashBoot,
  type Release,
  type ReleaseDiffEntry,
  type ReleaseList,
  type Worker,
} from '../../core/api';
import { notServingCause, type NotServingCause } from '../../core/operations';

export interface Fact {
  readonly label: string;
  readonly value: string;
}

// Keyed by any string: a mode newer than these reads as itself.
const FLASHBOOT_LABELS: Partial<Record<string, string>> = {
  OFF: 'no FlashBoot',
  FLASHBOOT: 'FlashBoot',
  PRIORITY_FLASHBOOT: 'priority FlashBoot',
} satisfies Record<FlashBoot, string>;

export function endpointType(endpoint: Endpoint): string {
  if (endpoint.type) return endpoint.type;
  // The contract makes `type` optional in answers; the shape of the URLs still tells.
  return endpoint.requestUrls && 'base' in endpoint.requestUrls ? 'LOAD_BALANCER' : 'QUEUE';
}

/** `GPU ADA_24, AMPERE_24 ×1` or `CPU cpu3c 4 vCPU`. */
function computeSummary(endpoint: Endpoint): string {
  if (endpoint.gpu) {
    const excluded = endpoint.gpu.excludedTypes?.length ? ` (not ${endpoint.gpu.excludedTypes.join(', ')})` : '';
    return `GPU ${endpoint.gpu.pools.join(', ') || 'any'}${excluded} ×${gpuCount(endpoint.gpu)}`;
  }
  if (endpoint.cpu?.length) return `CPU ${endpoint.cpu.map((c) => `${c.id} ${c.vcpuCount} vCPU`).join(', ')}`;
  return 'compute unknown';
}

/** The contract does not promise `count` in answers (it defaults to 1 on create), whatever the type says. */
function gpuCount(gpu: { count?: number }): number {
  return gpu.count ?? 1;
}

function flashbootLabel(value: string | undefined): string {
  return FLASHBOOT_LABELS[value ?? 'OFF'] ?? value ?? 'no FlashBoot';
}

/** The line beside the endpoint's name: type, compute, workers min–max, FlashBoot. */
export function endpointDescription(endpoint: Endpoint): string {
  return [
    endpointType(endpoint),
    computeSummary(endpoint),
    `workers ${endpoint.workers.min}–${endpoint.workers.max}`,
    flashbootLabel(endpoint.flashboot),
  ].join(' · ');
}

function scalingSummary(endpoint: Endpoint): string {
  const scaling = endpoint.scaling;
  if (scaling.type === 'QUEUE_DELAY') return `queue delay ${scaling.queueDelay} s`;
  return `request count ${scaling.requestCount}`;
}

/** The configuration as the Configuration node lists it; env values are left out, they may be secrets. */
export function configurationFacts(endpoint: Endpoint): Fact[] {
  const facts: Fact[] = [
    { label: 'Type', value: endpointType(endpoint) },
    { label: 'Image', value: endpoint.image ?? '(none)' },
    { label: 'Compute', value: computeSummary(endpoint) },
  ];
  if (endpoint.gpu?.allowedCudaVersions.length) facts.push({ label: 'CUDA', value: endpoint.gpu.allowedCudaVersions.join(', ') });
  if (endpoint.gpu?.minCudaVersion) facts.push({ label: 'Min CUDA', value: endpoint.gpu.minCudaVersion });
  if (endpoint.cpu?.length) facts.push({ label: 'Memory', value: endpoint.cpu.map((c) => `${c.memory} GB`).join(', ') });
  const idle = endpoint.workers.idleTimeout !== undefined ? `, idle timeout ${endpoint.workers.idleTimeout} s` : '';
  facts.push(
    { label: 'Workers', value: `min ${endpoint.workers.min}, max ${endpoint.workers.max}${idle}` },
    { label: 'Scaling', value: scalingSummary(endpoint) },
    { label: 'FlashBoot', value: endpoint.flashboot },
    { label: 'Timeout', value: `${endpoint.timeout} ms` },
  );
  if (endpoint.dataCenterIds.length) facts.push({ label: 'Data centers', value: endpoint.dataCenterIds.join(', ') });
  if (endpoint.networkVolumes.length) facts.push({ label: 'Network volumes', value: endpoint.networkVolumes.join(', ') });
  if (endpoint.disk !== undefined) facts.push({ label: 'Disk', value: `${endpoint.disk} GB` });
  if (endpoint.ports?.length) facts.push({ label: 'Ports', value: endpoint.ports.join(', ') });
  if (endpoint.args) facts.push({ label: 'Args', value: endpoint.args });
  const envKeys = Object.keys(endpoint.env ?? {});
  if (envKeys.length) facts.push({ label: 'Env', value: envKeys.join(', ') });
  if (endpoint.registry) facts.push({ label: 'Registry', value: endpoint.registry });
  if (endpoint.templateId) facts.push({ label: 'Template', value: endpoint.templateId });
  facts.push({ label: 'Id', value: endpoint.id }, { label: 'Created', value: endpoint.createdAt });
  return facts;
}

/** Markdown for the endpoint's tooltip. */
export function endpointTooltip(endpoint: Endpoint, boundSpec: string | undefined): string {
  const rows = configurationFacts(endpoint).map((f) => `| ${f.label} | \`${f.value.replace(/\|/g, '\\|')}\` |`);
  const bound = boundSpec ? `Spec: \`${boundSpec}\`` : 'No spec in this workspace is bound to it: *Pull into New Spec* writes one.';
  return [`**${endpoint.name}**`, '', '| | |', '|---|---|', ...rows, '', bound].join('\n');
}

/** Name → URL, in the order the service lists them. */
export function requestUrls(endpoint: Endpoint): Array<{ name: string; url: string }> {
  return Object.entries(endpoint.requestUrls ?? {}).map(([name, url]) => ({ name, url: String(url) }));
}

/** The URL a client calls first: `runsync`/`run` for a queue endpoint, the base URL of a load balancer. */
export function primaryUrl(endpoint: Endpoint): string | undefined {
  const urls = endpoint.requestUrls as Record<string, string> | undefined;
  return urls?.runSync ?? urls?.run ?? urls?.base ?? requestUrls(endpoint)[0]?.url;
}

function formatUptime(seconds: number | null | undefined): string | undefined {
  if (seconds === null || seconds === undefined || !(seconds >= 0)) return undefined;
  if (seconds < 60) return `${Math.floor(seconds)} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
  return `${Math.floor(seconds / 86400)} d ${Math.floor((seconds % 86400) / 3600)} h`;
}

/** Stale: the worker runs an older release than the endpoint's, and will be replaced. */
export function isStaleWorker(worker: Worker, endpointVersion: number | null | undefined): boolean {
  if (worker.isStale) return true;
  return typeof worker.version === 'number' && typeof endpointVersion === 'number' && worker.version < endpointVersion;
}

export function workerDescription(worker: Worker, endpointVersion: number | null | undefined): string {
  const gpu = worker.gpuTypeId ? `${(worker.gpuCount ?? 0) > 1 ? `${worker.gpuCount}× ` : ''}${worker.gpuTypeId}` : undefined;
  const uptime = formatUptime(worker.uptimeSeconds);
  const stale = isStaleWorker(worker, endpointVersion) ? `stale (v${worker.version ?? '?'} < v${endpointVersion ?? '?'})` : undefined;
  return [worker.status, gpu, worker.dataCenterId ?? undefined, uptime ? `up ${uptime}` : undefined, stale].filter(Boolean).join(' · ');
}

export function workerTooltip(worker: Worker, endpointVersion: number | null | undefined): string {
  return [
    `Worker ${worker.id}`,
    `Status: ${worker.status}`,
    `GPU: ${worker.gpuTypeId ?? 'none'}${worker.gpuCount ? ` ×${worker.gpuCount}` : ''}`,
    `Data center: ${worker.dataCenterId ?? 'unknown'}`,
    `Uptime: ${formatUptime(worker.uptimeSeconds) ?? 'not started'}`,
    `Release: v${worker.version ?? '?'} (endpoint v${endpointVersion ?? '?'})${isStaleWorker(worker, endpointVersion) ? ', stale: it will be replaced by one on the latest release' : ''}`,
    worker.image ? `Image: ${worker.image}` : undefined,
    workerCause(worker),
  ]
    .filter(Boolean)
    .join('\n');
}

/** Why a worker is not serving, from its state alone: its log (Open Worker Logs) says more. */
export function workerCause(worker: Worker): string | undefined {
  switch (worker.status) {
    case 'UNHEALTHY':
      return 'Not serving: crash-looping or failing its health checks; its log says why';
    case 'THROTTLED':
      return "Not serving: no capacity, waiting for stock of the endpoint's machine types in its data centers";
    case 'INITIALIZING':
      return 'Not serving yet: still starting (image pull or boot)';
    default:
      return undefined;
  }
}

/**
 * Why a release's workers are not serving, when none of them is ready: crash-looping, no capacity or still
 * starting (counted from the release's creation). Undefined without a worker list, or when the release has no
 * workers or one of them serves.
 */
export function releaseCause(release: Release, workers: readonly Worker[] | undefined, now = Date.now()): NotServingCause | undefined {
  if (!workers || release.version === undefined) return undefined;
  const onIt = workers.filter((w) => w.version === release.version);
  if (onIt.length === 0 || onIt.some((w) => w.status === 'IDLE' || w.status === 'RUNNING')) return undefined;
  const made = release.createdAt !== undefined ? Date.parse(release.createdAt) : Number.NaN;
  return notServingCause({
    scope: 'release',
    version: release.version,
    workers: onIt,
    now,
    ...(Number.isFinite(made) ? { startedAt: made } : {}),
  });
}

/**
 * A diff value as one short line: JSON, cut to fit a tree row. `null` is the service saying the field was
 * unset before or after; a value the service left out is unknown, and shows as "?".
 */
function renderDiffValue(value: unknown): string {
  if (value === undefined) return '?';
  if (value === null) return '(unset)';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/**
 * The scaling type a release's own diff gives (a switch of scaler): what decides whether its `scalerValue`
 * is `scaling.queueDelay` or `scaling.requestCount`. Undefined when the release does not say.
 */
export function releaseScalingType(release: Release): string | undefined {
  const switched = release.diff.find((d) => d.field === 'scalerType')?.new;
  return typeof switched === 'string' ? switched : undefined;
}

/**
 * The scaling type in force at `release`: the endpoint's current one with every newer release's switch of
 * scaler undone (releases newest first, as the service lists them). Undefined once a switch is unknown.
 */
export function scalingTypeAt(releases: readonly Release[], release: Release, current: string | undefined): string | undefined {
  let type = current;
  for (const newer of releases) {
    if (newer === release) return releaseScalingType(release) ?? type;
    const switched = newer.diff.find((d) => d.field === 'scalerType');
    if (switched) type = typeof switched.old === 'string' ? switched.old : undefined;
  }
  return undefined;
}

/** The spec's name of a diff's field (`image` for `template.imageName`); a field this client does not know, as the service names it. */
function diffFieldLabel(entry: ReleaseDiffEntry, scalingType?: string): string {
  return releaseSpecPath(entry.field, scalingType) ?? entry.field;
}

/** `image: a → b`. */
export function diffLine(entry: ReleaseDiffEntry, scalingType?: string): string {
  return `${diffFieldLabel(entry, scalingType)}: ${renderDiffValue(entry.old)} → ${renderDiffValue(entry.new)}`;
}

/** The service's own name for the field, and both values whole. */
export function diffTooltip(entry: ReleaseDiffEntry, scalingType?: string): string {
  const label = diffFieldLabel(entry, scalingType);
  const whole = (value: unknown): string => (value === undefined ? '? (not given by the service)' : JSON.stringify(value));
  return [
    label === entry.field ? entry.field : `${label} (the service's ${entry.field})`,
    `before: ${whole(entry.old)}`,
    `after: ${whole(entry.new)}`,
  ].join('\n');
}

/** `image, gpu.count`, or `initial` for the first release. */
export function releaseFields(release: Release, scalingType = releaseScalingType(release)): string {
  return release.diff.length === 0 ? 'initial' : release.diff.map((d) => diffFieldLabel(d, scalingType)).join(', ');
}

/** `2026-05-04 10:00:00 UTC`, or undefined when the release has no time. */
function releaseTime(release: Release): string | undefined {
  return release.createdAt?.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC');
}

export function releaseDescription(release: Release, scalingType = releaseScalingType(release)): string {
  return [release.source ?? 'source unknown', releaseFields(release, scalingType), releaseTime(release) ?? 'time unknown'].join(' · ');
}

export function releaseTooltip(release: Release, scalingType = releaseScalingType(release)): string {
  return [
    `Release v${release.version ?? '?'} (${release.source ?? 'source ?'}), ${release.workerCount ?? '?'} worker(s) on it`,
    `Created ${release.createdAt ?? '?'}`,
    ...release.diff.map((d) => diffLine(d, scalingType)),
  ].join('\n');
}

/** A release one can roll back to, as the rollback's picker lists it. */
export interface ReleaseChoice {
  readonly version: number;
  readonly label: string;
  readonly description: string;
  readonly detail: string;
}

/**
 * The releases an endpoint can go back to, newest first, each with what it changed: every release with a
 * known version except the one the endpoint is on (when the service says which).
 */
export function releaseChoices(list: ReleaseList, scalingType: string | undefined): ReleaseChoice[] {
  return list.releases
    .filter((r): r is Release & { version: number } => typeof r.version === 'number' && r.version !== list.endpointVersion)
    .sort((a, b) => b.version - a.version)
    .map((release) => ({
      version: release.version,
      label: `v${release.version}`,
      description: releaseFields(release, scalingTypeAt(list.releases, release, scalingType)),
      detail: `${release.source ?? 'source unknown'} · ${releaseTime(release) ?? 'time unknown'}`,
    }));
}
