/**
 * A release's time to ready against the release before's, and how it reads: one wording for the CLI, the editor
 * and the agents ("ready in 42 s (previous release 30 s): 40% slower"), and one threshold for a warning. The
 * figures come from the bindings (`DeployedRelease.readiness`, `previous`); core/operations/readiness.ts measures
 * and records them.
 */
import { formatDuration } from '../util/duration';
import type { PreviousRelease, ReleaseReadiness } from './bindings';

/** A release this much slower to a ready worker than the one before is worth a warning. */
const MUCH_SLOWER = 0.5;

/** Time to a ready worker against the release before's: `change` is 0.4 for 40% slower, -0.2 for 20% faster. */
export interface ReadinessChange {
  readonly readyMs: number;
  readonly previousReadyMs: number;
  readonly change: number;
  /** At least MUCH_SLOWER slower. */
  readonly muchSlower: boolean;
}

/** A release's time to ready as recorded, with the release before's and how they compare. */
export interface ReadinessReport {
  readonly version: number;
  readonly readiness?: ReleaseReadiness;
  readonly previous?: PreviousRelease;
  readonly change?: ReadinessChange;
}

export function compareReadiness(
  readiness: ReleaseReadiness | undefined,
  previous: ReleaseReadiness | undefined,
): ReadinessChange | undefined {
  const readyMs = readiness?.firstWorkerReadyMs;
  const previousReadyMs = previous?.firstWorkerReadyMs;
  if (readyMs === undefined || previousReadyMs === undefined || previousReadyMs <= 0) return undefined;
  const change = (readyMs - previousReadyMs) / previousReadyMs;
  return { readyMs, previousReadyMs, change, muchSlower: change >= MUCH_SLOWER };
}

/** `ready in 42 s`; undefined when no worker was seen ready. */
export function readyText(readiness: ReleaseReadiness | undefined): string | undefined {
  const ms = readiness?.firstWorkerReadyMs;
  return ms === undefined ? undefined : `ready in ${formatDuration(ms)}`;
}

/** `ready in 42 s (previous release 30 s): 40% slower`; without a figure to compare with, `ready in 42 s`. */
function readinessComparisonText(report: ReadinessReport): string | undefined {
  const ready = readyText(report.readiness);
  if (ready === undefined) return undefined;
  const { change } = report;
  if (!change) return ready;
  const percent = Math.round(Math.abs(change.change) * 100);
  const how = percent === 0 ? 'as fast' : `${percent}% ${change.change > 0 ? 'slower' : 'faster'}`;
  return `${ready} (previous release ${formatDuration(change.previousReadyMs)}): ${how}`;
}

/**
 * `first worker started after 3.0 s; ready in 42 s (previous release 30 s): 40% slower; first job completed after
 * 45 s`: the steps seen; undefined when none was.
 */
export function readinessSummary(report: ReadinessReport): string | undefined {
  const { readiness } = report;
  const parts = [
    readiness?.firstWorkerStartingMs !== undefined
      ? `first worker started after ${formatDuration(readiness.firstWorkerStartingMs)}`
      : undefined,
    readinessComparisonText(report),
    readiness?.firstJobCompletedMs !== undefined ? `first job completed after ${formatDuration(readiness.firstJobCompletedMs)}` : undefined,
  ].filter((part) => part !== undefined);
  return parts.length > 0 ? parts.join('; ') : undefined;
}
