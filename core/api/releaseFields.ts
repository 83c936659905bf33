/**
 * A release's diff names fields the way the service stores them (`template.imageName`, `gpuCount`,
 * `locations`), not the way a spec or the v2 endpoint record does (`image`, `gpu.count`,
 * `dataCenterIds`). This table is the one place that knows both names: the emulator writes its
 * diffs through it, and rolling back reads them through it. Values stay in the v2 record's form.
 */

interface ReleaseField {
  /** The name in a release's `diff`. */
  readonly service: string;
  /** The path in the endpoint record and the spec (`gpu.count`). */
  readonly spec: string;
}

const SERVICE_RELEASE_FIELDS: readonly ReleaseField[] = [
  { service: 'name', spec: 'name' },
  { service: 'templateId', spec: 'templateId' },
  { service: 'template.imageName', spec: 'image' },
  { service: 'template.dockerArgs', spec: 'args' },
  { service: 'template.containerDiskInGb', spec: 'disk' },
  { service: 'template.ports', spec: 'ports' },
  { service: 'template.env', spec: 'env' },
  { service: 'template.containerRegistryAuthId', spec: 'registry' },
  { service: 'gpuIds', spec: 'gpu.pools' },
  { service: 'excludedGpuTypeIds', spec: 'gpu.excludedTypes' },
  { service: 'gpuCount', spec: 'gpu.count' },
  { service: 'allowedCudaVersions', spec: 'gpu.allowedCudaVersions' },
  { service: 'minCudaVersion', spec: 'gpu.minCudaVersion' },
  { service: 'instanceIds', spec: 'cpu' },
  { service: 'workersMin', spec: 'workers.min' },
  { service: 'workersMax', spec: 'workers.max' },
  { service: 'idleTimeout', spec: 'workers.idleTimeout' },
  { service: 'scalerType', spec: 'scaling.type' },
  // One service field holds either scaling value; which one follows from `scalerType` (releaseSpecPath).
  { service: 'scalerValue', spec: 'scaling.queueDelay' },
  { service: 'scalerValue', spec: 'scaling.requestCount' },
  { service: 'locations', spec: 'dataCenterIds' },
  { service: 'networkVolumeIds', spec: 'networkVolumes' },
  { service: 'executionTimeoutMs', spec: 'timeout' },
  { service: 'flashboot', spec: 'flashboot' },
];

const BY_SPEC = new Map(SERVICE_RELEASE_FIELDS.map((f) => [f.spec, f.service]));
const SPEC_PATHS = new Set(SERVICE_RELEASE_FIELDS.map((f) => f.spec));

/** The service's name for a spec path; a path the table lacks is returned as it is. */
export function serviceFieldOf(specPath: string): string {
  return BY_SPEC.get(specPath) ?? specPath;
}

/**
 * The spec path a release's diff field stands for, or undefined for a field this client does not
 * know. `scalingType` (the configuration's `scaling.type` at that release) decides `scalerValue`.
 * A diff that already uses the spec's names is read as it is.
 */
export function releaseSpecPath(field: string, scalingType?: string): string | undefined {
  if (field === 'scalerValue') {
    if (scalingType === 'QUEUE_DELAY') return 'scaling.queueDelay';
    if (scalingType === 'REQUEST_COUNT') return 'scaling.requestCount';
    return undefined;
  }
  const spec = SERVICE_RELEASE_FIELDS.find((f) => f.service === field)?.spec;
  if (spec !== undefined) return spec;
  return SPEC_PATHS.has(field) ? field : undefined;
}
