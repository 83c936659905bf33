/**
 * `queryBilling` against the emulator over HTTP, on the known usage ledger: the CLI's defaults
 * applied (bucket `day`, the kind's default grouping), rows and totals over the window the service
 * resolved, filters, the last N buckets, the CLI's `networkVolume` spelling, and a bad query or a
 * refused key answered as a result that carries no key.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { billingRequestOf, queryBilling } from '../../../core/operations';
import { TEST_KEY, currentHour, near, withLedger } from '../billing/support';

const MAY = { startTime: '2026-05-04T00:00:00Z', endTime: '2026-05-06T00:00:00Z' };

describe('queryBilling', () => {
  it('serverless with the defaults: by day and by endpoint, rows and totals over the resolved window', async () => {
    await withLedger(async (_emu, api) => {
      const result = await queryBilling(api(), { kind: 'serverless', ...MAY });
      assert.ok(result.ok, JSON.stringify(result));
      assert.equal(result.request.bucketSize, 'day');
      assert.equal(result.request.grouping, 'endpointId');
      assert.deepEqual(result.window, { ...MAY, bucketSize: 'day' });
      const rows = result.rows.map(
        (r) => `${String(r.startTime).slice(0, 10)} ${String(r.serverlessId)} ${Number(r.totalAmount).toFixed(2)}`,
      );
      assert.deepEqual(rows.sort(), [
        '2026-05-04 ep_alpha 3.10',
        '2026-05-04 ep_beta 0.30',
        '2026-05-05 ep_alpha 0.50',
        '2026-05-05 ep_beta 0.00',
      ]);
      assert.deepEqual(result.totals, { totalAmount: 3.9, gpuAmount: 3.5, cpuAmount: 0.25, diskAmount: 0.1, feeAmount: 0.05 });
      assert.equal(result.response.metadata.recordCount, 4);
    });
  });

  it('filters and groupings: one endpoint by GPU type; by the week, the window snapped to whole weeks', async () => {
    await withLedger(async (_emu, api) => {
      const beta = await queryBilling(api(), { kind: 'serverless', endpointId: 'ep_beta', grouping: 'gpuId', ...MAY });
      assert.ok(beta.ok, JSON.stringify(beta));
      near(beta.totals.totalAmount, 0.3, 'ep_beta in the window');
      assert.ok(beta.rows.every((r) => r.gpuId === 'cpu3c' || Number(r.totalAmount) === 0));
      const weekly = await queryBilling(api(), { kind: 'serverless', bucketSize: 'week', ...MAY });
      assert.ok(weekly.ok);
      assert.deepEqual(weekly.window, { startTime: '2026-05-04T00:00:00Z', endTime: '2026-05-11T00:00:00Z', bucketSize: 'week' });
    });
  });

  it('the last N buckets end with the current one; pods default to gpuId; network-volume as the CLI spells it', async () => {
    await withLedger(async (_emu, api) => {
      const recent = await queryBilling(api(), { kind: 'serverless', bucketSize: 'hour', lastN: 25 });
      assert.ok(recent.ok, JSON.stringify(recent));
      assert.equal(Date.parse(recent.window.endTime), currentHour() + 3600_000);
      near(recent.totals.totalAmount, 4, 'GPU 3.00 a day ago and CPU 1.00 this hour');
      const pods = await queryBilling(api(), { kind: 'pods', ...MAY });
      assert.ok(pods.ok);
      assert.equal(pods.request.grouping, 'gpuId');
      assert.deepEqual(pods.rows, []);
      const volumes = await queryBilling(api(), {
        kind: 'networkVolume',
        startTime: '2026-05-04T00:00:00Z',
        endTime: '2026-05-05T00:00:00Z',
      });
      assert.ok(volumes.ok, JSON.stringify(volumes));
      assert.equal(volumes.request.kind, 'networkVolumes');
      assert.deepEqual(volumes.rows.map((r) => r.networkVolumeId).sort(), ['vol_hp', 'vol_std']);
      near(volumes.totals.standardAmount, (100 * 0.07 * 24) / 730, 'standard storage');
    });
  });

  it('a bad query is refused as invalid; a refused key is a failure with its status and no key', async () => {
    await withLedger(async (_emu, api) => {
      const mixed = await queryBilling(api(), { kind: 'serverless', lastN: 3, startTime: MAY.startTime });
      assert.ok(!mixed.ok);
      assert.equal(mixed.reason, 'invalid');
      assert.match(mixed.message, /cannot be combined/);
      assert.deepEqual(billingRequestOf({ kind: 'pods', endpointId: 'ep' }), {
        ok: false,
        message: 'pods billing has no endpointId filter',
      });
      const refused = await queryBilling(api({ apiKey: `${TEST_KEY}-wrong` }), { kind: 'serverless', ...MAY });
      assert.ok(!refused.ok);
      assert.equal(refused.reason, 'failed');
      assert.equal(refused.status, 401);
      assert.ok(!refused.message.includes(TEST_KEY), refused.message);
    });
  });
});
