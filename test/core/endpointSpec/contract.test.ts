/**
 * The schema is the one source of the contract's facts: a default or the applicability of
 * `workers.idleTimeout`, changed in a copy of the schema alone, changes what the emulator stores
 * for a create over HTTP, what the deploy planner calls unchanged and what the rules report.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import commonSchema from '../../../schemas/common.schema.json';
import createSchema from '../../../schemas/endpoint-create.schema.json';
import { ApiError, type ApiClient, type CreateEndpointRequest, type Endpoint } from '../../../core/api';
import { effectiveSpec, planDeployment, type Spec } from '../../../core/deploy';
import { contract, readContract, useContractSchemas, type ContractSchemas } from '../../../core/endpointSpec/contract';
import { validateSpecData } from '../../../core/endpointSpec/validate';
import { withEmulator } from '../api/support';

type CreateSchema = typeof createSchema;
type CommonSchema = typeof commonSchema;

/** Copies of the bundled schemas with `edit` applied; the bundled objects are never touched. */
function editedSchemas(edit: (create: CreateSchema, common: CommonSchema) => void): ContractSchemas {
  const create = structuredClone(createSchema);
  const common = structuredClone(commonSchema);
  edit(create, common);
  return { create, referenced: [common] };
}

const BUNDLED_TIMEOUT = createSchema.properties.timeout.default;
const EDITED_TIMEOUT = BUNDLED_TIMEOUT + 123_000;
const IDLE_TIMEOUT_SCHEMA = commonSchema.$defs.workers.properties.idleTimeout;

const gpuSpec = (extra: Spec = {}): Spec => ({
  name: 'contract-check',
  type: 'QUEUE',
  image: 'example/worker:1.0',
  gpu: { pools: ['ADA_24'] },
  scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
  ...extra,
});

async function create(api: ApiClient, spec: Spec): Promise<Endpoint> {
  return api.serverless.create(spec as unknown as CreateEndpointRequest);
}

afterEach(() => {
  useContractSchemas();
});

describe('contract facts', () => {
  it('are every default, bound, unit and x-notApplicableWhen the bundled create schema states', () => {
    const facts = contract();
    assert.deepEqual(Object.fromEntries(facts.defaults), {
      'gpu.count': commonSchema.$defs.gpu.properties.count.default,
      'workers.min': commonSchema.$defs.workers.properties.min.default,
      'workers.max': commonSchema.$defs.workers.properties.max.default,
      'workers.idleTimeout': IDLE_TIMEOUT_SCHEMA.default,
      flashboot: createSchema.properties.flashboot.default,
      timeout: BUNDLED_TIMEOUT,
    });
    assert.equal(facts.minimums.get('cpu[].vcpuCount'), commonSchema.$defs.cpuItem.properties.vcpuCount.minimum);
    assert.equal(facts.minimums.get('scaling.queueDelay'), commonSchema.$defs.queueDelayScaling.properties.queueDelay.minimum);
    assert.equal(facts.minimums.get('scaling.requestCount'), commonSchema.$defs.requestCountScaling.properties.requestCount.minimum);
    assert.equal(facts.maximums.get('workers.idleTimeout'), IDLE_TIMEOUT_SCHEMA.maximum);
    assert.deepEqual(facts.notApplicableWhen.get('workers.idleTimeout'), IDLE_TIMEOUT_SCHEMA['x-notApplicableWhen']);
    assert.deepEqual(Object.fromEntries(facts.units), {
      'workers.idleTimeout': IDLE_TIMEOUT_SCHEMA['x-unit'],
      timeout: createSchema.properties.timeout['x-unit'],
    });
  });

  it('are read from a copy without changing the bundled schema', () => {
    const before = JSON.stringify([createSchema, commonSchema]);
    const edited = readContract(
      editedSchemas((create) => {
        create.properties.timeout.default = EDITED_TIMEOUT;
      }),
    );
    assert.equal(edited.defaults.get('timeout'), EDITED_TIMEOUT);
    assert.equal(contract().defaults.get('timeout'), BUNDLED_TIMEOUT);
    assert.equal(JSON.stringify([createSchema, commonSchema]), before);
  });

  it('refuses an x-notApplicableWhen that is not an object of field paths', () => {
    const broken = editedSchemas((_create, common) => {
      (common.$defs.workers.properties.idleTimeout as Record<string, unknown>)['x-notApplicableWhen'] = ['QUEUE'];
    });
    assert.throws(() => readContract(broken), /x-notApplicableWhen at workers\.idleTimeout/);
  });
});

describe('a default changed in the schema alone', () => {
  it('changes what the emulator stores for a create without timeout and what the planner calls unchanged', async () => {
    useContractSchemas(
      editedSchemas((create) => {
        create.properties.timeout.default = EDITED_TIMEOUT;
      }),
    );
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const created = await create(api, gpuSpec());
      assert.equal(created.timeout, EDITED_TIMEOUT);
      const live = await api.serverless.get(created.id);
      assert.equal(live.timeout, EDITED_TIMEOUT);
      assert.equal(planDeployment(gpuSpec(), live).kind, 'unchanged');

      const atOldDefault = await create(api, gpuSpec({ timeout: BUNDLED_TIMEOUT }));
      const plan = planDeployment(gpuSpec(), atOldDefault);
      assert.equal(plan.kind, 'update');
      assert.deepEqual(
        plan.changes.map((c) => [c.path, c.before, c.after]),
        [['timeout', BUNDLED_TIMEOUT, EDITED_TIMEOUT]],
      );
      assert.deepEqual(plan.patch, { timeout: EDITED_TIMEOUT });

      // With the bundled schema back in force, the same endpoints compare the other way round.
      useContractSchemas();
      assert.equal(planDeployment(gpuSpec(), live).kind, 'update');
      assert.equal(planDeployment(gpuSpec(), atOldDefault).kind, 'unchanged');
      assert.equal((await create(api, gpuSpec())).timeout, BUNDLED_TIMEOUT);
    });
  });
});

type EndpointType = 'QUEUE' | 'LOAD_BALANCER';
type Scaler = 'QUEUE_DELAY' | 'REQUEST_COUNT';
const COMBINATIONS: ReadonlyArray<[EndpointType, Scaler]> = [
  ['QUEUE', 'QUEUE_DELAY'],
  ['QUEUE', 'REQUEST_COUNT'],
  ['LOAD_BALANCER', 'REQUEST_COUNT'],
  ['LOAD_BALANCER', 'QUEUE_DELAY'],
];

const scalingOf = (scaler: Scaler): Spec =>
  scaler === 'QUEUE_DELAY' ? { type: 'QUEUE_DELAY', queueDelay: 4 } : { type: 'REQUEST_COUNT', requestCount: 2 };

/** What `x-notApplicableWhen` says of one combination, worked out here from the keyword's value alone. */
function appliesPerKeyword(when: Readonly<Record<string, unknown>>, type: EndpointType, scaler: Scaler): boolean {
  const values: Record<string, unknown> = { type, 'scaling.type': scaler };
  return !Object.entries(when).every(([field, value]) => values[field] === value);
}

/** The rule, the planner and the emulator each say whether `workers.idleTimeout` applies to every combination. */
async function checkAgreement(api: ApiClient, when: Readonly<Record<string, unknown>>): Promise<void> {
  const defaultIdle = IDLE_TIMEOUT_SCHEMA.default;
  for (const [type, scaler] of COMBINATIONS) {
    const label = `${type} + ${scaler}`;
    const expected = appliesPerKeyword(when, type, scaler);
    const spec = gpuSpec({ name: `idle-${type}-${scaler}`.toLowerCase(), type, scaling: scalingOf(scaler) });
    const withIdle = { ...spec, workers: { idleTimeout: 30 } };

    const ruleRefuses = validateSpecData(withIdle, 'create').some((p) => p.code === 'idle-timeout-not-applicable');
    assert.equal(ruleRefuses, !expected, `rule, ${label}`);

    const planned = effectiveSpec(spec).fields.get('workers.idleTimeout');
    assert.equal(planned?.value, expected ? defaultIdle : undefined, `planner, ${label}`);

    const refusal = await create(api, withIdle).then(
      (endpoint) => ({ endpoint, errors: [] as string[] }),
      (error: unknown) => {
        assert.ok(error instanceof ApiError, String(error));
        return { endpoint: undefined, errors: error.errors.map((e) => e.path) };
      },
    );
    assert.equal(refusal.errors.includes('$.workers.idleTimeout'), !expected, `emulator refusal, ${label}: ${refusal.errors.join(', ')}`);
    // A load balancer cannot scale on QUEUE_DELAY at all: the emulator stores nothing to look at.
    if (type === 'LOAD_BALANCER' && scaler === 'QUEUE_DELAY') continue;
    if (expected) assert.equal(refusal.endpoint?.workers.idleTimeout, 30, `emulator keeps a sent idleTimeout, ${label}`);
    const stored = await api.serverless.get((await create(api, { ...spec, name: `${String(spec.name)}-default` })).id);
    assert.equal(stored.workers.idleTimeout, expected ? defaultIdle : undefined, `emulator stores, ${label}`);
  }
}

describe('where workers.idleTimeout applies comes from the schema keyword', () => {
  it('rule, planner and emulator agree with the bundled keyword on all four type/scaler combinations', async () => {
    await withEmulator({}, async (_emu, client) => {
      await checkAgreement(client(), IDLE_TIMEOUT_SCHEMA['x-notApplicableWhen']);
    });
  });

  it('rule, planner and emulator all follow an edited keyword', async () => {
    const when = { type: 'LOAD_BALANCER', 'scaling.type': 'REQUEST_COUNT' };
    useContractSchemas(
      editedSchemas((_create, common) => {
        common.$defs.workers.properties.idleTimeout['x-notApplicableWhen'] = when;
      }),
    );
    await withEmulator({}, async (_emu, client) => {
      await checkAgreement(client(), when);
    });
  });
});
