/**
 * Records of REST API v2 and the job API as the client sees them. The contract decides where it
 * speaks (endpoint, create body, GPU/CPU, workers, scaling); the published OpenAPI snapshot fills
 * in workers, releases, catalog, templates, volumes, registries and billing. Index signatures are
 * left off on purpose: fields the service adds later are still there at run time, just untyped.
 * Beside the types, the create body's field list, since code that walks a body field by field needs it.
 */

export type EndpointType = 'QUEUE' | 'LOAD_BALANCER';
export type FlashBoot = 'OFF' | 'FLASHBOOT' | 'PRIORITY_FLASHBOOT';

export type Scaling = { type: 'QUEUE_DELAY'; queueDelay: number } | { type: 'REQUEST_COUNT'; requestCount: number };

interface Workers {
  min: number;
  max: number;
  /** Omitted for `QUEUE` + `REQUEST_COUNT`. */
  idleTimeout?: number;
}

export interface ContainerConfig {
  image?: string;
  args?: string;
  entrypoint?: string[];
  cmd?: string[];
  disk?: number;
  env?: Record<string, string>;
  ports?: string[];
  registry?: string | null;
}

export interface GpuSelection {
  pools: string[];
  excludedTypes?: string[];
  count?: number;
  allowedCudaVersions?: string[];
  minCudaVersion?: string | null;
}

export interface CpuSelection {
  id: string;
  vcpuCount: number;
}

interface EndpointCpu extends CpuSelection {
  memory: number;
}

export interface QueueRequestUrls {
  run: string;
  runSync: string;
  status: string;
  stream: string;
  cancel: string;
  retry: string;
  purgeQueue: string;
  health: string;
}

export interface LoadBalancerRequestUrls {
  base: string;
  health: string;
}

export interface Endpoint extends ContainerConfig {
  id: string;
  name: string;
  /** The template the endpoint was created from, when it was. */
  templateId?: string;
  type?: EndpointType;
  requestUrls?: QueueRequestUrls | LoadBalancerRequestUrls;
  gpu?: (GpuSelection & { count: number; allowedCudaVersions: string[]; minCudaVersion: string | null }) | null;
  cpu?: EndpointCpu[];
  workers: Workers;
  scaling: Scaling;
  dataCenterIds: string[];
  networkVolumes: string[];
  timeout: number;
  flashboot: FlashBoot;
  createdAt: string;
}

export interface CreateEndpointRequest extends ContainerConfig {
  name: string;
  type: EndpointType;
  scaling: Scaling;
  gpu?: GpuSelection;
  cpu?: CpuSelection[];
  templateId?: string;
  workers?: Partial<Workers>;
  dataCenterIds?: string[];
  networkVolumes?: string[];
  flashboot?: FlashBoot;
  timeout?: number;
}

/**
 * The create body's top-level fields, in the order a spec file shows them: the deploy engine reads a live endpoint
 * back into a spec in this order, and the emulator compares and rebuilds endpoints by it. The create schema
 * (schemas/endpoint-create.schema.json) is the authority on the fields; test/core/api/createFields.test.ts holds
 * this list to it and to CreateEndpointRequest.
 */
export const CREATE_ENDPOINT_FIELDS = [
  'name',
  'type',
  'templateId',
  'image',
  'args',
  'entrypoint',
  'cmd',
  'disk',
  'ports',
  'env',
  'registry',
  'gpu',
  'cpu',
  'workers',
  'scaling',
  'dataCenterIds',
  'networkVolumes',
  'timeout',
  'flashboot',
] as const satisfies readonly (keyof CreateEndpointRequest)[];

export type CreateEndpointField = (typeof CREATE_ENDPOINT_FIELDS)[number];

/** PATCH: only the fields present change (GPU selection rules in the contract's GPU section). */
export type UpdateEndpointRequest = Partial<Omit<CreateEndpointRequest, 'type' | 'templateId' | 'gpu'>> & { gpu?: Partial<GpuSelection> };

export type WorkerStatus = 'RUNNING' | 'IDLE' | 'INITIALIZING' | 'THROTTLED' | 'UNHEALTHY';

/*
 * Worker, release and job records as core/api/records.ts reads them: a field the service left out,
 * sent as null or sent with another type is absent here (unknown), never guessed.
 */

export interface Worker {
  id: string;
  /** `UNKNOWN`: the service sent no status, or one this client does not know. */
  status: WorkerStatus | 'UNKNOWN';
  isStale?: boolean;
  version?: number;
  gpuCount?: number;
  image?: string;
  uptimeSeconds?: number;
  gpuTypeId?: string;
  dataCenterId?: string;
  startedAt?: string;
}

export interface WorkerSummary {
  running: number;
  idle: number;
  initializing: number;
  throttled: number;
  unhealthy: number;
  total: number;
}

export interface WorkerList {
  workers: Worker[];
  summary: WorkerSummary;
  endpointVersion?: number;
}

export interface ReleaseDiffEntry {
  /** The service's field name (`template.imageName`): core/api/releaseFields.ts maps it to the spec's. */
  field: string;
  /** Raw JSON; null when the field was added (`old`) or removed (`new`); absent when the service left it out. */
  old: unknown;
  new: unknown;
}

export interface Release {
  id?: string;
  version?: number;
  /** `GIT_BUILD` or `MANUAL` today; kept as sent. */
  source?: string;
  buildId?: string;
  createdByUserId?: string;
  workerCount?: number;
  createdAt?: string;
  diff: ReleaseDiffEntry[];
}

export interface Rollout {
  inProgress?: boolean;
  workersOnLatest?: number;
  workersTotal?: number;
  percentOnLatest?: number;
}

export interface ReleaseList {
  endpointVersion?: number;
  rollout?: Rollout;
  /** Newest first. */
  releases: Release[];
}

export type LogSource = 'container' | 'system';

/** One worker log line from the SSE stream. */
export interface WorkerLogEvent {
  /** The SSE `id` (a timestamp cursor); what a resume sends as `Last-Event-ID`. */
  id: string;
  /** The SSE `event` field; `message` when the server sent none. */
  event: string;
  ts: string;
  /** Usually a `LogSource`; a newer service may name others, which are kept as sent. */
  source: LogSource | (string & {});
  line: string;
}

// ── Catalog ────────────────────────────────────────────────────────────────

export type AvailabilityLevel = 'NONE' | 'LOW' | 'MEDIUM' | 'HIGH';

interface ResourceAvailability {
  id: string;
  name: string;
  availability: AvailabilityLevel;
}

export interface GpuType {
  id: string;
  name: string;
  /** Null when the type is in no serverless pool. */
  pool: string | null;
  manufacturer: 'NVIDIA' | 'AMD' | 'UNKNOWN';
  memory: number;
  secure: boolean;
  community: boolean;
  price: { secure: number; community: number };
  maxCount: { secure: number; community: number };
  /** With `include=AVAILABILITY`. */
  availability?: AvailabilityLevel;
  dataCenters?: ResourceAvailability[];
  cudaVersions?: string[];
}

export interface CpuType {
  id: string;
  name: string;
  group: string;
  vcpu: { min: number; max: number };
  ramGbPerVcpu: number;
  price: { securePerVcpu: number; serverlessPerVcpu: number };
  availability?: AvailabilityLevel;
  dataCenters?: ResourceAvailability[];
}

export interface DataCenter {
  id: string;
  name: string;
  region: string;
  globalNetwork: boolean;
  networkVolumeTypes: VolumeType[];
  compliance: string[];
  gpuAvailability?: ResourceAvailability[];
  cpuAvailability?: ResourceAvailability[];
}

// ── Templates, volumes, registries ─────────────────────────────────────────

type TemplateCategory = 'CPU' | 'NVIDIA' | 'AMD';

export interface Template extends ContainerConfig {
  id: string;
  name: string;
  image: string;
  serverless: boolean;
  public: boolean;
  category: TemplateCategory;
  mounts?: { persistent?: { size: number; path: string } };
  /** Serverless templates may constrain CUDA; it seeds `gpu.allowedCudaVersions` on create. */
  allowedCudaVersions?: string[];
}

export interface CreateTemplateRequest extends ContainerConfig {
  name: string;
  image: string;
  serverless?: boolean;
  public?: boolean;
  category?: TemplateCategory;
  mounts?: { persistent?: { size: number; path: string } };
}

export type UpdateTemplateRequest = Partial<CreateTemplateRequest>;

export type VolumeType = 'STANDARD' | 'HIGH_PERFORMANCE';

export interface NetworkVolume {
  id: string;
  name: string;
  size: number;
  dataCenter: string;
  type: VolumeType;
}

export interface CreateNetworkVolumeRequest {
  name: string;
  size: number;
  dataCenter: string;
  type?: VolumeType;
}

export interface UpdateNetworkVolumeRequest {
  name?: string;
  /** Can only grow. */
  size?: number;
}

export interface Registry {
  id: string;
  name: string;
}

/** `username`/`password` are write-only: the service never returns them. */
export interface CreateRegistryRequest {
  name: string;
  username: string;
  password: string;
}

// ── Jobs ───────────────────────────────────────────────────────────────────

export type JobStatus = 'IN_QUEUE' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED' | 'CANCELLED' | 'TIMED_OUT';

export interface JobRequest {
  input: unknown;
  webhook?: string;
  policy?: { executionTimeout?: number; ttl?: number };
}

export interface Job {
  id: string;
  /** `UNKNOWN`: a status this client does not know; never terminal, so a follower keeps reading. */
  status: JobStatus | 'UNKNOWN';
  delayTime?: number;
  executionTime?: number;
  output?: unknown;
  error?: unknown;
  workerId?: string;
  retries?: number;
}

export interface JobStreamChunk {
  status: JobStatus | 'UNKNOWN';
  stream: { output: unknown }[];
}

export interface EndpointHealth {
  jobs: { completed: number; failed: number; inProgress: number; inQueue: number; retried: number };
  workers: {
    idle: number;
    running: number;
    initializing?: number;
    throttled?: number;
    unhealthy?: number;
    [state: string]: number | undefined;
  };
}
