/**
 * A smoke job's verdict kept with the release it ran on, in the bindings that recorded that release, so a promotion
 * can tell a verified release from one whose smoke job failed. The CLI's `deploy --wait --smoke` and the editor's
 * Smoke Check both record through here, so they agree on which release a job speaks for: the worker's, else the
 * endpoint's at the end of the job, else the one the caller knows it rolled out. A job a worker of an older release
 * answered speaks for no release, and a check that never got a job running (or that the person stopped) for none.
 * A job that completed on a worker of the current release is also that release's first job known, for its time to
 * ready (readiness.ts), when the caller gives a client to read the release's start with.
 */
import type { ApiClient } from '../api';
import type { ReadinessReport } from '../deploy/readiness';
import { noteJobCompleted } from './readiness';
import { noteOnRelease, type SaveBindingResult } from './specBindings';
import { readRollout } from './rollout';
import type { SmokeOutcome } from './smoke';

export interface RecordSmokeInput {
  readonly outcome: SmokeOutcome;
  readonly endpointId: string;
  /** The workspace roots whose bindings may have recorded the release (the editor's folders; the CLI's one root). */
  readonly roots: readonly string[];
  /** The release the caller rolled out and checked, when it knows it. */
  readonly release?: number;
  /** Read the endpoint's current release when neither the outcome nor the caller says which one it was. */
  readonly client?: ApiClient;
  /** The person stopped the check: its outcome is no verdict. */
  readonly stopped?: boolean;
}

/** What was recorded: per root that had a binding of that release (none when nothing was), and the time to ready. */
export interface RecordedSmoke {
  readonly saved: readonly SaveBindingResult[];
  /** Set when the job was the release's first known to complete; its report says how long after the deploy. */
  readonly readiness?: ReadinessReport;
}

export async function recordSmoke(input: RecordSmokeInput): Promise<RecordedSmoke> {
  const { outcome } = input;
  if (!outcome.job || input.stopped) return { saved: [] };
  const { workerVersion, endpointVersion } = outcome;
  if (workerVersion !== undefined && endpointVersion !== undefined && workerVersion < endpointVersion) return { saved: [] };
  const version = workerVersion ?? endpointVersion ?? input.release ?? (await currentRelease(input.client, input.endpointId));
  if (version === undefined) return { saved: [] };
  const now = new Date();
  const smoke = { passed: outcome.passed, jobId: outcome.job.jobId, at: now.toISOString() };
  const saved = input.roots.flatMap((root) => noteOnRelease(root, input.endpointId, version, { smoke }) ?? []);
  // Only a job a worker of the current release ran says when that release first served.
  const servedBy = outcome.passed && workerVersion !== undefined && workerVersion === endpointVersion;
  const readiness =
    servedBy && input.client
      ? await noteJobCompleted(input.client, { roots: input.roots, endpointId: input.endpointId, version, completedAt: now.getTime() })
      : undefined;
  return { saved, ...(readiness ? { readiness } : {}) };
}

async function currentRelease(client: ApiClient | undefined, endpointId: string): Promise<number | undefined> {
  if (!client) return undefined;
  try {
    return (await readRollout(client, endpointId)).version;
  } catch {
    // Unknown: the verdict is not recorded rather than put on a release it may not be about.
    return undefined;
  }
}
