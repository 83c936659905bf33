/** Shared helpers: each test starts its own emulator on ephemeral ports and talks to it over HTTP. */
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

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

export async function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  key: string | null = KEY,
  extraHeaders: Record<string, string> = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...extraHeaders };
  if (key !== null) headers.Authorization = `Bearer ${key}`;
  if (body !== undefined) headers['Content-Type'] ??= 'application/json';
  const res = await fetch(`${base}${path}`, {
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
  return { status: res.status, headers: res.headers, body: parsed };
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

export async function create(e: RunningEmulator, spec: Record<string, unknown>): Promise<any> {
  const answer = await call(e.restUrl, 'POST', '/v2/serverless', spec);
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

export async function workers(e: RunningEmulator, id: string): Promise<any> {
  return (await call(e.restUrl, 'GET', `/v2/serverless/${id}/workers`)).body;
}
