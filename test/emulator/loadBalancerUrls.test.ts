/**
 * A load balancer answers on its own host, as the service shapes it (`<id>.<jobs domain>`): on the
 * emulator that is `http://<id>.localhost:<port>`, which the client's HTTP core resolves to loopback.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createApiClient } from '../../core/api';
import { HttpCore } from '../../core/api/http';
import { isOnJobsHost } from '../../core/api/jobs';
import { loadBalancerBase } from '../../emulator/resources/endpointModel';
import { KEY, call, create, gpuSpec, loadBalancerUrls, withEmulator } from './helpers';

interface EchoedRequest {
  endpointId: string;
  workerId: string;
  method: string;
  path: string;
  body: unknown;
}

const lbSpec = (extra: Record<string, unknown> = {}): Record<string, unknown> =>
  gpuSpec({ name: 'lb', type: 'LOAD_BALANCER', scaling: { type: 'REQUEST_COUNT', requestCount: 1 }, ...extra });

test("a load balancer's base is http://<id>.localhost:<jobs port>, its health that plus the health path", async () => {
  await withEmulator({}, async (e) => {
    const lb = await create(e, lbSpec({ env: { HEALTH_CHECK_PATH: '/healthz' } }));
    const urls = loadBalancerUrls(lb);
    const jobsPort = new URL(e.jobsUrl).port;
    assert.equal(urls.base, `http://${lb.id}.localhost:${jobsPort}`);
    assert.equal(urls.health, `http://${lb.id}.localhost:${jobsPort}/healthz`);
  });
});

test('a request through core/api to the base URL reaches the endpoint, over real HTTP', async () => {
  await withEmulator({}, async (e) => {
    const lb = await create(e, lbSpec({ workers: { min: 0, max: 1 } }));
    const { base, health } = loadBalancerUrls(lb);
    const http = new HttpCore({ apiUrl: e.restUrl, jobsUrl: e.jobsUrl, apiKey: KEY });
    const answer = await http.exchange<EchoedRequest>({ method: 'POST', origin: base, path: '/generate', body: { prompt: 'x' } });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.endpointId, lb.id);
    assert.equal(answer.body.path, '/generate');
    assert.deepEqual(answer.body.body, { prompt: 'x' });
    const api = createApiClient({ apiUrl: e.restUrl, jobsUrl: e.jobsUrl, apiKey: KEY });
    const ping = await api.jobs.pingHealth(health);
    assert.equal(ping.ok, true, JSON.stringify(ping));
    assert.deepEqual(ping.body, { status: 'healthy' });
  });
});

test('the /lb/<id> path form keeps answering on the jobs host', async () => {
  await withEmulator({}, async (e) => {
    const lb = await create(e, lbSpec());
    const answer = await call<EchoedRequest>(`${e.jobsUrl}/lb/${lb.id}`, 'POST', '/generate', { prompt: 'y' });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.endpointId, lb.id);
    assert.equal(answer.body.path, '/generate');
  });
});

test('the base follows the jobs host: loopback names give <id>.localhost, a DNS name a subdomain, another IP the path', () => {
  assert.equal(loadBalancerBase('abc', 'http://127.0.0.1:8788'), 'http://abc.localhost:8788');
  assert.equal(loadBalancerBase('abc', 'http://[::1]:8788'), 'http://abc.localhost:8788');
  assert.equal(loadBalancerBase('abc', 'http://localhost:8788'), 'http://abc.localhost:8788');
  assert.equal(loadBalancerBase('abc', 'http://0.0.0.0:8788'), 'http://abc.localhost:8788');
  assert.equal(loadBalancerBase('abc', 'https://jobs.example.test'), 'https://abc.jobs.example.test');
  assert.equal(loadBalancerBase('abc', 'http://192.168.1.5:8788'), 'http://192.168.1.5:8788/lb/abc');
});

test('the key goes to <id>.localhost only when the jobs host is loopback, on the same port and scheme', () => {
  assert.ok(isOnJobsHost('http://abc123.localhost:8788/ping', 'http://127.0.0.1:8788'));
  assert.ok(isOnJobsHost('http://abc123.localhost:8788/ping', 'http://[::1]:8788'));
  assert.ok(isOnJobsHost('http://abc123.localhost:8788/ping', 'http://localhost:8788'));
  assert.ok(!isOnJobsHost('http://abc123.localhost:8789/ping', 'http://127.0.0.1:8788'), 'another port');
  assert.ok(!isOnJobsHost('https://abc123.localhost:8788/ping', 'http://127.0.0.1:8788'), 'another scheme');
  assert.ok(!isOnJobsHost('http://a.b.localhost:8788/ping', 'http://127.0.0.1:8788'), 'one label only');
  assert.ok(!isOnJobsHost('https://abc123.localhost/ping', 'https://api.example.ai'), 'the service is not loopback');
  assert.ok(!isOnJobsHost('http://abc123.localhost:8788/ping', 'http://127.0.0.2:8788'), 'localhost is not 127.0.0.2');
});
