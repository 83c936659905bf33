/**
 * The seeded catalog: GPU types grouped in serverless pools, CPU flavors, data centers with
 * stock, and public templates. Fixed data (no randomness) so a given pool always has the same
 * members and stock; `HOPPER_141` and the `cpu5m` flavor have no serverless stock at all, so
 * workers there sit THROTTLED.
 */
import type { CpuType, GpuType } from '../../core/api/types';
import { ownValue } from '../../core/endpointSpec/ownData';

/** A GPU type record as the API answers it, less the availability computed per request. */
export type GpuTypeSeed = Omit<GpuType, 'availability' | 'dataCenters' | 'cudaVersions'> & {
  /** CUDA versions offered by the hosts that carry this type. */
  cudaVersions: string[];
};

export type CpuFlavorSeed = Omit<CpuType, 'availability' | 'dataCenters'>;

export interface DataCenterSeed {
  id: string;
  name: string;
  region: 'NORTH_AMERICA' | 'EUROPE' | 'ASIA' | 'OCEANIA';
  globalNetwork: boolean;
  networkVolumeTypes: ('STANDARD' | 'HIGH_PERFORMANCE')[];
  compliance: string[];
}

export interface TemplateRecord {
  id: string;
  name: string;
  image: string;
  args: string;
  disk: number;
  mounts: Record<string, unknown>;
  ports: string[];
  env: Record<string, string>;
  registry: string | null;
  serverless: boolean;
  public: boolean;
  category: 'CPU' | 'NVIDIA' | 'AMD';
  /** Rule 5 of create: seeds `gpu.allowedCudaVersions` of endpoints made from this template. */
  allowedCudaVersions?: string[];
  /** Pod-only flags, ignored when an endpoint is created from the template. */
  startSsh?: boolean;
  startJupyter?: boolean;
}

const CUDA_RECENT = ['12.4', '12.6', '12.8'];
const CUDA_WIDE = ['11.8', '12.1', '12.2', '12.4', '12.6', '12.8'];
const CUDA_HOPPER = ['12.4', '12.6', '12.8', '12.9'];

function gpu(
  id: string,
  name: string,
  pool: string | null,
  memory: number,
  secure: number,
  community: number,
  cudaVersions: string[],
  manufacturer: GpuTypeSeed['manufacturer'] = 'NVIDIA',
): GpuTypeSeed {
  return {
    id,
    name,
    pool,
    manufacturer,
    memory,
    secure: secure > 0,
    community: community > 0,
    price: { secure, community },
    maxCount: { secure: secure > 0 ? 8 : 0, community: community > 0 ? 4 : 0 },
    cudaVersions,
  };
}

export const GPU_TYPES: readonly GpuTypeSeed[] = [
  gpu('NVIDIA RTX A4000', 'RTX A4000', 'AMPERE_16', 16, 0.32, 0.17, CUDA_WIDE),
  gpu('NVIDIA RTX A4500', 'RTX A4500', 'AMPERE_16', 20, 0.34, 0.19, CUDA_WIDE),
  gpu('NVIDIA RTX 4000 Ada Generation', 'RTX 4000 Ada', 'AMPERE_16', 20, 0.38, 0.2, CUDA_RECENT),
  gpu('NVIDIA RTX A5000', 'RTX A5000', 'AMPERE_24', 24, 0.36, 0.16, CUDA_WIDE),
  gpu('NVIDIA GeForce RTX 3090', 'RTX 3090', 'AMPERE_24', 24, 0.43, 0.22, CUDA_WIDE),
  gpu('NVIDIA L4', 'L4', 'AMPERE_24', 24, 0.43, 0, CUDA_RECENT),
  gpu('NVIDIA GeForce RTX 4090', 'RTX 4090', 'ADA_24', 24, 0.69, 0.34, CUDA_RECENT),
  gpu('NVIDIA RTX A6000', 'RTX A6000', 'AMPERE_48', 48, 0.76, 0.33, CUDA_WIDE),
  gpu('NVIDIA A40', 'A40', 'AMPERE_48', 48, 0.4, 0, CUDA_WIDE),
  gpu('NVIDIA L40S', 'L40S', 'ADA_48_PRO', 48, 0.86, 0.79, CUDA_RECENT),
  gpu('NVIDIA L40', 'L40', 'ADA_48_PRO', 48, 0.99, 0, CUDA_RECENT),
  gpu('NVIDIA RTX 6000 Ada Generation', 'RTX 6000 Ada', 'ADA_48_PRO', 48, 0.77, 0.74, CUDA_RECENT),
  gpu('NVIDIA A100 80GB PCIe', 'A100 PCIe', 'AMPERE_80', 80, 1.64, 1.19, CUDA_WIDE),
  gpu('NVIDIA A100-SXM4-80GB', 'A100 SXM', 'AMPERE_80', 80, 1.74, 1.39, CUDA_WIDE),
  gpu('NVIDIA H100 PCIe', 'H100 PCIe', 'ADA_80_PRO', 80, 2.39, 1.99, CUDA_HOPPER),
  gpu('NVIDIA H100 80GB HBM3', 'H100 SXM', 'ADA_80_PRO', 80, 2.99, 2.69, CUDA_HOPPER),
  gpu('NVIDIA H100 NVL', 'H100 NVL', 'ADA_80_PRO', 94, 2.79, 2.59, CUDA_HOPPER),
  gpu('NVIDIA H200', 'H200', 'HOPPER_141', 141, 3.99, 3.59, CUDA_HOPPER),
  // Pod-only types: present in the catalog, in no serverless pool.
  gpu('NVIDIA GeForce RTX 3080', 'RTX 3080', null, 10, 0, 0.17, CUDA_WIDE),
  gpu('NVIDIA RTX A2000', 'RTX A2000', null, 6, 0.12, 0, CUDA_WIDE),
  gpu('AMD Instinct MI300X OAM', 'MI300X', null, 192, 2.49, 0, [], 'AMD'),
];

function cpu(
  id: string,
  name: string,
  group: string,
  [min, max]: [number, number],
  ramGbPerVcpu: number,
  securePerVcpu: number,
  serverlessPerVcpu: number,
): CpuFlavorSeed {
  return { id, name, group, vcpu: { min, max }, ramGbPerVcpu, price: { securePerVcpu, serverlessPerVcpu } };
}

export const CPU_FLAVORS: readonly CpuFlavorSeed[] = [
  cpu('cpu3c', 'Compute-Optimized', 'Gen 3', [2, 8], 2, 0.04, 0.03),
  cpu('cpu3g', 'General Purpose', 'Gen 3', [2, 32], 4, 0.05, 0.04),
  cpu('cpu3m', 'Memory-Optimized', 'Gen 3', [2, 16], 8, 0.07, 0.06),
  cpu('cpu5c', 'Compute-Optimized', 'Gen 5', [2, 32], 2, 0.06, 0.05),
  cpu('cpu5g', 'General Purpose', 'Gen 5', [4, 64], 4, 0.07, 0.06),
  cpu('cpu5m', 'Memory-Optimized', 'Gen 5', [2, 16], 8, 0.09, 0.08),
];

function dataCenter(
  id: string,
  name: string,
  region: DataCenterSeed['region'],
  globalNetwork: boolean,
  networkVolumeTypes: DataCenterSeed['networkVolumeTypes'],
  compliance: string[],
): DataCenterSeed {
  return { id, name, region, globalNetwork, networkVolumeTypes, compliance };
}

export const DATA_CENTERS: readonly DataCenterSeed[] = [
  dataCenter('US-TX-3', 'US Texas 3', 'NORTH_AMERICA', true, ['STANDARD', 'HIGH_PERFORMANCE'], ['SOC_2_TYPE_2', 'ISO_IEC_27001']),
  dataCenter('US-KS-2', 'US Kansas 2', 'NORTH_AMERICA', true, ['STANDARD'], ['SOC_2_TYPE_2']),
  dataCenter('US-CA-2', 'US California 2', 'NORTH_AMERICA', false, ['STANDARD'], ['SOC_2_TYPE_2', 'HIPAA']),
  dataCenter('EU-RO-1', 'EU Romania 1', 'EUROPE', true, ['STANDARD', 'HIGH_PERFORMANCE'], ['GDPR', 'ISO_IEC_27001']),
  dataCenter('EU-SE-1', 'EU Sweden 1', 'EUROPE', false, ['STANDARD'], ['GDPR', 'RENEWABLE']),
  dataCenter('AP-JP-1', 'AP Japan 1', 'ASIA', false, ['STANDARD'], []),
];

/**
 * Free serverless GPUs per type and data center. Types not listed in a data center have none
 * there; the H200 has none anywhere, which is what makes `HOPPER_141` throttle.
 */
const GPU_STOCK: Record<string, Record<string, number>> = {
  'US-TX-3': {
    'NVIDIA GeForce RTX 4090': 24,
    'NVIDIA RTX A5000': 12,
    'NVIDIA L4': 6,
    'NVIDIA A100 80GB PCIe': 8,
    'NVIDIA H100 80GB HBM3': 4,
    'NVIDIA L40S': 10,
    'NVIDIA RTX A4000': 16,
  },
  'US-KS-2': {
    'NVIDIA GeForce RTX 4090': 9,
    'NVIDIA GeForce RTX 3090': 14,
    'NVIDIA RTX A6000': 7,
    'NVIDIA A100-SXM4-80GB': 3,
    'NVIDIA RTX A4500': 5,
  },
  'US-CA-2': { 'NVIDIA RTX 6000 Ada Generation': 6, 'NVIDIA H100 PCIe': 2, 'NVIDIA A40': 11, 'NVIDIA RTX 4000 Ada Generation': 8 },
  'EU-RO-1': { 'NVIDIA GeForce RTX 4090': 18, 'NVIDIA L40': 4, 'NVIDIA H100 NVL': 3, 'NVIDIA RTX A5000': 2, 'NVIDIA RTX A4000': 9 },
  'EU-SE-1': { 'NVIDIA RTX A6000': 5, 'NVIDIA L40S': 3, 'NVIDIA A100 80GB PCIe': 1 },
  'AP-JP-1': { 'NVIDIA GeForce RTX 3090': 4, 'NVIDIA RTX A4000': 2 },
};

/** Free serverless vCPU capacity (in workers of the smallest size) per flavor and data center; `cpu5m` has none. */
const CPU_STOCK: Record<string, Record<string, number>> = {
  'US-TX-3': { cpu3c: 40, cpu3g: 30, cpu5c: 20, cpu5g: 12 },
  'US-KS-2': { cpu3c: 10, cpu3m: 6 },
  'EU-RO-1': { cpu3g: 16, cpu5c: 8, cpu5g: 4 },
  'EU-SE-1': { cpu3c: 3 },
};

/** Stock of one resource in one data center; none where the table does not list it. */
function stockIn(table: Readonly<Record<string, Readonly<Record<string, number>>>>, dataCenterId: string, resourceId: string): number {
  return ownValue(ownValue(table, dataCenterId), resourceId) ?? 0;
}

export function gpuStock(dataCenterId: string, gpuTypeId: string): number {
  return stockIn(GPU_STOCK, dataCenterId, gpuTypeId);
}

export function cpuStock(dataCenterId: string, flavorId: string): number {
  return stockIn(CPU_STOCK, dataCenterId, flavorId);
}

export type AvailabilityLevel = 'NONE' | 'LOW' | 'MEDIUM' | 'HIGH';

export function availabilityLevel(count: number): AvailabilityLevel {
  if (count <= 0) return 'NONE';
  if (count <= 3) return 'LOW';
  if (count <= 10) return 'MEDIUM';
  return 'HIGH';
}

/** Public ids of the seeded public templates, exported so tests and docs can name them. */
export const PUBLIC_TEMPLATE_IDS = {
  podPytorch: 'tplpytorchpod1',
  vllm: 'tplvllmworker1',
  comfy: 'tplcomfyworker',
  loadBalancer: 'tpllbstarter01',
  cpuWorker: 'tplcpustarter1',
} as const;

/** A public serverless template of the NVIDIA category with no command, mounts or registry, unless `t` says otherwise. */
function publicTemplate(
  t: Pick<TemplateRecord, 'id' | 'name' | 'image' | 'disk' | 'ports' | 'env'> & Partial<TemplateRecord>,
): TemplateRecord {
  const { id, name, image, disk, ports, env, ...rest } = t;
  // The fields in the order the API answers them; what `rest` sets keeps its place, what it adds follows.
  return {
    id,
    name,
    image,
    args: '',
    disk,
    mounts: {},
    ports,
    env,
    registry: null,
    serverless: true,
    public: true,
    category: 'NVIDIA',
    ...rest,
  };
}

export const PUBLIC_TEMPLATES: readonly TemplateRecord[] = [
  publicTemplate({
    id: PUBLIC_TEMPLATE_IDS.podPytorch,
    name: 'PyTorch 2.8 (pod)',
    image: 'runpod/pytorch:2.8.0-py3.11-cuda12.8.1',
    disk: 50,
    mounts: { persistent: { size: 20, path: '/workspace' } },
    ports: ['8888/http', '22/tcp'],
    env: { JUPYTER_ENABLE_LAB: 'yes' },
    serverless: false,
    startSsh: true,
    startJupyter: true,
  }),
  publicTemplate({
    id: PUBLIC_TEMPLATE_IDS.vllm,
    name: 'vLLM worker',
    image: 'runpod/worker-v1-vllm:v2.7.0',
    disk: 50,
    ports: ['8000/http'],
    env: { MODEL_NAME: 'Qwen/Qwen2.5-7B-Instruct', MAX_MODEL_LEN: '8192', GPU_MEMORY_UTILIZATION: '0.95' },
    allowedCudaVersions: ['12.4', '12.6', '12.8'],
  }),
  publicTemplate({
    id: PUBLIC_TEMPLATE_IDS.comfy,
    name: 'ComfyUI worker',
    image: 'runpod/worker-comfyui:5.4.1-base',
    args: '{"cmd":["python","-u","/handler.py"]}',
    disk: 30,
    ports: [],
    env: { COMFY_LOG_LEVEL: 'INFO' },
  }),
  publicTemplate({
    id: PUBLIC_TEMPLATE_IDS.loadBalancer,
    name: 'FastAPI load balancer starter',
    image: 'runpod/worker-load-balancer:0.3.0',
    disk: 10,
    ports: ['80/http'],
    env: { PORT: '80', PORT_HEALTH: '80', HEALTH_CHECK_PATH: '/ping' },
  }),
  publicTemplate({
    id: PUBLIC_TEMPLATE_IDS.cpuWorker,
    name: 'Python CPU worker',
    image: 'runpod/base:0.6.3-cpu',
    args: 'python -u handler.py',
    disk: 5,
    ports: [],
    env: {},
    category: 'CPU',
  }),
];

export function findGpuType(id: string): GpuTypeSeed | undefined {
  return GPU_TYPES.find((g) => g.id === id);
}

export function findCpuFlavor(id: string): CpuFlavorSeed | undefined {
  return CPU_FLAVORS.find((c) => c.id === id);
}

export function poolMembers(pool: string): GpuTypeSeed[] {
  return GPU_TYPES.filter((g) => g.pool === pool);
}
