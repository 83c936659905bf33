/**
 * Every quick fix over real LSP stdio: find the diagnostic, ask for code actions, apply the
 * chosen edit, validate the result again, and check the problem is gone and the text is right.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, TextEdit } from 'vscode-languageserver-protocol';
import { diagnosticText, LspClient } from '../support/lspClient';

const BASE =
  'name: demo\ntype: QUEUE\nimage: myorg/worker:1.0.0\ngpu:\n  pools: [ADA_24]\nscaling:\n  type: QUEUE_DELAY\n  queueDelay: 4\n';

interface Case {
  readonly name: string;
  readonly text: string;
  readonly code: string;
  readonly title: RegExp;
  readonly expected: string;
  readonly ext?: 'yaml' | 'json';
}

const cases: Case[] = [
  {
    name: 'renames a misspelt key',
    text: BASE.replace('image:', 'imagee:'),
    code: 'unknown-property',
    title: /Rename to image/,
    expected: BASE,
  },
  { name: 'removes an unknown key', text: `${BASE}bogus: 1\n`, code: 'unknown-property', title: /Remove bogus/, expected: BASE },
  {
    name: 'changes a misspelt enum value',
    text: BASE.replace('type: QUEUE\n', 'type: QUEU\n'),
    code: 'invalid-enum',
    title: /Change to QUEUE/,
    expected: BASE,
  },
  {
    name: 'quotes a numeric env value',
    text: `${BASE}env:\n  PORT: 8080\n`,
    code: 'env-value-not-string',
    title: /Quote/,
    expected: `${BASE}env:\n  PORT: "8080"\n`,
  },
  {
    name: 'fills an empty env value',
    text: `${BASE}env:\n  EMPTY:\n  A: "1"\n`,
    code: 'env-value-not-string',
    title: /Quote/,
    expected: `${BASE}env:\n  EMPTY: ""\n  A: "1"\n`,
  },
  {
    name: 'switches a load balancer to REQUEST_COUNT',
    text: BASE.replace('type: QUEUE\n', 'type: LOAD_BALANCER\n'),
    code: 'scaler-not-allowed',
    title: /REQUEST_COUNT/,
    expected: BASE.replace('type: QUEUE\n', 'type: LOAD_BALANCER\n')
      .replace('QUEUE_DELAY', 'REQUEST_COUNT')
      .replace('queueDelay: 4', 'requestCount: 4'),
  },
  {
    name: 'removes idleTimeout for queue + REQUEST_COUNT, and the emptied workers block',
    text:
      BASE.replace('QUEUE_DELAY\n  queueDelay: 4', 'REQUEST_COUNT\n  requestCount: 2') + 'workers:\n  idleTimeout: 30\nflashboot: OFF\n',
    code: 'idle-timeout-not-applicable',
    title: /Remove idleTimeout/,
    expected: BASE.replace('QUEUE_DELAY\n  queueDelay: 4', 'REQUEST_COUNT\n  requestCount: 2') + 'flashboot: OFF\n',
  },
  {
    name: 'drops minCudaVersion when both CUDA constraints are set',
    text: BASE.replace('  pools: [ADA_24]\n', '  pools: [ADA_24]\n  allowedCudaVersions: ["12.4"]\n  minCudaVersion: "12.2"\n'),
    code: 'cuda-allowed-with-min',
    title: /remove minCudaVersion/,
    expected: BASE.replace('  pools: [ADA_24]\n', '  pools: [ADA_24]\n  allowedCudaVersions: ["12.4"]\n'),
  },
  {
    name: 'drops allowedCudaVersions instead, when chosen',
    text: BASE.replace('  pools: [ADA_24]\n', '  pools: [ADA_24]\n  allowedCudaVersions: ["12.4"]\n  minCudaVersion: "12.2"\n'),
    code: 'cuda-allowed-with-min',
    title: /remove allowedCudaVersions/,
    expected: BASE.replace('  pools: [ADA_24]\n', '  pools: [ADA_24]\n  minCudaVersion: "12.2"\n'),
  },
  {
    name: 'removes a duplicate pool from a flow list',
    text: BASE.replace('[ADA_24]', '[ADA_24, AMPERE_24, ADA_24]'),
    code: 'duplicate-id',
    title: /Remove the duplicate/,
    expected: BASE.replace('[ADA_24]', '[ADA_24, AMPERE_24]'),
  },
  {
    name: 'removes a duplicate cpu item from a block list',
    text: BASE.replace('gpu:\n  pools: [ADA_24]\n', 'cpu:\n  - id: cpu3c\n    vcpuCount: 4\n  - id: cpu3c\n    vcpuCount: 4\n'),
    code: 'duplicate-item',
    title: /Remove the duplicate/,
    expected: BASE.replace('gpu:\n  pools: [ADA_24]\n', 'cpu:\n  - id: cpu3c\n    vcpuCount: 4\n'),
  },
  {
    name: 'rounds vcpuCount down to a power of two',
    text: BASE.replace('gpu:\n  pools: [ADA_24]\n', 'cpu:\n  - {id: cpu3c, vcpuCount: 6}\n'),
    code: 'vcpu-not-power-of-two',
    title: /to 4$/,
    expected: BASE.replace('gpu:\n  pools: [ADA_24]\n', 'cpu:\n  - {id: cpu3c, vcpuCount: 4}\n'),
  },
  {
    name: 'converts a timeout written in seconds',
    text: `${BASE}timeout: 600\n`,
    code: 'timeout-units',
    title: /600000/,
    expected: `${BASE}timeout: 600000\n`,
  },
  { name: 'removes a response-only field', text: `id: ep_1\n${BASE}`, code: 'response-only-field', title: /Remove id/, expected: BASE },
  {
    name: 'removes one compute when both are given',
    text: `${BASE}cpu:\n  - id: cpu3c\n    vcpuCount: 4\n`,
    code: 'compute-choice',
    title: /Remove cpu/,
    expected: BASE,
  },
  {
    name: 'renames a key in JSON',
    ext: 'json',
    text: '{\n  "name": "demo",\n  "type": "QUEUE",\n  "imag": "x",\n  "gpu": { "pools": ["ADA_24"] },\n  "scaling": { "type": "QUEUE_DELAY", "queueDelay": 4 }\n}\n',
    code: 'unknown-property',
    title: /Rename to image/,
    expected:
      '{\n  "name": "demo",\n  "type": "QUEUE",\n  "image": "x",\n  "gpu": { "pools": ["ADA_24"] },\n  "scaling": { "type": "QUEUE_DELAY", "queueDelay": 4 }\n}\n',
  },
  {
    name: 'removes a property in JSON with its comma',
    ext: 'json',
    text: '{\n  "id": "ep_1",\n  "name": "demo",\n  "type": "QUEUE",\n  "image": "x",\n  "gpu": { "pools": ["ADA_24"] },\n  "scaling": { "type": "QUEUE_DELAY", "queueDelay": 4 }\n}\n',
    code: 'response-only-field',
    title: /Remove id/,
    expected:
      '{\n  "name": "demo",\n  "type": "QUEUE",\n  "image": "x",\n  "gpu": { "pools": ["ADA_24"] },\n  "scaling": { "type": "QUEUE_DELAY", "queueDelay": 4 }\n}\n',
  },
];

function apply(text: string, action: CodeAction, uri: string): string {
  const edits: TextEdit[] = action.edit?.changes?.[uri] ?? [];
  return TextDocument.applyEdits(TextDocument.create(uri, 'yaml', 1, text), edits);
}

/** Finds the diagnostic, applies the matching action, and checks the text and that the result is clean. */
async function checkFix(client: LspClient, c: Case, uri: string): Promise<void> {
  await client.open(uri, c.text);
  const diagnostics = (await client.pulledDiagnostics(uri)).filter((d) => d.code === c.code);
  assert.ok(diagnostics.length > 0, `expected a ${c.code} diagnostic`);
  const actions = (await Promise.all(diagnostics.map((d) => client.codeActions(uri, [d])))).flat();
  const action = actions.find((a) => c.title.test(a.title));
  assert.ok(action, `no action matching ${c.title}; got: ${actions.map((a) => a.title).join(' | ')}`);
  const fixed = apply(c.text, action, uri);
  assert.equal(fixed, c.expected);
  await client.change(uri, fixed);
  assert.deepEqual(
    (await client.pulledDiagnostics(uri)).map((d) => `${String(d.code)}: ${diagnosticText(d)}`),
    [],
    'the fixed spec is clean',
  );
}

describe('quick fixes over LSP stdio', () => {
  let client: LspClient;
  before(async () => {
    client = await LspClient.start({ pull: true });
  });
  after(async () => {
    await client.stop();
  });

  for (const [n, c] of cases.entries()) it(c.name, () => checkFix(client, c, `file:///fixes/case-${n}.endpoint.${c.ext ?? 'yaml'}`));

  it('offers nothing for a diagnostic from another source', async () => {
    const uri = 'file:///fixes/foreign.endpoint.yaml';
    await client.open(uri, `${BASE}bogus: 1\n`);
    const [diagnostic] = await client.pulledDiagnostics(uri);
    assert.deepEqual(await client.codeActions(uri, [{ ...diagnostic, source: 'someone-else' }]), []);
  });
});

describe('catalog quick fixes over LSP stdio (pinned catalog file)', () => {
  let client: LspClient;
  before(async () => {
    client = await LspClient.start({ pull: true, catalogFile: `${__dirname}/../fixtures/catalog.json` });
  });
  after(async () => {
    await client.stop();
  });

  const catalogCases: Case[] = [
    {
      name: 'corrects a misspelt pool',
      text: BASE.replace('[ADA_24]', '[ADA_42]'),
      code: 'pool-unknown',
      title: /Change to ADA_24/,
      expected: BASE,
    },
    {
      name: 'turns a GPU type written as a pool into its pool plus exclusions (block gpu)',
      text: BASE.replace('[ADA_24]', '["NVIDIA GeForce RTX 4090"]'),
      code: 'gpu-type-as-pool',
      title: /Use pool ADA_24 and exclude its other types/,
      expected: BASE.replace('  pools: [ADA_24]\n', '  pools: [ADA_24]\n  excludedTypes: ["NVIDIA L4"]\n'),
    },
    {
      name: 'does the same in a flow mapping',
      text: BASE.replace('gpu:\n  pools: [ADA_24]\n', 'gpu: {pools: ["NVIDIA L4"], count: 1}\n'),
      code: 'gpu-type-as-pool',
      title: /Use pool ADA_24/,
      expected: BASE.replace('gpu:\n  pools: [ADA_24]\n', 'gpu: {pools: [ADA_24], count: 1, excludedTypes: ["NVIDIA GeForce RTX 4090"]}\n'),
    },
    {
      name: 'does the same in JSON',
      ext: 'json',
      text: '{\n  "name": "demo",\n  "type": "QUEUE",\n  "image": "x",\n  "gpu": {\n    "pools": ["NVIDIA L4"]\n  },\n  "scaling": { "type": "QUEUE_DELAY", "queueDelay": 4 }\n}\n',
      code: 'gpu-type-as-pool',
      title: /Use pool ADA_24/,
      expected:
        '{\n  "name": "demo",\n  "type": "QUEUE",\n  "image": "x",\n  "gpu": {\n    "pools": ["ADA_24"],\n    "excludedTypes": ["NVIDIA GeForce RTX 4090"]\n  },\n  "scaling": { "type": "QUEUE_DELAY", "queueDelay": 4 }\n}\n',
    },
    {
      name: 'corrects a misspelt CPU flavor',
      text: BASE.replace('gpu:\n  pools: [ADA_24]\n', 'cpu:\n  - id: cpu3x\n    vcpuCount: 4\n'),
      code: 'cpu-flavor-unknown',
      title: /Change to cpu3c/,
      expected: BASE.replace('gpu:\n  pools: [ADA_24]\n', 'cpu:\n  - id: cpu3c\n    vcpuCount: 4\n'),
    },
    {
      name: 'corrects a misspelt data center',
      text: `${BASE}dataCenterIds: [US-TX-4]\n`,
      code: 'data-center-unknown',
      title: /Change to US-TX-3/,
      expected: `${BASE}dataCenterIds: [US-TX-3]\n`,
    },
    {
      name: 'removes an exclusion outside the chosen pools',
      text: BASE.replace('  pools: [ADA_24]\n', '  pools: [ADA_24]\n  excludedTypes: ["NVIDIA L4", "NVIDIA A100 80GB PCIe"]\n'),
      code: 'excluded-type-outside-pools',
      title: /Remove the exclusion/,
      expected: BASE.replace('  pools: [ADA_24]\n', '  pools: [ADA_24]\n  excludedTypes: ["NVIDIA L4"]\n'),
    },
  ];

  for (const [n, c] of catalogCases.entries())
    it(c.name, () => checkFix(client, c, `file:///catalog-fixes/case-${n}.endpoint.${c.ext ?? 'yaml'}`));
});

describe('converting a REST v1 spec over LSP stdio', () => {
  it('offers one conversion that yields a clean v2 spec with the assumptions as comments', async () => {
    const client = await LspClient.start({ pull: true, catalogFile: `${__dirname}/../fixtures/catalog.json` });
    try {
      const uri = 'file:///legacy/old.endpoint.yaml';
      const text =
        'name: old -fb\nimageName: myorg/worker:2\ngpuTypeIds: ["NVIDIA GeForce RTX 4090"]\nworkersMax: 2\nscalerType: QUEUE_DELAY\nscalerValue: 3\n';
      await client.open(uri, text);
      const diagnostics = await client.pulledDiagnostics(uri);
      assert.deepEqual([...new Set(diagnostics.map((d) => d.code))], ['legacy-field']);
      const actions = await client.codeActions(uri, [diagnostics[0]]);
      const convert = actions.find((a) => a.title === 'Convert this spec to REST v2');
      assert.ok(convert, actions.map((a) => a.title).join(' | '));
      const fixed = apply(text, convert, uri);
      assert.equal(
        fixed,
        [
          '# converted from REST v1: type set to QUEUE: v1 and GraphQL endpoints were queue-based, and v2 needs the type stated',
          '# converted from REST v1: GPU types NVIDIA GeForce RTX 4090 became pools ADA_24 minus 1 other type(s); cards added to these pools later become eligible',
          'name: old',
          'type: QUEUE',
          'image: myorg/worker:2',
          'gpu:',
          '  pools:',
          '    - ADA_24',
          '  excludedTypes:',
          '    - NVIDIA L4',
          'workers:',
          '  max: 2',
          'scaling:',
          '  type: QUEUE_DELAY',
          '  queueDelay: 3',
          'flashboot: FLASHBOOT',
          '',
        ].join('\n'),
      );
      await client.change(uri, fixed);
      assert.deepEqual(await client.pulledDiagnostics(uri), []);
    } finally {
      await client.stop();
    }
  });

  it('offers no conversion when GPU type ids cannot be mapped without a catalog', async () => {
    const client = await LspClient.start({ pull: true });
    try {
      const uri = 'file:///legacy/no-catalog.endpoint.yaml';
      await client.open(uri, 'name: x\nimageName: y\ngpuTypeIds: ["NVIDIA L4"]\n');
      const [first] = await client.pulledDiagnostics(uri);
      assert.deepEqual(await client.codeActions(uri, [first]), []);
    } finally {
      await client.stop();
    }
  });
});
