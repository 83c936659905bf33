import { BOTH_MODES, CREATE_ONLY, has, record, type SpecRule } from './rule';

export const scalerMatchesType: SpecRule = {
  code: 'scaler-not-allowed',
  severity: 'error',
  status: 422,
  modes: CREATE_ONLY,
  description: '`LOAD_BALANCER` endpoints scale on `REQUEST_COUNT` only; `QUEUE_DELAY` is for `QUEUE` endpoints.',
  check(spec) {
    const scaling = record(spec.scaling);
    if (spec.type !== 'LOAD_BALANCER' || scaling?.type !== 'QUEUE_DELAY') return [];
    return [
      {
        path: ['scaling', 'type'],
        target: 'value',
        message: 'a LOAD_BALANCER endpoint has no queue, so it cannot scale on QUEUE_DELAY: use REQUEST_COUNT with requestCount',
      },
    ];
  },
};

export const idleTimeoutNotApplicable: SpecRule = {
  code: 'idle-timeout-not-applicable',
  severity: 'error',
  status: 400,
  modes: BOTH_MODES,
  description: '`workers.idleTimeout` is rejected for `QUEUE` endpoints that scale on `REQUEST_COUNT`.',
  check(spec) {
    const scaling = record(spec.scaling);
    if (spec.type !== 'QUEUE' || scaling?.type !== 'REQUEST_COUNT' || !has(record(spec.workers), 'idleTimeout')) return [];
    return [
      {
        path: ['workers', 'idleTimeout'],
        target: 'key',
        message: 'idleTimeout does not apply to a QUEUE endpoint that scales on REQUEST_COUNT: remove it, or scale on QUEUE_DELAY',
      },
    ];
  },
};
