/**
 * `endpoint-studio logs`: the merged log of an endpoint's workers (or one worker's), oldest first, and with
 * --follow the lines as they are written until Ctrl-C. Reading, merging, following new workers and resuming
 * after a dropped stream are the operations layer's (`readWorkerLogs`, `followWorkerLogs`); this module asks,
 * filters by time and prints. A follow starts with the same snapshot and goes on from each worker's last line
 * shown (the operation's cursors), so the lines printed before and after the switch neither repeat nor skip.
 * Exit codes: 0 read (or followed until Ctrl-C), 1 some worker's log could not be read or a followed worker's
 * stream ended, 2 usage error, unbound spec, no key or the service refused.
 */
import type { LogSource } from '../core/api';
import { followWorkerLogs, MAX_LOG_LINES, readWorkerLogs, type FollowStatus, type WorkerLogLine } from '../core/operations';
import { readCommandLine, usageError } from './args';
import { documentOption, resolveTarget, TARGET_FLAGS, targetName, type LifecycleIo, type Target, type TargetOptions } from './target';

export const LOGS_HELP = `Usage:
  endpoint-studio logs [--follow] [--worker W] [--since T] [--lines N] [--source container|system]
                       [--format text|json] [--document N] <spec|endpointId>

Prints the log of the endpoint's workers merged, oldest first: the endpoint a spec file is bound to
(.endpoint-studio/deployments.json, written by deploy and bind), or an endpoint id. An environment's
overlay reads it with that environment's key variable, as deploy does.

--follow, -f  go on printing lines as they are written until Ctrl-C, following workers that start
              later and resuming after a dropped connection without losing or repeating a line.
--worker W    only worker W (also one that has stopped).
--since T     only lines from T on: an ISO 8601 time (2026-05-01T10:00:00Z) or a duration ago
              (30s, 10m, 2h, 1d, 1h30m).
--lines N     at most the newest N lines (1 to ${MAX_LOG_LINES}; default 100, or every line --since keeps).
--source S    only container (the handler's) or system (start-up, image pull) lines.
--format F    text (default): time, worker, [source] and the line; json: one JSON object per line,
              {"ts", "workerId", "source", "line"}, for scripts.
--document N  the document (0-based) of a multi-document spec; by default its one bound document.

Exit status: 0 read (or followed until Ctrl-C), 1 a worker's log could not be read or a followed
worker's stream ended, 2 usage error, unbound spec, no API key or the service refused.`;

const COMMAND_LINE = {
  command: 'logs',
  usage: LOGS_HELP,
  options: {
    follow: { type: 'boolean', short: 'f', default: false },
    worker: { type: 'string' },
    since: { type: 'string' },
    lines: { type: 'string' },
    source: { type: 'string' },
    format: { type: 'string', default: 'text' },
    ...TARGET_FLAGS,
  },
  allowPositionals: true,
} as const;

/** What one `logs` run reads and how it prints it. */
interface LogsOptions {
  readonly ref: string;
  readonly target: TargetOptions;
  readonly follow: boolean;
  readonly workerId?: string;
  readonly since?: Date;
  /** Set only when --lines was given. */
  readonly lines?: number;
  readonly source?: LogSource;
  readonly format: 'text' | 'json';
}

const DEFAULT_LINES = 100;

export async function runLogs(args: string[], io: LifecycleIo): Promise<number> {
  const options = logsOptions(args, io);
  if (typeof options === 'number') return options;
  const target = await resolveTarget('logs', options.ref, io, options.target);
  if (typeof target === 'number') return target;
  const { client, endpointId } = target;
  const read = await readWorkerLogs(client, {
    endpointId,
    lines: options.since ? MAX_LOG_LINES : (options.lines ?? DEFAULT_LINES),
    ...(options.workerId !== undefined ? { workerId: options.workerId } : {}),
    ...(options.source !== undefined ? { source: options.source } : {}),
    ...(io.signal ? { signal: io.signal } : {}),
  });
  if (!read.ok) {
    // Ctrl-C before the workers were listed: nothing to print, and no failure.
    if (io.signal?.aborted) return 0;
    const what = options.workerId === undefined ? targetName(target) : `worker ${options.workerId} of ${targetName(target)}`;
    io.err(`endpoint-studio logs: cannot read the log of ${what}: ${client.redact(read.message)}`);
    return 2;
  }
  const kept = read.lines.filter(from(options.since));
  const shown = options.lines === undefined ? kept : kept.slice(-options.lines);
  for (const line of shown) io.out(lineText(line, options.format));
  const older = olderLinesNote(read.lines, kept.length - shown.length, read.truncated, options.since);
  if (older !== undefined) io.err(`endpoint-studio logs: ${older}`);
  for (const failure of read.failures)
    io.err(`endpoint-studio logs: cannot read the log of worker ${failure.workerId}: ${client.redact(failure.message)}`);
  if (!options.follow) return read.failures.length > 0 ? 1 : 0;
  // Lines older than those shown are not printed after them: a worker whose lines were all cut from the
  // snapshot has no cursor, so its stream starts with a backfill.
  const floor = options.since ?? (read.truncated && read.lines.length > 0 ? new Date(read.lines[0].ts) : undefined);
  return follow(target, options, cursorsOf(read.lines), floor, io);
}

/** Follows until the signal aborts (exit 0) or a single worker's stream ends for good (exit 1). */
async function follow(
  target: Target,
  options: LogsOptions,
  cursors: Map<string, string>,
  floor: Date | undefined,
  io: LifecycleIo,
): Promise<number> {
  const signal = io.signal ?? new AbortController().signal;
  const keep = from(floor);
  await followWorkerLogs(
    target.client,
    {
      endpointId: target.endpointId,
      cursors,
      // A worker without a cursor is followed from its first line (a new one) or from the floor (one cut above).
      tail: MAX_LOG_LINES,
      ...(options.workerId !== undefined ? { workerId: options.workerId } : {}),
      ...(options.source !== undefined ? { source: options.source } : {}),
    },
    {
      signal,
      onLines: (lines) => {
        for (const line of lines) if (keep(line)) io.out(lineText(line, options.format));
      },
      onStatus: (status) => {
        const said = statusLine(status);
        if (said !== undefined) io.err(`endpoint-studio logs: ${target.client.redact(said)}`);
      },
    },
  );
  // Only a single worker's follow ends on its own, when its stream ended for good.
  return signal.aborted ? 0 : 1;
}

/** The flags and the target, or the exit status after printing help or a usage error. */
function logsOptions(args: string[], io: LifecycleIo): LogsOptions | number {
  const line = readCommandLine(COMMAND_LINE, args, io);
  if (typeof line === 'number') return line;
  const { values, positionals } = line;
  const problem = (text: string): 2 => usageError(COMMAND_LINE, io, text);
  if (positionals.length === 0) return problem('a spec file or an endpoint id is needed');
  if (positionals.length > 1) return problem('one spec file or endpoint id at a time, please');
  const { format, source } = values;
  if (format !== 'text' && format !== 'json') return problem(`--format takes text or json; got: ${format}`);
  if (source !== undefined && source !== 'container' && source !== 'system')
    return problem(`--source takes container or system; got: ${source}`);
  const since = values.since === undefined ? undefined : parseSince(values.since);
  if (since === null) return problem(`--since takes an ISO 8601 time or a duration such as 10m, 2h or 1d; got: ${values.since ?? ''}`);
  const lines = values.lines === undefined ? undefined : Number(values.lines);
  if (lines !== undefined && !(/^\d+$/.test(values.lines ?? '') && lines >= 1 && lines <= MAX_LOG_LINES))
    return problem(`--lines takes a whole number from 1 to ${MAX_LOG_LINES}; got: ${values.lines ?? ''}`);
  if (values.worker === '') return problem('--worker needs a worker id');
  const target = documentOption(values.document);
  if ('problem' in target) return problem(target.problem);
  return {
    ref: positionals[0],
    target,
    follow: values.follow,
    format,
    ...(values.worker !== undefined ? { workerId: values.worker } : {}),
    ...(since !== undefined ? { since } : {}),
    ...(lines !== undefined ? { lines } : {}),
    ...(source !== undefined ? { source } : {}),
  };
}

const DURATION_UNITS_MS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * `--since`: an ISO 8601 time (a date, or a date and time; without a zone it is local time), or a duration
 * back from now such as `10m`, `2h`, `1h30m`. Null when it is neither.
 */
function parseSince(value: string): Date | null {
  const text = value.trim();
  if (/^(\d+[smhd])+$/.test(text)) {
    let ms = 0;
    for (const [, amount, unit] of text.matchAll(/(\d+)([smhd])/g)) ms += Number(amount) * DURATION_UNITS_MS[unit];
    return new Date(Date.now() - ms);
  }
  if (!/^\d{4}-\d{2}-\d{2}/.test(text)) return null;
  const time = Date.parse(text);
  return Number.isNaN(time) ? null : new Date(time);
}

/** Keeps lines written at or after `since` (all when there is none); a line whose time cannot be read is kept. */
function from(since: Date | undefined): (line: WorkerLogLine) => boolean {
  if (since === undefined) return () => true;
  const floor = since.getTime();
  return (line) => {
    const time = Date.parse(line.ts);
    return Number.isNaN(time) || time >= floor;
  };
}

function lineText(line: WorkerLogLine, format: 'text' | 'json'): string {
  return format === 'json'
    ? `${JSON.stringify({ ts: line.ts, workerId: line.workerId, source: line.source, line: line.line })}\n`
    : `${line.ts} ${line.workerId} [${line.source}] ${line.line}\n`;
}

/** Per worker, the id of its newest line read: where its stream resumes, so nothing shown comes again. */
function cursorsOf(lines: readonly WorkerLogLine[]): Map<string, string> {
  return new Map(lines.map((line) => [line.workerId, line.id]));
}

/**
 * What to say when lines were left out: older ones beyond the read, or (with --since) ones --lines cut. With
 * --since the newest 5000 lines are read; when none of them is older than --since, lines between it and the
 * first one read are missing.
 */
function olderLinesNote(
  read: readonly WorkerLogLine[],
  cutByLines: number,
  truncated: boolean,
  since: Date | undefined,
): string | undefined {
  const more = `--lines up to ${MAX_LOG_LINES} shows more`;
  if (since === undefined) return truncated ? `${read.length} line(s) shown; older ones exist (${more})` : undefined;
  if (truncated && read.length > 0 && read.every(from(since)))
    return `only the newest ${MAX_LOG_LINES} lines are read: those from ${since.toISOString()} to ${read[0].ts} are not shown`;
  return cutByLines > 0 ? `${cutByLines} older line(s) since ${since.toISOString()} not shown (${more})` : undefined;
}

/** What a follow says on stderr about its streams; undefined for what needs no word. */
function statusLine(status: FollowStatus): string | undefined {
  switch (status.kind) {
    case 'following':
      return `following worker ${status.workerId}`;
    case 'waiting':
    case 'listFailed':
      return status.message;
    case 'reconnecting':
    case 'ended':
      return `worker ${status.workerId}: ${status.message}`;
  }
}
