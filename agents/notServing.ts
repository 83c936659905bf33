/**
 * Why an endpoint's workers are not serving, as the agent tools hand it to a model: watch_rollout for a
 * rollout that is not done, run_job and get_job for a job IN_QUEUE behind workers that never serve. One shape
 * and one wording for both, bounded (a crash loop's last few log lines), so a model reads "crash-looping:
 * ModuleNotFoundError …" rather than guessing at a capacity problem from IN_QUEUE.
 */
import { z } from 'zod';
import { alternativeText } from '../core/endpointSpec/catalog/stock';
import type { NotServingCause } from '../core/operations';
import { openObject } from './schemas';

const hourly = z.object({ low: z.number(), high: z.number() });

export const causeShape = openObject({
  kind: z.enum(['crash-looping', 'no-capacity', 'starting']),
  message: z.string(),
  workers: z.array(z.string()),
  version: z.number().optional(),
  workerId: z.string().optional(),
  lastLine: z.string().optional(),
  logs: z.array(z.object({ ts: z.string(), source: z.string(), line: z.string() })).optional(),
  waitingFor: z.string().optional(),
  alternatives: z
    .array(
      z.object({
        id: z.string(),
        memoryGb: z.number(),
        vcpuCount: z.number().optional(),
        perWorkerHour: hourly.optional(),
        atMaxHour: hourly.optional(),
      }),
    )
    .optional()
    .describe('For no-capacity: up to three pools (or CPU flavors) with stock where the endpoint asks, priced in US dollars.'),
  startingForMs: z.number().optional(),
}).describe('Why the workers are not serving: crash-looping (with its last log lines), no-capacity (THROTTLED) or starting.');

/** The cause as structured content: its kind and message, and what each kind adds. */
export function causeData(cause: NotServingCause): z.infer<typeof causeShape> {
  const base = {
    kind: cause.kind,
    message: cause.message,
    workers: [...cause.workers],
    ...(cause.version !== undefined ? { version: cause.version } : {}),
  };
  switch (cause.kind) {
    case 'crash-looping':
      return {
        ...base,
        workerId: cause.workerId,
        ...(cause.lastLine !== undefined ? { lastLine: cause.lastLine } : {}),
        logs: cause.logs.map((l) => ({ ts: l.ts, source: l.source, line: l.line })),
      };
    case 'no-capacity':
      return {
        ...base,
        waitingFor: cause.waitingFor,
        ...(cause.alternatives ? { alternatives: cause.alternatives.map((alternative) => ({ ...alternative })) } : {}),
      };
    case 'starting':
      return { ...base, ...(cause.startingForMs !== undefined ? { startingForMs: cause.startingForMs } : {}) };
  }
}

/** The cause as the model reads it in the text: the message, a crash's last lines, and where to read more. */
export function causeText(cause: NotServingCause, endpointId: string, lead: string): string[] {
  const lines = [`${lead}: ${cause.message}`];
  if (cause.kind === 'crash-looping') {
    for (const line of cause.logs) lines.push(`  ${line.ts} [${line.source}] ${line.line}`);
    lines.push(`read_worker_logs with endpointId ${endpointId} and workerId ${cause.workerId} shows more of its log`);
  }
  if (cause.kind === 'no-capacity' && cause.alternatives && cause.alternatives.length > 0)
    lines.push(`with stock now: ${cause.alternatives.map(alternativeText).join(', ')}`);
  return lines;
}
