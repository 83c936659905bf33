/**
 * `endpoint-studio billing` in-process and as the built binary, against the emulator: table and
 * JSON output, the defaults it sends, usage errors (exit 2), service refusals (exit 1), no key in
 * any output; and the CSV export of the same answers.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runBilling } from '../../cli/billing';
import type { BillingList, BillingTimeRange } from '../../core/api/billing';
import { billingCsv, csvFileName } from '../../core/billing/csv';
import { checkBillingRequest, fetchBilling, type BillingRequest } from '../../core/billing/query';
import { TEST_KEY, withLedger } from '../core/billing/support';
import { captureIo } from './support';

/** What `--output json` prints: the service's billing answer, unchanged. */
type BillingJson = BillingList<BillingTimeRange & { totalAmount: number; gpuId?: string }, unknown>;

const WINDOW = ['--start-time', '2026-05-04T00:00:00Z', '--end-time', '2026-05-06T00:00:00Z'];

describe('endpoint-studio billing', () => {
  it('prints serverless billing as a table grouped by endpoint, amounts aligned, with totals', async () => {
    await withLedger(async (emu) => {
      const io = captureIo(emu);
      assert.equal(await runBilling(['serverless', ...WINDOW], io), 0, io.stderr);
      const lines = io.stdout.trimEnd().split('\n');
      assert.equal(lines[0], 'serverless billing (USD), 2026-05-04T00:00:00Z to 2026-05-06T00:00:00Z by day, grouped by endpointId');
      assert.match(lines[1], /^START \(UTC\)\s+SERVERLESSID\s+GPU\s+CPU\s+DISK\s+FEE\s+TOTAL$/);
      assert.match(io.stdout, /2026-05-04T00:00:00Z\s+ep_alpha\s+3\.00\s+0\.00\s+0\.10\s+0\.00\s+3\.10\n/);
      assert.match(io.stdout, /2026-05-04T00:00:00Z\s+ep_beta\s+0\.00\s+0\.25\s+0\.00\s+0\.05\s+0\.30\n/);
      assert.match(lines[lines.length - 1], /^TOTAL\s+3\.50\s+0\.25\s+0\.10\s+0\.05\s+3\.90$/);
      assert.equal(new Set(lines.slice(1).map((l) => l.length)).size, 1, 'columns aligned');
      assert.ok(!io.stdout.includes(TEST_KEY) && !io.stderr.includes(TEST_KEY));
    });
  });

  it('takes each flag: bucket size, grouping, endpoint and GPU filters; --output json is the service answer', async () => {
    await withLedger(async (emu, api) => {
      const byGpu = captureIo(emu);
      assert.equal(
        await runBilling(
          ['serverless', '--bucket-size=week', '--grouping', 'gpuId', '--gpu-id', 'cpu3c', ...WINDOW, '--output', 'json'],
          byGpu,
        ),
        0,
        byGpu.stderr,
      );
      const answer = JSON.parse(byGpu.stdout) as BillingJson;
      assert.deepEqual(answer.metadata.query, {
        startTime: '2026-05-04T00:00:00Z',
        endTime: '2026-05-11T00:00:00Z',
        bucketSize: 'week',
        serverlessId: null,
        gpuId: 'cpu3c',
        grouping: 'gpuId',
      });
      assert.deepEqual(
        answer.records.map((r) => [r.gpuId, r.totalAmount]),
        [['cpu3c', 0.3]],
      );

      const endpoint = captureIo(emu);
      assert.equal(
        await runBilling(
          [
            'serverless',
            '--endpoint-id',
            'ep_alpha',
            '--bucket-size',
            'hour',
            '--start-time',
            '2026-05-04T10:00:00Z',
            '--end-time',
            '2026-05-04T12:00:00Z',
            '-o',
            'json',
          ],
          endpoint,
        ),
        0,
      );
      const direct = await api().billing.serverless({
        bucketSize: 'hour',
        startTime: '2026-05-04T10:00:00Z',
        endTime: '2026-05-04T12:00:00Z',
        endpointId: 'ep_alpha',
        grouping: 'endpointId',
      });
      assert.deepEqual(JSON.parse(endpoint.stdout), direct, 'json output is the answer as it came');

      const pods = captureIo(emu);
      assert.equal(
        await runBilling(
          ['pods', '--pod-id', 'pod_9', '--gpu-id', 'NVIDIA L4', '--grouping', 'podId', ...WINDOW, '--output', 'json'],
          pods,
        ),
        0,
      );
      assert.deepEqual((JSON.parse(pods.stdout) as BillingJson).metadata.query, {
        startTime: '2026-05-04T00:00:00Z',
        endTime: '2026-05-06T00:00:00Z',
        bucketSize: 'day',
        podId: 'pod_9',
        gpuId: 'NVIDIA L4',
        grouping: 'podId',
      });
      const podsTable = captureIo(emu);
      assert.equal(await runBilling(['pods', ...WINDOW], podsTable), 0);
      assert.equal(
        podsTable.stdout,
        'pods billing (USD), 2026-05-04T00:00:00Z to 2026-05-06T00:00:00Z by day, grouped by gpuId\nno spend in this window\n',
        'pods default to gpuId',
      );

      const volumes = captureIo(emu);
      assert.equal(
        await runBilling(['network-volume', '--start-time', '2026-05-04T00:00:00Z', '--end-time', '2026-05-05T00:00:00Z'], volumes),
        0,
      );
      assert.match(volumes.stdout, /NETWORKVOLUMEID\s+STANDARD\s+HIGH PERFORMANCE\s+TOTAL/);
      assert.match(volumes.stdout, /vol_std\s+0\.23\s+0\.00\s+0\.23/);
      assert.match(volumes.stdout, /vol_hp\s+0\.00\s+0\.06\s+0\.06/);
    });
  });

  it('sends the defaults: bucket day, serverless grouped by endpointId, the service default window', async () => {
    await withLedger(async (emu) => {
      const io = captureIo(emu);
      assert.equal(await runBilling(['serverless', '--output', 'json'], io), 0);
      const { query } = (JSON.parse(io.stdout) as BillingJson).metadata;
      assert.equal(query.bucketSize, 'day');
      assert.equal(query.grouping, 'endpointId');
      assert.equal(Date.parse(query.endTime) - Date.parse(query.startTime), 31 * 24 * 3600_000, 'thirty days ago to the end of today');
    });
  });

  it('exits 2 on usage errors and without a key, 1 when the service refuses; the key never shows', async () => {
    await withLedger(async (emu) => {
      const usage: Array<[string[], RegExp]> = [
        [[], /name what to bill/],
        [['clusters'], /unknown billing command: clusters/],
        [['network-volume', '--grouping', 'podId'], /billing network-volume has no --grouping flag/],
        [['serverless', '--pod-id', 'p'], /billing serverless has no --pod-id flag/],
        [['pods', '--endpoint-id', 'e'], /billing pods has no --endpoint-id flag/],
        [['network-volume', '--gpu-id', 'g'], /billing network-volume has no --gpu-id flag/],
        [['pods', '--grouping', 'endpointId'], /grouping for pods must be one of gpuId, podId/],
        [['serverless', '--bucket-size', 'minute'], /bucket size must be one of hour, day, week, month, year; got: minute/],
        [['serverless', '--start-time', 'yesterday'], /start time must be an RFC 3339 timestamp/],
        [['serverless', '--output', 'csv'], /--output takes table or json; got: csv/],
        [['serverless', '--start-time'], /--start-time needs a value/],
        [['serverless', '--verbose'], /unknown option for billing serverless: --verbose/],
      ];
      for (const [args, message] of usage) {
        const io = captureIo(emu);
        assert.equal(await runBilling(args, io), 2, args.join(' '));
        assert.match(io.stderr, message, args.join(' '));
        assert.match(io.stderr, /Usage:/);
      }
      const help = captureIo(emu);
      assert.equal(await runBilling(['--help'], help), 0);
      assert.match(help.stdout, /--bucket-size hour\|day\|week\|month\|year \(default day\)/);

      const noKey = captureIo(undefined, { env: { ENDPOINT_STUDIO_API_URL: emu.restUrl } });
      assert.equal(await runBilling(['serverless'], noKey), 2);
      assert.match(noKey.stderr, /no API key/);

      // Two years of hours is more buckets than the service answers: its 400 is passed on.
      const refused = captureIo(emu);
      assert.equal(
        await runBilling(
          ['serverless', '--bucket-size', 'hour', '--start-time', '2024-01-01T00:00:00Z', '--end-time', '2026-01-01T00:00:00Z'],
          refused,
        ),
        1,
      );
      assert.match(refused.stderr, /^endpoint-studio billing: billing failed: .*buckets/);

      const wrongKey = captureIo(emu, { env: { ENDPOINT_STUDIO_API_KEY: 'es_wrong_key_0123456789abcdef' } });
      assert.equal(await runBilling(['pods'], wrongKey), 1);
      assert.match(wrongKey.stderr, /billing failed: .*401|billing failed: .*nauthori[sz]ed/i);
      for (const io of [refused, wrongKey])
        assert.ok(!io.stderr.includes(TEST_KEY) && !io.stderr.includes('es_wrong_key_0123456789abcdef'));
    });
  });

  it('runs as the built command line, exit code and all', async () => {
    await withLedger(async (emu) => {
      const cli = join(__dirname, '..', '..', 'dist', 'cli.js');
      const env = { ...process.env, ENDPOINT_STUDIO_API_URL: emu.restUrl, ENDPOINT_STUDIO_API_KEY: TEST_KEY };
      // Not spawnSync: it would block the emulator, which runs in this same process.
      const run = (args: string[]) =>
        new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
          const child = spawn(process.execPath, [cli, ...args], { env });
          let stdout = '';
          let stderr = '';
          child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
          child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
          child.on('close', (status) => {
            resolve({ status, stdout, stderr });
          });
        });
      const ok = await run(['billing', 'serverless', '--grouping', 'podId', ...WINDOW]);
      assert.equal(ok.status, 0, ok.stderr);
      assert.match(ok.stdout, /grouped by podId\nSTART \(UTC\)\s+PODID/);
      assert.match(ok.stdout, /w_a2\s+2\.00\s+0\.00\s+0\.00\s+0\.00\s+2\.00/);
      const bad = await run(['billing', 'pods', '--bucket-size', 'fortnight']);
      assert.equal(bad.status, 2);
      assert.match(bad.stderr, /bucket size must be one of/);
      assert.equal(spawnSync(process.execPath, [cli, 'help']).stdout.toString().includes('billing pods|serverless|network-volume'), true);
    });
  });
});

describe('billing CSV', () => {
  const request = (input: Parameters<typeof checkBillingRequest>[0]): BillingRequest => {
    const checked = checkBillingRequest(input);
    if ('error' in checked) throw new Error(checked.error);
    return checked.request;
  };

  it('writes one line per record with the group and each component, CRLF, as the service answered', async () => {
    await withLedger(async (_emu, api) => {
      const req = request({ kind: 'serverless', startTime: '2026-05-04T00:00:00Z', endTime: '2026-05-06T00:00:00Z' });
      const answer = await fetchBilling(api(), req);
      const csv = billingCsv('serverless', req.grouping, answer);
      const lines = csv.split('\r\n');
      assert.equal(lines[0], 'startTime,endTime,serverlessId,gpuAmount,cpuAmount,diskAmount,feeAmount,totalAmount');
      assert.ok(lines.includes('2026-05-04T00:00:00Z,2026-05-05T00:00:00Z,ep_alpha,3,0,0.1,0,3.1'), csv);
      assert.ok(lines.includes('2026-05-05T00:00:00Z,2026-05-06T00:00:00Z,ep_beta,0,0,0,0,0'), csv);
      assert.equal(lines.length, answer.records.length + 2, 'header, records, final CRLF');
      assert.equal(csvFileName('serverless', answer), 'billing-serverless-day-2026-05-04-2026-05-06.csv');

      const byGpu = request({ kind: 'serverless', grouping: 'gpuId', startTime: '2026-05-04T00:00:00Z', endTime: '2026-05-05T00:00:00Z' });
      assert.match(
        billingCsv('serverless', 'gpuId', await fetchBilling(api(), byGpu)),
        /^startTime,endTime,gpuId,.*\r\n.*,NVIDIA GeForce RTX 4090,3,0,0\.1,0,3\.1\r\n/,
      );

      const volumes = request({ kind: 'networkVolumes', startTime: '2026-05-04T00:00:00Z', endTime: '2026-05-05T00:00:00Z' });
      assert.match(
        billingCsv('networkVolumes', undefined, await fetchBilling(api(), volumes)),
        /^startTime,endTime,networkVolumeId,standardAmount,highPerformanceAmount,totalAmount\r\n/,
      );
      const all = request({ kind: 'all', lastN: 1 });
      assert.match(
        billingCsv('all', undefined, await fetchBilling(api(), all)),
        /^startTime,endTime,podGpuAmount,.*,clusterNetworkingAmount,totalAmount\r\n/,
      );
    });
  });

  it('quotes commas, quotes and line breaks, and defuses cells a spreadsheet would run as formulas', () => {
    const answer = {
      records: [
        {
          startTime: '2026-05-04T00:00:00Z',
          endTime: '2026-05-05T00:00:00Z',
          podId: '=HYPERLINK("x"),1',
          gpuAmount: 1,
          cpuAmount: 0,
          diskAmount: 0,
          totalAmount: 1,
        },
      ],
      metadata: {
        query: { startTime: '2026-05-04T00:00:00Z', endTime: '2026-05-05T00:00:00Z', bucketSize: 'day' as const },
        recordCount: 1,
        totals: {},
      },
    };
    assert.equal(
      billingCsv('pods', 'podId', answer).split('\r\n')[1],
      `2026-05-04T00:00:00Z,2026-05-05T00:00:00Z,"'=HYPERLINK(""x""),1",1,0,0,1`,
    );
  });
});
