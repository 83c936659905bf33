/**
 * The tools for after a deploy. `watch_rollout`: the service replaces workers one by one, so an
 * agent that deployed must see the release actually serving before it says so; it watches for a
 * bounded while (a model call cannot wait minutes) and says where the rollout stands: done, still
 * going, stalled or crash-looping, with the workers that hold it up and why they are not serving
 * (crash-looping with its last log lines, no capacity, still starting). `plan_rollback` and
 * `rollback_endpoint` go back to an earlier release the way plan_deploy and deploy_spec deploy: a
 * plan with a token, shown to the user, applied only as planned and only while nothing changed.
 */
import { z } from 'zod';
import type { ApiClient, Worker } from '../core/api';
import { readPriceCatalog } from '../core/billing/priceCatalog';
import { stableJson } from '../core/deploy/diff';
import { readinessSummary, type ReadinessReport } from '../core/deploy/readiness';
import { renderChange, renderPlan } from '../core/deploy/render';
import {
  applyDeploy,
  planRollback,
  readRolloutState,
  recordedReadiness,
  ROLLOUT_DEFAULTS,
  watchRollout,
  type NotServingCause,
  type RolloutOutcome,
  type RolloutProgress,
} from '../core/operations';
import { callOptions, fromService, requireClient, ToolFailure, type AgentContext } from './context';
import { causeData, causeShape, causeText } from './notServing';
import { changesOf, hashOf } from './planning';
import { changeShape, openObject, plannedShape } from './schemas';
import { defineTool, type ToolResult } from './tool';

const DEFAULT_WAIT_SECONDS = 30;
const MAX_WAIT_SECONDS = 120;

function progressData(progress: RolloutProgress | undefined): Record<string, unknown> {
  if (!progress) return {};
  return {
    progress: progress.text,
    ...(progress.version !== undefined ? { version: progress.version } : {}),
    ready: progress.ready,
    starting: progress.starting,
    unhealthy: progress.unhealthy.length,
    stale: progress.stale,
    draining: progress.draining,
    total: progress.total,
  };
}

/** The release's time to ready in ms from the deploy per step seen, with the release before's and how they compare. */
function readinessData(report: ReadinessReport | undefined): Record<string, unknown> {
  if (!report) return {};
  const { previous, change } = report;
  return {
    readiness: {
      version: report.version,
      ...report.readiness,
      ...(previous
        ? { previous: { ...(previous.version !== undefined ? { version: previous.version } : {}), ...previous.readiness } }
        : {}),
      ...(change ? { change: Math.round(change.change * 1000) / 1000, muchSlower: change.muchSlower } : {}),
    },
  };
}

/** `time to ready of release 4: first worker started after 3.0 s; ready in 42 s (previous release 30 s): 40% slower` */
function readinessLines(report: ReadinessReport | undefined): string[] {
  const summary = report && readinessSummary(report);
  if (!report || summary === undefined) return [];
  const warning = report.change?.muchSlower ? ' (much slower than the release before: tell the user)' : '';
  return [`time to ready of release ${report.version}: ${summary}${warning}`];
}

function workerData(worker: Worker): Record<string, unknown> {
  return { workerId: worker.id, status: worker.status, ...(worker.version !== undefined ? { version: worker.version } : {}) };
}

/** The outcome as the model reads it: a state, the progress line, and what to do next. */
function describe(outcome: RolloutOutcome, endpointId: string): { state: string; lines: string[]; culprits: readonly Worker[] } {
  const line = outcome.progress ? [outcome.progress.text] : [];
  switch (outcome.kind) {
    case 'done':
      return { state: 'done', lines: [...line, 'the rollout is done: every worker runs the latest release'], culprits: [] };
    case 'dismissed':
      return {
        state: 'in-progress',
        lines: [...line, 'still rolling out when the wait ended; call watch_rollout again to go on watching'],
        culprits: [],
      };
    case 'error':
      return { state: 'unknown', lines: [...line, `the rollout could not be read: ${outcome.message}`], culprits: [] };
    case 'stalled':
    case 'failed': {
      const logs = outcome.culprits.length > 0 ? `; read_worker_logs with endpointId ${endpointId} and each workerId shows why` : '';
      return { state: outcome.kind, lines: [...line, `${outcome.message}${logs}`], culprits: outcome.culprits };
    }
  }
}

interface Watched {
  readonly outcome: RolloutOutcome;
  /** Why the workers are not serving, for a rollout not done. */
  readonly cause?: NotServingCause;
}

async function readOnce(client: ApiClient, endpointId: string, context: AgentContext): Promise<Watched> {
  const started = Date.now();
  return fromService(client, `cannot read the rollout of ${endpointId}`, async () => {
    const { progress, cause } = await readRolloutState(client, endpointId, callOptions(context));
    // One read cannot time a release; what a watch of it recorded in the workspace is said.
    const readiness = progress.version !== undefined ? recordedReadiness([context.workspaceRoot], endpointId, progress.version) : undefined;
    return {
      outcome: {
        kind: progress.done ? 'done' : 'dismissed',
        progress,
        elapsedMs: Date.now() - started,
        ...(readiness ? { readiness } : {}),
      },
      ...(cause ? { cause } : {}),
    };
  });
}

/** A stall or failure says its cause; a wait that ended with the rollout going on reads it once more. */
async function causeAfter(client: ApiClient, endpointId: string, outcome: RolloutOutcome, context: AgentContext): Promise<Watched> {
  if (outcome.kind === 'stalled' || outcome.kind === 'failed') return { outcome, ...(outcome.cause ? { cause: outcome.cause } : {}) };
  if (outcome.kind !== 'dismissed' || context.signal?.aborted) return { outcome };
  try {
    const { cause } = await readRolloutState(client, endpointId, callOptions(context));
    return { outcome, ...(cause ? { cause } : {}) };
  } catch {
    // The watch itself read the rollout; its cause is only an addition.
    return { outcome };
  }
}

function watchFor(
  waitMs: number,
  input: { endpointId: string; stallAfterSeconds?: number | undefined },
  context: AgentContext,
): Promise<RolloutOutcome> {
  const timer = AbortSignal.timeout(waitMs);
  return watchRollout({
    client: requireClient(context),
    endpointId: input.endpointId,
    signal: context.signal ? AbortSignal.any([context.signal, timer]) : timer,
    stallAfterMs: input.stallAfterSeconds !== undefined ? input.stallAfterSeconds * 1000 : waitMs + 1000,
    // A crash loop shows within a read or two; the model should hear of it inside its wait.
    failAfterMs: Math.min(ROLLOUT_DEFAULTS.failAfterMs, waitMs / 2),
    // Only the workspace's bindings of this endpoint's release are written.
    recordReadinessIn: [context.workspaceRoot],
  });
}

export const watchRolloutTool = defineTool({
  name: 'watch_rollout',
  title: 'Watch a rollout',
  description:
    "Watch the rollout of an endpoint's latest release after a deploy: the service replaces the workers of older releases one by one, so a deploy is serving only once the rollout is done. Waits up to waitSeconds (default 30, at most 120; 0 reads once) and returns the state: done, in-progress (call again to keep watching), stalled (no progress, naming the workers that hold it up) or failed (every new worker unhealthy, as with an image that crash-loops, or the endpoint is gone). A rollout not done says why its workers are not serving (cause): crash-looping (with the crashing worker's last log lines), no-capacity (waiting THROTTLED for stock) or starting (image pull or boot, and for how long). readiness is the release's time to ready (ms from the deploy to the first worker started, ready, first job completed), beside the release before's; tell the user when muchSlower. For a stalled or failed rollout, read the named workers' logs with read_worker_logs and tell the user; a person decides whether to roll back.",
  writes: false,
  input: z.object({
    endpointId: z.string().min(1),
    waitSeconds: z
      .number()
      .int()
      .min(0)
      .max(MAX_WAIT_SECONDS)
      .optional()
      .describe(`How long to watch (0 to ${MAX_WAIT_SECONDS} seconds, default ${DEFAULT_WAIT_SECONDS}); 0 reads the rollout once.`),
    stallAfterSeconds: z
      .number()
      .int()
      .min(5)
      .max(MAX_WAIT_SECONDS)
      .optional()
      .describe('No progress for this long counts as a stall (default: the whole wait).'),
  }),
  output: openObject({
    endpointId: z.string(),
    state: z.enum(['done', 'in-progress', 'stalled', 'failed', 'unknown']),
    culprits: z.array(z.object({ workerId: z.string(), status: z.string(), version: z.number().optional() })),
    cause: causeShape.optional(),
  }),
  async run(input, context): Promise<ToolResult> {
    const client = requireClient(context);
    const waitMs = (input.waitSeconds ?? DEFAULT_WAIT_SECONDS) * 1000;
    const { outcome, cause } =
      waitMs === 0
        ? await readOnce(client, input.endpointId, context)
        : await causeAfter(client, input.endpointId, await watchFor(waitMs, input, context), context);
    const { state, lines, culprits } = describe(outcome, input.endpointId);
    return {
      text: [
        `rollout of endpoint ${input.endpointId}: ${state}`,
        ...lines,
        ...readinessLines(outcome.readiness),
        ...(cause ? causeText(cause, input.endpointId, 'not serving') : []),
      ].join('\n'),
      structured: {
        endpointId: input.endpointId,
        state,
        ...progressData(outcome.progress),
        culprits: culprits.map(workerData),
        ...(cause ? { cause: causeData(cause) } : {}),
        ...readinessData(outcome.readiness),
        elapsedMs: outcome.elapsedMs,
      },
    };
  },
});

const planRollbackInput = z.object({
  endpointId: z.string().min(1),
  toVersion: z.number().int().min(1).describe("The release version to go back to, as the endpoint's Releases list names it."),
});

/** A rollback planned now, as plan_rollback shows it and rollback_endpoint checks it again before applying. */
async function plannedRollback(context: AgentContext, input: z.infer<typeof planRollbackInput>) {
  const client = requireClient(context);
  const planned = await planRollback({ client, endpointId: input.endpointId, toVersion: input.toVersion, call: callOptions(context) });
  if (!planned.ok) throw new ToolFailure(`cannot plan the rollback: ${client.redact(planned.message)}`);
  const prices = await readPriceCatalog(client);
  const header = `rollback of endpoint ${input.endpointId} from release ${planned.fromVersion ?? '?'} to the configuration of release ${planned.toVersion}\n`;
  const planText = `${header}${renderPlan(planned.plan, prices ? { catalog: prices } : {})}`;
  return {
    client,
    planned,
    planText,
    liveHash: hashOf(String(planned.fromVersion)),
    planHash: hashOf(stableJson(planned.plan)),
  };
}

export const planRollbackTool = defineTool({
  name: 'plan_rollback',
  title: 'Plan a rollback',
  description:
    "Show what rolling an endpoint back to an earlier release would change, without changing anything: version N's configuration is worked out from the endpoint and its releases' diffs, and the plan lists the fields that go back (before = live, after = release N). Fields this client cannot roll back are named. Returns a planToken valid for 15 minutes that rollback_endpoint takes to apply exactly this plan; show the plan to the user and let them decide before rolling back. The spec file is not changed: say that it still describes the newer configuration.",
  writes: false,
  input: planRollbackInput,
  output: openObject({ endpointId: z.string(), toVersion: z.number(), ...plannedShape }),
  async run(input, context): Promise<ToolResult> {
    const { planned, planText, liveHash, planHash } = await plannedRollback(context, input);
    const { plan } = planned;
    const why =
      plan.kind === 'unchanged'
        ? `the endpoint already has release ${input.toVersion}'s configuration: nothing to roll back`
        : plan.kind === 'refused'
          ? 'no update can make this difference (see the plan)'
          : undefined;
    const token =
      why === undefined
        ? context.plans.issue({ kind: 'rollback', endpointId: input.endpointId, toVersion: input.toVersion, liveHash, planHash, planText })
        : undefined;
    const footer = token
      ? `planToken: ${token.token} (expires ${token.expiresAt}); rollback_endpoint applies exactly this plan, once the user agreed`
      : `not deployable: ${why ?? ''}`;
    return {
      text: `${planText}${footer}`,
      structured: {
        endpointId: input.endpointId,
        ...(planned.fromVersion !== undefined ? { fromVersion: planned.fromVersion } : {}),
        toVersion: planned.toVersion,
        kind: plan.kind,
        plan: planText,
        changes: changesOf(plan),
        notes: plan.notes,
        ...(planned.unknownFields.length > 0 ? { unknownFields: planned.unknownFields } : {}),
        deployable: token !== undefined,
        ...(token ? { planToken: token.token, expiresAt: token.expiresAt } : { notDeployable: why }),
      },
    };
  },
});

export const rollbackEndpointTool = defineTool({
  name: 'rollback_endpoint',
  title: 'Roll an endpoint back',
  description:
    "Apply the rollback plan that plan_rollback returned, by its planToken: PATCH the endpoint back to that release's configuration (a new release, which rolls out like any deploy), then read it back and check it. Refused when the endpoint changed since the plan, or the token expired or was used: plan again. No spec file or binding changes. Changes the service: only with writes allowed, and after the user saw the plan. Follow the new release with watch_rollout.",
  writes: true,
  input: z.object({ planToken: z.string().min(1).describe('The planToken from plan_rollback.') }),
  output: openObject({ endpointId: z.string(), toVersion: z.number(), verified: z.boolean(), differences: z.array(changeShape) }),
  async run(input, context): Promise<ToolResult> {
    requireClient(context);
    if (context.plans.peek(input.planToken)?.kind !== 'rollback' && context.plans.peek(input.planToken) !== undefined)
      throw new ToolFailure('this planToken is a deploy plan from plan_deploy: deploy_spec applies it; nothing was sent');
    const redeemed = context.plans.redeem(input.planToken, 'rollback');
    if (!redeemed.ok) throw new ToolFailure(redeemed.reason, { stale: true });
    const { record } = redeemed;
    if (record.kind !== 'rollback') throw new ToolFailure('this planToken is not a rollback plan; nothing was sent');
    const again = await plannedRollback(context, { endpointId: record.endpointId, toVersion: record.toVersion });
    const stale =
      again.liveHash !== record.liveHash
        ? 'the endpoint has a newer release'
        : again.planHash !== record.planHash
          ? 'the plan changed'
          : undefined;
    if (stale !== undefined)
      throw new ToolFailure(`${stale} since the rollback was planned; nothing was sent. Run plan_rollback again and show the new plan`, {
        stale: true,
      });
    // The workspace's specs bound to the endpoint record the rollback as their last release, not as a change made outside.
    const outcome = await applyDeploy({
      client: again.client,
      plan: again.planned.plan,
      target: again.planned.target,
      rolledBackIn: context.workspaceRoot,
    });
    if (!outcome.ok) {
      const { failure } = outcome.applied;
      const lines = [`rollback failed: ${failure.message}`];
      if (failure.outcomeUnknown)
        lines.push('the change may or may not have been made; run plan_rollback to see where the endpoint stands');
      throw new ToolFailure(lines.join('\n'), { status: failure.status, outcomeUnknown: failure.outcomeUnknown });
    }
    const result = outcome.applied;
    const verified = result.verified && result.readBackError === undefined;
    const lines = [`rolled endpoint ${result.endpoint.id} back to the configuration of release ${record.toVersion}`];
    if (result.readBackError) lines.push(`not verified: reading the endpoint back failed: ${result.readBackError}`);
    else if (verified) lines.push(`verified: the endpoint read back matches release ${record.toVersion}`);
    else lines.push('not verified: the endpoint read back differs:', ...result.differences.map((c) => `  ${renderChange(c)}`));
    lines.push(
      'this is a new release that rolls out like a deploy: follow it with watch_rollout. Spec files bound to the endpoint still describe the newer configuration',
    );
    return {
      text: lines.join('\n'),
      structured: {
        endpointId: result.endpoint.id,
        toVersion: record.toVersion,
        verified,
        differences: result.differences.map((c) => ({ path: c.path, before: c.before, after: c.after })),
        ...(result.readBackError ? { readBackError: result.readBackError } : {}),
      },
    };
  },
});
