import { BOTH_MODES, CREATE_ONLY, record, type SpecRule } from './rule';

const DEFAULT_MAX_WORKERS = 3;

export const workersMinAboveMax: SpecRule = {
  code: 'workers-min-above-max',
  severity: 'warning',
  modes: CREATE_ONLY,
  description: '`workers.min` is not above `workers.max` (which defaults to 3).',
  check(spec) {
    const workers = record(spec.workers);
    const min = workers?.min;
    const max = workers?.max ?? DEFAULT_MAX_WORKERS;
    if (typeof min !== 'number' || typeof max !== 'number' || min <= max) return [];
    const maxText = workers?.max === undefined ? `the default max of ${DEFAULT_MAX_WORKERS}` : `max (${max})`;
    return [{ path: ['workers', 'min'], target: 'value', message: `workers.min (${min}) is above ${maxText}: raise max or lower min` }];
  },
};

export const workersMaxZero: SpecRule = {
  code: 'workers-max-zero',
  severity: 'warning',
  modes: BOTH_MODES,
  description: '`workers.max: 0` leaves the endpoint unable to run any worker.',
  check(spec) {
    if (record(spec.workers)?.max !== 0) return [];
    return [
      {
        path: ['workers', 'max'],
        target: 'value',
        message: 'with workers.max at 0 no worker can ever start, so every request waits forever; set it to 1 or more',
      },
    ];
  },
};
