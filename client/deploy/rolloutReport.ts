/**
 * What the editor says about a rollout: the short badge beside the endpoint in the Endpoints tree while it
 * runs, and the message with its buttons once it ends. Plain functions over the core's progress and outcome
 * (core/operations/rollout.ts decides; this only words it), so what the editor says is checked without one.
 */
import type { NotServingCause, RolloutOutcome, RolloutProgress } from '../../core/operations';

/** How a rollout's end is reported; `dismissed` is not reported at all. */
export interface RolloutReport {
  readonly level: 'info' | 'warning';
  readonly message: string;
  /** The workers "Open Logs" shows, merged; none: the button is not offered. */
  readonly logWorkers: readonly string[];
  /** Whether "Roll Back…" is offered: the release failed on an endpoint that still exists. */
  readonly rollBack: boolean;
}

/** The short name of why workers are not serving, for a tree row: `crash-looping`, `no capacity`, `still starting`. */
export function causeLabel(cause: NotServingCause): string {
  return cause.kind === 'no-capacity' ? 'no capacity' : cause.kind === 'starting' ? 'still starting' : 'crash-looping';
}

/** `rolling out 3/5`: the workers ready on the new release, of all the endpoint has. */
export function rolloutBadge(progress: RolloutProgress): string {
  return `rolling out ${progress.ready}/${progress.total}`;
}

function releaseOf(endpointName: string, progress: RolloutProgress | undefined): string {
  return progress ? `release ${progress.version ?? '?'} of ${endpointName}` : endpointName;
}

function workersOnIt({ ready, total }: RolloutProgress): string {
  if (total === 0) return 'no workers (none needed)';
  return `${ready} worker${ready === 1 ? '' : 's'} on it`;
}

export function rolloutReport(endpointName: string, outcome: RolloutOutcome): RolloutReport | undefined {
  switch (outcome.kind) {
    case 'dismissed':
      return undefined;
    case 'done':
      return {
        level: 'info',
        message: `rollout of ${releaseOf(endpointName, outcome.progress)} done: ${workersOnIt(outcome.progress)}`,
        logWorkers: [],
        rollBack: false,
      };
    case 'stalled':
    case 'failed':
      return {
        level: 'warning',
        // The cause goes last: for a crash loop it ends with the line the container died on.
        message: `rollout of ${releaseOf(endpointName, outcome.progress)} ${outcome.kind}: ${outcome.message}${outcome.cause ? `; ${outcome.cause.message}` : ''}`,
        logWorkers: outcome.culprits.map((w) => w.id),
        rollBack: outcome.kind === 'failed' && outcome.progress !== undefined,
      };
    case 'error':
      return {
        level: 'warning',
        message: `rollout of ${releaseOf(endpointName, outcome.progress)} no longer watched: ${outcome.message}`,
        logWorkers: [],
        rollBack: false,
      };
  }
}
