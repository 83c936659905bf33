/** Catalog completions and hovers over LSP stdio, with a pinned catalog snapshot. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { MarkupContent } from 'vscode-languageserver-protocol';
import { LspClient } from '../support/lspClient';

const CATALOG = `${__dirname}/../fixtures/catalog.json`;
let n = 0;
const uri = (ext = 'yaml') => `file:///catalog/spec-${++n}.endpoint.${ext}`;

describe('catalog completions', () => {
  let client: LspClient;
  before(async () => {
    client = await LspClient.start({ pull: true, catalogFile: CATALOG });
  });
  after(() => client.stop());

  async function labels(text: string, line: number, character: number, ext = 'yaml'): Promise<string[]> {
    const u = uri(ext);
    await client.open(u, text);
    return (await client.completion(u, line, character)).map((i) => i.label);
  }

  it('offers pools with their GPU types, VRAM and price inside a flow list', async () => {
    const u = uri();
    await client.open(u, 'gpu:\n  pools: [A]\n');
    const items = await client.completion(u, 1, 11);
    assert.deepEqual(
      items.map((i) => i.label),
      ['ADA_24', 'AMPERE_80'],
    );
    assert.match(items[0].detail ?? '', /24 GB · L4, RTX 4090/);
    assert.match(JSON.stringify(items[0].documentation), /RTX 4090: 24 GB.*CUDA 12\.4, 12\.8/);
  });

  it('completes in any document of a multi-document file, each read on its own', async () => {
    const other = 'name: other\ntype: QUEUE\ncpu:\n  - id: cpu3c\n    vcpuCount: 2\n';
    const text = `${other}---\n${other}---\ngpu:\n  pools: [A]\n---\nname: "unclosed\n`;
    assert.deepEqual(await labels(text, 13, 11), ['ADA_24', 'AMPERE_80']);
    assert.ok((await labels(text, 9, 13)).includes('cpu3c'), 'a CPU flavor in the second document');
  });

  it('offers pools on a block list item and as a whole list after the key', async () => {
    assert.deepEqual(await labels('gpu:\n  pools:\n    - \n', 2, 6), ['ADA_24', 'AMPERE_80']);
    const u = uri();
    await client.open(u, 'gpu:\n  pools: \n');
    const items = await client.completion(u, 1, 9);
    assert.equal((items[0].textEdit as { newText: string }).newText, '[ADA_24]');
  });

  it('says when a pool has no stock in the chosen data centers', async () => {
    const u = uri();
    await client.open(u, 'dataCenterIds: [EU-RO-1]\ngpu:\n  pools: []\n');
    const items = await client.completion(u, 2, 10);
    assert.match(items.find((i) => i.label === 'ADA_24')?.detail ?? '', /no serverless stock in EU-RO-1/);
    assert.doesNotMatch(items.find((i) => i.label === 'AMPERE_80')?.detail ?? '', /no serverless stock/);
  });

  it('offers only the types of the chosen pools for excludedTypes, quoted for YAML', async () => {
    const u = uri();
    await client.open(u, 'gpu:\n  pools: [ADA_24]\n  excludedTypes:\n    - \n');
    const items = await client.completion(u, 3, 6);
    assert.deepEqual(
      items.map((i) => i.label),
      ['NVIDIA L4', 'NVIDIA GeForce RTX 4090'],
    );
    assert.equal((items[0].textEdit as { newText: string }).newText, '"NVIDIA L4"');
  });

  it('offers CUDA versions of the chosen pools, newest first', async () => {
    assert.deepEqual(await labels('gpu:\n  pools: [AMPERE_80]\n  minCudaVersion: \n', 2, 18), ['12.2', '11.8']);
    assert.deepEqual(await labels('gpu:\n  pools: [ADA_24]\n  allowedCudaVersions: [""]\n', 2, 25), ['12.8', '12.4', '12.2']);
  });

  it('offers CPU flavors, and vCPU counts valid for the chosen flavor with memory', async () => {
    assert.deepEqual(await labels('cpu:\n  - id: \n', 1, 8), ['cpu3c', 'cpu5g']);
    const u = uri();
    await client.open(u, 'cpu:\n  - id: cpu3c\n    vcpuCount: \n');
    const items = await client.completion(u, 2, 15);
    assert.deepEqual(
      items.map((i) => i.label),
      ['2', '4', '8'],
    );
    assert.match(items[1].detail ?? '', /8 GB RAM/);
  });

  it('offers serverless templates only, data centers, volumes and registries', async () => {
    assert.deepEqual(await labels('templateId: \n', 0, 12), ['tpl_vllm']);
    assert.deepEqual(await labels('dataCenterIds: [""]\n', 0, 17), ['US-TX-3', 'EU-RO-1']);
    assert.deepEqual(await labels('networkVolumes:\n  - \n', 1, 4), ['vol_tx']);
    assert.deepEqual(await labels('registry: \n', 0, 10), ['reg_docker']);
  });

  it('completes catalog values in JSON with quotes', async () => {
    const u = uri('json');
    await client.open(u, '{ "gpu": { "pools": [""] } }');
    const items = await client.completion(u, 0, 22);
    assert.equal((items[0].textEdit as { newText: string }).newText, '"ADA_24"');
  });
});

describe('catalog hovers', () => {
  let client: LspClient;
  before(async () => {
    client = await LspClient.start({ pull: true, catalogFile: CATALOG });
  });
  after(() => client.stop());

  async function hoverText(text: string, line: number, character: number): Promise<string> {
    const u = uri();
    await client.open(u, text);
    return ((await client.hover(u, line, character))?.contents as MarkupContent).value;
  }

  it("shows a pool's GPU types and stock per data center", async () => {
    const text = await hoverText('gpu:\n  pools: [ADA_24]\n', 1, 12);
    assert.match(text, /\*\*Pool ADA_24\*\*/);
    assert.match(text, /L4: 24 GB; CUDA 12\.2, 12\.4; stock US-TX-3 HIGH, EU-RO-1 NONE/);
  });

  it("shows a template's image, env and CUDA seeding", async () => {
    const text = await hoverText('templateId: tpl_vllm\n', 0, 15);
    assert.match(text, /Image: `example\/worker-vllm:2\.1`/);
    assert.match(text, /seeds gpu.allowedCudaVersions/);
  });

  it("shows a flavor's memory for the chosen vCPU count", async () => {
    const text = await hoverText('cpu:\n  - id: cpu5g\n    vcpuCount: 16\n', 2, 16);
    assert.match(text, /16 vCPUs of General Purpose: 64 GB RAM/);
  });

  it('shows which GPUs support a CUDA version', async () => {
    const text = await hoverText('gpu:\n  pools: [ADA_24]\n  minCudaVersion: "12.8"\n', 2, 20);
    assert.match(text, /CUDA \*\*12\.8\*\* on: RTX 4090/);
  });
});
