/** The catalog-aware rules on data, each with a spec it accepts and one it reports. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Catalog, type CatalogData } from '../../../core/endpointSpec/catalog/catalog';
import { CATALOG_RULES } from '../../../core/endpointSpec/catalog/rules';
import { validateSpecData } from '../../../core/endpointSpec/validate';
import { STOCK_CATALOG } from '../../support/stockCatalog';

const catalog = new Catalog(JSON.parse(readFileSync(join(__dirname, '..', '..', 'fixtures', 'catalog.json'), 'utf8')) as CatalogData);
const gpuSpec = (gpu: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  name: 'demo',
  type: 'QUEUE',
  image: 'example/worker:1',
  gpu,
  scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
  ...extra,
});
const cpuSpec = (cpu: unknown[]) => ({ name: 'demo', type: 'QUEUE', image: 'x', cpu, scaling: { type: 'QUEUE_DELAY', queueDelay: 4 } });

interface Case {
  readonly good: unknown;
  readonly bad: unknown;
  readonly path: (string | number)[];
  readonly message: RegExp;
  readonly suggestion?: string;
  /** Another catalog than the fixture, for a rule the fixture gives nothing to find. */
  readonly catalog?: Catalog;
  readonly related?: readonly string[];
}

const cases: Record<string, Case> = {
  'pool-unknown': {
    good: gpuSpec({ pools: ['ADA_24'] }),
    bad: gpuSpec({ pools: ['ADA_42'] }),
    path: ['gpu', 'pools', 0],
    message: /unknown GPU pool: ADA_42; did you mean ADA_24\?/,
    suggestion: 'ADA_24',
  },
  'gpu-type-as-pool': {
    good: gpuSpec({ pools: ['ADA_24'], excludedTypes: ['NVIDIA L4'] }),
    bad: gpuSpec({ pools: ['NVIDIA GeForce RTX 4090'] }),
    path: ['gpu', 'pools', 0],
    message: /is a GPU type, not a pool: use its pool ADA_24/,
    suggestion: 'ADA_24',
  },
  'excluded-type-outside-pools': {
    good: gpuSpec({ pools: ['ADA_24', 'AMPERE_80'], excludedTypes: [' NVIDIA A100 80GB PCIe '] }),
    bad: gpuSpec({ pools: ['ADA_24'], excludedTypes: ['NVIDIA A100 80GB PCIe'] }),
    path: ['gpu', 'excludedTypes', 0],
    message: /not in the chosen pools \(ADA_24\); it belongs to AMPERE_80/,
  },
  'no-gpu-type-left': {
    good: gpuSpec({ pools: ['ADA_24'], excludedTypes: ['NVIDIA L4'] }),
    bad: gpuSpec({ pools: ['ADA_24'], excludedTypes: ['NVIDIA L4', 'NVIDIA GeForce RTX 4090'] }),
    path: ['gpu', 'excludedTypes'],
    message: /removes every GPU type of ADA_24/,
  },
  'cpu-flavor-unknown': {
    good: cpuSpec([{ id: 'cpu3c', vcpuCount: 4 }]),
    bad: cpuSpec([{ id: 'cpu3x', vcpuCount: 4 }]),
    path: ['cpu', 0, 'id'],
    message: /unknown CPU flavor: cpu3x; did you mean cpu3c\?/,
    suggestion: 'cpu3c',
  },
  'vcpu-invalid-for-flavor': {
    good: cpuSpec([{ id: 'cpu5g', vcpuCount: 64 }]),
    bad: cpuSpec([{ id: 'cpu3c', vcpuCount: 16 }]),
    path: ['cpu', 0, 'vcpuCount'],
    message: /cpu3c offers 2 to 8 vCPUs; got: 16/,
  },
  'data-center-unknown': {
    good: gpuSpec({ pools: ['ADA_24'] }, { dataCenterIds: ['US-TX-3'] }),
    bad: gpuSpec({ pools: ['ADA_24'] }, { dataCenterIds: ['US-TX-4'] }),
    path: ['dataCenterIds', 0],
    message: /unknown data center: US-TX-4; did you mean US-TX-3\?/,
    suggestion: 'US-TX-3',
  },
  'template-unknown': {
    good: gpuSpec({ pools: ['ADA_24'] }, { templateId: 'tpl_vllm' }),
    bad: gpuSpec({ pools: ['ADA_24'] }, { templateId: 'tpl_vlm' }),
    path: ['templateId'],
    message: /no template tpl_vlm .*did you mean tpl_vllm\?/,
  },
  'template-not-serverless': {
    good: gpuSpec({ pools: ['ADA_24'] }, { templateId: 'tpl_vllm' }),
    bad: gpuSpec({ pools: ['ADA_24'] }, { templateId: 'tpl_jupyter' }),
    path: ['templateId'],
    message: /Jupyter pod is a pod template/,
  },
  'cuda-not-offered': {
    good: gpuSpec({ pools: ['ADA_24'], allowedCudaVersions: ['12.8', '11.8'] }),
    bad: gpuSpec({ pools: ['AMPERE_80'], allowedCudaVersions: ['12.8'] }),
    path: ['gpu', 'allowedCudaVersions'],
    message: /no GPU in AMPERE_80 offers CUDA 12.8 \(offered: 11.8, 12.2\).*more pools/,
  },
  'no-stock-in-data-centers': {
    good: gpuSpec({ pools: ['ADA_24', 'AMPERE_80'] }, { dataCenterIds: ['EU-RO-1'] }),
    bad: gpuSpec({ pools: ['ADA_24'] }, { dataCenterIds: ['EU-RO-1'] }),
    path: ['dataCenterIds'],
    message: /no.*stock in EU-RO-1.*THROTTLED; pools with stock in EU-RO-1: AMPERE_80 \(80 GB\); .*leaving dataCenterIds unset/,
    related: ['AMPERE_80'],
  },
  'no-serverless-stock': {
    good: gpuSpec({ pools: ['ADA_48_PRO', 'AMPERE_48'] }),
    bad: gpuSpec({ pools: ['ADA_48_PRO'] }),
    path: ['gpu', 'pools'],
    message:
      /none of the GPUs chosen in ADA_48_PRO has serverless stock.*pools with stock: AMPERE_48 \(48 GB, \$0\.40–\$0\.76\/h per worker\)/,
    catalog: STOCK_CATALOG,
    related: ['AMPERE_48', 'AMPERE_80', 'ADA_80_PRO'],
  },
  'network-volume-placement': {
    good: gpuSpec({ pools: ['ADA_24'] }, { dataCenterIds: ['US-TX-3'], networkVolumes: ['vol_tx'] }),
    bad: gpuSpec({ pools: ['AMPERE_80'] }, { dataCenterIds: ['EU-RO-1'], networkVolumes: ['vol_tx'] }),
    path: ['networkVolumes', 0],
    message: /lives in US-TX-3, outside dataCenterIds \(EU-RO-1\)/,
  },
  'network-volume-unknown': {
    good: gpuSpec({ pools: ['ADA_24'] }, { networkVolumes: ['vol_tx'] }),
    bad: gpuSpec({ pools: ['ADA_24'] }, { networkVolumes: ['vol_tz'] }),
    path: ['networkVolumes', 0],
    message: /no network volume vol_tz in your account; did you mean vol_tx\?/,
  },
  'registry-unknown': {
    good: gpuSpec({ pools: ['ADA_24'] }, { registry: 'reg_docker' }),
    bad: gpuSpec({ pools: ['ADA_24'] }, { registry: 'reg_dock' }),
    path: ['registry'],
    message: /no registry credential reg_dock/,
  },
};

describe('catalog rules', () => {
  it('every catalog rule has a case here', () => {
    assert.deepEqual(CATALOG_RULES.map((r) => r.code).sort(), Object.keys(cases).sort());
  });

  for (const [code, c] of Object.entries(cases)) {
    describe(code, () => {
      const context = { catalog: c.catalog ?? catalog };
      it('accepts the good spec', () => {
        assert.deepEqual(validateSpecData(c.good, 'create', context), []);
      });
      it('reports the bad spec at the right path', () => {
        const found = validateSpecData(c.bad, 'create', context).filter((p) => p.code === code);
        assert.equal(found.length, 1, JSON.stringify(validateSpecData(c.bad, 'create', context)));
        assert.deepEqual(found[0].path, c.path);
        assert.match(found[0].message, c.message);
        if (c.suggestion) assert.equal(found[0].suggestion, c.suggestion);
        if (c.related) assert.deepEqual(found[0].related, c.related);
      });
    });
  }

  it("rule 5: a template's CUDA set counts when the spec states none", () => {
    const problems = validateSpecData(gpuSpec({ pools: ['AMPERE_80'] }, { templateId: 'tpl_vllm' }), 'create', { catalog });
    assert.deepEqual(
      problems.map((p) => [p.code, p.path]),
      [['cuda-not-offered', ['templateId']]],
    );
    assert.deepEqual(
      validateSpecData(gpuSpec({ pools: ['AMPERE_80'], minCudaVersion: '11.8' }, { templateId: 'tpl_vllm' }), 'create', { catalog }),
      [],
    );
  });

  it("offers the pool's other types for a GPU type written as a pool", () => {
    const [problem] = validateSpecData(gpuSpec({ pools: ['NVIDIA GeForce RTX 4090'] }), 'create', { catalog });
    assert.deepEqual(problem.related, ['NVIDIA L4']);
  });

  it('skips every catalog check without a catalog', () => {
    assert.deepEqual(validateSpecData(gpuSpec({ pools: ['NO_SUCH_POOL'] }, { templateId: 'tpl_none', dataCenterIds: ['XX'] })), []);
  });

  it('carries HTTP statuses for the emulator', () => {
    const statuses = Object.fromEntries(CATALOG_RULES.filter((r) => r.severity === 'error').map((r) => [r.code, r.status]));
    assert.equal(statuses['template-unknown'], 404);
    assert.equal(statuses['template-not-serverless'], 422);
    assert.equal(statuses['excluded-type-outside-pools'], 400);
    assert.equal(statuses['no-gpu-type-left'], 400);
  });
});
