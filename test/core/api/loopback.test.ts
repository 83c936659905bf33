/** Names under `localhost` reach loopback without DNS, with the name kept in Host; every other URL is left to `fetch`. */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { fetchResolvingLocalhost, isUnderLocalhost } from '../../../core/api/loopback';

describe('requests to names under localhost', () => {
  it('knows which names are under localhost', () => {
    for (const name of ['foo.localhost', 'FOO.localhost.', 'a.b.localhost']) assert.equal(isUnderLocalhost(name), true, name);
    for (const name of ['localhost', 'localhost.example.invalid', 'mylocalhost', '127.0.0.1'])
      assert.equal(isUnderLocalhost(name), false, name);
  });

  it('fetches from a subdomain of localhost, which the system resolver cannot find', async () => {
    const server = createServer((req, res) => {
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ host: req.headers.host, method: req.method, body: req.headers['content-length'] }));
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    try {
      const answer = await fetchResolvingLocalhost(`http://abc.localhost:${port}/x`, { method: 'POST', body: '{"a":1}' });
      assert.equal(answer.status, 200);
      assert.equal(answer.headers.get('content-type'), 'application/json');
      assert.deepEqual(await answer.json(), { host: `abc.localhost:${port}`, method: 'POST', body: '7' });
      await assert.rejects(fetchResolvingLocalhost(`http://abc.localhost:${port}/x`, { signal: AbortSignal.abort() }));
    } finally {
      server.close();
    }
  });
});
