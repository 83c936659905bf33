/**
 * The billing panel's logic without the editor: what the webview may send (anything else is
 * dropped), the form turned into a request with the CLI's defaults, and the answer turned into
 * what the chart and table draw, from the emulator's answers.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseWebviewMessage, type PanelQuery } from '../../../client/billing/messages';
import { defaultQuery, normalizeQuery, panelView, requestOf } from '../../../client/billing/view';
import { fetchBilling, type BillingResponse } from '../../../core/billing/query';
import { shapeBilling, withGroupNames } from '../../../core/billing/series';
import { withLedger } from '../../core/billing/support';

const query = (extra: Partial<PanelQuery> = {}): PanelQuery => defaultQuery('serverless', extra);

describe('billing panel messages', () => {
  it('accepts exactly the known messages with fields of the right types and sizes', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(parseWebviewMessage({ type: 'exportCsv' }), { type: 'exportCsv' });
    assert.deepEqual(parseWebviewMessage({ type: 'query', query: query() }), { type: 'query', query: query() });
    const rejected: unknown[] = [
      null,
      'ready',
      [],
      { type: 'ready', extra: 1 },
      { type: 'run', command: 'x' },
      { type: 'query' },
      { type: 'query', query: { ...query(), apiKey: 'x' } },
      { type: 'query', query: { ...query(), kind: 'clusters' } },
      { type: 'query', query: { ...query(), bucketSize: 'minute' } },
      { type: 'query', query: { ...query(), range: 'all' } },
      { type: 'query', query: { ...query(), lastN: 0 } },
      { type: 'query', query: { ...query(), lastN: 1.5 } },
      { type: 'query', query: { ...query(), lastN: 1001 } },
      { type: 'query', query: { ...query(), podId: 7 } },
      { type: 'query', query: { ...query(), endpointId: 'x'.repeat(201) } },
      { type: 'query', query: (({ gpuId: _g, ...rest }) => rest)(query()) },
    ];
    for (const raw of rejected) assert.equal(parseWebviewMessage(raw), undefined, JSON.stringify(raw));
  });

  it('turns the form into a request with the CLI defaults, keeping only what the kind takes', () => {
    assert.deepEqual(requestOf(defaultQuery('pods')), { request: { kind: 'pods', bucketSize: 'day', grouping: 'gpuId' } });
    assert.deepEqual(requestOf(defaultQuery('serverless')), { request: { kind: 'serverless', bucketSize: 'day', grouping: 'endpointId' } });
    assert.deepEqual(requestOf(query({ range: 'last', lastN: 7, startTime: 'ignored', bucketSize: 'week' })), {
      request: { kind: 'serverless', bucketSize: 'week', lastN: 7, grouping: 'endpointId' },
    });
    // Switching kind in the form leaves fields behind: they are dropped, not sent.
    const switched = normalizeQuery({ ...query({ endpointId: 'ep_alpha', grouping: 'endpointId' }), kind: 'networkVolumes' });
    assert.deepEqual([switched.grouping, switched.endpointId], ['', '']);
    assert.deepEqual(requestOf({ ...query({ podId: 'p1', gpuId: ' NVIDIA L4 ' }), kind: 'pods', grouping: 'endpointId' }), {
      request: { kind: 'pods', bucketSize: 'day', grouping: 'gpuId', podId: 'p1', gpuId: 'NVIDIA L4' },
    });
    assert.deepEqual(requestOf(query({ startTime: '2026-05-04' })), {
      error: 'start time must be an RFC 3339 timestamp such as 2026-05-01T00:00:00Z; got: 2026-05-04',
    });
  });
});

describe('billing panel view', () => {
  it('draws the emulator answer: title with the total, window in words, one stack per group, the table with totals', async () => {
    await withLedger(async (_emu, api) => {
      const checked = requestOf(query({ startTime: '2026-05-04T00:00:00Z', endTime: '2026-05-06T00:00:00Z' }));
      assert.ok('request' in checked);
      const response = await fetchBilling(api(), checked.request);
      const view = panelView(checked.request, shapeBilling('serverless', 'endpointId', response));
      assert.equal(view.title, 'Serverless billing: $3.90');
      assert.equal(view.subtitle, '2026-05-04T00:00:00Z to 2026-05-06T00:00:00Z (UTC), by day · stacked by endpoint');
      assert.deepEqual(view.series, [
        { label: 'ep_alpha', values: [3.1, 0.5] },
        { label: 'ep_beta', values: [0.3, 0] },
      ]);
      assert.deepEqual(view.table, {
        columns: ['ep_alpha', 'ep_beta'],
        rows: [
          { label: '2026-05-04', cells: ['3.10', '0.30'], total: '3.40' },
          { label: '2026-05-05', cells: ['0.50', '0.00'], total: '0.50' },
        ],
        totals: ['3.60', '0.30'],
        total: '3.90',
      });
      assert.deepEqual(view.components, [
        { label: 'GPU', amount: '$3.50' },
        { label: 'CPU', amount: '$0.25' },
        { label: 'Disk', amount: '$0.10' },
        { label: 'Fee', amount: '$0.05' },
      ]);
      assert.equal(view.empty, false);

      const pods = requestOf(defaultQuery('pods', { gpuId: 'NVIDIA L4' }));
      assert.ok('request' in pods);
      const empty = panelView(pods.request, shapeBilling('pods', 'gpuId', await fetchBilling(api(), pods.request)));
      assert.equal(empty.empty, true);
      assert.match(empty.subtitle, /stacked by GPU type · gpuId NVIDIA L4$/);
    });
  });

  it('names endpoints where the list knows them; a shared name keeps its id, an unknown id stays', () => {
    const records = ['ep_1', 'ep_2', 'ep_3', 'ep_gone'].map((id, i) => ({
      startTime: '2026-05-04T00:00:00Z',
      endTime: '2026-05-05T00:00:00Z',
      serverlessId: id,
      totalAmount: 4 - i,
    }));
    const response: BillingResponse = {
      records,
      metadata: {
        query: { startTime: '2026-05-04T00:00:00Z', endTime: '2026-05-05T00:00:00Z', bucketSize: 'day' },
        recordCount: 4,
        totals: {},
      },
    };
    const named = withGroupNames(
      shapeBilling('serverless', 'endpointId', response),
      new Map([
        ['ep_1', 'sdxl'],
        ['ep_2', 'llm'],
        ['ep_3', 'llm'],
      ]),
    );
    assert.deepEqual(
      named.groups.map((g) => g.label),
      ['sdxl', 'llm (ep_2)', 'llm (ep_3)', 'ep_gone'],
    );
    assert.deepEqual(
      named.groups.map((g) => g.id),
      ['ep_1', 'ep_2', 'ep_3', 'ep_gone'],
    );
  });

  it('stacks at most eight series, the smallest groups folded into "Other"', () => {
    const records = Array.from({ length: 10 }, (_, i) => ({
      startTime: '2026-05-04T00:00:00Z',
      endTime: '2026-05-05T00:00:00Z',
      serverlessId: `ep_${i}`,
      totalAmount: i + 1,
    }));
    const response: BillingResponse = {
      records,
      metadata: {
        query: { startTime: '2026-05-04T00:00:00Z', endTime: '2026-05-05T00:00:00Z', bucketSize: 'day' },
        recordCount: 10,
        totals: { totalAmount: 55 },
      },
    };
    const view = panelView(
      { kind: 'serverless', bucketSize: 'day', grouping: 'endpointId' },
      shapeBilling('serverless', 'endpointId', response),
    );
    assert.deepEqual(
      view.series.map((s) => s.label),
      ['ep_9', 'ep_8', 'ep_7', 'ep_6', 'ep_5', 'ep_4', 'ep_3', 'Other (3)'],
    );
    assert.deepEqual(view.series[7].values, [1 + 2 + 3]);
    assert.equal(view.table.total, '55.00');
  });
});
