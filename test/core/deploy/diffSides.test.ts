/**
 * The two sides of the editor's live ↔ spec diff: one key order on both, and what the spec leaves to the service,
 * its template or a default written on the spec side too, so the diff holds as many differences as the plan has
 * changes. The sides are written as the editor writes them (YAML through serializeSpec) and compared line by line.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiClient, CreateEndpointRequest, Endpoint } from '../../../core/api';
import { driftBetween, type Spec } from '../../../core/deploy';
import { filledLines, filledNote, liveSide, specSide } from '../../../core/deploy/diffSides';
import { inSpecOrder } from '../../../core/deploy/fieldOrder';
import { serializeSpec } from '../../../core/endpointSpec/serialize';
import { ALL_SPECS, gpuQueueSpec, loadBalancerSpec, templateSpec, withEmulator } from './support';

const yaml = (spec: Spec): string => `${serializeSpec(spec, 'yaml')}\n`;

/** How many separate blocks of changed lines a line diff of the two texts has (a longest common subsequence). */
function changedBlocks(left: string, right: string): number {
  const a = left.split('\n');
  const b = right.split('\n');
  const common = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      common[i][j] = a[i] === b[j] ? common[i + 1][j + 1] + 1 : Math.max(common[i + 1][j], common[i][j + 1]);
  let blocks = 0;
  let inBlock = false;
  for (let i = 0, j = 0; i < a.length || j < b.length;) {
    const same = i < a.length && j < b.length && a[i] === b[j];
    if (same) {
      i++;
      j++;
    } else if (j >= b.length || (i < a.length && common[i + 1][j] >= common[i][j + 1])) i++;
    else j++;
    if (!same && !inBlock) blocks++;
    inBlock = !same;
  }
  return blocks;
}

const diffOf = (spec: Spec, live: Endpoint): { left: string; right: string; blocks: number } => {
  const left = yaml(liveSide(live));
  const right = yaml(specSide(spec, live).spec);
  return { left, right, blocks: changedBlocks(left, right) };
};

const create = async (api: ApiClient, spec: Spec): Promise<Endpoint> => {
  const { $schema: _schema, ...body } = spec;
  return api.serverless.get((await api.serverless.create(body as unknown as CreateEndpointRequest)).id);
};

/** The live record of a GPU queue endpoint as the service answers it, with the disk it chose. */
const liveRecord = (extra: Spec = {}): Spec => ({
  id: 'gv260osikm4ngf',
  name: 'sdxl-worker',
  type: 'QUEUE',
  image: 'myorg/sdxl-worker:1.4.2',
  disk: 20,
  env: { LOG_LEVEL: 'info' },
  gpu: { pools: ['ADA_24', 'AMPERE_24'], count: 1 },
  workers: { min: 0, max: 3, idleTimeout: 10 },
  scaling: { queueDelay: 4, type: 'QUEUE_DELAY' },
  timeout: 300000,
  flashboot: 'OFF',
  ...extra,
});

describe('the key order of both sides', () => {
  it('is the create body order, nested fields in their schema order and env by key', () => {
    const side = specSide({
      flashboot: 'OFF',
      scaling: { queueDelay: 4, type: 'QUEUE_DELAY' },
      env: { ZETA: '1', ALPHA: '2' },
      workers: { idleTimeout: 5, max: 2, min: 0 },
      gpu: { minCudaVersion: '12.4', count: 1, pools: ['ADA_24'] },
      image: 'a/b:1',
      futureField: true,
      type: 'QUEUE',
      name: 'x',
    }).spec;
    assert.deepEqual(Object.keys(side), ['name', 'type', 'image', 'env', 'gpu', 'workers', 'scaling', 'flashboot', 'futureField']);
    assert.deepEqual(Object.keys(side.env as Spec), ['ALPHA', 'ZETA']);
    assert.deepEqual(Object.keys(side.gpu as Spec), ['pools', 'count', 'minCudaVersion']);
    assert.deepEqual(Object.keys(side.workers as Spec), ['min', 'max', 'idleTimeout']);
    assert.deepEqual(Object.keys(side.scaling as Spec), ['type', 'queueDelay']);
  });

  it('puts the fields of each cpu item in their schema order', () => {
    const side = specSide({ name: 'c', cpu: [{ vcpuCount: 4, id: 'cpu5c' }] }).spec;
    assert.deepEqual(Object.keys((side.cpu as Spec[])[0]), ['id', 'vcpuCount']);
  });

  it('is the same on the live side, whatever order the service answers in', () => {
    const live = liveSide(liveRecord({ env: { Z: '1', A: '2' }, scaling: { queueDelay: 4, type: 'QUEUE_DELAY' } }));
    assert.deepEqual(Object.keys(live), ['name', 'type', 'image', 'disk', 'env', 'gpu', 'workers', 'scaling', 'timeout', 'flashboot']);
    assert.deepEqual(Object.keys(live.env as Spec), ['A', 'Z']);
    assert.deepEqual(Object.keys(live.scaling as Spec), ['type', 'queueDelay']);
  });

  it('keeps what the schema does not know after what it does, and lists as they are', () => {
    const ordered = inSpecOrder({ gpu: { later: 1, pools: ['B', 'A'], earlier: 2, count: 1 }, extra: { z: 1, a: 2 }, name: 'x' });
    assert.deepEqual(
      JSON.stringify(ordered),
      JSON.stringify({ name: 'x', gpu: { pools: ['B', 'A'], count: 1, later: 1, earlier: 2 }, extra: { z: 1, a: 2 } }),
    );
  });

  it('is the order the plan lists its changes in', () => {
    const live = liveRecord();
    const spec: Spec = {
      flashboot: 'FLASHBOOT',
      scaling: { type: 'QUEUE_DELAY', queueDelay: 9 },
      env: { ZETA: '1', LOG_LEVEL: 'debug' },
      workers: { max: 5, min: 1 },
      gpu: { count: 2, pools: ['ADA_24'] },
      image: 'a/b:2',
      type: 'QUEUE',
      name: 'sdxl-worker',
    };
    const changes = driftBetween(spec, live);
    const text = yaml(specSide(spec, live).spec);
    const lines = filledLines(
      text,
      changes.map((c) => ({ segments: c.segments, by: 'default' })),
    ).map((l) => l.line);
    assert.equal(lines.length, changes.length);
    assert.deepEqual(
      lines,
      [...lines].sort((a, b) => a - b),
      changes.map((c) => c.path).join(', '),
    );
  });

  it('without a live endpoint, is the spec as sent and nothing else', () => {
    const side = specSide({ $schema: 'x', name: 'x', templateId: 't1', env: { B: '1' } });
    assert.deepEqual(side.spec, { name: 'x', templateId: 't1', env: { B: '1' } });
    assert.deepEqual(side.filled, []);
  });
});

describe('what the spec leaves to the service', () => {
  const spec: Spec = {
    name: 'sdxl-worker',
    type: 'QUEUE',
    image: 'myorg/sdxl-worker:1.4.2',
    gpu: { pools: ['ADA_24', 'AMPERE_24'] },
    workers: { max: 3 },
    scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
    env: { LOG_LEVEL: 'info' },
  };

  it('is written on the spec side with the live value and listed as filled in', () => {
    const side = specSide(spec, liveRecord());
    assert.equal(side.spec.disk, 20);
    assert.deepEqual(
      side.filled.map((f) => `${f.segments.join('.')}: ${f.by}`),
      [
        'disk: service',
        'gpu.count: default',
        'workers.min: default',
        'workers.idleTimeout: default',
        'timeout: default',
        'flashboot: default',
      ],
    );
    assert.equal(yaml(side.spec), yaml(liveSide(liveRecord())), 'an endpoint that matches its spec diffs empty');
  });

  it('is never a removal: disk changed in the console is still no difference', () => {
    const live = liveRecord({ disk: 40 });
    assert.deepEqual(driftBetween(spec, live), []);
    assert.equal(changedBlocks(yaml(liveSide(live)), yaml(specSide(spec, live).spec)), 0);
  });

  it('shows a default the live endpoint lost as the value a deploy sets', () => {
    const live = liveRecord({ timeout: 100000 });
    const side = specSide(spec, live);
    assert.equal(side.spec.timeout, 300000);
    assert.ok(side.filled.some((f) => f.segments.join('.') === 'timeout' && f.by === 'default'));
    assert.deepEqual(
      driftBetween(spec, live).map((c) => c.path),
      ['timeout'],
    );
    assert.equal(changedBlocks(yaml(liveSide(live)), yaml(side.spec)), 1);
  });

  it('writes what a template set, and leaves the create-only templateId off', () => {
    const live = liveRecord({
      image: 'runpod/worker-v1-vllm:v2.7.0',
      ports: ['8000/http'],
      env: { MODEL_NAME: 'qwen', LOG_LEVEL: 'info' },
    });
    const side = specSide({ ...spec, image: undefined, templateId: 'tplvllmworker1' }, live);
    assert.ok(!('templateId' in side.spec));
    assert.equal(side.templateId, 'tplvllmworker1');
    const byTemplate = side.filled.filter((f) => f.by === 'template').map((f) => f.segments.join('.'));
    assert.deepEqual(byTemplate, ['image', 'disk', 'ports', 'env.MODEL_NAME']);
    assert.equal(yaml(side.spec), yaml(liveSide(live)));
  });

  it('keeps a key the spec removes from env out of the spec side', () => {
    const live = liveRecord({ env: { LOG_LEVEL: 'info', DEBUG: '1' } });
    const side = specSide(spec, live);
    assert.deepEqual(side.spec.env, { LOG_LEVEL: 'info' });
    assert.equal(changedBlocks(yaml(liveSide(live)), yaml(side.spec)), 1);
  });

  it('finds the line of each filled-in field, and says why it is there', () => {
    const side = specSide(spec, liveRecord());
    const text = yaml(side.spec);
    const lines = text.split('\n');
    const marked = filledLines(text, side.filled).map(({ line, end, by }) => `${lines[line].slice(0, end)} ← ${filledNote(by)}`);
    assert.deepEqual(marked, [
      'disk: 20 ← set by the service',
      '  count: 1 ← default',
      '  min: 0 ← default',
      '  idleTimeout: 10 ← default',
      'timeout: 300000 ← default',
      'flashboot: OFF ← default',
    ]);
    assert.equal(filledNote('template', 'tpl1'), 'set by the service from template tpl1');
  });
});

/** One field changed in the spec, as a person would edit it. */
const EDITS: ReadonlyArray<[string, (spec: Spec) => Spec]> = [
  ['workers.max', (s) => ({ ...s, workers: { ...(s.workers as Spec | undefined), max: 7 } })],
  ['image', (s) => ({ ...s, image: 'myorg/other:2.0' })],
  ['env', (s) => ({ ...s, env: { ...(s.env as Spec | undefined), NEW_KEY: 'yes' } })],
  ['timeout', (s) => ({ ...s, timeout: 123000 })],
  ['name', (s) => ({ ...s, name: `${String(s.name)}-renamed` })],
];

describe('the diff of an endpoint made by the emulator', () => {
  it('is empty for each kind of spec the endpoint was made from, service defaults and all', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      for (const [label, makeSpec] of ALL_SPECS) {
        const spec = makeSpec();
        const live = await create(api, spec);
        const { left, right, blocks } = diffOf(spec, live);
        assert.equal(blocks, 0, `${label}\n--- live\n${left}--- spec\n${right}`);
      }
    });
  });

  it('holds one difference for one changed field, as the plan has one change', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      for (const [label, makeSpec] of [
        ['GPU queue', gpuQueueSpec],
        ['load balancer', loadBalancerSpec],
        ['template', templateSpec],
      ] as const) {
        const live = await create(api, makeSpec());
        for (const [field, edit] of EDITS) {
          const spec = edit(makeSpec());
          const changes = driftBetween(spec, live);
          const { left, right, blocks } = diffOf(spec, live);
          assert.equal(changes.length, 1, `${label}, ${field}: ${changes.map((c) => c.path).join(', ')}`);
          assert.equal(blocks, 1, `${label}, ${field}\n--- live\n${left}--- spec\n${right}`);
        }
      }
    });
  });

  it('holds one difference for a field changed in the console', async () => {
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const spec = gpuQueueSpec();
      const { id } = await create(api, spec);
      await api.serverless.update(id, { workers: { min: 1, max: 9, idleTimeout: 30 } });
      const live = await api.serverless.get(id);
      assert.deepEqual(
        driftBetween(spec, live).map((c) => c.path),
        ['workers.max'],
      );
      assert.equal(diffOf(spec, live).blocks, 1);
    });
  });
});
