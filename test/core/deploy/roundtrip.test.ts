/**
 * The round trip must be lossless: what `liveAsSpec` reads from an endpoint validates clean and,
 * sent back as a create, makes an endpoint that reads the same. And a spec is never "different"
 * from the endpoint it just made.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { driftBetween, effectiveSpec, liveAsSpec, type Spec } from '../../../core/deploy';
import { validateSpecData } from '../../../core/endpointSpec/validate';
import type { CreateEndpointRequest } from '../../../core/api';
import { ALL_SPECS, arrayCommandSpec, jsonArgsSpec, templateSpec, withEmulator } from './support';

const asCreate = (spec: Spec): CreateEndpointRequest => spec as unknown as CreateEndpointRequest;

describe('live endpoint as a spec', () => {
  for (const [label, makeSpec] of ALL_SPECS) {
    it(`round-trips without loss: ${label}`, async () => {
      await withEmulator({}, async (_emu, client) => {
        const api = client();
        const spec = makeSpec();
        assert.deepEqual(
          validateSpecData(spec).filter((p) => p.severity === 'error'),
          [],
          'the fixture itself is valid',
        );
        const first = await api.serverless.get((await api.serverless.create(asCreate({ ...spec, $schema: undefined }))).id);
        assert.deepEqual(driftBetween(spec, first), [], 'a spec does not differ from the endpoint it made');

        const pulled = liveAsSpec(first);
        assert.deepEqual(validateSpecData(pulled), [], 'the pulled spec validates clean');
        for (const responseOnly of ['id', 'createdAt', 'requestUrls', 'templateId', 'entrypoint', 'cmd'])
          assert.ok(!(responseOnly in pulled), `${responseOnly} is left out`);

        const second = await api.serverless.get((await api.serverless.create(asCreate(pulled))).id);
        assert.notEqual(second.id, first.id);
        assert.deepEqual(liveAsSpec(second), pulled, 'sending the pulled spec back makes the same endpoint');
        assert.deepEqual(driftBetween(spec, second), []);
      });
    });
  }

  it('leaves out what the create body does not take', () => {
    const pulled = liveAsSpec({
      id: 'abc',
      name: 'x',
      type: 'QUEUE',
      createdAt: '2025-01-01T00:00:00Z',
      requestUrls: { run: 'https://example/run' },
      image: 'i',
      args: '',
      entrypoint: [],
      cmd: [],
      registry: null,
      env: {},
      ports: [],
      gpu: null,
      cpu: [{ id: 'cpu5c', vcpuCount: 4, memory: 8 }],
      workers: { min: 0, max: 3 },
      scaling: { type: 'REQUEST_COUNT', requestCount: 1 },
      dataCenterIds: [],
      networkVolumes: [],
      timeout: 300000,
      flashboot: 'OFF',
      futureField: 'from a newer service',
    });
    assert.deepEqual(pulled, {
      name: 'x',
      type: 'QUEUE',
      image: 'i',
      cpu: [{ id: 'cpu5c', vcpuCount: 4 }],
      workers: { min: 0, max: 3 },
      scaling: { type: 'REQUEST_COUNT', requestCount: 1 },
      timeout: 300000,
      flashboot: 'OFF',
    });
  });
});

describe('comparable form', () => {
  it('applies the create defaults and strips editor-only keys', () => {
    const fields = effectiveSpec({
      $schema: 'x',
      name: 'n',
      type: 'QUEUE',
      image: 'i',
      gpu: { pools: ['ADA_24'], excludedTypes: ['  NVIDIA GeForce RTX 4090 '] },
      scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
    }).fields;
    const value = (path: string): unknown => fields.get(path)?.value;
    assert.equal(value('workers.min'), 0);
    assert.equal(value('workers.max'), 3);
    assert.equal(value('workers.idleTimeout'), 10);
    assert.equal(value('flashboot'), 'OFF');
    assert.equal(value('timeout'), 300000);
    assert.equal(value('gpu.count'), 1);
    assert.deepEqual(value('gpu.excludedTypes'), ['NVIDIA GeForce RTX 4090']);
    assert.deepEqual(value('dataCenterIds'), []);
    assert.deepEqual(value('networkVolumes'), []);
    assert.ok(![...fields.keys()].some((k) => k.includes('schema')));
  });

  it('has no idleTimeout for QUEUE + REQUEST_COUNT', () => {
    const fields = effectiveSpec({
      name: 'n',
      type: 'QUEUE',
      image: 'i',
      gpu: { pools: ['ADA_24'] },
      scaling: { type: 'REQUEST_COUNT', requestCount: 3 },
    }).fields;
    assert.ok(!fields.has('workers.idleTimeout'));
  });

  it('reads the same command from args (JSON form) and from entrypoint/cmd', () => {
    assert.deepEqual(driftBetween(jsonArgsSpec({ name: 'same' }), arrayCommandSpec({ name: 'same' })), []);
    const shell = effectiveSpec({
      name: 'n',
      type: 'QUEUE',
      image: 'i',
      args: 'python -u "my handler.py"',
      gpu: { pools: ['ADA_24'] },
      scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
    });
    assert.deepEqual(shell.fields.get('cmd')?.value, ['python', '-u', 'my handler.py']);
  });

  it('does not compare what a spec leaves to its template', () => {
    const effective = effectiveSpec(templateSpec());
    for (const path of ['image', 'entrypoint', 'cmd', 'disk', 'ports', 'registry', 'gpu.allowedCudaVersions'])
      assert.ok(effective.unmanaged.has(path), path);
    assert.ok(effective.envBeyondSpecUnmanaged);
  });
});

describe('answers that leave type out', () => {
  it('reads the type from the shape of requestUrls, and does not compare what cannot be known', () => {
    const common = {
      id: 'e1',
      name: 'x',
      image: 'i',
      gpu: { pools: ['ADA_24'], count: 1, allowedCudaVersions: [], minCudaVersion: null },
      dataCenterIds: [],
      networkVolumes: [],
      timeout: 300000,
      flashboot: 'OFF',
      createdAt: '2025-01-01T00:00:00Z',
    };
    const lb = liveAsSpec({
      ...common,
      requestUrls: { base: 'https://e1.example', health: 'https://e1.example/ping' },
      workers: { min: 0, max: 3, idleTimeout: 10 },
      scaling: { type: 'REQUEST_COUNT', requestCount: 1 },
    });
    assert.equal(lb.type, 'LOAD_BALANCER');
    assert.equal((lb.workers as Spec).idleTimeout, 10);
    const unknown = { ...common, workers: { min: 0, max: 3, idleTimeout: 10 }, scaling: { type: 'QUEUE_DELAY', queueDelay: 4 } };
    assert.deepEqual(
      driftBetween(
        { name: 'x', type: 'QUEUE', image: 'i', gpu: { pools: ['ADA_24'] }, scaling: { type: 'QUEUE_DELAY', queueDelay: 4 } },
        unknown,
      ),
      [],
    );
  });
});
