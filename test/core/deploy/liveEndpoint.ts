/** A GPU queue endpoint as the service answers it, for tests that plan, roll back or read records without a service. */
import type { Endpoint } from '../../../core/api';

export const liveEndpoint = (extra: Partial<Endpoint> = {}): Endpoint => ({
  id: 'ep1',
  name: 'sdxl',
  type: 'QUEUE',
  image: 'example/worker:3.0',
  args: '',
  cmd: [],
  disk: 20,
  ports: [],
  env: {},
  registry: null,
  gpu: { pools: ['ADA_24'], excludedTypes: [], count: 1, allowedCudaVersions: [], minCudaVersion: null },
  workers: { min: 0, max: 3, idleTimeout: 10 },
  scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
  dataCenterIds: [],
  networkVolumes: [],
  timeout: 300000,
  flashboot: 'OFF',
  createdAt: '2026-01-01T00:00:00Z',
  ...extra,
});
