/**
 * Every billing path with every parameter, against the emulator over HTTP through the API client:
 * groupings and their defaults, filters, bucket alignment for each bucket size, the last N
 * buckets, the default window, and the shaping of the answer into the chart's buckets and groups.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkBillingRequest, fetchBilling, type BillingRequest, type BillingRequestInput } from '../../../core/billing/query';
import { chartSeries, shapeBilling, totalsByGroup } from '../../../core/billing/series';
import { GPU_4090, TEST_KEY, currentHour, near, withLedger } from './support';

const MAY = { startTime: '2026-05-04T00:00:00Z', endTime: '2026-05-06T00:00:00Z' };
const HOUR = 3600_000;
const DAY = 24 * HOUR;

function request(input: BillingRequestInput): BillingRequest {
  const checked = checkBillingRequest(input);
  if ('error' in checked) throw new Error(checked.error);
  return checked.request;
}

const byGroup = (records: Array<Record<string, unknown>>, field: string) =>
  records.map((r) => `${String(r.startTime).slice(0, 13)} ${String(r[field])} ${Number(r.totalAmount).toFixed(2)}`).sort();

describe('billing paths against the emulator', () => {
  it('serverless: grouped by endpointId by default, one record per endpoint per day, totals by component', async () => {
    await withLedger(async (_emu, api) => {
      const req = request({ kind: 'serverless', ...MAY });
      assert.equal(req.grouping, 'endpointId', 'the CLI default');
      assert.equal(req.bucketSize, 'day', 'the CLI default');
      const answer = await fetchBilling(api(), req);
      assert.deepEqual(answer.metadata.query, { ...MAY, bucketSize: 'day', serverlessId: null, grouping: 'endpointId' });
      // ep_alpha: 4 May 1.00 + 0.10 + 2.00; 5 May 0.50. ep_beta: 4 May 0.25 + 0.05 fee; 5 May nothing.
      assert.deepEqual(byGroup(answer.records, 'serverlessId'), [
        '2026-05-04T00 ep_alpha 3.10',
        '2026-05-04T00 ep_beta 0.30',
        '2026-05-05T00 ep_alpha 0.50',
        '2026-05-05T00 ep_beta 0.00',
      ]);
      assert.deepEqual(answer.metadata.totals, { totalAmount: 3.9, gpuAmount: 3.5, cpuAmount: 0.25, diskAmount: 0.1, feeAmount: 0.05 });
      assert.equal(answer.metadata.uniqueServerlessCount, 2);

      const table = shapeBilling('serverless', req.grouping, answer);
      assert.deepEqual(
        table.buckets.map((b) => [b.label, b.start, b.end]),
        [
          ['2026-05-04', '2026-05-04T00:00:00Z', '2026-05-05T00:00:00Z'],
          ['2026-05-05', '2026-05-05T00:00:00Z', '2026-05-06T00:00:00Z'],
        ],
      );
      assert.deepEqual(
        table.groups.map((g) => g.id),
        ['ep_alpha', 'ep_beta'],
        'largest first',
      );
      near(table.cells[0][0], 3.1, 'ep_alpha on 4 May');
      near(table.cells[1][1], 0, 'ep_beta on 5 May');
      near(table.total, 3.9, 'total');
      assert.deepEqual(
        table.components.map((c) => [c.label, c.amount]),
        [
          ['GPU', 3.5],
          ['CPU', 0.25],
          ['Disk', 0.1],
          ['Fee', 0.05],
        ],
      );
      const alpha = totalsByGroup(table).get('ep_alpha');
      assert.ok(alpha !== undefined, 'ep_alpha has a total');
      near(alpha, 3.6, 'ep_alpha over the window');
    });
  });

  it('serverless: grouped by podId and by gpuId; filtered by endpoint and by GPU type', async () => {
    await withLedger(async (_emu, api) => {
      const client = api();
      const byPod = await fetchBilling(client, request({ kind: 'serverless', grouping: 'podId', ...MAY }));
      assert.equal(byPod.metadata.query.grouping, 'podId');
      const pods = shapeBilling('serverless', 'podId', byPod);
      assert.equal(pods.groupedBy, 'podId');
      assert.deepEqual(
        pods.groups.map((g) => [g.id, g.total.toFixed(2)]),
        [
          ['w_a2', '2.00'],
          ['w_a1', '1.60'],
          ['w_b1', '0.30'],
        ],
      );

      const byGpu = await fetchBilling(client, request({ kind: 'serverless', grouping: 'gpuId', ...MAY }));
      assert.deepEqual(
        shapeBilling('serverless', 'gpuId', byGpu).groups.map((g) => [g.id, g.total.toFixed(2)]),
        [
          [GPU_4090, '3.60'],
          ['cpu3c', '0.30'],
        ],
      );

      const beta = await fetchBilling(client, request({ kind: 'serverless', endpointId: 'ep_beta', ...MAY }));
      assert.equal(beta.metadata.query.serverlessId, 'ep_beta', 'the endpoint filter goes out as serverlessId');
      assert.ok(beta.records.length > 0 && beta.records.every((r) => r.serverlessId === 'ep_beta'));
      assert.equal(beta.metadata.totals.totalAmount, 0.3);

      const onCpu = await fetchBilling(client, request({ kind: 'serverless', gpuId: 'cpu3c', grouping: 'gpuId', ...MAY }));
      assert.equal(onCpu.metadata.query.gpuId, 'cpu3c');
      assert.deepEqual([...new Set(onCpu.records.map((r) => r.gpuId))], ['cpu3c']);
    });
  });

  it('aligns windows to whole buckets of every size, weeks from Monday, all in UTC', async () => {
    await withLedger(async (_emu, api) => {
      const client = api();
      const hour = await fetchBilling(
        client,
        request({ kind: 'serverless', bucketSize: 'hour', startTime: '2026-05-04T10:30:00Z', endTime: '2026-05-04T11:15:00Z' }),
      );
      assert.deepEqual([hour.metadata.query.startTime, hour.metadata.query.endTime], ['2026-05-04T10:00:00Z', '2026-05-04T12:00:00Z']);
      const hours = shapeBilling('serverless', 'endpointId', hour);
      assert.deepEqual(
        hours.buckets.map((b) => b.label),
        ['2026-05-04 10:00', '2026-05-04 11:00'],
      );
      assert.deepEqual(
        hours.cells.map((row) => row.map((v) => v.toFixed(2))),
        [
          ['1.10', '0.30'],
          ['2.00', '0.00'],
        ],
      );

      const onBoundary = await fetchBilling(client, request({ kind: 'serverless', ...MAY }));
      assert.equal(onBoundary.metadata.query.endTime, MAY.endTime, 'an end already on a boundary is kept');

      const week = await fetchBilling(
        client,
        request({ kind: 'serverless', bucketSize: 'week', startTime: '2026-05-06T09:00:00Z', endTime: '2026-05-13T00:00:00Z' }),
      );
      assert.deepEqual(
        [week.metadata.query.startTime, week.metadata.query.endTime],
        ['2026-05-04T00:00:00Z', '2026-05-18T00:00:00Z'],
        'Wednesday snaps back to Monday',
      );
      const weeks = shapeBilling('serverless', 'endpointId', week);
      assert.deepEqual(
        weeks.buckets.map((b) => b.label),
        ['week of 2026-05-04', 'week of 2026-05-11'],
      );
      assert.deepEqual(
        weeks.groups.map((g) => g.id),
        ['ep_alpha', 'ep_beta'],
      );
      assert.deepEqual(
        weeks.cells.map((row) => row.map((v) => v.toFixed(2))),
        [
          ['3.60', '0.30'],
          ['0.00', '0.75'],
        ],
      );

      const month = await fetchBilling(
        client,
        request({ kind: 'serverless', bucketSize: 'month', startTime: '2026-05-15T00:00:00Z', endTime: '2026-06-02T00:00:00Z' }),
      );
      assert.deepEqual([month.metadata.query.startTime, month.metadata.query.endTime], ['2026-05-01T00:00:00Z', '2026-07-01T00:00:00Z']);
      const months = shapeBilling('serverless', 'endpointId', month);
      assert.deepEqual(
        months.buckets.map((b) => b.label),
        ['2026-05', '2026-06'],
      );
      // June holds 4.00 of ep_alpha; May 3.60 of ep_alpha and 1.05 of ep_beta.
      assert.deepEqual(
        months.bucketTotals.map((v) => v.toFixed(2)),
        ['4.65', '4.00'],
      );

      const year = await fetchBilling(
        client,
        request({ kind: 'serverless', bucketSize: 'year', startTime: '2026-03-01T00:00:00Z', endTime: '2026-06-30T00:00:00Z' }),
      );
      assert.deepEqual([year.metadata.query.startTime, year.metadata.query.endTime], ['2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z']);
      const years = shapeBilling('serverless', 'endpointId', year);
      assert.deepEqual(
        years.buckets.map((b) => b.label),
        ['2026'],
      );
    });
  });

  it('the last N buckets end with the current one; no window means the last 30 days by day', async () => {
    await withLedger(async (_emu, api) => {
      const client = api();
      const now = currentHour();
      const today = Math.floor(Date.now() / DAY) * DAY;
      const last2 = await fetchBilling(client, request({ kind: 'serverless', lastN: 2 }));
      assert.deepEqual(
        [last2.metadata.query.startTime, last2.metadata.query.endTime],
        [new Date(today - DAY).toISOString().replace('.000Z', 'Z'), new Date(today + DAY).toISOString().replace('.000Z', 'Z')],
      );
      const table = shapeBilling('serverless', 'endpointId', last2);
      assert.equal(table.buckets.length, 2);
      // 3.00 of ep_alpha 24 h before the current hour: yesterday; 1.00 of ep_beta now: today.
      assert.deepEqual(
        table.groups.map((g) => [g.id, g.total.toFixed(2)]),
        [
          ['ep_alpha', '3.00'],
          ['ep_beta', '1.00'],
        ],
      );
      assert.equal(table.cells[0][0].toFixed(2), '3.00', 'yesterday');

      const lastHours = await fetchBilling(client, request({ kind: 'serverless', bucketSize: 'hour', lastN: 3 }));
      assert.equal(Date.parse(lastHours.metadata.query.endTime), now + HOUR);
      assert.equal(Date.parse(lastHours.metadata.query.startTime), now - 2 * HOUR);

      const defaults = await fetchBilling(client, request({ kind: 'serverless' }));
      assert.equal(defaults.metadata.query.bucketSize, 'day');
      assert.equal(
        Date.parse(defaults.metadata.query.startTime),
        Math.floor((Date.now() - 30 * DAY) / DAY) * DAY,
        'thirty days ago, snapped to midnight',
      );
      assert.equal(Date.parse(defaults.metadata.query.endTime), today + DAY, 'now, snapped up to the end of today');
      assert.deepEqual(defaults.metadata.totals.totalAmount, 4, 'only the recent spend, not May');
      assert.equal(shapeBilling('serverless', 'endpointId', defaults).buckets.length, 31);
    });
  });

  it('pods: grouped by gpuId by default or by podId, filtered by pod and GPU type; the emulator runs no pods', async () => {
    await withLedger(async (_emu, api) => {
      const client = api();
      const req = request({ kind: 'pods', ...MAY });
      assert.equal(req.grouping, 'gpuId');
      const plain = await fetchBilling(client, req);
      assert.deepEqual(plain.metadata.query, { ...MAY, bucketSize: 'day', podId: null, grouping: 'gpuId' });
      assert.deepEqual(plain.records, []);
      assert.equal(plain.metadata.uniquePodCount, 0);
      const filtered = await fetchBilling(
        client,
        request({ kind: 'pods', grouping: 'podId', podId: 'pod_1', gpuId: GPU_4090, bucketSize: 'week', ...MAY }),
      );
      assert.deepEqual(filtered.metadata.query, {
        startTime: '2026-05-04T00:00:00Z',
        endTime: '2026-05-11T00:00:00Z',
        bucketSize: 'week',
        podId: 'pod_1',
        gpuId: GPU_4090,
        grouping: 'podId',
      });
      const empty = shapeBilling('pods', 'podId', filtered);
      assert.deepEqual([empty.buckets.length, empty.groups.length, empty.total], [1, 0, 0], 'an empty window still has its buckets');
    });
  });

  it('network volumes: storage by volume, standard and high performance', async () => {
    await withLedger(async (_emu, api) => {
      const answer = await fetchBilling(
        api(),
        request({ kind: 'networkVolumes', startTime: '2026-05-04T00:00:00Z', endTime: '2026-05-05T00:00:00Z' }),
      );
      assert.equal(answer.metadata.uniqueNetworkVolumeCount, 2);
      const table = shapeBilling('networkVolumes', undefined, answer);
      assert.equal(table.groupedBy, 'networkVolumeId');
      // 100 GB × 0.07 USD/GB-month ÷ 730 h × 24 h; 50 GB × 0.14 ÷ 730 × 6 h.
      assert.deepEqual(
        table.groups.map((g) => g.id),
        ['vol_std', 'vol_hp'],
      );
      near(table.groups[0].total, (100 * 0.07 * 24) / 730, 'vol_std');
      near(table.groups[1].total, (50 * 0.14 * 6) / 730, 'vol_hp');
      near(answer.metadata.totals.standardAmount, (100 * 0.07 * 24) / 730, 'standard total');
      near(answer.metadata.totals.highPerformanceAmount, (50 * 0.14 * 6) / 730, 'high-performance total');
    });
  });

  it('public endpoints and the aggregate: a record per bucket; the aggregate stacks by component', async () => {
    await withLedger(async (_emu, api) => {
      const client = api();
      const pub = await fetchBilling(client, request({ kind: 'publicEndpoints', ...MAY }));
      assert.equal(pub.records.length, 2);
      const pubTable = shapeBilling('publicEndpoints', undefined, pub);
      assert.deepEqual(
        pubTable.groups.map((g) => [g.label, g.total]),
        [['Public endpoints', 0]],
      );

      const all = await fetchBilling(client, request({ kind: 'all', ...MAY }));
      assert.equal(all.records.length, 2);
      const table = shapeBilling('all', undefined, all);
      assert.equal(table.groupedBy, 'component');
      const volumes = (100 * 0.07 * 24) / 730 + (50 * 0.14 * 6) / 730;
      assert.deepEqual(
        table.groups.map((g) => g.label),
        ['Serverless GPU', 'Serverless CPU', 'Storage (standard)', 'Serverless disk', 'Storage (high performance)', 'Serverless fee'],
        'components with spend only, largest first',
      );
      near(table.total, 3.9 + volumes, 'everything in the window');
      assert.deepEqual(
        chartSeries(table, 4).map((s) => s.label),
        ['Serverless GPU', 'Serverless CPU', 'Storage (standard)', 'Other (3)'],
      );
      near(chartSeries(table, 4)[3].values[0], 0.1 + 0.05 + (50 * 0.14 * 6) / 730, 'the folded series sums the rest');
    });
  });

  it('refuses what the service would refuse, with the reason, before sending', () => {
    const error = (input: BillingRequestInput) => {
      const checked = checkBillingRequest(input);
      return 'error' in checked ? checked.error : '';
    };
    assert.match(
      error({ kind: 'serverless', bucketSize: 'minute' }),
      /bucket size must be one of hour, day, week, month, year; got: minute/,
    );
    assert.match(error({ kind: 'serverless', startTime: '2026-05-01' }), /start time must be an RFC 3339 timestamp/);
    assert.match(error({ kind: 'serverless', startTime: '2026-02-30T00:00:00Z' }), /RFC 3339/);
    assert.match(error({ kind: 'serverless', lastN: 3, endTime: '2026-05-01T00:00:00Z' }), /cannot be combined/);
    assert.match(error({ kind: 'serverless', lastN: 0 }), /whole number from 1/);
    assert.match(
      error({ kind: 'serverless', startTime: '2026-05-02T00:00:00Z', endTime: '2026-05-01T00:00:00Z' }),
      /start time must be before end time/,
    );
    assert.match(error({ kind: 'pods', grouping: 'endpointId' }), /grouping for pods must be one of gpuId, podId; got: endpointId/);
    assert.match(error({ kind: 'pods', endpointId: 'ep' }), /pods billing has no endpointId filter/);
    assert.match(error({ kind: 'serverless', podId: 'p' }), /no podId filter/);
    assert.match(error({ kind: 'networkVolumes', grouping: 'podId' }), /has no grouping/);
    assert.deepEqual(checkBillingRequest({ kind: 'serverless', lastN: '7', startTime: '', gpuId: ' cpu3c ' }), {
      request: { kind: 'serverless', bucketSize: 'day', lastN: 7, grouping: 'endpointId', gpuId: 'cpu3c' },
    });
  });

  it('the service refuses a mixed window and an unknown grouping with a 400 problem', async () => {
    await withLedger(async (emu) => {
      const get = (query: string) =>
        fetch(`${emu.restUrl}/v2/billing/serverless?${query}`, { headers: { Authorization: `Bearer ${TEST_KEY}` } });
      assert.equal((await get('lastN=2&startTime=2026-05-01T00:00:00Z')).status, 400);
      assert.equal((await get('grouping=clusterId')).status, 400);
      assert.equal(
        (await fetch(`${emu.restUrl}/v2/billing/pods?grouping=endpointId`, { headers: { Authorization: `Bearer ${TEST_KEY}` } })).status,
        400,
      );
    });
  });
});
