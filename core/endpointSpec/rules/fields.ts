import { BOTH_MODES, has, record, type RuleFinding, type SpecRule } from './rule';
import type { JsonPathSegment } from '../tree';

const RESPONSE_ONLY_ROOT = ['id', 'createdAt', 'requestUrls'] as const;

export const responseOnlyFields: SpecRule = {
  code: 'response-only-field',
  severity: 'error',
  status: 422,
  modes: BOTH_MODES,
  description: '`id`, `createdAt`, `requestUrls` and `cpu[].memory` are set by the service and cannot be sent.',
  check(spec) {
    const findings: RuleFinding[] = [];
    for (const key of RESPONSE_ONLY_ROOT) {
      if (has(spec, key))
        findings.push({ path: [key], target: 'key', message: `${key} is set by the service and cannot be sent; remove it` });
    }
    if (Array.isArray(spec.cpu)) {
      spec.cpu.forEach((item, index) => {
        if (has(record(item), 'memory')) {
          findings.push({
            path: ['cpu', index, 'memory'],
            target: 'key',
            message: 'memory is derived by the service from the flavor and vcpuCount and cannot be sent; remove it',
          });
        }
      });
    }
    return findings;
  },
};

export const timeoutInMilliseconds: SpecRule = {
  code: 'timeout-units',
  severity: 'warning',
  modes: BOTH_MODES,
  description: '`timeout` is in milliseconds; values under one second are almost always seconds by mistake.',
  check(spec) {
    const timeout = spec.timeout;
    if (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout >= 1000) return [];
    const message =
      timeout <= 0
        ? `timeout must be a positive number of milliseconds; got: ${timeout}`
        : `timeout is in milliseconds, so ${timeout} is ${timeout / 1000} s; for ${timeout} seconds write ${timeout * 1000}`;
    return [{ path: ['timeout'], target: 'value', message }];
  },
};

/** YAML can write `.inf` and `.nan`; JSON cannot carry them, so the service would never see the value. */
export const finiteNumbers: SpecRule = {
  code: 'non-finite-number',
  severity: 'error',
  status: 400,
  modes: BOTH_MODES,
  description: 'Numbers are finite: `.inf` and `.nan` cannot be sent as JSON.',
  check(spec) {
    const findings: RuleFinding[] = [];
    findNonFinite(spec, [], findings);
    return findings;
  },
};

/**
 * Adds a finding for each non-finite number in `value`. The path is one stack, copied only for a finding,
 * so a spec full of numbers allocates nothing but its findings.
 */
function findNonFinite(value: unknown, path: JsonPathSegment[], findings: RuleFinding[]): void {
  if (typeof value === 'number') {
    if (!Number.isFinite(value))
      findings.push({ path: [...path], target: 'value', message: `numbers must be finite; got: ${String(value)}` });
    return;
  }
  if (value === null || typeof value !== 'object' || path.length >= 64) return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      findNonFinite(value[i], path, findings);
      path.pop();
    }
    return;
  }
  const mapping = value as Record<string, unknown>;
  for (const key in mapping) {
    if (!Object.hasOwn(mapping, key)) continue;
    path.push(key);
    findNonFinite(mapping[key], path, findings);
    path.pop();
  }
}
