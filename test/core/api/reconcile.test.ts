/**
 * A create whose answer is lost must never turn into two endpoints: the client lists before it
 * sends anything again. Both halves of "lost" are exercised: the request never handled (the
 * emulator drops the connection first) and the request handled but its answer cut off (a
 * forwarding proxy in front of the emulator, since the emulator cannot cause that).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../../core/api';
import { gpuEndpoint, losingProxy, TEST_KEY, withEmulator } from './support';
import { createApiClient } from '../../../core/api';

describe('create reconciliation', () => {
  it('sends the create again only after listing shows it was not made (dropped before handling)', async () => {
    await withEmulator({}, async (emu, client) => {
      const api = client();
      emu.setFaults({ dropConnection: true, count: 1 });
      const outcome = await api.serverless.createReconciled(gpuEndpoint({ name: 'dropped' }), { reconcileIntervalMs: 20 });
      assert.equal(outcome.status, 'created');
      assert.equal(outcome.attempts, 2);
      assert.deepEqual(
        (await api.serverless.list()).map((e) => e.name),
        ['dropped'],
      );
    });
  });

  it('finds the endpoint a handled create made when its answer was lost, and makes no second one', async () => {
    await withEmulator({}, async (emu, client) => {
      const proxy = await losingProxy(emu.restUrl);
      try {
        const api = client({ apiUrl: proxy.url });
        proxy.loseAnswers('POST', 1);
        const outcome = await api.serverless.createReconciled(gpuEndpoint({ name: 'lost-answer' }), { reconcileIntervalMs: 20 });
        assert.equal(outcome.status, 'reconciled');
        assert.equal(outcome.attempts, 1);
        assert.ok(outcome.lostAnswer.outcomeUnknown);
        assert.ok(outcome.lostAnswer.network);
        const all = await api.serverless.list();
        assert.deepEqual(
          all.map((e) => e.id),
          [outcome.endpoint.id],
        );
        assert.equal(outcome.endpoint.name, 'lost-answer');
      } finally {
        await proxy.close();
      }
    });
  });

  it('leaves a plain create unrepeated and says its outcome is unknown', async () => {
    await withEmulator({}, async (emu, client) => {
      const proxy = await losingProxy(emu.restUrl);
      try {
        const api = client({ apiUrl: proxy.url });
        proxy.loseAnswers('POST', 1);
        await assert.rejects(
          api.serverless.create(gpuEndpoint({ name: 'plain' })),
          (e: unknown) => e instanceof ApiError && e.outcomeUnknown && e.method === 'POST',
        );
        assert.equal((await api.serverless.list()).length, 1, 'made once, not repeated');
      } finally {
        await proxy.close();
      }
    });
  });

  it('does not take an endpoint that existed before for the one this create made', async () => {
    await withEmulator({}, async (emu, client) => {
      const api = client();
      const earlier = await api.serverless.create(gpuEndpoint({ name: 'same-name' }));
      emu.setFaults({ dropConnection: true, count: 1 });
      const outcome = await api.serverless.createReconciled(gpuEndpoint({ name: 'same-name' }), {
        existingIds: [earlier.id],
        retries: 0,
        reconcileChecks: 2,
        reconcileIntervalMs: 20,
      });
      assert.equal(outcome.status, 'notCreated');
      assert.equal(outcome.attempts, 1);
      assert.deepEqual(
        (await api.serverless.list()).map((e) => e.id),
        [earlier.id],
      );
    });
  });

  it('throws definite refusals as they are, without listing', async () => {
    await withEmulator({}, async (emu) => {
      let requests = 0;
      const api = createApiClient({
        apiUrl: emu.restUrl,
        apiKey: TEST_KEY,
        fetch: (input, init) => {
          requests++;
          return fetch(input, init);
        },
      });
      await assert.rejects(
        api.serverless.createReconciled({ ...gpuEndpoint(), gpu: { pools: [] } }),
        (e: unknown) => e instanceof ApiError && e.status === 422 && e.errors[0]?.path === '$.gpu.pools' && !e.outcomeUnknown,
      );
      assert.equal(requests, 1);
    });
  });

  it('stops when cancelled while checking', async () => {
    await withEmulator({}, async (emu, client) => {
      const api = client();
      emu.setFaults({ dropConnection: true, count: 1 });
      const controller = new AbortController();
      setTimeout(() => {
        controller.abort();
      }, 150);
      await assert.rejects(
        api.serverless.createReconciled(gpuEndpoint({ name: 'cancelled' }), {
          signal: controller.signal,
          reconcileChecks: 50,
          reconcileIntervalMs: 100,
        }),
        (e: unknown) => e instanceof ApiError && e.aborted && e.outcomeUnknown,
      );
    });
  });
});
