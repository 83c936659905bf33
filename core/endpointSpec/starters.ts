/**
 * Starter specs: the New Endpoint Spec command writes them, and the language server offers them
 * as snippets in an empty spec, so every editor gets the same three starting points.
 */

export interface SpecStarter {
  readonly id: 'queue-gpu' | 'load-balancer-gpu' | 'queue-cpu';
  readonly label: string;
  readonly description: string;
  /** YAML text with `${1:...}` tab stops; `name` fills the first one. */
  readonly snippet: string;
}

export const SPEC_STARTERS: readonly SpecStarter[] = [
  {
    id: 'queue-gpu',
    label: 'Queue endpoint on GPU',
    description: 'Jobs through a managed queue (run / runsync), scaled on queue delay, on 24 GB GPUs.',
    snippet: [
      'name: ${1:my-gpu-worker}',
      'type: QUEUE',
      'image: ${2:myorg/worker:1.0.0}',
      'gpu:',
      '  pools: [${3:ADA_24}, AMPERE_24]',
      '  count: 1',
      'workers:',
      '  min: 0',
      '  max: 3',
      '  idleTimeout: 10',
      'scaling:',
      '  type: QUEUE_DELAY',
      '  queueDelay: 4',
      'flashboot: FLASHBOOT',
      'timeout: 300000',
      'env:',
      '  LOG_LEVEL: "info"',
      '',
    ].join('\n'),
  },
  {
    id: 'load-balancer-gpu',
    label: 'Load-balancer endpoint on GPU',
    description: 'HTTP requests straight to your server inside the worker, scaled on in-flight requests.',
    snippet: [
      'name: ${1:my-http-service}',
      'type: LOAD_BALANCER',
      'image: ${2:myorg/http-service:1.0.0}',
      'gpu:',
      '  pools: [${3:ADA_24}]',
      'workers:',
      '  min: 0',
      '  max: 2',
      'scaling:',
      '  type: REQUEST_COUNT',
      '  requestCount: 4',
      'ports: ["8000/http"]',
      'env:',
      '  PORT: "8000"',
      '  PORT_HEALTH: "8000"',
      '  HEALTH_CHECK_PATH: "/ping"',
      '',
    ].join('\n'),
  },
  {
    id: 'queue-cpu',
    label: 'Queue endpoint on CPU',
    description: 'Jobs through a managed queue on CPU workers: no GPU, no CUDA constraints.',
    snippet: [
      'name: ${1:my-cpu-worker}',
      'type: QUEUE',
      'image: ${2:myorg/cpu-worker:1.0.0}',
      'cpu:',
      '  - id: ${3:cpu3c}',
      '    vcpuCount: 4',
      'workers:',
      '  min: 0',
      '  max: 3',
      'scaling:',
      '  type: QUEUE_DELAY',
      '  queueDelay: 4',
      '',
    ].join('\n'),
  },
];

/** The starter as plain text: every tab stop replaced by its placeholder, the first by `name`. */
export function starterText(starter: SpecStarter, name?: string): string {
  const safeName = name === undefined ? undefined : /^[\w.-]+$/.test(name) ? name : JSON.stringify(name);
  return starter.snippet
    .replace(/\$\{1:([^}]*)\}/, (_, placeholder: string) => safeName ?? placeholder)
    .replace(/\$\{\d+:([^}]*)\}/g, '$1');
}
