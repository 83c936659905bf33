/**
 * A container that exits as soon as it starts. An image whose name contains `crashloop` behaves so,
 * which lets tests and the demo stall a rolling release on purpose: its workers boot, fail, stay
 * UNHEALTHY and restart with a growing back-off, writing what a real crash writes, and never serve.
 */

export function crashesOnStart(image: string): boolean {
  return image.toLowerCase().includes('crashloop');
}

/** What the container prints before it exits: a handler whose import fails. */
export const CRASH_OUTPUT: readonly string[] = [
  'Traceback (most recent call last):',
  '  File "/app/handler.py", line 6, in <module>',
  '    from pipeline import load_pipeline',
  '  File "/app/pipeline.py", line 3, in <module>',
  '    import torch',
  "ModuleNotFoundError: No module named 'torch'",
];

export function exitLine(attempt: number): string {
  return `container exited with code 1; restarting (attempt ${attempt})`;
}

const FIRST_BACKOFF_MS = 10_000;
const MAX_BACKOFF_MS = 300_000;

/** Simulated ms before restart `attempt` (1-based): 10 s, doubling, at most 5 min, as a crash-looping container backs off. */
export function restartBackoffMs(attempt: number): number {
  return Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.max(0, attempt - 1));
}
