/**
 * Each emulator test starts its own emulator on ephemeral ports and talks to it over HTTP. Answers
 * are typed with the records of core/api/types.ts so a test reads like the contract it checks;
 * the type is the contract's claim, and the test's assertions are what verify it.
 */
import assert from 'node:assert/strict';
import { createApiClient, type ApiClient } from '../../core/api';
import { fetchResolvingLocalhost } from '../../core/api/loopback';
import type { Endpoint, LoadBalancerRequestUrls, QueueRequestUrls, WorkerList, WorkerLogEvent } from '../../core/api/types';
import { DEFAULT_DEV_API_KEY, startEmulator, type EmulatorOptions, type RunningEmulator } from '../../emulator/index';

export const KEY = DEFAULT_DEV_API_KEY;

export async function withEmulator<T>(options: EmulatorOptions, fn: (e: RunningEmulator) => Promise<T>): Promise<T> {
  const emulator = await startEmulator({ port: 0, jobsPort: 0, timeScale: 50, seed: 7, ...options });
  try {
    return await fn(emulator);
  } finally {
    await emulator.close();
  }
}

/** An HTTP answer whose JSON body the contract documents as `T` (plain text stays a string; `unknown` when unsaid). */
export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

export async function call<T = unknown>(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  key: string | null = KEY,
  extraHeaders: Record<string, string> = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...extraHeaders };
  if (key !== null) headers.Authorization = `Bearer ${key}`;
  if (body !== undefined) headers['Content-Type'] ??= 'application/json';
  // A load balancer's base is `<id>.localhost`, which only the client's own resolver finds.
  const res = await fetchResolvingLocalhost(`${base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    // Leave non-JSON bodies as text.
  }
  return { status: res.status, headers: res.headers, body: parsed as T };
}

export const gpuSpec = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: 'sdxl',
  type: 'QUEUE',
  scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
  image: 'example/worker:1.0',
  gpu: { pools: ['ADA_24'] },
  ...extra,
});

export const cpuSpec = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: 'cpu-worker',
  type: 'QUEUE',
  scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
  image: 'example/cpu:1.0',
  cpu: [{ id: 'cpu3c', vcpuCount: 4 }],
  ...extra,
});

export async function create(e: RunningEmulator, spec: Record<string, unknown>): Promise<Endpoint> {
  const answer = await call<Endpoint>(e.restUrl, 'POST', '/v2/serverless', spec);
  if (answer.status !== 201) throw new Error(`create failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** Polls until `check` returns a value (not undefined) or the deadline passes. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 5000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export async function workers(e: RunningEmulator, id: string): Promise<WorkerList> {
  return (await call<WorkerList>(e.restUrl, 'GET', `/v2/serverless/${id}/workers`)).body;
}

export function apiOf(e: RunningEmulator): ApiClient {
  return createApiClient({ apiUrl: e.restUrl, jobsUrl: e.jobsUrl, apiKey: KEY });
}

/**
 * A worker's log lines through the logs route (the stream stays open, so it is read until `enough`
 * says so, or `timeoutMs` pass).
 */
export async function logLines(
  e: RunningEmulator,
  endpointId: string,
  workerId: string,
  enough: (lines: readonly WorkerLogEvent[]) => boolean,
  timeoutMs = 10_000,
): Promise<WorkerLogEvent[]> {
  const stop = new AbortController();
  const giveUp = setTimeout(() => {
    stop.abort();
  }, timeoutMs);
  const lines: WorkerLogEvent[] = [];
  try {
    for await (const event of apiOf(e).serverless.workerLogs(endpointId, workerId, { signal: stop.signal, tail: 1000 })) {
      lines.push(event);
      if (enough(lines)) stop.abort();
    }
  } finally {
    clearTimeout(giveUp);
  }
  return lines;
}

/** A QUEUE endpoint's job URLs; fails the test when the endpoint has none or has a load balancer's. */
export function queueUrls(endpoint: Endpoint): QueueRequestUrls {
  const urls = endpoint.requestUrls;
  assert.ok(urls && 'run' in urls, `queue request URLs on ${JSON.stringify(urls)}`);
  return urls;
}

/** A LOAD_BALANCER endpoint's URLs; fails the test when the endpoint has none or has a queue's. */
export function loadBalancerUrls(endpoint: Endpoint): LoadBalancerRequestUrls {
  const urls = endpoint.requestUrls;
  assert.ok(urls && 'base' in urls, `load-balancer request URLs on ${JSON.stringify(urls)}`);
  return urls;
}
