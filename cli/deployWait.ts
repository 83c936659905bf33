/**
 * `deploy --wait`: what happens to one deployed document after its read-back. Its rollout is watched to the end;
 * with `--smoke` one job then runs on the new release; a rollout that stalls or fails, or a smoke job that fails,
 * is rolled back to the release before the deploy with `--rollback-on-failure`, and otherwise the command that
 * does it is said. The decisions (done, stalled, failed, passed) are the operations layer's; this module strings
 * them together and reports each.
 */
import type { ApiClient, JobRequest } from '../core/api';
import type { ReadinessReport } from '../core/deploy/readiness';
import { recordSmoke, smokeCheck, type RolloutOutcome, type SmokeOutcome } from '../core/operations';
import { formatDuration } from '../core/util/duration';
import type { CliIo } from './inputs';
import { rollBackAfterFailure, type RollbackReport } from './rollback';
import { EXIT_FAILED, EXIT_STALLED, exitCodeOf, readinessJson, rolloutJson, watchAndReport, type WatchLimits } from './rolloutReport';

export interface WaitOptions {
  readonly limits: WatchLimits;
  /** The request of `--smoke`, read and checked before anything was deployed. */
  readonly smoke?: JobRequest;
  readonly rollbackOnFailure: boolean;
}

/** Why there is no release to go back to, when there is none. */
export type NoPreviousRelease = 'created' | 'unchanged' | 'unknown';

export interface DeployedDocument {
  readonly client: ApiClient;
  readonly endpointId: string;
  /** How commands said to the person name it: `specs/a.endpoint.yaml`, or `--document 1 specs/a.endpoint.yaml`. */
  readonly ref: string;
  /** Before each line, for one document of several. */
  readonly prefix: string;
  /** The spec's workspace root, whose bindings record a rollback. */
  readonly root: string;
  /** The configuration version before this deploy changed it, or why there is none. */
  readonly previous: number | NoPreviousRelease;
}

export interface FollowReport {
  readonly exitCode: number;
  readonly rollout: RolloutOutcome;
  readonly smoke?: SmokeOutcome;
  readonly rollback?: RollbackReport;
  /** The release's time to ready as recorded after the watch and the smoke job. */
  readonly readiness?: ReadinessReport;
}

/** Watches, smoke-checks and, when asked, rolls back one deployed document. */
export async function followDeployed(
  deployed: DeployedDocument,
  options: WaitOptions,
  signal: AbortSignal | undefined,
  io: CliIo,
): Promise<FollowReport> {
  const { client, endpointId, prefix } = deployed;
  const rollout = await watchAndReport({ ...deployed, command: 'deploy', limits: options.limits, ...(signal ? { signal } : {}) }, io);
  let exitCode = exitCodeOf(rollout);
  let smoke: SmokeOutcome | undefined;
  let firstJob: ReadinessReport | undefined;
  if (rollout.kind === 'done' && options.smoke) {
    smoke = await smokeCheck({ client, endpointId, request: options.smoke, ...(signal ? { signal } : {}) });
    firstJob = await noteSmoke(deployed, rollout, smoke, signal, io);
    if (smoke.passed) io.out(`${prefix}smoke check passed: ${smoke.message}\n`);
    else {
      io.err(`endpoint-studio deploy: ${prefix}smoke check failed: ${smoke.message}`);
      exitCode = EXIT_FAILED;
    }
  }
  const readiness = firstJob ?? rollout.readiness;
  const learnt = { ...(smoke ? { smoke } : {}), ...(readiness ? { readiness } : {}) };
  if (exitCode !== EXIT_STALLED && exitCode !== EXIT_FAILED) return { exitCode, rollout, ...learnt };
  const rollback = await afterFailure(deployed, options, signal, io);
  return { exitCode, rollout, ...learnt, ...(rollback ? { rollback } : {}) };
}

/**
 * The smoke job's verdict, kept on the binding that recorded the release it ran on, for a promotion to read; when
 * it completed on a worker of that release, also the release's first job, said when it is the first.
 */
async function noteSmoke(
  deployed: DeployedDocument,
  rollout: RolloutOutcome,
  smoke: SmokeOutcome,
  signal: AbortSignal | undefined,
  io: CliIo,
): Promise<ReadinessReport | undefined> {
  const recorded = await recordSmoke({
    outcome: smoke,
    endpointId: deployed.endpointId,
    roots: [deployed.root],
    client: deployed.client,
    ...(rollout.progress?.version !== undefined ? { release: rollout.progress.version } : {}),
    stopped: signal?.aborted === true,
  });
  for (const result of recorded.saved)
    if (!result.saved) io.err(`endpoint-studio deploy: ${deployed.prefix}the smoke check was not recorded: ${result.error}`);
  const firstJobMs = recorded.readiness?.readiness?.firstJobCompletedMs;
  if (firstJobMs !== undefined) io.out(`${deployed.prefix}first job completed ${formatDuration(firstJobMs)} after the deploy\n`);
  return recorded.readiness;
}

/** Rolls back to the release before the deploy, or says how to (or why there is none). */
async function afterFailure(
  deployed: DeployedDocument,
  options: WaitOptions,
  signal: AbortSignal | undefined,
  io: CliIo,
): Promise<RollbackReport | undefined> {
  const { previous, ref, prefix } = deployed;
  if (typeof previous !== 'number') {
    const why: Record<NoPreviousRelease, string> = {
      created: 'this deploy created the endpoint, so it has no earlier release to go back to',
      unchanged: 'this deploy changed nothing, so there is no release of it to undo',
      unknown: `the release before this deploy is unknown; endpoint-studio rollout ${ref} shows the current one`,
    };
    io.err(`endpoint-studio deploy: ${prefix}not rolled back: ${why[previous]}`);
    return undefined;
  }
  if (!options.rollbackOnFailure) {
    io.err(`  to go back to the release before this deploy: endpoint-studio rollback ${ref} --to ${previous}`);
    return undefined;
  }
  return rollBackAfterFailure({ ...deployed, toVersion: previous, limits: options.limits, signal }, io);
}

/** A smoke check for `--format json`. */
function smokeJson(smoke: SmokeOutcome): Record<string, unknown> {
  return {
    passed: smoke.passed,
    message: smoke.message,
    jobId: smoke.job?.jobId ?? null,
    status: smoke.job?.status ?? null,
    workerVersion: smoke.workerVersion ?? null,
    endpointVersion: smoke.endpointVersion ?? null,
  };
}

/** What `deploy --format json` says of the watch, the smoke check and a rollback. */
export function followJson(report: FollowReport | undefined): Record<string, unknown> {
  return {
    rollout: report ? rolloutJson(report.rollout) : null,
    smoke: report?.smoke ? smokeJson(report.smoke) : null,
    rollback: report?.rollback ?? null,
    readiness: readinessJson(report?.readiness ?? report?.rollout.readiness),
  };
}
