/**
 * `endpoint-studio rollout`: how far an endpoint's latest release has rolled out, read once (`readRollout`) or,
 * with --watch, followed to its end with the exit codes of `deploy --wait`. Counting workers and deciding when a
 * rollout is done, stalled or failed are the operations layer's; this module asks and prints.
 * Exit codes: 0 read (with --watch: rolled out), 1 the service could not be read, 2 usage error, unbound spec or
 * no key; with --watch also 4 stalled, 5 failed, 130 stopped with Ctrl-C.
 */
import { readRolloutState, readSpecBindings, recordedReadiness, type RolloutState } from '../core/operations';
import { readCommandLine, usageError } from './args';
import type { CliIo } from './inputs';
import {
  causeLines,
  culpritLine,
  exitCodeOf,
  progressJson,
  readinessJson,
  readinessLine,
  rolloutJson,
  targetRef,
  textOnStderr,
  watchAndReport,
  WATCH_EXIT_HELP,
  WATCH_FLAGS,
  WATCH_FLAGS_HELP,
  watchedTargetLine,
  type WatchedTargetLine,
} from './rolloutReport';
import { resolveTarget, TARGET_FLAGS, targetName, type LifecycleIo, type Target } from './target';

export const ROLLOUT_HELP = `Usage:
  endpoint-studio rollout [--watch] [--stall-after S] [--fail-after S] [--format text|json]
                          [--document N] <spec|endpointId>

Reports how far the endpoint's latest release has rolled out: how many workers run it and are
ready, how many are still starting or unhealthy, and how many still run an older release
(draining: busy finishing their work). While it is not done it says why the new workers are
not serving: crash-looping (with the last lines of a crashing worker's log), no capacity
(waiting THROTTLED for stock), or still starting (image pull or boot, and for how long).
For a spec it says the release's time to ready beside the release before's, as a watch
of it (deploy --wait, rollout --watch) recorded it.
The endpoint is the one a spec file is bound to, or an
endpoint id; an environment's overlay is read with that environment's key variable.

--watch, -w      follow it, a line on stderr for each change, until every worker runs the
                 latest release and is ready, it stalls, or it fails.
${WATCH_FLAGS_HELP}
--format F       text (default), or json: one JSON object, the progress ({endpointId,
                 version, ready, starting, unhealthy, stale, draining, total, done, text,
                 cause, readiness}); with --watch the outcome ({endpointId, outcome,
                 elapsedMs, progress, message, culprits, cause, readiness}). cause is null
                 or {kind: crash-looping|no-capacity|starting, message, workers, ...};
                 readiness is null or the release's time to ready ({version,
                 firstWorkerStartingMs, firstWorkerReadyMs, firstJobCompletedMs, previous,
                 change}), kept in deployments.json for a spec's releases.
--document N     the document (0-based) of a multi-document spec; by default its one bound
                 document.

Exit status: 0 read (with --watch: rolled out), 1 the service could not be read, 2 usage
error, unbound spec or no API key; with --watch also
${WATCH_EXIT_HELP}`;

const COMMAND_LINE = {
  command: 'rollout',
  usage: ROLLOUT_HELP,
  options: {
    watch: { type: 'boolean', short: 'w', default: false },
    format: { type: 'string', default: 'text' },
    ...WATCH_FLAGS,
    ...TARGET_FLAGS,
  },
  allowPositionals: true,
} as const;

interface RolloutOptions extends WatchedTargetLine {
  readonly watch: boolean;
  readonly json: boolean;
}

export async function runRollout(args: string[], io: LifecycleIo): Promise<number> {
  const options = rolloutOptions(args, io);
  if (typeof options === 'number') return options;
  const target = await resolveTarget('rollout', options.ref, io, options.target);
  if (target === 2) return 2;
  return options.watch ? watchTarget(target, options, io) : reportTarget(target, options, io);
}

function rolloutOptions(args: string[], io: CliIo): RolloutOptions | number {
  const line = readCommandLine(COMMAND_LINE, args, io);
  if (typeof line === 'number') return line;
  const { values, positionals } = line;
  if (values.format !== 'text' && values.format !== 'json')
    return usageError(COMMAND_LINE, io, `--format takes text or json; got: ${values.format || 'nothing'}`);
  const common = watchedTargetLine(values, positionals, { flag: '--watch', given: values.watch });
  if (typeof common === 'string') return usageError(COMMAND_LINE, io, common);
  return { ...common, watch: values.watch, json: values.format === 'json' };
}

/** One read: the progress line, whether it is done, the unhealthy workers with where to look, and why they do not serve. */
async function reportTarget(target: Target, options: RolloutOptions, io: LifecycleIo): Promise<number> {
  let state: RolloutState;
  try {
    state = await readRolloutState(target.client, target.endpointId, io.signal ? { signal: io.signal } : {});
  } catch (error) {
    io.err(
      `endpoint-studio rollout: cannot read the rollout: ${target.client.redact(error instanceof Error ? error.message : String(error))}`,
    );
    return 1;
  }
  const { progress, cause } = state;
  const root = rootOf(target);
  const readiness =
    root !== undefined && progress.version !== undefined ? recordedReadiness([root], target.endpointId, progress.version) : undefined;
  if (options.json) {
    io.out(`${JSON.stringify({ ...progressJson(progress), cause: cause ?? null, readiness: readinessJson(readiness) }, null, 2)}\n`);
    return 0;
  }
  io.out(`${targetName(target)}: ${progress.text}\n`);
  io.out(progress.done ? '  rolled out: every worker runs it and is ready\n' : '  rolling out\n');
  const ready = readiness && readinessLine(readiness);
  if (ready !== undefined) io.out(`  ${ready}\n`);
  const ref = targetRef(target, options.target);
  for (const worker of progress.unhealthy) io.out(`${culpritLine(worker, ref)}\n`);
  if (cause) io.out(`${causeLines(cause, ref).join('\n')}\n`);
  return 0;
}

/** Follows it to its end; with --format json, stdout holds only the outcome and the lines people read go to stderr. */
async function watchTarget(target: Target, options: RolloutOptions, io: LifecycleIo): Promise<number> {
  const shown = options.json ? textOnStderr(io) : io;
  if (!options.json) io.out(`${targetName(target)}\n`);
  const outcome = await watchAndReport(
    {
      command: 'rollout',
      client: target.client,
      endpointId: target.endpointId,
      ref: targetRef(target, options.target),
      limits: options.limits,
      ...(io.signal ? { signal: io.signal } : {}),
      root: rootOf(target),
    },
    shown,
  );
  if (options.json) io.out(`${JSON.stringify({ endpointId: target.endpointId, ...rolloutJson(outcome) }, null, 2)}\n`);
  return exitCodeOf(outcome);
}

/**
 * The workspace root whose bindings keep the time to ready of the spec's releases; none for an endpoint named by its
 * id, whose readiness is neither shown from nor recorded in any workspace.
 */
function rootOf(target: Target): string | undefined {
  return target.spec ? readSpecBindings(target.spec.file).location?.root : undefined;
}
