/**
 * The stock check behind the editor's stock warnings and the plan's: what has no stock, where, and which
 * pools or CPU flavors with stock (priced as the cost hover prices them) it names instead, in which order.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Catalog } from '../../../core/endpointSpec/catalog/catalog';
import { stockShortage } from '../../../core/endpointSpec/catalog/stock';
import { STOCK_CATALOG } from '../../support/stockCatalog';

const gpuSpec = (g: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  name: 'demo',
  type: 'QUEUE',
  image: 'x',
  gpu: g,
  workers: { max: 2 },
  ...extra,
});
const cpuSpec = (cpu: unknown[]) => ({ name: 'demo', type: 'QUEUE', image: 'x', cpu, workers: { max: 3 } });
const ids = (spec: Record<string, unknown>) => stockShortage(spec, STOCK_CATALOG)?.alternatives.map((a) => a.id);

describe('stock of what a spec chooses', () => {
  it('names up to three priced pools with stock, the closest VRAM at or above first', () => {
    const found = stockShortage(gpuSpec({ pools: ['ADA_48_PRO'] }), STOCK_CATALOG);
    assert.ok(found);
    assert.equal(found.compute, 'gpu');
    assert.deepEqual(found.chosen, ['ADA_48_PRO']);
    assert.equal(found.dataCenters, undefined);
    assert.deepEqual(found.alternatives, [
      { id: 'AMPERE_48', memoryGb: 48, perWorkerHour: { low: 0.4, high: 0.76 }, atMaxHour: { low: 0.8, high: 1.52 } },
      { id: 'AMPERE_80', memoryGb: 80, perWorkerHour: { low: 1.64, high: 1.64 }, atMaxHour: { low: 3.28, high: 3.28 } },
      { id: 'ADA_80_PRO', memoryGb: 80, perWorkerHour: { low: 2.39, high: 2.39 }, atMaxHour: { low: 4.78, high: 4.78 } },
    ]);
    assert.equal(
      found.message,
      'none of the GPUs chosen in ADA_48_PRO has serverless stock, so workers would wait THROTTLED; pools with stock: AMPERE_48 (48 GB, $0.40–$0.76/h per worker), AMPERE_80 (80 GB, $1.64/h per worker), ADA_80_PRO (80 GB, $2.39/h per worker)',
    );
  });

  it('prices a worker with all its GPUs, as the cost hover does', () => {
    const found = stockShortage(gpuSpec({ pools: ['ADA_48_PRO'], count: 2 }), STOCK_CATALOG);
    assert.ok(found);
    assert.deepEqual(found.alternatives[0].perWorkerHour, { low: 0.8, high: 1.52 });
    assert.deepEqual(found.alternatives[0].atMaxHour, { low: 1.6, high: 3.04 });
  });

  it('says nothing when one chosen type has stock', () => {
    assert.equal(stockShortage(gpuSpec({ pools: ['ADA_48_PRO', 'AMPERE_48'] }), STOCK_CATALOG), undefined);
    assert.equal(stockShortage(gpuSpec({ pools: ['ADA_24'] }), STOCK_CATALOG), undefined);
  });

  it('counts only the types left after excludedTypes, and names an unpriced pool without a price', () => {
    assert.deepEqual(ids(gpuSpec({ pools: ['ADA_24'], excludedTypes: ['NVIDIA GeForce RTX 4090'] })), [
      'AMPERE_24',
      'AMPERE_48',
      'AMPERE_80',
    ]);
    const found = stockShortage(gpuSpec({ pools: ['ADA_24'], excludedTypes: ['NVIDIA GeForce RTX 4090'] }), STOCK_CATALOG);
    assert.ok(found);
    assert.deepEqual(found.alternatives[0], { id: 'AMPERE_24', memoryGb: 24 });
    assert.match(found.message, /pools with stock: AMPERE_24 \(24 GB\), AMPERE_48/);
  });

  it('looks in the named data centers, and says when the chosen GPUs have stock elsewhere', () => {
    const found = stockShortage(gpuSpec({ pools: ['ADA_24'] }, { dataCenterIds: ['EU-RO-1'] }), STOCK_CATALOG);
    assert.ok(found);
    assert.deepEqual(found.dataCenters, ['EU-RO-1']);
    assert.equal(found.stockElsewhere, true);
    assert.deepEqual(
      found.alternatives.map((a) => [a.id, a.perWorkerHour?.low]),
      [
        ['AMPERE_48', 0.4],
        ['AMPERE_80', 1.64],
      ],
    );
    assert.match(
      found.message,
      /^none of the GPUs chosen in ADA_24 has serverless stock in EU-RO-1, .*; pools with stock in EU-RO-1: AMPERE_48 \(48 GB, \$0\.40\/h per worker\), AMPERE_80 .*; the chosen ones have stock elsewhere: leaving dataCenterIds unset gives the scheduler more room$/,
    );
  });

  it('ignores data centers the catalog does not know (data-center-unknown reports them)', () => {
    assert.equal(stockShortage(gpuSpec({ pools: ['ADA_24'] }, { dataCenterIds: ['XX-1'] }), STOCK_CATALOG), undefined);
  });

  it('never guesses: a type read without stock counts as maybe in stock', () => {
    assert.equal(stockShortage(gpuSpec({ pools: ['MYSTERY_16'] }), STOCK_CATALOG), undefined);
    assert.equal(stockShortage(gpuSpec({ pools: ['ADA_48_PRO', 'MYSTERY_16'] }), STOCK_CATALOG), undefined);
  });

  it('reads the overall availability when a type has no stock per data center', () => {
    assert.deepEqual(stockShortage(gpuSpec({ pools: ['TURING_16'] }), STOCK_CATALOG)?.chosen, ['TURING_16']);
    assert.equal(stockShortage(gpuSpec({ pools: ['TURING_16'] }, { dataCenterIds: ['US-TX-3'] }), STOCK_CATALOG), undefined);
  });

  it('says when no other pool has stock either', () => {
    const found = stockShortage(gpuSpec({ pools: ['ADA_48_PRO'] }, { dataCenterIds: ['US-TX-3', 'EU-RO-1'] }), STOCK_CATALOG);
    assert.equal(found?.alternatives.length, 3);
    const none = new Catalog({ ...STOCK_CATALOG.data, gpuTypes: STOCK_CATALOG.data.gpuTypes.filter((t) => t.pool === 'ADA_48_PRO') });
    assert.match(stockShortage(gpuSpec({ pools: ['ADA_48_PRO'] }), none)?.message ?? '', /; no other pool has stock either$/);
  });

  it('leaves an unreadable selection to the schema and the other rules', () => {
    assert.equal(stockShortage(gpuSpec({ pools: ['NO_SUCH_POOL'] }), STOCK_CATALOG), undefined);
    assert.equal(stockShortage(gpuSpec({ pools: ['ADA_48_PRO'], count: 'two' }), STOCK_CATALOG), undefined);
    assert.equal(stockShortage(gpuSpec({ pools: ['ADA_48_PRO'] }, { workers: { max: -1 } }), STOCK_CATALOG), undefined);
  });

  it('checks CPU flavors too: the others with stock, cheapest first, at the spec’s vCPU count where offered', () => {
    const found = stockShortage(cpuSpec([{ id: 'cpu3c', vcpuCount: 2 }]), STOCK_CATALOG);
    assert.ok(found);
    assert.equal(found.compute, 'cpu');
    assert.deepEqual(found.chosen, ['cpu3c']);
    assert.deepEqual(found.alternatives, [
      { id: 'cpu3g', memoryGb: 8, vcpuCount: 2, perWorkerHour: { low: 0.08, high: 0.08 }, atMaxHour: { low: 0.24, high: 0.24 } },
      { id: 'cpu5g', memoryGb: 16, vcpuCount: 4, perWorkerHour: { low: 0.24, high: 0.24 }, atMaxHour: { low: 0.72, high: 0.72 } },
    ]);
    assert.match(
      found.message,
      /^none of the chosen CPU flavors \(cpu3c\) has serverless stock, .*; CPU flavors with stock: cpu3g \(2 vCPU, 8 GB, \$0\.08\/h per worker\), cpu5g/,
    );
    assert.equal(stockShortage(cpuSpec([{ id: 'cpu3m', vcpuCount: 2 }]), STOCK_CATALOG), undefined);
  });
});
