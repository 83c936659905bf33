/**
 * The tools around running endpoints: worker logs, jobs and billing. Each answer is bounded (lines,
 * rows, the size of a job's output) so that one call cannot flood the model's context, and each
 * runs the operation the editor and the CLI run. A job IN_QUEUE behind workers that crash-loop or wait for
 * capacity says so (`waiting`), as the CLI's job status does.
 */
import { z } from 'zod';
import type { ApiClient, Job } from '../core/api';
import { getJob, queryBilling, readWorkerLogs, runJob, whyJobWaits, type JobSnapshot } from '../core/operations';
import { callOptions, fromService, requireClient, ToolFailure, type AgentContext } from './context';
import { causeData, causeShape, causeText } from './notServing';
import { jsonValue, openObject } from './schemas';
import { defineTool, type ToolResult } from './tool';

/** Characters of a job's output or error kept in a result; more is cut with a note. */
const MAX_VALUE_CHARS = 20_000;
const MAX_BILLING_ROWS = 200;
/** How long `run_job` with sync asks the service to hold the request. */
const RUNSYNC_WAIT_MS = 60_000;

/** A value as sent, or a cut preview of its JSON when it is too large to pass on. */
function bounded(value: unknown): unknown {
  const json = JSON.stringify(value) as string | undefined;
  if (json === undefined || json.length <= MAX_VALUE_CHARS) return value;
  return { truncated: true, totalChars: json.length, preview: json.slice(0, MAX_VALUE_CHARS) };
}

export const readWorkerLogsTool = defineTool({
  name: 'read_worker_logs',
  title: 'Read worker logs',
  description:
    "Read the newest lines of an endpoint's worker logs: one worker (workerId) or every worker merged in time order. Returns at most `lines` lines (default 100, at most 1000), oldest first, and whether older ones exist. `source` limits them to container (your handler) or system (image pull, start-up) lines.",
  writes: false,
  input: z.object({
    endpointId: z.string().min(1),
    workerId: z.string().min(1).optional().describe('One worker; omit for all workers of the endpoint.'),
    lines: z.number().int().min(1).max(1000).optional().describe('How many of the newest lines (1 to 1000, default 100).'),
    source: z.enum(['container', 'system']).optional().describe('Only container or only system lines; omit for both.'),
  }),
  output: openObject({
    endpointId: z.string(),
    workers: z.array(z.string()),
    lines: z.array(z.object({ workerId: z.string(), ts: z.string(), source: z.string(), line: z.string() })),
    truncated: z.boolean(),
  }),
  async run(input, context): Promise<ToolResult> {
    const client = requireClient(context);
    const read = await readWorkerLogs(client, {
      endpointId: input.endpointId,
      lines: input.lines ?? 100,
      ...(input.workerId !== undefined ? { workerId: input.workerId } : {}),
      ...(input.source !== undefined ? { source: input.source } : {}),
      ...callOptions(context),
    });
    if (!read.ok)
      throw new ToolFailure(
        `cannot read the logs of ${input.workerId ?? input.endpointId}: ${client.redact(read.message)}`,
        read.notFound ? { status: 404 } : {},
      );
    const lines = read.lines.map((l) => ({ workerId: l.workerId, ts: l.ts, source: l.source, line: l.line }));
    const head = `${lines.length} line(s) from ${read.workers.length} worker(s)${read.truncated ? ' (older lines exist)' : ''}`;
    const failures = read.failures.map((f) => `worker ${f.workerId}: ${client.redact(f.message)}`);
    return {
      text: [head, ...lines.map((l) => `${l.ts} ${l.workerId} [${l.source}] ${l.line}`), ...failures].join('\n'),
      structured: {
        endpointId: read.endpointId,
        workers: read.workers,
        lines,
        truncated: read.truncated,
        ...(failures.length > 0 ? { failures } : {}),
      },
    };
  },
});

function jobData(job: JobSnapshot | (Job & { endpointId: string })): Record<string, unknown> {
  const id = 'jobId' in job ? job.jobId : job.id;
  return {
    endpointId: job.endpointId,
    jobId: id,
    status: job.status,
    ...(job.output !== undefined ? { output: bounded(job.output) } : {}),
    ...(job.error !== undefined ? { error: bounded(job.error) } : {}),
    ...(job.delayTime !== undefined ? { delayTimeMs: job.delayTime } : {}),
    ...(job.executionTime !== undefined ? { executionTimeMs: job.executionTime } : {}),
    ...(job.workerId !== undefined ? { workerId: job.workerId } : {}),
  };
}

function jobText(data: Record<string, unknown>): string {
  const lines = [`job ${String(data.jobId)} on ${String(data.endpointId)}: ${String(data.status)}`];
  if (data.output !== undefined) lines.push(`output: ${JSON.stringify(data.output)}`);
  if (data.error !== undefined) lines.push(`error: ${JSON.stringify(data.error)}`);
  return lines.join('\n');
}

/** The job's data and text, with why it waits when it is IN_QUEUE behind workers that do not serve. */
async function jobAnswer(client: ApiClient, data: Record<string, unknown>, context: AgentContext): Promise<ToolResult> {
  const endpointId = String(data.endpointId);
  const waiting = await whyJobWaits(client, { endpointId, status: String(data.status) }, { stock: client, ...callOptions(context) });
  if (!waiting) return { text: jobText(data), structured: data };
  return {
    text: [jobText(data), ...causeText(waiting, endpointId, 'waiting')].join('\n'),
    structured: { ...data, waiting: causeData(waiting) },
  };
}

const jobShape = openObject({
  endpointId: z.string(),
  jobId: z.string(),
  status: z.string(),
  output: jsonValue().optional(),
  error: jsonValue().optional(),
  waiting: causeShape.optional().describe('Only for a job IN_QUEUE: why no worker takes it (its workers crash-loop or wait for capacity).'),
});

export const runJobTool = defineTool({
  name: 'run_job',
  title: 'Run a job on a queue endpoint',
  description:
    'Send a job to a QUEUE endpoint; `input` is what the handler receives as job["input"]. Without sync the job is queued and its id returned at once: follow it with get_job. With sync the service holds the request up to 60 s and the result (output or error) comes back when the job ends in that time; a job still running then is returned with its id and status, to follow with get_job. A job still IN_QUEUE because the endpoint\'s workers crash-loop or all wait for capacity carries why (waiting). Runs your worker (and costs money): only with writes allowed.',
  writes: true,
  input: z.object({
    endpointId: z.string().min(1),
    input: jsonValue().describe('The job input (any JSON value, usually an object).'),
    sync: z.boolean().optional().describe('Wait for the result (runsync, up to 60 s) instead of returning the queued job id.'),
  }),
  output: jobShape,
  async run(input, context): Promise<ToolResult> {
    const client = requireClient(context);
    if (input.input === undefined) throw new ToolFailure('input is required (the value the handler receives as job["input"])');
    const { endpointId } = input;
    const data = await fromService(client, `cannot run a job on ${endpointId}`, async () => {
      if (input.sync === true) {
        // A runsync whose wait ran out hands back the running job (follow it with get_job) rather than cancel work the user asked for.
        return jobData(
          await runJob(client, { endpointId, input: input.input, sync: true, waitMs: RUNSYNC_WAIT_MS, followUnfinished: false }),
        );
      }
      const queued = await client.jobs.run(endpointId, { input: input.input }, callOptions(context));
      return jobData({ ...queued, endpointId });
    });
    return jobAnswer(client, data, context);
  },
});

export const getJobTool = defineTool({
  name: 'get_job',
  title: 'Read a job',
  description:
    "Read a job's state by id (IN_QUEUE, IN_PROGRESS, COMPLETED, FAILED, CANCELLED, TIMED_OUT) with its output or error once it ended, and its queue and run times. A job IN_QUEUE whose endpoint's workers are crash-looping (with the last log line) or all waiting THROTTLED for capacity says so (waiting), so a stuck queue is not mistaken for a busy one.",
  writes: false,
  input: z.object({ endpointId: z.string().min(1), jobId: z.string().min(1) }),
  output: jobShape,
  async run(input, context): Promise<ToolResult> {
    const client = requireClient(context);
    const job = await fromService(client, `cannot read job ${input.jobId}`, () => getJob(client, input, callOptions(context)));
    return jobAnswer(client, jobData(job), context);
  },
});

export const billingSummary = defineTool({
  name: 'billing_summary',
  title: 'Billing history',
  description:
    'What the account spent, by time bucket, as `endpoint-studio billing` reports it: kind serverless (grouped by endpointId by default), pods (by gpuId) or network-volume; bucketSize hour, day (default), week, month or year; a window from startTime to endTime (RFC 3339; default the last 30 days). Returns the totals per cost component and up to 200 rows.',
  writes: false,
  input: z.object({
    kind: z.enum(['serverless', 'pods', 'network-volume']).describe('What to bill.'),
    bucketSize: z.enum(['hour', 'day', 'week', 'month', 'year']).optional(),
    startTime: z.string().optional().describe('RFC 3339, such as 2026-05-01T00:00:00Z; default 30 days ago.'),
    endTime: z.string().optional().describe('RFC 3339; default now.'),
    grouping: z
      .enum(['endpointId', 'podId', 'gpuId'])
      .optional()
      .describe('Serverless: endpointId (default), podId or gpuId; pods: gpuId (default) or podId.'),
    endpointId: z.string().optional().describe('Serverless only: one endpoint.'),
    podId: z.string().optional().describe('Pods only: one pod.'),
    gpuId: z.string().optional().describe('Pods and serverless: one GPU type.'),
  }),
  output: openObject({
    window: z.object({ startTime: z.string(), endTime: z.string(), bucketSize: z.string() }),
    totals: z.record(z.string(), z.number()),
    rows: z.array(z.record(z.string(), jsonValue())),
  }),
  async run(input, context): Promise<ToolResult> {
    const client = requireClient(context);
    const { kind, ...rest } = input;
    const answer = await queryBilling(client, { kind: kind === 'network-volume' ? 'networkVolume' : kind, ...rest }, callOptions(context));
    if (!answer.ok)
      throw new ToolFailure(`billing ${kind}: ${answer.message}`, answer.status !== undefined ? { status: answer.status } : {});
    const rows = answer.rows.slice(0, MAX_BILLING_ROWS);
    const totals = Object.entries(answer.totals).map(([name, amount]) => `${name} $${amount.toFixed(4)}`);
    return {
      text: [
        `${kind} billing ${answer.window.startTime} to ${answer.window.endTime} by ${answer.window.bucketSize}: ${answer.rows.length} row(s)`,
        `totals: ${totals.join(', ') || 'none'}`,
      ].join('\n'),
      structured: {
        kind,
        window: answer.window,
        totals: answer.totals,
        rows,
        ...(answer.rows.length > rows.length ? { truncatedRows: answer.rows.length - rows.length } : {}),
      },
    };
  },
});
