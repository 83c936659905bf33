/**
 * `endpoint-studio run` and `endpoint-studio job status|cancel|retry`: jobs on a queue endpoint from a
 * terminal or a script. Running, following (status and stream reads, `runsync` first with --sync), cancelling
 * and retrying are the operations layer's (`runJob`, `getJob`, `cancelJob`, `retryJob`); this module reads the
 * request file, asks, prints and picks the exit status. Ctrl-C while a job is followed cancels it, as the
 * editor's progress does. A job IN_QUEUE whose endpoint's workers crash-loop or all wait for capacity says so
 * (`whyJobWaits`), since IN_QUEUE alone reads like a busy queue.
 * Exit codes: 0 submitted, read, cancelled, or COMPLETED; 1 the job ended FAILED, TIMED_OUT or CANCELLED (or a
 * cancel came too late); 2 usage error, unreadable or invalid request file, unbound spec, a LOAD_BALANCER
 * endpoint, no key or the service refused.
 */
import { ApiError, type Endpoint } from '../core/api';
import {
  cancelJob,
  getJob,
  isAborted,
  isTerminal,
  retryJob,
  runJob,
  waitingNote,
  whyJobWaits,
  type JobHandlers,
  type JobSnapshot,
  type JobResult,
  type NotServingCause,
} from '../core/operations';
import { readCommandLine, usageError } from './args';
import { readRequestFile } from './jobRequest';
import { formatDuration } from '../core/util/duration';
import { documentOption, resolveTarget, TARGET_FLAGS, targetName, type LifecycleIo, type Target, type TargetOptions } from './target';

export const JOBS_HELP = `Usage:
  endpoint-studio run [--sync] [--wait-timeout S] [--format text|json] [--document N] <spec|endpointId> <request.json>
  endpoint-studio job status|cancel|retry [--format text|json] [--document N] <spec|endpointId> <jobId>

run         submits the request file ({"input": ..., optionally "webhook" and "policy"}, as the
            editor's *.request.json files) to a QUEUE endpoint: the endpoint a spec file is bound
            to, or an endpoint id. Without --sync it prints the job's id and status and exits.
--sync      wait for the job: the service holds the request up to --wait-timeout seconds
            (runsync, default 90), then the job is followed with status reads to its end.
            Streamed chunks are printed as they come, then the output or the error.
job status  the job's state, with its output or error once it ended. A job IN_QUEUE whose
            endpoint's workers are crash-looping (or all waiting THROTTLED for capacity) says
            so: "waiting: the endpoint's workers are crash-looping: <last log line>".
job cancel  cancels the job (a job that already ended keeps its state).
job retry   requeues a FAILED or TIMED_OUT job and follows it to its end.
--format F  text (default) or json: one JSON object {endpointId, jobId, status, output, error,
            delayTimeMs, executionTimeMs, workerId, retries, waiting (null or why it is
            queued: {kind, message, ...}); stream, notes and waited after a follow}.
--document N  the document (0-based) of a multi-document spec; by default its one bound document.
Ctrl-C while a job is followed cancels it; during the runsync wait it only stops waiting.

Exit status: 0 submitted, read, cancelled or COMPLETED; 1 the job ended FAILED, TIMED_OUT or
CANCELLED, or a cancel came after it ended; 2 usage error, unreadable or invalid request file,
unbound spec, LOAD_BALANCER endpoint, no API key or the service refused.`;

type JobCommand = 'run' | 'job';

const commandLine = (command: JobCommand) =>
  ({
    command,
    usage: JOBS_HELP,
    options: {
      sync: { type: 'boolean', default: false },
      'wait-timeout': { type: 'string' },
      format: { type: 'string', default: 'text' },
      ...TARGET_FLAGS,
    },
    allowPositionals: true,
  }) as const;

type Format = 'text' | 'json';

interface JobOptions {
  readonly ref: string;
  readonly target: TargetOptions;
  readonly format: Format;
  /** What follows the target: the request file (run) or the job id (job). */
  readonly subject: string;
  readonly sync: boolean;
  readonly waitMs?: number;
  readonly verb?: 'status' | 'cancel' | 'retry';
}

const VERBS = ['status', 'cancel', 'retry'] as const;

export async function runRun(args: string[], io: LifecycleIo): Promise<number> {
  const options = jobOptions('run', args, io);
  if (typeof options === 'number') return options;
  const read = await readRequestFile(options.subject);
  if (!read.ok) {
    io.err(read.problems.map((p) => `endpoint-studio run: ${options.subject}: ${p}`).join('\n'));
    return 2;
  }
  const target = await queueTarget('run', options, io);
  if (typeof target === 'number') return target;
  const { client, endpointId } = target;
  const call = io.signal ? { signal: io.signal } : {};
  try {
    if (!options.sync) {
      const queued = await client.jobs.run(endpointId, read.request, call);
      const waiting = await whyJobWaits(client, { endpointId, status: queued.status }, { ...call, stock: client });
      printJob({ endpointId, jobId: queued.id, status: queued.status, job: queued }, options.format, io, waiting);
      if (options.format === 'text') io.err(`endpoint-studio run: follow it with: endpoint-studio job status ${options.ref} ${queued.id}`);
      return 0;
    }
    const result = await runJob(
      client,
      { endpointId, ...read.request, sync: true, ...(options.waitMs !== undefined ? { waitMs: options.waitMs } : {}) },
      followHandlers('run', options.format, io),
    );
    return reportEnd('run', result, options.format, io);
  } catch (error) {
    return apiFailure('run', target, `cannot run a job on ${targetName(target)}`, error, io);
  }
}

export async function runJobCommand(args: string[], io: LifecycleIo): Promise<number> {
  const options = jobOptions('job', args, io);
  if (typeof options === 'number') return options;
  const target = await queueTarget('job', options, io);
  if (typeof target === 'number') return target;
  const ref = { endpointId: target.endpointId, jobId: options.subject };
  const call = io.signal ? { signal: io.signal } : {};
  try {
    switch (options.verb) {
      case 'cancel': {
        const job = await cancelJob(target.client, ref, call);
        printJob(job, options.format, io);
        if (!isTerminal(job.status)) io.err(`endpoint-studio job: cancel sent; job ${job.jobId} is still ${job.status}`);
        if (job.status === 'CANCELLED' || !isTerminal(job.status)) return 0;
        io.err(`endpoint-studio job: job ${job.jobId} had already ended; it stays ${job.status}`);
        return 1;
      }
      case 'retry':
        return reportEnd('job', await retryJob(target.client, ref, followHandlers('job', options.format, io)), options.format, io);
      default: {
        const job = await getJob(target.client, ref, call);
        printJob(job, options.format, io, await whyJobWaits(target.client, job, { ...call, stock: target.client }));
        return 0;
      }
    }
  } catch (error) {
    const doing = options.verb === 'status' ? 'read' : options.verb;
    return apiFailure('job', target, `cannot ${doing ?? 'read'} job ${options.subject} on ${targetName(target)}`, error, io);
  }
}

/** The flags, the target and what follows it; or the exit status after printing help or a usage error. */
function jobOptions(command: JobCommand, args: string[], io: LifecycleIo): JobOptions | number {
  const spec = commandLine(command);
  const line = readCommandLine(spec, args, io);
  if (typeof line === 'number') return line;
  const { values } = line;
  const problem = (text: string): 2 => usageError(spec, io, text);
  const positionals = [...line.positionals];
  const verb = command === 'job' ? positionals.shift() : undefined;
  if (command === 'job' && !VERBS.some((v) => v === verb)) return problem(`job takes status, cancel or retry; got: ${verb ?? 'nothing'}`);
  const needed = command === 'run' ? 'a spec file or endpoint id, then a request file' : 'a spec file or endpoint id, then a job id';
  if (positionals.length !== 2) return problem(`${needed} are needed${positionals.length > 2 ? ', no more' : ''}`);
  const { format, sync } = values;
  if (format !== 'text' && format !== 'json') return problem(`--format takes text or json; got: ${format}`);
  if (command === 'job' && sync) return problem('--sync is for run; job retry follows the job to its end');
  const wait = values['wait-timeout'];
  if (wait !== undefined && !sync) return problem('--wait-timeout is for run --sync');
  if (wait !== undefined && !/^[1-9]\d*$/.test(wait)) return problem(`--wait-timeout takes whole seconds (1 or more); got: ${wait}`);
  const target = documentOption(values.document);
  if ('problem' in target) return problem(target.problem);
  return {
    ref: positionals[0],
    subject: positionals[1],
    target,
    format,
    sync,
    ...(wait !== undefined ? { waitMs: Number(wait) * 1000 } : {}),
    ...(verb !== undefined ? { verb: verb as JobOptions['verb'] } : {}),
  };
}

/** The target, once the service shows it is a queue endpoint; otherwise the exit status after saying why. */
async function queueTarget(command: JobCommand, options: JobOptions, io: LifecycleIo): Promise<Target | number> {
  const target = await resolveTarget(command, options.ref, io, options.target);
  if (typeof target === 'number') return target;
  let endpoint: Endpoint;
  try {
    endpoint = await target.client.serverless.get(target.endpointId, io.signal ? { signal: io.signal } : {});
  } catch (error) {
    const gone = error instanceof ApiError && error.notFound && target.spec;
    const hint = gone ? `the spec's endpoint no longer exists; deploy ${options.ref} to create it again` : undefined;
    return apiFailure(command, target, `cannot read ${targetName(target)}`, error, io, hint);
  }
  if (endpoint.type !== 'LOAD_BALANCER') return target;
  io.err(
    `endpoint-studio ${command}: jobs run on QUEUE endpoints; ${targetName(target)} ${JSON.stringify(endpoint.name)} is a LOAD_BALANCER endpoint, which takes HTTP requests at its own URL: ${endpoint.requestUrls && 'base' in endpoint.requestUrls ? endpoint.requestUrls.base : 'see its requestUrls'}`,
  );
  return 2;
}

/** Status changes on stderr and chunks on stdout as they come (text); a JSON run prints one object at the end. */
function followHandlers(command: JobCommand, format: Format, io: LifecycleIo): JobHandlers {
  let said = '';
  return {
    ...(io.signal ? { signal: io.signal } : {}),
    onStatus: (progress) => {
      const waiting = progress.waiting ? ` (${waitingNote(progress.waiting)})` : '';
      const now = `${progress.jobId ?? ''} ${progress.status}${waiting}`;
      // The end is printed with the job on stdout.
      if (format === 'json' || now === said || progress.jobId === undefined || isTerminal(progress.status)) return;
      said = now;
      io.err(`endpoint-studio ${command}: job ${progress.jobId}: ${progress.status}${waiting}`);
    },
    onStream: (chunks) => {
      if (format === 'text') for (const chunk of chunks) io.out(`${valueText(chunk)}\n`);
    },
  };
}

/** Prints a followed job's end; 0 for COMPLETED, 1 for any other end. */
function reportEnd(command: JobCommand, result: JobResult, format: Format, io: LifecycleIo): number {
  printJob(result, format, io);
  if (format === 'text') for (const note of result.notes) io.err(`endpoint-studio ${command}: ${note}`);
  if (result.cancelledByUser && format === 'text') io.err(`endpoint-studio ${command}: cancelled job ${result.jobId} (Ctrl-C)`);
  return result.status === 'COMPLETED' ? 0 : 1;
}

/**
 * `job J on ep_1: COMPLETED (queued 0.1 s, ran 2.0 s, worker w1)` and the output or error, or why it waits in
 * the queue; or one JSON object.
 */
function printJob(job: JobSnapshot, format: Format, io: LifecycleIo, waiting?: NotServingCause): void {
  if (format === 'json') {
    io.out(`${JSON.stringify({ ...jobData(job), waiting: waiting ?? null }, null, 2)}\n`);
    return;
  }
  const facts = [
    job.delayTime !== undefined ? `queued ${formatDuration(job.delayTime)}` : '',
    job.executionTime !== undefined ? `ran ${formatDuration(job.executionTime)}` : '',
    job.workerId !== undefined ? `worker ${job.workerId}` : '',
    job.retries !== undefined && job.retries > 0 ? `retries ${job.retries}` : '',
  ].filter((fact) => fact !== '');
  io.out(`job ${job.jobId} on ${job.endpointId}: ${job.status}${facts.length > 0 ? ` (${facts.join(', ')})` : ''}\n`);
  if (job.output !== undefined) io.out(`${valueText(job.output)}\n`);
  if (job.error !== undefined) io.out(`error: ${valueText(job.error)}\n`);
  if (waiting) io.out(`${waitingNote(waiting)}\n`);
}

/** The snapshot (and after a follow its stream, notes and whether Ctrl-C cancelled it) without the raw record, times named with their unit. */
function jobData(job: JobSnapshot): Record<string, unknown> {
  const { job: _record, delayTime, executionTime, ...facts } = job;
  return {
    ...facts,
    ...(delayTime !== undefined ? { delayTimeMs: delayTime } : {}),
    ...(executionTime !== undefined ? { executionTimeMs: executionTime } : {}),
  };
}

/** A string as it is, anything else as JSON. */
function valueText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? null, null, 2);
}

/**
 * A refusal or failed call, said redacted: exit status 2. Ctrl-C before the service answered is exit status 1,
 * saying that the job (when one may have been queued) was not cancelled.
 */
function apiFailure(command: JobCommand, target: Target, what: string, error: unknown, io: LifecycleIo, hint?: string): number {
  const message = error instanceof Error ? error.message : String(error);
  io.err(`endpoint-studio ${command}: ${what}: ${target.client.redact(message)}`);
  if (isAborted(error)) {
    if (error instanceof ApiError && error.outcomeUnknown) io.err(`  the job may have been queued; it was not cancelled`);
    return 1;
  }
  if (hint !== undefined) io.err(`  ${hint}`);
  return 2;
}
