/** Scaling bounds that cannot work; an absent `workers.max` is the create schema's default. */
import { defaultNumber } from '../contract';
import { BOTH_MODES, CREATE_ONLY, record, type SpecRule } from './rule';

export const workersMinAboveMax: SpecRule = {
  code: 'workers-min-above-max',
  severity: 'warning',
  modes: CREATE_ONLY,
  get description() {
    return `\`workers.min\` is not above \`workers.max\` (which defaults to ${defaultNumber('workers.max')}).`;
  },
  check(spec) {
    const workers = record(spec.workers);
    const min = workers?.min;
    const max = workers?.max ?? defaultNumber('workers.max');
    if (typeof min !== 'number' || typeof max !== 'number' || min <= max) return [];
    const maxText = workers?.max === undefined ? `the default max of ${max}` : `max (${max})`;
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
