/** Snippets for whole sections of a spec, offered where the section's key would go. */

export const SECTION_SNIPPETS = [
  {
    key: 'gpu',
    label: 'gpu section',
    description: 'GPU compute: pools to run on, GPUs per worker.',
    yaml: 'gpu:\n  pools: [${1:ADA_24}]\n  count: ${2:1}',
    json: '"gpu": {\n  "pools": ["${1:ADA_24}"],\n  "count": ${2:1}\n}',
  },
  {
    key: 'cpu',
    label: 'cpu section',
    description: 'CPU compute: a flavor and its vCPU count per worker.',
    yaml: 'cpu:\n  - id: ${1:cpu3c}\n    vcpuCount: ${2|2,4,8,16|}',
    json: '"cpu": [\n  { "id": "${1:cpu3c}", "vcpuCount": ${2|2,4,8,16|} }\n]',
  },
  {
    key: 'scaling',
    label: 'scaling on queue delay',
    description: 'Add workers when requests wait longer than queueDelay seconds (QUEUE endpoints).',
    yaml: 'scaling:\n  type: QUEUE_DELAY\n  queueDelay: ${1:4}',
    json: '"scaling": { "type": "QUEUE_DELAY", "queueDelay": ${1:4} }',
  },
  {
    key: 'scaling',
    label: 'scaling on request count',
    description: 'Add workers when in-flight requests per worker exceed requestCount (required for LOAD_BALANCER).',
    yaml: 'scaling:\n  type: REQUEST_COUNT\n  requestCount: ${1:4}',
    json: '"scaling": { "type": "REQUEST_COUNT", "requestCount": ${1:4} }',
  },
  {
    key: 'workers',
    label: 'workers section',
    description: 'Autoscaling bounds: always-on minimum, maximum, idle timeout.',
    yaml: 'workers:\n  min: ${1:0}\n  max: ${2:3}\n  idleTimeout: ${3:10}',
    json: '"workers": { "min": ${1:0}, "max": ${2:3}, "idleTimeout": ${3:10} }',
  },
] as const;
