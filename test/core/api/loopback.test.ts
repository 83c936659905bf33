/** Names under `localhost` resolve to loopback without DNS; every other name is left to the system resolver. */
import assert from 'node:assert/strict';
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { fetchResolvingLocalhost, isLocalhostName, loopbackAwareLookup } from '../../../core/api/loopback';

interface Resolved {
  error: NodeJS.ErrnoException | null;
  address: string | LookupAddress[];
  family?: number;
}

const resolve = (lookup: typeof loopbackAwareLookup, name: string, options: LookupOptions): Promise<Resolved> =>
  new Promise((done) => {
    lookup(name, options, (error, address, family) => {
      done({ error, address, family });
    });
  });

const system = (name: string, options: LookupOptions): Promise<Resolved> =>
  new Promise((done) => {
    dnsLookup(name, options, (error, address, family) => {
      done({ error, address, family });
    });
  });

describe('the loopback-aware lookup', () => {
  it('resolves foo.localhost and localhost to loopback, by family and all at once', async () => {
    assert.deepEqual(await resolve(loopbackAwareLookup, 'foo.localhost', {}), { error: null, address: '127.0.0.1', family: 4 });
    assert.deepEqual(await resolve(loopbackAwareLookup, 'FOO.localhost.', { family: 6 }), { error: null, address: '::1', family: 6 });
    assert.deepEqual(await resolve(loopbackAwareLookup, 'localhost', { family: 'IPv4' }), { error: null, address: '127.0.0.1', family: 4 });
    const all = await resolve(loopbackAwareLookup, 'a.b.localhost', { all: true });
    assert.equal(all.error, null);
    assert.deepEqual(all.address, [
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ]);
  });

  it('leaves every other name to the system resolver', async () => {
    for (const [name, options] of [
      ['10.1.2.3', {}],
      ['10.1.2.3', { all: true }],
      ['localhost.example.invalid', {}],
      ['no-such-host.invalid', { all: true }],
    ] as const) {
      const ours = await resolve(loopbackAwareLookup, name, options);
      const theirs = await system(name, options);
      assert.deepEqual({ code: ours.error?.code, address: ours.address }, { code: theirs.error?.code, address: theirs.address }, name);
    }
    assert.equal(isLocalhostName('localhost.example.invalid'), false);
    assert.equal(isLocalhostName('mylocalhost'), false);
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
