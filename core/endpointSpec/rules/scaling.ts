/** Scaler choices the service refuses; where `workers.idleTimeout` applies is the schema's `x-notApplicableWhen`. */
import { describeConditions, fieldApplies, notApplicableWhen } from '../contract';
import { BOTH_MODES, CREATE_ONLY, has, record, type SpecRule } from './rule';

const IDLE_TIMEOUT = 'workers.idleTimeout';

/** The schema's conditions for refusing idleTimeout, in words; "never" if it states none. */
function idleTimeoutRefusedWhen(): string {
  const conditions = notApplicableWhen(IDLE_TIMEOUT);
  return conditions ? describeConditions(conditions) : 'never';
}

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
  get description() {
    return `\`workers.idleTimeout\` is rejected when ${idleTimeoutRefusedWhen()}.`;
  },
  check(spec) {
    if (fieldApplies(IDLE_TIMEOUT, spec) || !has(record(spec.workers), 'idleTimeout')) return [];
    const changeable = Object.keys(notApplicableWhen(IDLE_TIMEOUT) ?? {}).join(' or ');
    return [
      {
        path: ['workers', 'idleTimeout'],
        target: 'key',
        message: `idleTimeout does not apply when ${idleTimeoutRefusedWhen()}: remove it, or change ${changeable}`,
      },
    ];
  },
};
