import { BOTH_MODES, has, record, type RuleFinding, type SpecRule } from './rule';

const CUDA_KEYS = ['allowedCudaVersions', 'minCudaVersion'] as const;

export const cudaAllowedWithMin: SpecRule = {
  code: 'cuda-allowed-with-min',
  severity: 'error',
  status: 400,
  modes: BOTH_MODES,
  description: 'A non-empty `gpu.allowedCudaVersions` cannot be combined with `gpu.minCudaVersion`.',
  check(spec) {
    const gpu = record(spec.gpu);
    const allowed = gpu?.allowedCudaVersions;
    if (!Array.isArray(allowed) || allowed.length === 0 || !has(gpu, 'minCudaVersion')) return [];
    return [
      {
        path: ['gpu', 'minCudaVersion'],
        target: 'key',
        message:
          'minCudaVersion cannot be combined with a non-empty allowedCudaVersions: keep one of them (an empty allowedCudaVersions may accompany a floor)',
      },
    ];
  },
};

/** CUDA constraints exist only inside `gpu`; on a CPU create the service answers 422. */
export const cudaOutsideGpu: SpecRule = {
  code: 'cuda-outside-gpu',
  severity: 'error',
  status: 422,
  modes: BOTH_MODES,
  description: 'CUDA constraints are accepted only inside `gpu`; a CPU endpoint cannot express them.',
  check(spec) {
    const cpuEndpoint = has(spec, 'cpu') && !has(spec, 'gpu');
    const findings: RuleFinding[] = [];
    const report = (path: (string | number)[], key: string): void => {
      findings.push({
        path,
        target: 'key',
        message: cpuEndpoint
          ? `CUDA constraints apply only to GPU endpoints; remove ${key} from this CPU spec`
          : `${key} belongs inside gpu: move it to gpu.${key}`,
      });
    };
    for (const key of CUDA_KEYS) if (has(spec, key)) report([key], key);
    if (Array.isArray(spec.cpu)) {
      spec.cpu.forEach((item, index) => {
        for (const key of CUDA_KEYS) if (has(record(item), key)) report(['cpu', index, key], key);
      });
    }
    return findings;
  },
};
