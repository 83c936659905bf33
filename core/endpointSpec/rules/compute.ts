import { CREATE_ONLY, has, type SpecRule } from './rule';

export const computeChoice: SpecRule = {
  code: 'compute-choice',
  severity: 'error',
  status: 400,
  modes: CREATE_ONLY,
  description: 'Exactly one of `gpu` or `cpu` is sent.',
  check(spec) {
    const gpu = has(spec, 'gpu');
    const cpu = has(spec, 'cpu');
    if (gpu && cpu) {
      const message = 'an endpoint runs on GPU or CPU, not both: remove gpu or cpu';
      return [
        { path: ['gpu'], target: 'key', message },
        { path: ['cpu'], target: 'key', message },
      ];
    }
    if (!gpu && !cpu) {
      return [{ path: [], target: 'key', message: 'missing compute: add gpu (with pools) or cpu (a list of flavors with vcpuCount)' }];
    }
    return [];
  },
};
