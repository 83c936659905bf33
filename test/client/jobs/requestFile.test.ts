/**
 * Request files: what is sent (input, webhook, policy; `$schema` dropped), what is refused before
 * sending and why, the example in examples/ and the committed schema agreeing with the checks, and
 * the endpoint of a request file found through the binding of the spec beside it. A request the
 * checks accept is accepted by the emulator.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { checkRequest, parseRequestText, siblingBinding, siblingSpecPaths } from '../../../client/jobs/requestFile';
import { serializeBindings, withBinding } from '../../../core/deploy';
import { gpuEndpoint, withEmulator } from '../../core/api/support';

const problemsOf = (data: unknown): string[] => {
  const result = checkRequest(data);
  return result.ok ? [] : result.problems;
};

describe('request files', () => {
  it('sends input, webhook and policy; leaves $schema out', () => {
    const parsed = parseRequestText(
      JSON.stringify({
        $schema: './request.schema.json',
        input: { prompt: 'hi' },
        webhook: 'https://example.test/hook',
        policy: { executionTimeout: 60000, ttl: 120000 },
      }),
    );
    assert.deepEqual(parsed, {
      ok: true,
      request: { input: { prompt: 'hi' }, webhook: 'https://example.test/hook', policy: { executionTimeout: 60000, ttl: 120000 } },
    });
    assert.deepEqual(parseRequestText('{"input": 0}'), { ok: true, request: { input: 0 } });
  });

  it('refuses what the service would, saying where and why', () => {
    assert.match(problemsOf([])[0], /^\$: a request is a JSON object/);
    assert.match(problemsOf({})[0], /^\$\.input: missing/);
    assert.match(problemsOf({ input: null })[0], /^\$\.input: missing/);
    assert.match(problemsOf({ input: {}, endpointId: 'abc' })[0], /^\$\.endpointId: unknown member.*chosen in the editor/);
    assert.match(problemsOf({ input: {}, webhook: 'ftp://x' })[0], /^\$\.webhook: must be an http\(s\) URL/);
    assert.match(problemsOf({ input: {}, policy: [] })[0], /^\$\.policy: must be an object/);
    assert.match(
      problemsOf({ input: {}, policy: { executionTimeout: 0 } })[0],
      /^\$\.policy\.executionTimeout: must be a positive integer/,
    );
    assert.match(problemsOf({ input: {}, policy: { priority: 1 } })[0], /^\$\.policy\.priority: unknown member/);
    const parsed = parseRequestText('{"input": ');
    assert.ok(!parsed.ok && /^the file is not valid JSON: /.test(parsed.problems[0]));
    assert.equal(problemsOf({ extra: 1 }).length, 2, 'every problem at once');
  });

  it('the example request is valid, and the emulator accepts exactly what the checks accept', async () => {
    const example = parseRequestText(readFileSync(join('examples', 'sdxl-worker.request.json'), 'utf8'));
    assert.ok(example.ok);
    await withEmulator({}, async (_emu, client) => {
      const api = client();
      const endpoint = await api.serverless.create(gpuEndpoint({ workers: { min: 0, max: 0 } }));
      const queued = await api.jobs.run(endpoint.id, example.request);
      assert.equal(queued.status, 'IN_QUEUE');
      const withPolicy = checkRequest({ input: {}, webhook: 'http://127.0.0.1:9/hook', policy: { executionTimeout: 1000 } });
      assert.ok(withPolicy.ok);
      assert.equal((await api.jobs.run(endpoint.id, withPolicy.request)).status, 'IN_QUEUE');
      await api.jobs.purgeQueue(endpoint.id);
    });
  });

  it('the schema for editors knows the same members as the checks', () => {
    const schema = JSON.parse(readFileSync(join('schemas', 'request.schema.json'), 'utf8')) as {
      required: string[];
      additionalProperties: boolean;
      properties: Record<string, { properties?: Record<string, unknown> }>;
    };
    assert.deepEqual(schema.required, ['input']);
    assert.equal(schema.additionalProperties, false);
    assert.deepEqual(Object.keys(schema.properties).sort(), ['$schema', 'input', 'policy', 'webhook']);
    assert.deepEqual(Object.keys(schema.properties.policy.properties ?? {}).sort(), ['executionTimeout', 'ttl']);
  });

  it('runs on the endpoint the spec beside it is deployed to', () => {
    const root = mkdtempSync(join(tmpdir(), 'endpoint-studio-requests-'));
    try {
      mkdirSync(join(root, 'workers'));
      const request = join(root, 'workers', 'sdxl.request.json');
      writeFileSync(request, '{"input": {}}');
      assert.deepEqual(
        siblingSpecPaths(request),
        ['sdxl.endpoint.yaml', 'sdxl.endpoint.yml', 'sdxl.endpoint.json'].map((n) => join(root, 'workers', n)),
      );
      assert.equal(siblingBinding(request, root), undefined, 'no spec beside it');
      writeFileSync(join(root, 'workers', 'sdxl.endpoint.yml'), 'name: sdxl\n');
      assert.equal(siblingBinding(request, root), undefined, 'a spec, not deployed');
      mkdirSync(join(root, '.endpoint-studio'));
      const binding = { endpointId: 'ep123', endpointName: 'sdxl', deployedAt: '2030-01-01T00:00:00Z' };
      writeFileSync(
        join(root, '.endpoint-studio', 'deployments.json'),
        serializeBindings(withBinding({}, 'workers/sdxl.endpoint.yml', 1, binding)),
      );
      assert.deepEqual(siblingBinding(request, root), { ...binding, specPath: join(root, 'workers', 'sdxl.endpoint.yml') });
      // Found without being told the root: the folder holding .endpoint-studio/.
      assert.equal(siblingBinding(request)?.endpointId, 'ep123');
      writeFileSync(join(root, '.endpoint-studio', 'deployments.json'), '{ not json');
      assert.equal(siblingBinding(request, root), undefined, 'an unreadable binding file binds nothing');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
