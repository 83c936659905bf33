/**
 * Everything the emulator remembers across a restart: the caller's endpoints with their release
 * history, templates, network volumes, registries and accrued billing. Workers and jobs are
 * runtime only, as on the service after a worker restart. Writes are atomic (temp file +
 * rename) so a crash mid-write never leaves a half-written state file behind.
 */
import { existsSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { writeFileAtomicSync } from '../core/util/atomicWrite';
import type {
  ContainerConfig,
  CpuSelection,
  Endpoint,
  EndpointType,
  GpuSelection,
  NetworkVolume,
  Registry,
  Release,
  VolumeType,
} from '../core/api/types';
import type { TemplateRecord } from './catalog/seed';

/** A GPU selection as kept: every field set, from the create body or its defaults. */
export type StoredGpu = Required<GpuSelection>;

/** The container fields every stored endpoint has: sent, taken from its template, or the service's empty value. */
type StoredContainer = Required<Pick<ContainerConfig, 'image' | 'args' | 'disk' | 'ports' | 'env' | 'registry'>>;

/**
 * An endpoint as kept: the service's endpoint (core/api) less what is derived when it is answered
 * (`requestUrls`, `entrypoint`/`cmd` decoded from `args`, each CPU's `memory`), with its type and container
 * fields always set, and the configuration version the workers are compared with.
 */
export interface StoredEndpoint
  extends Omit<Endpoint, 'requestUrls' | 'entrypoint' | 'cmd' | 'type' | 'gpu' | 'cpu' | keyof StoredContainer>, StoredContainer {
  type: EndpointType;
  gpu?: StoredGpu;
  cpu?: CpuSelection[];
  /** Configuration version; bumped by every change, compared with each worker's. */
  version: number;
}

/** A release as kept: the service's (core/api) less `workerCount`, which is counted when it is answered. */
export interface ReleaseRecord extends Omit<
  Release,
  'id' | 'source' | 'createdAt' | 'workerCount' | 'version' | 'buildId' | 'createdByUserId'
> {
  id: string;
  source: 'GIT_BUILD' | 'MANUAL';
  createdAt: string;
  version: number;
  buildId: string | null;
  createdByUserId: string | null;
}

export interface NetworkVolumeRecord extends NetworkVolume {
  createdAt: string;
}

export interface RegistryRecord extends Registry {
  /** Write-only credentials: kept so a restart keeps them, never returned. */
  username: string;
}

/** Serverless spend accrued in one hour by one worker; coarser buckets are sums of these. */
export interface UsageRecord {
  endpointId: string;
  workerId: string;
  /** GPU type id or CPU flavor id the worker ran on. */
  resourceId: string;
  hourStart: number;
  gpuAmount: number;
  cpuAmount: number;
  diskAmount: number;
  feeAmount: number;
}

/** Storage billed for a network volume; kept after deletion so past buckets stay stable. */
export interface VolumeUsageRecord {
  volumeId: string;
  type: VolumeType;
  size: number;
  from: number;
  to: number | null;
}

export interface EmulatorState {
  formatVersion: 1;
  endpoints: StoredEndpoint[];
  releases: Record<string, ReleaseRecord[]>;
  templates: TemplateRecord[];
  networkVolumes: NetworkVolumeRecord[];
  registries: RegistryRecord[];
  usage: UsageRecord[];
  volumeUsage: VolumeUsageRecord[];
}

export function emptyState(): EmulatorState {
  return { formatVersion: 1, endpoints: [], releases: {}, templates: [], networkVolumes: [], registries: [], usage: [], volumeUsage: [] };
}

/**
 * Removes temporary files a killed emulator left beside the state file (`<file>.<pid>.<time>.tmp`,
 * see atomicWrite.ts), so they do not pile up. A file of a process that is still running is kept:
 * it may be writing right now.
 */
export function removeStaleTemporaries(path: string): void {
  const prefix = `${basename(path)}.`;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return;
  }
  for (const name of names) {
    const match = /^(\d+)\.\d+\.tmp$/.exec(name.startsWith(prefix) ? name.slice(prefix.length) : '');
    if (!match || isRunning(Number(match[1]))) continue;
    try {
      unlinkSync(join(dirname(path), name));
    } catch {
      // Gone already, or not ours to remove: either way nothing to do.
    }
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function loadState(path: string): EmulatorState | undefined {
  removeStaleTemporaries(path);
  if (!existsSync(path)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`the emulator state file ${path} is not valid JSON (${(error as Error).message}); move it away to start fresh`, {
      cause: error,
    });
  }
  if (typeof parsed !== 'object' || parsed === null || (parsed as { formatVersion?: unknown }).formatVersion !== 1) {
    throw new Error(`the emulator state file ${path} is not an emulator state (format version 1); move it away to start fresh`);
  }
  return { ...emptyState(), ...(parsed as Partial<EmulatorState>) };
}

export function saveState(path: string, state: EmulatorState): void {
  writeFileAtomicSync(path, JSON.stringify(state, null, 1));
}
