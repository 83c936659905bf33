/**
 * Shared set-up for the deploy engine's tests: the emulator on ephemeral ports (through the API
 * client's own test helper) and a handful of specs that cover each way a spec can be written.
 */
import { PUBLIC_TEMPLATE_IDS } from '../../../emulator';
import type { Spec } from '../../../core/deploy';

export { withEmulator, TEST_KEY, type Emulator } from '../api/support';

/** A GPU queue endpoint with most fields set, exclusions written with stray whitespace. */
export const gpuQueueSpec = (extra: Spec = {}): Spec => ({
  $schema: '../schemas/endpoint-create.schema.json',
  name: 'sdxl-worker',
  type: 'QUEUE',
  image: 'myorg/sdxl-worker:1.4.2',
  args: 'python -u handler.py --steps 30',
  gpu: { pools: ['ADA_24', 'AMPERE_24'], excludedTypes: [' NVIDIA L4'], count: 2, minCudaVersion: '12.4' },
  workers: { min: 1, max: 5, idleTimeout: 30 },
  scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
  dataCenterIds: ['US-TX-3', 'EU-RO-1'],
  flashboot: 'FLASHBOOT',
  timeout: 600000,
  ...extra,
});

export const loadBalancerSpec = (extra: Spec = {}): Spec => ({
  name: 'api-gateway',
  type: 'LOAD_BALANCER',
  image: 'myorg/fastapi:2.0',
  env: { PORT: '8000', PORT_HEALTH: '8001', HEALTH_CHECK_PATH: '/healthz', LOG_LEVEL: 'debug' },
  ports: ['8000/http', '8001/http'],
  disk: 15,
  gpu: { pools: ['AMPERE_48'], allowedCudaVersions: ['12.4', '12.8'] },
  scaling: { type: 'REQUEST_COUNT', requestCount: 8 },
  workers: { max: 2 },
  ...extra,
});

/** QUEUE + REQUEST_COUNT: the one combination without idleTimeout. */
export const cpuSpec = (extra: Spec = {}): Spec => ({
  name: 'cpu-batch',
  type: 'QUEUE',
  image: 'myorg/batch:3',
  cpu: [
    { id: 'cpu5c', vcpuCount: 4 },
    { id: 'cpu3g', vcpuCount: 8 },
  ],
  scaling: { type: 'REQUEST_COUNT', requestCount: 2 },
  ...extra,
});

/** Image, disk, ports and CUDA set come from the vLLM template; env merges with the template's. */
export const templateSpec = (extra: Spec = {}): Spec => ({
  name: 'llm',
  type: 'QUEUE',
  templateId: PUBLIC_TEMPLATE_IDS.vllm,
  env: { MAX_MODEL_LEN: '4096', HF_HUB_OFFLINE: '1' },
  gpu: { pools: ['AMPERE_48', 'ADA_48_PRO'] },
  scaling: { type: 'QUEUE_DELAY', queueDelay: 2 },
  ...extra,
});

export const jsonArgsSpec = (extra: Spec = {}): Spec => ({
  name: 'json-args',
  type: 'QUEUE',
  image: 'myorg/worker:1',
  args: '{"entrypoint":["python","-u"],"cmd":["handler.py","--port","8000"]}',
  gpu: { pools: ['AMPERE_16'] },
  scaling: { type: 'QUEUE_DELAY', queueDelay: 1 },
  ...extra,
});

/** The same command as `jsonArgsSpec`, spelled as arrays. */
export const arrayCommandSpec = (extra: Spec = {}): Spec => {
  const { args: _args, ...rest } = jsonArgsSpec({ name: 'array-command', ...extra });
  return { ...rest, entrypoint: ['python', '-u'], cmd: ['handler.py', '--port', '8000'] };
};

export const ALL_SPECS: ReadonlyArray<[string, () => Spec]> = [
  ['GPU queue', gpuQueueSpec],
  ['load balancer with env and ports', loadBalancerSpec],
  ['CPU queue on REQUEST_COUNT', cpuSpec],
  ['template with env merge', templateSpec],
  ['args in JSON form', jsonArgsSpec],
  ['entrypoint and cmd arrays', arrayCommandSpec],
];
