/**
 * The emulator on bodies with keys and values named after Object.prototype's members: the create that
 * once answered 500 (`cpu: [{}, {toString: 0}]`), every placement of every name in creates and PATCHes,
 * and fast-check's random specs are answered 400 or 422 naming the key; env names with string values
 * are stored like any other; and nothing reaches Object.prototype.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { formatJsonPath } from '../../core/endpointSpec/tree';
import { startEmulator, type RunningEmulator } from '../../emulator';
import { fuzz } from '../support/fuzz';
import { corpusFiles, PROTOTYPE_KEYS } from './corpus';
import {
  assertPrototypeIntact,
  BASE,
  createBody,
  hostileSpec,
  isLegacy,
  LEAK,
  memberKeySpots,
  PLACEMENTS,
  unknown,
  type Expected,
  type Placement,
  type Spec,
} from './prototypeKeyCases';
import { count, reportFigures, SECRET_KEY } from './support';

after(() => {
  reportFigures(__filename);
});

describe('prototype member names sent to the emulator', () => {
  let emu: RunningEmulator;
  const ids: Record<Placement['compute'], string> = { cpu: '', gpu: '' };
  const send = async (method: string, path: string, body: unknown): Promise<{ status: number; type: string; body: Spec }> => {
    const response = await fetch(`${emu.restUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${SECRET_KEY}`, 'Content-Type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: response.status, type: response.headers.get('content-type') ?? '', body: (await response.json()) as Spec };
  };

  before(async () => {
    emu = await startEmulator({ port: 0, jobsPort: 0, apiKey: SECRET_KEY, seed: 11, rateLimits: { minute: 1e6, hour: 1e7, day: 1e8 } });
    for (const compute of ['cpu', 'gpu'] as const) {
      const created = await send('POST', '/v2/serverless', BASE[compute]);
      assert.equal(created.status, 201, JSON.stringify(created.body));
      ids[compute] = String(created.body.id);
    }
  });
  after(async () => {
    await emu.close();
  });

  /** A 400 or 422 problem whose `errors` name each expected spot. */
  function assertRejected(answer: { status: number; type: string; body: Spec }, expected: readonly Expected[], what: string): void {
    count({ inputsTried: 1 });
    assert.ok(answer.status === 400 || answer.status === 422, `${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
    assert.match(answer.type, /application\/problem\+json/, what);
    const errors = (answer.body.errors ?? []) as string[];
    for (const { path } of expected)
      assert.ok(
        errors.some((e) => e.startsWith(`${formatJsonPath(path)}: `)),
        `${what}: nothing about ${formatJsonPath(path)} in ${errors.join('; ')}`,
      );
    assert.doesNotMatch(JSON.stringify(answer.body), LEAK, what);
  }

  it('the crash body, as sent: 422 naming $.cpu[1].toString', async () => {
    const crash = corpusFiles().find((i) => i.fileName === 'prototype-key-crash.endpoint.json');
    assert.ok(crash);
    assertRejected(await send('POST', '/v2/serverless', crash.text()), [unknown('cpu', 1, 'toString')], 'the crash body');
  });

  it('every placement of every name: creates and PATCHes answered 400/422, nothing stored', async () => {
    const before = (await send('GET', '/v2/serverless', undefined)).body;
    for (const placement of PLACEMENTS) {
      for (const name of PROTOTYPE_KEYS) {
        const what = `${name} as ${placement.where}`;
        assertRejected(await send('POST', '/v2/serverless', createBody(placement, name)), placement.expected(name), `create, ${what}`);
        assertRejected(await send('PATCH', `/v2/serverless/${ids[placement.compute]}`, placement.patch(name)), [], `PATCH, ${what}`);
      }
    }
    assert.deepEqual((await send('GET', '/v2/serverless', undefined)).body, before, 'nothing created, no PATCH applied');
    assertPrototypeIntact();
  });

  it('env names with string values are stored and answered as they were sent', async () => {
    const env = Object.fromEntries(PROTOTYPE_KEYS.map((name) => [name, `value of ${name}`]));
    const created = await send('POST', '/v2/serverless', { ...BASE.cpu, env });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.deepEqual(created.body.env, env);
    const read = await send('GET', `/v2/serverless/${String(created.body.id)}`, undefined);
    assert.deepEqual(Object.keys(read.body.env as Spec).sort(), [...PROTOTYPE_KEYS].sort());
    assert.equal(
      (
        await fetch(`${emu.restUrl}/v2/serverless/${String(created.body.id)}`, {
          method: 'DELETE',
          headers: { Authorization: `Bearer ${SECRET_KEY}` },
        })
      ).status,
      204,
    );
  });

  it('templates, network volumes and registry credentials name such keys as unknown (422)', async () => {
    const bodies: [string, Spec][] = [
      ['/v2/templates', { name: 't', image: 'a:b' }],
      ['/v2/network-volumes', { name: 'v', size: 10, dataCenter: 'US-TX-3' }],
      ['/v2/registries', { name: 'r', username: 'u', password: 'p' }],
    ];
    for (const [path, body] of bodies) {
      for (const name of PROTOTYPE_KEYS) {
        const answer = await send('POST', path, { ...body, [name]: 1 });
        assert.equal(answer.status, 422, `${path} ${name}: ${JSON.stringify(answer.body)}`);
        assert.ok((answer.body.errors as string[]).includes(`$.${name}: unknown property: ${name}`), `${path} ${name}`);
        count({ inputsTried: 1 });
      }
    }
  });
});

describe('fast-check: random specs keyed with member names, sent to the emulator', () => {
  it('the emulator answers each random create below 500, and 400/422 naming every member-named key', async () => {
    const emu = await startEmulator({
      port: 0,
      jobsPort: 0,
      apiKey: SECRET_KEY,
      seed: 12,
      rateLimits: { minute: 1e6, hour: 1e7, day: 1e8 },
    });
    try {
      await fuzz(
        fc.asyncProperty(hostileSpec, async (spec) => {
          const response = await fetch(`${emu.restUrl}/v2/serverless`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${SECRET_KEY}`, 'Content-Type': 'application/json' },
            body: JSON.stringify(spec),
          });
          const answer = (await response.json()) as Spec;
          count({ inputsTried: 1 });
          assert.ok(response.status < 500, `${response.status} ${JSON.stringify(answer)}`);
          const spots = isLegacy(spec) ? [] : memberKeySpots(spec);
          if (spots.length === 0) return;
          assert.ok(response.status === 400 || response.status === 422, `${response.status} for ${JSON.stringify(spec)}`);
          const errors = answer.errors as string[];
          for (const path of spots)
            assert.ok(
              errors.some((e) => e.startsWith(`${formatJsonPath(path)}: `)),
              `${formatJsonPath(path)} in ${errors.join('; ')}`,
            );
        }),
        { numRuns: 60 },
      );
      assertPrototypeIntact();
    } finally {
      await emu.close();
    }
  });
});
