/**
 * Names under `localhost` are loopback (RFC 6761). The local emulator answers a load balancer at
 * `http://<endpoint id>.localhost:<port>`, shaped as the service's `https://<endpoint id>.<jobs domain>`,
 * but Node's resolver (and so `fetch`) knows only `localhost` itself. Requests to a subdomain of
 * `localhost` therefore resolve it here: the socket goes to the loopback address, with the name in
 * `Host` (and SNI). A lookup on an agent would not do: VS Code's extension host wraps every agent
 * for proxy support and keeps the caller's agent only for `localhost` and 127.0.0.1.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';

/** Where a name under `localhost` goes; the emulator listens on IPv4 loopback. */
const LOOPBACK_ADDRESS = '127.0.0.1';

/** Statuses whose answers have no body; a web `Response` refuses one for them. */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

function bareName(hostname: string): string {
  return hostname.toLowerCase().replace(/\.$/, '');
}

/** A name under `localhost` (not `localhost` itself, which every resolver knows). */
export function isUnderLocalhost(hostname: string): boolean {
  return bareName(hostname).endsWith('.localhost');
}

/** A host that names the addresses `localhost` resolves to: `localhost`, 127.0.0.1 or ::1 (bracketed, as `URL.hostname` writes it). */
export function isLoopbackHost(hostname: string): boolean {
  const name = bareName(hostname);
  return name === 'localhost' || name === '127.0.0.1' || name === '[::1]' || name === '::1';
}

const agents = {
  'http:': new HttpAgent({ keepAlive: true }),
  'https:': new HttpsAgent({ keepAlive: true }),
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

/** One request over node:http(s) to the loopback address, answered as `fetch` answers. */
function fetchOnLoopback(url: URL, init: RequestInit | undefined): Promise<Response> {
  const method = (init?.method ?? 'GET').toUpperCase();
  const body = bodyOf(init);
  const headers = Object.fromEntries(new Headers(init?.headers).entries());
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  const signal = init?.signal ?? undefined;
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const agent = url.protocol === 'https:' ? agents['https:'] : agents['http:'];
  return new Promise((resolve, reject) => {
    const target = {
      protocol: url.protocol,
      hostname: LOOPBACK_ADDRESS,
      port: url.port,
      path: `${url.pathname}${url.search}`,
      servername: bareName(url.hostname),
    };
    const request = send({ ...target, method, headers: { ...headers, host: url.host }, agent, ...(signal ? { signal } : {}) }, (answer) => {
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
 * `fetch`, except that a URL whose host is a subdomain of `localhost` is sent to loopback here,
 * since the system resolver cannot find it. Every other URL goes to `fetch`.
 */
export const fetchResolvingLocalhost: typeof fetch = (input, init) => {
  if (!(input instanceof Request)) {
    const url = new URL(input);
    if ((url.protocol === 'http:' || url.protocol === 'https:') && isUnderLocalhost(url.hostname)) return fetchOnLoopback(url, init);
  }
  return globalThis.fetch(input, init);
};
