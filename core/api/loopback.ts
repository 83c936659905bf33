/**
 * Names under `localhost` are loopback (RFC 6761). The local emulator answers a load balancer at
 * `http://<endpoint id>.localhost:<port>`, shaped as the service's `https://<endpoint id>.<jobs domain>`,
 * but Node's resolver (and so `fetch`) knows only `localhost` itself. Requests to a subdomain of
 * `localhost` therefore go through node:http with an agent whose lookup answers loopback for
 * `localhost` and `*.localhost` without asking DNS, and hands every other name to dns.lookup.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

const LOOPBACK: readonly LookupAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

/** Statuses whose answers have no body; a web `Response` refuses one for them. */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

function bareName(hostname: string): string {
  return hostname.toLowerCase().replace(/\.$/, '');
}

/** `localhost` or a name under it. */
export function isLocalhostName(hostname: string): boolean {
  const name = bareName(hostname);
  return name === 'localhost' || name.endsWith('.localhost');
}

/** A host that names the addresses `localhost` resolves to: `localhost`, 127.0.0.1 or ::1 (bracketed, as `URL.hostname` writes it). */
export function isLoopbackHost(hostname: string): boolean {
  const name = bareName(hostname);
  return name === 'localhost' || name === '127.0.0.1' || name === '[::1]' || name === '::1';
}

function familyNumber(family: LookupOptions['family']): number {
  if (family === 'IPv4') return 4;
  if (family === 'IPv6') return 6;
  return family ?? 0;
}

/** A `lookup` for sockets: loopback for `localhost` and `*.localhost`, dns.lookup for everything else. */
export function loopbackAwareLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  if (!isLocalhostName(hostname)) {
    dnsLookup(hostname, options, callback);
    return;
  }
  const family = familyNumber(options.family);
  const addresses = LOOPBACK.filter((a) => family === 0 || a.family === family);
  if (options.all) {
    callback(null, addresses);
    return;
  }
  const first = addresses.at(0);
  if (first) callback(null, first.address, first.family);
  else callback(Object.assign(new Error(`no loopback address of family ${family} for ${hostname}`), { code: 'ENOTFOUND' }), '', family);
}

const agents = {
  'http:': new HttpAgent({ keepAlive: true, lookup: loopbackAwareLookup }),
  'https:': new HttpsAgent({ keepAlive: true, lookup: loopbackAwareLookup }),
};

function bodyOf(init: RequestInit | undefined): string | Uint8Array | undefined {
  const body = init?.body;
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  throw new TypeError('only a string or byte body can be sent to a localhost name');
}

function responseOf(answer: IncomingMessage, method: string): Response {
  const headers = new Headers();
  for (let i = 0; i + 1 < answer.rawHeaders.length; i += 2) headers.append(answer.rawHeaders[i], answer.rawHeaders[i + 1]);
  const status = answer.statusCode ?? 0;
  if (NULL_BODY_STATUSES.has(status) || method === 'HEAD') {
    answer.resume();
    return new Response(null, { status, statusText: answer.statusMessage, headers });
  }
  const body = Readable.toWeb(answer) as ReadableStream<Uint8Array>;
  return new Response(body, { status, statusText: answer.statusMessage, headers });
}

/** One request over node:http(s) with the loopback-aware agent, answered as `fetch` answers. */
function fetchWithAgent(url: URL, init: RequestInit | undefined): Promise<Response> {
  const method = (init?.method ?? 'GET').toUpperCase();
  const body = bodyOf(init);
  const headers = Object.fromEntries(new Headers(init?.headers).entries());
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  const signal = init?.signal ?? undefined;
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const agent = url.protocol === 'https:' ? agents['https:'] : agents['http:'];
  return new Promise((resolve, reject) => {
    const request = send(url, { method, headers, agent, ...(signal ? { signal } : {}) }, (answer) => {
      resolve(responseOf(answer, method));
    });
    request.on('error', (error) => {
      // As fetch rejects: the abort reason when cancelled, else a TypeError carrying the cause.
      reject(signal?.aborted ? (signal.reason as Error) : new TypeError('fetch failed', { cause: error }));
    });
    request.end(body);
  });
}

/**
 * `fetch`, except that a URL whose host is a subdomain of `localhost` is sent through the
 * loopback-aware agent, since the system resolver cannot find it. Every other URL goes to `fetch`.
 */
export const fetchResolvingLocalhost: typeof fetch = (input, init) => {
  if (!(input instanceof Request)) {
    const url = new URL(input);
    const name = bareName(url.hostname);
    if ((url.protocol === 'http:' || url.protocol === 'https:') && name.endsWith('.localhost')) return fetchWithAgent(url, init);
  }
  return globalThis.fetch(input, init);
};
