/**
 * Carries out a plan through the API client, then reads the endpoint back and checks it against
 * the spec: a deploy is only "done" when the service shows what was asked. Failures come back as
 * values with their problems mapped to spec paths, never as exceptions a caller must decode.
 */
import { ApiError, type ApiClient, type CreateEndpointRequest, type CreateReconciledOptions, type Endpoint } from '../api';
import { formatFieldPath, type JsonPathSegment } from '../endpointSpec/tree';
import { driftBetween, type Change } from './diff';
import type { DeploymentPlan } from './plan';

export type ApplyStep = 'listing' | 'creating' | 'reconciling' | 'updating' | 'reading-back' | 'verifying';

export interface ApplyOptions {
  signal?: AbortSignal;
  onProgress?: (step: ApplyStep, message: string) => void;
  /**
   * Ids of the endpoints that existed before this deploy. When absent they are listed first, so
   * a same-named older endpoint is never mistaken for the one a lost create made.
   */
  existingIds?: readonly string[];
  /** Tuning of the create reconciliation (tests shorten the waits). */
  reconcile?: Pick<CreateReconciledOptions, 'retries' | 'reconcileChecks' | 'reconcileIntervalMs' | 'clockSkewMs'>;
}

/** A problem placed on a spec path (`[]` for the spec as a whole). */
export interface MappedProblem {
  readonly segments: readonly JsonPathSegment[];
  readonly path: string;
  readonly message: string;
}

export interface ApplyFailure {
  readonly message: string;
  readonly status: number | undefined;
  readonly kind: ApiError['kind'] | 'notCreated' | 'refused';
  /** The change may or may not have been made (a lost answer that could not be settled). */
  readonly outcomeUnknown: boolean;
  /** The bound endpoint no longer exists: offer to create it anew. */
  readonly endpointGone: boolean;
  readonly problems: readonly MappedProblem[];
}

export type ApplyAction = 'created' | 'reconciled' | 'updated' | 'unchanged';

export type ApplyResult =
  | {
      ok: true;
      /** `reconciled`: the create's answer was lost and listing found the endpoint it made (no second one). */
      action: ApplyAction;
      endpoint: Endpoint;
      /** The endpoint read back after the change matches the spec. */
      verified: boolean;
      /** Where the read-back endpoint still differs from the spec (`before` is live, `after` the spec). */
      differences: Change[];
      /** Create attempts made (a create shown not to exist may be sent again). */
      attempts?: number;
      /** Set when the change was made but reading it back failed, so it could not be verified. */
      readBackError?: string;
    }
  | { ok: false; action: 'create' | 'update' | 'read-back'; failure: ApplyFailure };

export async function applyPlan(client: ApiClient, plan: DeploymentPlan, options: ApplyOptions = {}): Promise<ApplyResult> {
  const { signal, onProgress = () => undefined } = options;
  const call = signal ? { signal } : {};
  switch (plan.kind) {
    case 'refused':
      return {
        ok: false,
        action: 'update',
        failure: localFailure('refused', 'the plan cannot be applied: the spec differs in ways an update cannot make', plan.problems),
      };
    case 'create': {
      let existingIds = options.existingIds;
      try {
        if (!existingIds) {
          onProgress('listing', 'listing endpoints to tell a new one from older ones');
          existingIds = (await client.serverless.list(call)).map((e) => e.id);
        }
        onProgress('creating', `creating endpoint ${JSON.stringify(plan.body.name)}`);
        const outcome = await client.serverless.createReconciled(plan.body as unknown as CreateEndpointRequest, {
          ...call,
          ...options.reconcile,
          existingIds,
        });
        if (outcome.status === 'notCreated') {
          const message = `the create request was lost ${outcome.attempts} time(s) and listing showed no endpoint was made; nothing was created, deploy again`;
          return { ok: false, action: 'create', failure: localFailure('notCreated', message, []) };
        }
        if (outcome.status === 'reconciled')
          onProgress(
            'reconciling',
            `the answer was lost; found the endpoint the request made (${outcome.endpoint.id}), no second one was created`,
          );
        return { ...(await readBack(client, plan.spec, outcome.endpoint, outcome.status, call, onProgress)), attempts: outcome.attempts };
      } catch (error) {
        return { ok: false, action: 'create', failure: failureOf(error) };
      }
    }
    case 'update': {
      let patched: Endpoint;
      try {
        onProgress('updating', `updating endpoint ${plan.endpointId}: ${Object.keys(plan.patch).join(', ')}`);
        patched = await client.serverless.update(plan.endpointId, plan.patch, call);
      } catch (error) {
        return { ok: false, action: 'update', failure: failureOf(error) };
      }
      return readBack(client, plan.spec, patched, 'updated', call, onProgress);
    }
    case 'unchanged': {
      try {
        const live = await client.serverless.get(plan.endpointId, call);
        const differences = driftBetween(plan.spec, live);
        return { ok: true, action: 'unchanged', endpoint: live, verified: differences.length === 0, differences };
      } catch (error) {
        return { ok: false, action: 'read-back', failure: failureOf(error) };
      }
    }
  }
}

/** GETs the endpoint after a write; the write's own answer is only the fallback if that fails. */
async function readBack(
  client: ApiClient,
  spec: Record<string, unknown>,
  written: Endpoint,
  action: ApplyAction,
  call: { signal?: AbortSignal },
  onProgress: NonNullable<ApplyOptions['onProgress']>,
): Promise<Extract<ApplyResult, { ok: true }>> {
  onProgress('reading-back', `reading endpoint ${written.id} back`);
  let live: Endpoint;
  try {
    live = await client.serverless.get(written.id, call);
  } catch (error) {
    return { ok: true, action, endpoint: written, verified: false, differences: [], readBackError: failureOf(error).message };
  }
  onProgress('verifying', 'comparing the endpoint with the spec');
  const differences = driftBetween(spec, live);
  return { ok: true, action, endpoint: live, verified: differences.length === 0, differences };
}

/** A failed call as a value: problem `errors` become spec paths, everything else one message. */
function failureOf(error: unknown): ApplyFailure {
  if (!(error instanceof ApiError)) {
    const message = error instanceof Error ? error.message : String(error);
    return localFailure('client', message, wholeSpec(message));
  }
  return {
    message: error.message,
    status: error.status,
    kind: error.kind,
    outcomeUnknown: error.outcomeUnknown,
    endpointGone: error.notFound && error.method !== 'POST',
    problems: problemsOf(error),
  };
}

/** A failure that did not come from the service's answer: nothing was changed, or nothing was sent. */
function localFailure(kind: ApplyFailure['kind'], message: string, problems: readonly MappedProblem[]): ApplyFailure {
  return { message, status: undefined, kind, outcomeUnknown: false, endpointGone: false, problems };
}

const wholeSpec = (message: string): MappedProblem[] => [{ segments: [], path: formatFieldPath([]), message }];

function problemsOf(error: ApiError): MappedProblem[] {
  if (error.errors.length === 0) return wholeSpec(error.detail || error.title);
  return error.errors.map((entry) => ({
    segments: entry.pathSegments,
    path: formatFieldPath(entry.pathSegments),
    message: entry.message || error.detail || error.title,
  }));
}
