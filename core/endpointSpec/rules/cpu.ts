import { minimumOf } from '../contract';
import { BOTH_MODES, record, type RuleFinding, type SpecRule } from './rule';

export function isPowerOfTwo(n: number): boolean {
  return Number.isInteger(n) && n >= 1 && (n & (n - 1)) === 0;
}

export const vcpuPowerOfTwo: SpecRule = {
  code: 'vcpu-not-power-of-two',
  severity: 'error',
  status: 422,
  modes: BOTH_MODES,
  description: '`cpu[].vcpuCount` is a power of two, at least 2.',
  check(spec) {
    if (!Array.isArray(spec.cpu)) return [];
    return spec.cpu.flatMap((item: unknown, index): RuleFinding[] => {
      const count = record(item)?.vcpuCount;
      // Below the minimum and non-integers are the schema's to report.
      if (typeof count !== 'number' || !Number.isInteger(count) || count < minimumOf('cpu[].vcpuCount') || isPowerOfTwo(count)) return [];
      const lower = 2 ** Math.floor(Math.log2(count));
      const message = `vcpuCount must be a power of two (2, 4, 8, 16, ...); got: ${count}, the nearest are ${lower} and ${lower * 2}`;
      return [{ path: ['cpu', index, 'vcpuCount'], target: 'value', message }];
    });
  },
};
