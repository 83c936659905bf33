import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { mergePatch, overlayOwns, replacedArrays } from '../../../core/endpointSpec/overlay';
import { isProtected, keyVariableOf, parseEnvironments, profileOf } from '../../../core/environments/config';
import { checkOverlayFile } from '../../../core/environments/overlays';

const ROOT = '/work/space';
const BASE = `name: sdxl-worker
type: QUEUE
image: myorg/sdxl-worker:1.4.2
gpu:
  pools: [ADA_24, AMPERE_24]
  excludedTypes: [NVIDIA RTX 4000 Ada Generation]
  count: 1
workers:
  min: 0
  max: 2
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
env:
  LOG_LEVEL: info
`;

function check(
  overlayText: string,
  files: Record<string, string> = { 'sdxl-worker.endpoint.yaml': BASE },
  overlayName = 'sdxl-worker.prod.endpoint.yaml',
) {
  const read = (path: string) => files[path.slice(ROOT.length + 1)];
  return checkOverlayFile(
    { path: join(ROOT, overlayName), text: overlayText, format: overlayName.endsWith('.json') ? 'json' : 'yaml' },
    { read, roots: [ROOT] },
  );
}

const lineOf = (text: string, needle: string) => text.split('\n').findIndex((line) => line.includes(needle));

test('merge: maps merge, arrays are replaced whole, null removes a key', () => {
  const merged = mergePatch({ a: { b: 1, c: [1, 2] }, d: 'x', e: 1 }, { a: { c: [3] }, d: null, f: { g: 1 } });
  assert.deepEqual(merged, { a: { b: 1, c: [3] }, e: 1, f: { g: 1 } });
  assert.deepEqual(mergePatch({ a: 1 }, [1]), [1]);
});

test('merge: replacing gpu.pools drops the base exclusions only when the overlay says so; the replaced arrays are named', () => {
  const base = { gpu: { pools: ['ADA_24'], excludedTypes: ['X'] } };
  const patch = { gpu: { pools: ['AMPERE_80'], excludedTypes: null } };
  assert.deepEqual(mergePatch(base, patch), { gpu: { pools: ['AMPERE_80'] } });
  assert.deepEqual(replacedArrays(patch, base), ['gpu.pools']);
  assert.deepEqual(replacedArrays({ gpu: { pools: ['AMPERE_80'] } }, { gpu: {} }), []);
});

test('provenance: a path the overlay holds, or sits under a value it replaced, is the overlay’s', () => {
  const patch = { workers: { min: 4 }, gpu: { pools: ['ADA_24'] }, env: null };
  assert.equal(overlayOwns(patch, ['workers', 'min']), true);
  assert.equal(overlayOwns(patch, ['workers', 'max']), false);
  assert.equal(overlayOwns(patch, ['gpu', 'pools', 0]), true);
  assert.equal(overlayOwns(patch, ['env', 'LOG_LEVEL']), true);
  assert.equal(overlayOwns(patch, ['scaling']), false);
});

test('a problem the overlay set goes on its line; the base shows it for the environment', () => {
  const overlay = 'extends: ./sdxl-worker.endpoint.yaml\nname: sdxl-worker-prod\nworkers:\n  min: 4\n';
  const result = check(overlay);
  assert.equal(result.environment, 'prod');
  assert.equal(result.basePath, join(ROOT, 'sdxl-worker.endpoint.yaml'));
  const inOverlay = result.overlay;
  assert.deepEqual(
    inOverlay.map((d) => d.code),
    ['workers-min-above-max'],
  );
  assert.equal(inOverlay[0].range.start.line, lineOf(overlay, 'min: 4'));
  assert.equal(result.base.length, 1);
  assert.match(result.base[0].message, /^in prod: .*\(set in sdxl-worker\.prod\.endpoint\.yaml\)$/);
  assert.equal(result.base[0].setInOverlay, true);
  assert.equal(result.base[0].range.start.line, lineOf(BASE, 'min: 0'));
  assert.ok(result.merged);
  assert.deepEqual(result.merged.workers, { min: 4, max: 2 });
  assert.equal(result.merged.extends, undefined);
});

test('a key only the overlay wrote is its problem alone: the base, which has no such key, shows nothing', () => {
  const overlay = 'extends: ./sdxl-worker.endpoint.yaml\nname: sdxl-worker-prod\nworkers:\n  idleTimout: 5\nflashbot: FLASHBOOT\n';
  const result = check(overlay);
  assert.deepEqual(
    result.overlay.map((d) => [d.code, d.range.start.line]),
    [
      ['unknown-property', lineOf(overlay, 'idleTimout')],
      ['unknown-property', lineOf(overlay, 'flashbot')],
    ],
  );
  assert.deepEqual(result.base, []);
});

test('a problem in a value the base wrote goes on the base line, and the overlay says so on extends', () => {
  // Load-balanced endpoints scale on request count: the base's QUEUE_DELAY scaling is now wrong.
  const overlay = 'extends: ./sdxl-worker.endpoint.yaml\nname: sdxl-worker-lb\ntype: LOAD_BALANCER\n';
  const result = check(overlay, undefined, 'sdxl-worker.lb.endpoint.yaml');
  const fromBase = result.base.filter((d) => !d.setInOverlay);
  assert.ok(fromBase.length > 0, JSON.stringify(result));
  assert.ok(fromBase.every((d) => d.message.startsWith('in lb: ') && !d.message.includes('(set in')));
  assert.ok(fromBase.some((d) => d.range.start.line >= lineOf(BASE, 'scaling:')));
  assert.ok(result.overlay.some((d) => d.range.start.line === 0 && d.message.includes('in sdxl-worker.endpoint.yaml')));
});

test('an overlay that keeps the base name is warned', () => {
  const result = check('extends: ./sdxl-worker.endpoint.yaml\nworkers:\n  max: 3\n');
  assert.deepEqual(
    result.overlay.map((d) => [d.code, d.severity]),
    [['overlay-same-name', 'warning']],
  );
});

const extendsError = (overlay: string, files?: Record<string, string>, name?: string) => {
  const problems = check(overlay, files, name).overlay.filter((d) => d.severity === 'error');
  assert.ok(problems.length > 0, 'expected a problem');
  return problems;
};

test('every broken extends is an error on its line that names the problem', () => {
  const cases: [string, Record<string, string> | undefined, string | undefined, RegExp][] = [
    ['extends: ./missing.endpoint.yaml\nname: a\n', undefined, undefined, /does not exist/],
    [
      'extends: ./sdxl-worker.staging.endpoint.yaml\nname: a\n',
      { 'sdxl-worker.staging.endpoint.yaml': 'extends: ./sdxl-worker.endpoint.yaml\nname: b\n' },
      undefined,
      /itself an overlay/,
    ],
    [
      'extends: ./sdxl-worker.staging.endpoint.yaml\nname: a\n',
      { 'sdxl-worker.staging.endpoint.yaml': 'extends: ./sdxl-worker.prod.endpoint.yaml\nname: b\n' },
      undefined,
      /cycle/,
    ],
    ['extends: ./sdxl-worker.prod.endpoint.yaml\nname: a\n', undefined, undefined, /is this file/],
    ['extends: ../../elsewhere/base.endpoint.yaml\nname: a\n', undefined, undefined, /outside the workspace/],
    ['extends: /etc/base.endpoint.yaml\nname: a\n', undefined, undefined, /relative to this file/],
    ['extends: ./sdxl-worker.endpoint.json\nname: a\n', { 'sdxl-worker.endpoint.json': '{"name":"x"}' }, undefined, /share one format/],
    ['extends: ./notes.yaml\nname: a\n', undefined, undefined, /not a spec file/],
    ['extends: 3\nname: a\n', undefined, undefined, /relative path of the base/],
    ['name: a\nextends: ./sdxl-worker.endpoint.yaml\n', undefined, undefined, /first key/],
    ['extends: ./sdxl-worker.endpoint.yaml\nname: a\n', undefined, 'worker.endpoint.yaml', /says its environment/],
    ['extends: ./two.endpoint.yaml\nname: a\n', { 'two.endpoint.yaml': 'name: a\n---\nname: b\n' }, undefined, /holds 2 documents/],
  ];
  for (const [overlay, files, name, message] of cases) {
    const problems = extendsError(overlay, files, name);
    const named = problems.find((d) => message.test(d.message));
    assert.ok(named, `${message}: got ${JSON.stringify(problems.map((d) => d.message))}`);
    assert.equal(named.range.start.line, lineOf(overlay, 'extends'), String(message));
  }
});

test('with its base broken, the overlay’s own values are still checked, nothing required', () => {
  const problems = extendsError('extends: ./missing.endpoint.yaml\nworkers:\n  min: many\n');
  assert.ok(
    problems.some((d) => d.code === 'wrong-type' && d.range.start.line === 2),
    JSON.stringify(problems),
  );
  assert.ok(!problems.some((d) => d.code === 'missing-property'));
});

test('environments file: profiles, key variables and protection; a key or a URL in it is refused', () => {
  const good = parseEnvironments(
    'environments:\n  prod:\n    profile: prod\n    protected: true\n  staging:\n    keyVariable: STAGING_KEY\n',
  );
  assert.deepEqual(good.problems, []);
  assert.equal(profileOf('prod', good.config), 'prod');
  assert.equal(isProtected('prod', good.config), true);
  assert.equal(isProtected('staging', good.config), false);
  assert.equal(keyVariableOf('staging', good.config), 'STAGING_KEY');
  assert.equal(keyVariableOf('pre-prod', good.config), 'ENDPOINT_STUDIO_API_KEY_PRE_PROD');
  assert.equal(profileOf('__proto__', good.config), undefined);
  const text = 'environments:\n  prod:\n    profile: prod\n    apiKey: abc\n    apiUrl: https://evil.example\n';
  const bad = parseEnvironments(text);
  assert.deepEqual(bad.config.environments, {});
  assert.equal(bad.problems.length, 2);
  for (const problem of bad.problems) assert.match(problem.message, /never a key or a service URL/);
  assert.equal(text.slice(bad.problems[0].span.offset).split(':')[0], 'apiKey');
  assert.equal(parseEnvironments('environments: [').problems.length > 0, true);
});
