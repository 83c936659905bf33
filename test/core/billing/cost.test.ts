/**
 * The cost of a spec, checked against figures computed by hand from the emulator's catalog
 * prices (read over HTTP, as the editor and the CLI read them): secure price per GPU-hour
 *   AMPERE_24: RTX A5000 0.36, RTX 3090 0.43, L4 0.43 · ADA_24: RTX 4090 0.69
 *   AMPERE_80: A100 PCIe 1.64, A100 SXM 1.74 · HOPPER_141: H200 3.99
 * and serverless price per vCPU-hour: cpu3c 0.03, cpu5g 0.06. A month is 730 hours.
 * Then the deploy plan's always-on cost line, for a create and for updates of a live endpoint.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runPlan, type DeployIo } from '../../../cli/deploy';
import { perMonth, specCost, type SpecCost } from '../../../core/billing/cost';
import { formatUsd, formatUsdChangeRange, formatUsdRange } from '../../../core/billing/format';
import { readPriceCatalog } from '../../../core/billing/priceCatalog';
import { planDeployment, renderPlan } from '../../../core/deploy';
import type { Catalog } from '../../../core/endpointSpec/catalog/catalog';
import { costHoverMarkdown } from '../../../server/languageService/costHover';
import { TEST_KEY, withEmulator } from '../api/support';

const money = (range: { low: number; high: number } | undefined): string => (range ? formatUsdRange(range) : 'none');

/** Hourly and monthly figures as a person would write them down. */
function figures(cost: SpecCost | undefined) {
  assert.ok(cost, 'the spec has a cost');
  return {
    perWorker: money(cost.perWorker),
    alwaysOn: money(cost.alwaysOn),
    alwaysOnMonth: money(cost.alwaysOn && perMonth(cost.alwaysOn)),
    atMax: money(cost.atMax),
    atMaxMonth: money(cost.atMax && perMonth(cost.atMax)),
  };
}

async function withPrices<T>(
  fn: (
    catalog: Catalog,
    emu: Parameters<Parameters<typeof withEmulator>[1]>[0],
    api: Parameters<Parameters<typeof withEmulator>[1]>[1],
  ) => T | Promise<T>,
): Promise<T> {
  return withEmulator({}, async (emu, api) => {
    const catalog = await readPriceCatalog(api());
    assert.ok(catalog, 'the price catalog was read');
    return fn(catalog, emu, api);
  });
}

describe('cost of a spec from catalog prices', () => {
  it('matches the hand-computed cases', async () => {
    await withPrices((catalog) => {
      // 1 × 0.69 always on; 3 × 0.69 = 2.07 at max; × 730 h.
      assert.deepEqual(figures(specCost({ gpu: { pools: ['ADA_24'] }, workers: { min: 1, max: 3 } }, catalog)), {
        perWorker: '$0.69',
        alwaysOn: '$0.69',
        alwaysOnMonth: '$503.70',
        atMax: '$2.07',
        atMaxMonth: '$1,511.10',
      });
      // L4 excluded; 2 GPUs per worker: 2 × 0.36 = 0.72 (A5000) to 2 × 0.69 = 1.38 (4090) per worker;
      // min 2: 1.44–2.76 /h, × 730 = 1,051.20–2,014.80; max 5: 3.60–6.90 /h, 2,628.00–5,037.00.
      const twoPools = specCost(
        { gpu: { pools: ['AMPERE_24', 'ADA_24'], excludedTypes: [' NVIDIA L4'], count: 2 }, workers: { min: 2, max: 5 } },
        catalog,
      );
      assert.deepEqual(figures(twoPools), {
        perWorker: '$0.72–$1.38',
        alwaysOn: '$1.44–$2.76',
        alwaysOnMonth: '$1,051.20–$2,014.80',
        atMax: '$3.60–$6.90',
        atMaxMonth: '$2,628.00–$5,037.00',
      });
      assert.deepEqual(
        twoPools?.placements.map((p) => p.name),
        ['RTX A5000', 'RTX 3090', 'RTX 4090'],
      );
      // CPU: cpu3c 4 vCPU × 0.03 = 0.12, cpu5g 8 vCPU × 0.06 = 0.48 per worker; min 1, max 4.
      assert.deepEqual(
        figures(
          specCost(
            {
              cpu: [
                { id: 'cpu3c', vcpuCount: 4 },
                { id: 'cpu5g', vcpuCount: 8 },
              ],
              workers: { min: 1, max: 4 },
            },
            catalog,
          ),
        ),
        {
          perWorker: '$0.12–$0.48',
          alwaysOn: '$0.12–$0.48',
          alwaysOnMonth: '$87.60–$350.40',
          atMax: '$0.48–$1.92',
          atMaxMonth: '$350.40–$1,401.60',
        },
      );
      // Create defaults: workers.min 0 (nothing always on), workers.max 3: 3 × 1.64 = 4.92 to 3 × 1.74 = 5.22.
      assert.deepEqual(figures(specCost({ gpu: { pools: ['AMPERE_80'] } }, catalog)), {
        perWorker: '$1.64–$1.74',
        alwaysOn: '$0.00',
        alwaysOnMonth: '$0.00',
        atMax: '$4.92–$5.22',
        atMaxMonth: '$3,591.60–$3,810.60',
      });
      // An unknown pool prices nothing and is named; the known one still counts.
      const partly = specCost({ gpu: { pools: ['HOPPER_141', 'NOPE_1'] }, workers: { min: 1, max: 1 } }, catalog);
      assert.deepEqual([figures(partly).alwaysOnMonth, partly?.unpriced], ['$2,912.70', ['pool NOPE_1']]);
      // Nothing to price, or numbers the cost depends on that are not counts: no figure at all.
      assert.equal(specCost({ gpu: { pools: ['NOPE_1'] }, workers: { min: 1 } }, catalog)?.alwaysOn, undefined);
      assert.equal(specCost({ gpu: { pools: ['ADA_24'] }, workers: { min: -1 } }, catalog), undefined);
      assert.equal(specCost({ gpu: { pools: ['ADA_24'], count: 0 } }, catalog), undefined);
      assert.equal(specCost({ name: 'no compute' }, catalog), undefined);
    });
  });

  it('formats money with cents, and finer when cents would read as zero', () => {
    assert.deepEqual(
      [formatUsd(1007.4), formatUsd(0.0042), formatUsd(-0.5), formatUsd(0.00001), formatUsdChangeRange({ low: -0.1, high: 0.2 })],
      ['$1,007.40', '$0.0042', '-$0.50', '$0.00', '-$0.10 to +$0.20'],
    );
  });

  it('hovers on workers and compute keys show both figures and say which price is used', async () => {
    await withPrices((catalog) => {
      const spec = { gpu: { pools: ['AMPERE_24', 'ADA_24'], excludedTypes: ['NVIDIA L4'], count: 2 }, workers: { min: 2, max: 5 } };
      const hover = costHoverMarkdown(['workers', 'min'], spec, catalog);
      assert.ok(hover, 'a hover on workers.min');
      assert.match(hover, /\| Always on: `workers.min` 2 \| \$1\.44–\$2\.76 \| \$1,051\.20–\$2,014\.80 \|/);
      assert.match(hover, /\| At `workers.max` 5 \| \$3\.60–\$6\.90 \| \$2,628\.00–\$5,037\.00 \|/);
      assert.match(hover, /2 GPUs × RTX A5000 at \$0\.36 to RTX 4090 at \$0\.69 per GPU-hour \(secure-cloud price; 3 GPU types/);
      assert.match(hover, /no separate rate for always-on \(active\) workers/);
      for (const path of [['workers'], ['workers', 'max'], ['gpu'], ['gpu', 'pools', 0], ['gpu', 'count'], ['gpu', 'excludedTypes']])
        assert.ok(costHoverMarkdown(path, spec, catalog), path.join('.'));
      for (const path of [['name'], ['workers', 'idleTimeout'], ['gpu', 'minCudaVersion']])
        assert.equal(costHoverMarkdown(path, spec, catalog), undefined, path.join('.'));
      const cpu = costHoverMarkdown(
        ['cpu', 0, 'vcpuCount'],
        { cpu: [{ id: 'cpu3c', vcpuCount: 4 }], workers: { min: 1, max: 2 } },
        catalog,
      );
      assert.ok(cpu, 'a hover on a vCPU count');
      assert.match(cpu, /cpu3c 4 vCPU × \$0\.03 = \$0\.12/);
      const unpriced = costHoverMarkdown(['gpu', 'pools'], { gpu: { pools: ['NOPE_1'] } }, catalog);
      assert.ok(unpriced, 'a hover on pools with no price');
      assert.match(unpriced, /no price for pool NOPE_1/);
    });
  });
});

describe('the deploy plan states the change in always-on cost', () => {
  const spec = (workers: { min: number; max: number }, count = 1) => ({
    name: 'priced',
    type: 'QUEUE',
    image: 'x/y:1',
    gpu: { pools: ['ADA_24'], count },
    workers: { ...workers, idleTimeout: 5 },
    scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
  });

  it('for a create, and for updates that change workers.min, gpu.count or nothing priced', async () => {
    await withPrices(async (catalog, _emu, api) => {
      const create = renderPlan(planDeployment(spec({ min: 1, max: 3 }), undefined), { catalog });
      assert.match(create, /\n {2}always-on cost: \$0\.69\/h \(\$503\.70\/month\) for workers\.min 1; \$2\.07\/h at workers\.max 3\n/);
      assert.doesNotMatch(renderPlan(planDeployment(spec({ min: 1, max: 3 }), undefined)), /always-on/, 'no catalog, no line');

      const live = await api().serverless.create(spec({ min: 1, max: 3 }) as never);
      // 1 → 3 always-on workers of 0.69: +1.38 /h, × 730 = +1,007.40 /month.
      const more = renderPlan(planDeployment(spec({ min: 3, max: 3 }), live), { catalog });
      assert.match(more, /always-on cost: \$0\.69\/h → \$2\.07\/h \(\+\$1\.38\/h, \+\$1,007\.40\/month\) from workers\.min\n/);
      const none = renderPlan(planDeployment(spec({ min: 0, max: 3 }), live), { catalog });
      assert.match(none, /always-on cost: \$0\.69\/h → \$0\.00\/h \(-\$0\.69\/h, -\$503\.70\/month\) from workers\.min/);
      const doubled = renderPlan(planDeployment(spec({ min: 1, max: 3 }, 2), live), { catalog });
      assert.match(doubled, /always-on cost: \$0\.69\/h → \$1\.38\/h \(\+\$0\.69\/h, \+\$503\.70\/month\) from gpu\.count/);
      // Raising only workers.max costs nothing always-on, but the bill at full scale grows: 3 → 5 workers of 0.69.
      const wider = renderPlan(planDeployment(spec({ min: 1, max: 5 }), live), { catalog });
      assert.match(
        wider,
        /always-on cost: \$0\.69\/h → \$0\.69\/h \(\$0\.00\/h, \$0\.00\/month\) from workers\.max; at workers\.max \$2\.07\/h → \$3\.45\/h\n/,
      );
      assert.match(doubled, /; at workers\.max \$2\.07\/h → \$4\.14\/h\n/);
      const unpriced = renderPlan(planDeployment({ ...spec({ min: 1, max: 3 }), timeout: 1000 }, live), { catalog });
      assert.doesNotMatch(unpriced, /always-on/, 'a change that costs nothing says nothing about cost');
      await api().serverless.delete(live.id);
    });
  });

  it('endpoint-studio plan prints the line with prices read from the service', async () => {
    await withEmulator({}, async (emu) => {
      const root = mkdtempSync(join(tmpdir(), 'es-billing-plan-'));
      try {
        mkdirSync(join(root, '.git'));
        const file = join(root, 'priced.endpoint.json');
        writeFileSync(file, JSON.stringify(spec({ min: 2, max: 4 })));
        let stdout = '';
        let stderr = '';
        const io: DeployIo = {
          out: (t) => void (stdout += t),
          err: (t) => void (stderr += t),
          env: { ENDPOINT_STUDIO_API_URL: emu.restUrl, ENDPOINT_STUDIO_API_KEY: TEST_KEY },
        };
        assert.equal(await runPlan([file], io), 0, stderr);
        assert.match(stdout, /always-on cost: \$1\.38\/h \(\$1,007\.40\/month\) for workers\.min 2; \$2\.76\/h at workers\.max 4/);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });
  });
});
