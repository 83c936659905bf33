/**
 * What `deploy --wait`, `rollout --watch` and `rollback --wait` share: following a rollout to its end with one
 * stderr line per change, saying how it ended, which workers held it up and why they are not serving (crash-looping
 * with its last log lines, no capacity, still starting), and the exit status a script reads.
 * When a rollout is done, stalled or failed is the operations layer's decision (`watchRollout`); this module only
 * prints it and maps it to a status.
 * Exit codes: 0 done, 1 the service could not be read, 4 stalled, 5 failed (a crash loop, the endpoint gone) or
 * a smoke check failed, 130 stopped watching with Ctrl-C (the rollout goes on).
 */
import type { ApiClient, Worker } from '../core/api';
import { readinessSummary, type ReadinessReport } from '../core/deploy/readiness';
import { ROLLOUT_DEFAULTS, watchRollout, type NotServingCause, type RolloutOutcome, type RolloutProgress } from '../core/operations';
import { alternativeText } from '../core/endpointSpec/catalog/stock';
import { formatDuration } from '../core/util/duration';
import type { CliIo } from './inputs';
import { documentOption, type Target, type TargetOptions } from './target';

export const EXIT_STALLED = 4;
export const EXIT_FAILED = 5;
const EXIT_INTERRUPTED = 130;

/** The lines of each command's help that say the codes above. */
export const WATCH_EXIT_HELP = `4 the rollout stalled (no progress for --stall-after), 5 it failed (every new worker
unhealthy for --fail-after: a crash loop) or the smoke check failed, 130 stopped watching
with Ctrl-C (the rollout goes on).`;

/** The flags that tune a watch; spread into a command's options. */
export const WATCH_FLAGS = {
  'stall-after': { type: 'string' },
  'fail-after': { type: 'string' },
} as const;

export const WATCH_FLAGS_HELP = `--stall-after S  no progress for S seconds is a stall (default ${ROLLOUT_DEFAULTS.stallAfterMs / 1000}).
--fail-after S   every worker of the new release unhealthy for S seconds is a failed
                 rollout, a crash loop (default ${ROLLOUT_DEFAULTS.failAfterMs / 1000}).`;

export interface WatchLimits {
  readonly stallAfterMs?: number;
  readonly failAfterMs?: number;
}

/** --stall-after and --fail-after as milliseconds, or the usage problem one of them has. */
export function watchLimits(values: { readonly 'stall-after'?: string; readonly 'fail-after'?: string }): WatchLimits | string {
  const limits: { stallAfterMs?: number; failAfterMs?: number } = {};
  for (const [flag, key] of [
    ['stall-after', 'stallAfterMs'],
    ['fail-after', 'failAfterMs'],
  ] as const) {
    const value = values[flag];
    if (value === undefined) continue;
    const seconds = /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : Number.NaN;
    if (!(seconds > 0)) return `--${flag} takes a number of seconds greater than 0; got: ${value || 'nothing'}`;
    limits[key] = Math.round(seconds * 1000);
  }
  return limits;
}

/** What `rollout` and `rollback` read alike from their command line: the one `<spec|endpointId>` and how to watch it. */
export interface WatchedTargetLine {
  readonly ref: string;
  readonly target: TargetOptions;
  readonly limits: WatchLimits;
}

/**
 * The target and the watch's limits, or the usage problem: one spec or endpoint id, --document, and
 * --stall-after/--fail-after only with `watchFlag` (--watch, --wait) given.
 */
export function watchedTargetLine(
  values: { readonly document?: string; readonly 'stall-after'?: string; readonly 'fail-after'?: string },
  positionals: readonly string[],
  watch: { readonly flag: string; readonly given: boolean },
): WatchedTargetLine | string {
  if (positionals.length === 0) return 'a spec file or an endpoint id is needed';
  if (positionals.length > 1) return `one spec or endpoint at a time, please; got: ${positionals.join(' ')}`;
  const target = documentOption(values.document);
  if ('problem' in target) return target.problem;
  const limits = watchLimits(values);
  if (typeof limits === 'string') return limits;
  if (!watch.given && (values['stall-after'] !== undefined || values['fail-after'] !== undefined))
    return `--stall-after and --fail-after go with ${watch.flag}`;
  return { ref: positionals[0], target, limits };
}

const EXIT_CODES: Readonly<Record<RolloutOutcome['kind'], number>> = {
  done: 0,
  stalled: EXIT_STALLED,
  failed: EXIT_FAILED,
  dismissed: EXIT_INTERRUPTED,
  error: 1,
};

export const exitCodeOf = (outcome: RolloutOutcome): number => EXIT_CODES[outcome.kind];

export interface WatchRequest {
  /** `deploy`, `rollout`, `rollback`: how messages name the command. */
  readonly command: string;
  readonly client: ApiClient;
  readonly endpointId: string;
  /** How a command said to the person names the endpoint: the spec file (with `--document N`) or the id. */
  readonly ref: string;
  /** Before each line: `specs/a.endpoint.yaml (document 1): ` for one document of several. */
  readonly prefix?: string;
  readonly limits: WatchLimits;
  readonly signal?: AbortSignal;
  /** The workspace root whose bindings keep the release's time to ready; none for an endpoint named by its id. */
  readonly root?: string;
}

/** Follows the rollout to its end, a line on stderr for each change, then says how it ended. */
export async function watchAndReport(request: WatchRequest, io: CliIo): Promise<RolloutOutcome> {
  const prefix = request.prefix ?? '';
  let shown: string | undefined;
  const outcome = await watchRollout({
    client: request.client,
    endpointId: request.endpointId,
    ...request.limits,
    ...(request.signal ? { signal: request.signal } : {}),
    ...(request.root !== undefined ? { recordReadinessIn: [request.root] } : {}),
    onProgress: (progress) => {
      if (progress.text === shown) return;
      shown = progress.text;
      io.err(`  ${prefix}${progress.text}`);
    },
  });
  reportOutcome(request, outcome, io);
  return outcome;
}

function reportOutcome(request: WatchRequest, outcome: RolloutOutcome, io: CliIo): void {
  const prefix = request.prefix ?? '';
  const said = `endpoint-studio ${request.command}: ${prefix}`;
  const after = formatDuration(outcome.elapsedMs);
  switch (outcome.kind) {
    case 'done':
      io.out(`${prefix}rollout done after ${after}: ${outcome.progress.text}\n`);
      if (outcome.readiness) reportReadiness(request, outcome.readiness, io);
      return;
    case 'stalled':
    case 'failed':
      io.err(`${said}rollout ${outcome.kind} after ${after}: ${outcome.message}`);
      for (const worker of outcome.culprits) io.err(culpritLine(worker, request.ref));
      if (outcome.cause) io.err(causeLines(outcome.cause, request.ref).join('\n'));
      return;
    case 'dismissed': {
      const where = outcome.progress ? ` (${outcome.progress.text})` : '';
      io.err(`${said}stopped watching after ${after}; the rollout goes on${where}: endpoint-studio rollout --watch ${request.ref}`);
      return;
    }
    case 'error':
      io.err(`${said}${outcome.message}`);
      return;
  }
}

/**
 * The release's time to ready beside the one before's: `time to ready: first worker started after 3.0 s; ready in
 * 42 s (previous release 30 s): 40% slower`, and a warning when it is much slower.
 */
function reportReadiness(request: Pick<WatchRequest, 'command' | 'prefix'>, report: ReadinessReport, io: CliIo): void {
  const prefix = request.prefix ?? '';
  const line = readinessLine(report);
  if (line !== undefined) io.out(`${prefix}${line}\n`);
  const { change } = report;
  if (change?.muchSlower)
    io.err(
      `endpoint-studio ${request.command}: ${prefix}warning: release ${report.version} is ${Math.round(change.change * 100)}% slower to a ready worker than the release before: ${formatDuration(change.readyMs)} against ${formatDuration(change.previousReadyMs)}`,
    );
}

/**
 * `time to ready: first worker started after 3.0 s; ready in 42 s (previous release 30 s): 40% slower`; undefined
 * when nothing was seen.
 */
export function readinessLine(report: ReadinessReport): string | undefined {
  const summary = readinessSummary(report);
  return summary !== undefined ? `time to ready: ${summary}` : undefined;
}

/**
 * A release's time to ready for `--format json`: ms from the deploy per step (null when not seen), the release
 * before's, and the change.
 */
export function readinessJson(report: ReadinessReport | undefined): Record<string, unknown> | null {
  if (!report) return null;
  const steps = (readiness: ReadinessReport['readiness']): Record<string, number | null> => ({
    firstWorkerStartingMs: readiness?.firstWorkerStartingMs ?? null,
    firstWorkerReadyMs: readiness?.firstWorkerReadyMs ?? null,
    firstJobCompletedMs: readiness?.firstJobCompletedMs ?? null,
  });
  const { previous, change } = report;
  return {
    version: report.version,
    ...steps(report.readiness),
    previous: previous ? { version: previous.version ?? null, ...steps(previous.readiness) } : null,
    change: change ? { ratio: Math.round(change.change * 1000) / 1000, muchSlower: change.muchSlower } : null,
  };
}

/** What holds a worker up, and where to look. */
export function culpritLine(worker: Worker, ref: string): string {
  const release = `release ${worker.version ?? '?'}`;
  const placed = [worker.gpuTypeId, worker.dataCenterId].filter((part) => part !== undefined).join(' in ');
  const head = `  worker ${worker.id}: ${worker.status} on ${release}${placed ? ` (${placed})` : ''}`;
  switch (worker.status) {
    case 'UNHEALTHY':
      return `${head}: crash-looping or failing its health checks; its log: endpoint-studio logs --worker ${worker.id} ${ref}`;
    case 'THROTTLED':
      return `${head}: waiting for a free machine of the endpoint's types in its data centers`;
    case 'INITIALIZING':
      return `${head}: still starting (pulling the image, loading the handler)`;
    default:
      return head;
  }
}

/**
 * Why the workers are not serving, as people read it: `  not serving: <the cause>`, then for a crash loop the last
 * lines of the crashing worker's log and where to read more, for no capacity the alternatives with stock.
 */
export function causeLines(cause: NotServingCause, ref: string): string[] {
  const lines = [`  not serving: ${cause.message}`];
  if (cause.kind === 'crash-looping' && cause.logs.length > 0) {
    lines.push(`  the last lines of worker ${cause.workerId} (all of it: endpoint-studio logs --worker ${cause.workerId} ${ref}):`);
    for (const line of cause.logs) lines.push(`    ${line.ts} [${line.source}] ${line.line}`);
  }
  if (cause.kind === 'no-capacity' && cause.alternatives && cause.alternatives.length > 0)
    lines.push(`  with stock now: ${cause.alternatives.map(alternativeText).join(', ')}`);
  return lines;
}

/** The io a `--format json` run prints its text through, so stdout holds only the JSON object. */
export function textOnStderr<T extends CliIo>(io: T): T {
  return {
    ...io,
    out: (text: string) => {
      io.err(text);
    },
  };
}

/** An outcome for `--format json`: its kind, elapsed time, the last progress read and, for a stall or failure, why. */
export function rolloutJson(outcome: RolloutOutcome): Record<string, unknown> {
  return {
    outcome: outcome.kind,
    elapsedMs: outcome.elapsedMs,
    progress: outcome.progress ? progressJson(outcome.progress) : null,
    ...('message' in outcome ? { message: outcome.message } : {}),
    ...('culprits' in outcome ? { culprits: outcome.culprits, cause: outcome.cause ?? null } : {}),
    readiness: readinessJson(outcome.readiness),
  };
}

/** The progress as scripts read it: the counts, the unhealthy workers, whether it is done and the line people read. */
export function progressJson(progress: RolloutProgress): Record<string, unknown> {
  return {
    endpointId: progress.endpointId,
    version: progress.version ?? null,
    ready: progress.ready,
    starting: progress.starting,
    unhealthy: progress.unhealthy,
    stale: progress.stale,
    draining: progress.draining,
    total: progress.total,
    done: progress.done,
    text: progress.text,
  };
}

/**
 * How commands said to the person name a target: the endpoint id, or the spec file as given, with `--document N`
 * when a document was picked.
 */
export function targetRef(target: Target, options: TargetOptions): string {
  const { spec } = target;
  if (!spec) return target.endpointId;
  return options.document !== undefined || spec.documentIndex > 0 ? `--document ${spec.documentIndex} ${spec.file}` : spec.file;
}
