/**
 * `endpoint-studio rollback`: put an endpoint back to the configuration of an earlier release. Working out
 * release N's configuration and the update that restores it is the operations layer's (`planRollback`); this
 * module shows that plan the way `plan` shows one, asks, applies it with `applyDeploy` (no document: the spec's
 * binding does not change), reads it back, and then either says that the spec still describes the newer release
 * or, with --write-spec, writes release N into it. `deploy --rollback-on-failure` rolls back through here too.
 * Exit codes: 0 rolled back (and with --wait rolled out), 1 release N cannot be restored, the plan is refused or
 * an API problem, 2 usage error, unbound spec, no key or --write-spec on an overlay, 3 confirmation needed, and
 * with --wait those of a watched rollout (cli/rolloutReport.ts).
 */
import { readPriceCatalog } from '../core/billing/priceCatalog';
import { diffEffective, effectiveSpec, findWorkspaceRoot, type Spec } from '../core/deploy';
import { renderChange, renderPlan } from '../core/deploy/render';
import type { ApiClient } from '../core/api';
import { isRecord } from '../core/endpointSpec/ownData';
import { writeConfigurationIntoSpec } from '../core/endpointSpec/serialize';
import { applyDeploy, planRollback, type PlanRollbackResult } from '../core/operations';
import { specFormatOf } from '../core/protocol';
import { writeFileAtomic } from '../core/util/atomicWrite';
import { confirmApply, reportReadBack, type DeployIo } from './applying';
import type { DeployedDocument } from './deployWait';
import { readCommandLine, usageError } from './args';
import type { CliIo } from './inputs';
import {
  exitCodeOf,
  rolloutJson,
  targetRef,
  watchAndReport,
  WATCH_EXIT_HELP,
  WATCH_FLAGS,
  WATCH_FLAGS_HELP,
  watchedTargetLine,
  type WatchedTargetLine,
  type WatchLimits,
} from './rolloutReport';
import { readCheckedSpec, resolveTarget, TARGET_FLAGS, targetName, type TargetSpec } from './target';

export const ROLLBACK_HELP = `Usage:
  endpoint-studio rollback --to N [--yes] [--write-spec] [--wait] [--stall-after S] [--fail-after S]
                           [--document N] <spec|endpointId>

Puts the endpoint back to the configuration of its release N: the endpoint as it is now with
every newer release's change undone (endpoint-studio rollout shows the current release). It
shows the plan as plan does, asks on a terminal (or takes --yes), applies it, and reads the
endpoint back to check it. The endpoint is the one a spec file is bound to, or an endpoint id;
an environment's overlay rolls back with that environment's key variable, and a protected
environment asks for its name typed on a terminal.

--to N           the release (configuration version) to go back to.
--yes, -y        apply without asking (needed where there is no terminal to ask).
--write-spec     afterwards write release N's configuration into the spec file, so the next
                 deploy keeps it. Only for a spec argument, and not for an overlay (it holds
                 only its environment's differences from the base: the fields to change are
                 listed instead). Without it the spec still describes the release rolled back
                 from, and deploying it again undoes the rollback.
--wait           then watch the rollback's rollout to its end.
${WATCH_FLAGS_HELP}
--document N     the document (0-based) of a multi-document spec; by default its one bound
                 document.

Exit status: 0 rolled back (and with --wait rolled out), 1 release N cannot be restored, the
plan cannot be applied or an API problem, 2 usage error, unbound spec, no API key or
--write-spec on an overlay, 3 confirmation needed; with --wait also
${WATCH_EXIT_HELP}`;

const COMMAND_LINE = {
  command: 'rollback',
  usage: ROLLBACK_HELP,
  options: {
    to: { type: 'string' },
    yes: { type: 'boolean', short: 'y', default: false },
    'write-spec': { type: 'boolean', default: false },
    wait: { type: 'boolean', default: false },
    ...WATCH_FLAGS,
    ...TARGET_FLAGS,
  },
  allowPositionals: true,
} as const;

interface RollbackOptions extends WatchedTargetLine {
  readonly toVersion: number;
  readonly yes: boolean;
  readonly writeSpec: boolean;
  readonly wait: boolean;
}

export async function runRollback(args: string[], io: DeployIo): Promise<number> {
  const options = rollbackOptions(args, io);
  if (typeof options === 'number') return options;
  const target = await resolveTarget('rollback', options.ref, io, options.target);
  if (target === 2) return 2;
  if (options.writeSpec && !target.spec)
    return usageError(COMMAND_LINE, io, `--write-spec writes into a spec file; ${options.ref} is an endpoint id`);
  const planned = await showRollback(
    { command: 'rollback', client: target.client, endpointId: target.endpointId, toVersion: options.toVersion, prefix: '' },
    io,
    targetName(target),
  );
  if (typeof planned === 'number') return planned;
  const spec = target.spec ? await specDocumentOf(target.spec, io) : undefined;
  if (spec === 2) return 2;
  if (options.writeSpec && spec?.overlay) return refuseOverlayWrite(spec, planned, io);
  if (planned.plan.kind === 'update') {
    const environment = target.spec?.environment;
    const declined = await confirmApply(
      {
        command: 'rollback',
        yes: options.yes,
        question: `Roll back to release ${planned.toVersion}?`,
        ...(environment?.protected ? { protectedEnvironment: environment.name } : {}),
      },
      io,
    );
    if (declined !== undefined) return declined;
  }
  const root = target.spec ? findWorkspaceRoot(target.spec.file) : undefined;
  const applied = await applyRollback({ command: 'rollback', client: target.client, prefix: '', ...(root ? { root } : {}) }, planned, io);
  if (!applied.ok) return 1;
  const written = spec ? await reportSpec(spec, planned, options.writeSpec, io) : true;
  if (!options.wait) return written ? 0 : 1;
  const outcome = await watchAndReport(
    {
      command: 'rollback',
      client: target.client,
      endpointId: target.endpointId,
      ref: targetRef(target, options.target),
      limits: options.limits,
      ...(root !== undefined ? { root } : {}),
      ...(io.interruption ? { signal: io.interruption() } : {}),
    },
    io,
  );
  return Math.max(exitCodeOf(outcome), written ? 0 : 1);
}

function rollbackOptions(args: string[], io: CliIo): RollbackOptions | number {
  const line = readCommandLine(COMMAND_LINE, args, io);
  if (typeof line === 'number') return line;
  const { values, positionals } = line;
  const common = watchedTargetLine(values, positionals, { flag: '--wait', given: values.wait });
  if (typeof common === 'string') return usageError(COMMAND_LINE, io, common);
  if (values.to === undefined) return usageError(COMMAND_LINE, io, '--to N is needed: the release to go back to');
  if (!/^[1-9]\d*$/.test(values.to))
    return usageError(COMMAND_LINE, io, `--to takes a release number (1, 2, ...); got: ${values.to || 'nothing'}`);
  return { ...common, toVersion: Number(values.to), yes: values.yes, writeSpec: values['write-spec'], wait: values.wait };
}

type PlannedRollback = Extract<PlanRollbackResult, { ok: true }>;

interface RollbackStep {
  /** `rollback`, or `deploy` for --rollback-on-failure. */
  readonly command: string;
  readonly client: ApiClient;
  /** Before each line, for one document of several. */
  readonly prefix: string;
  /** The workspace whose bindings of the endpoint record the rollback; none when no spec named it. */
  readonly root?: string;
}

/** Plans the rollback and prints the plan; or exit status 1 after saying why release N cannot be restored. */
async function showRollback(
  step: RollbackStep & { readonly endpointId: string; readonly toVersion: number },
  io: CliIo,
  name = `endpoint ${step.endpointId}`,
): Promise<PlannedRollback | 1> {
  const planned = await planRollback({ client: step.client, endpointId: step.endpointId, toVersion: step.toVersion });
  const said = `endpoint-studio ${step.command}: ${step.prefix}`;
  if (!planned.ok) {
    io.err(`${said}${planned.message}`);
    return 1;
  }
  io.out(`${step.prefix}${name}: back to release ${planned.toVersion} from release ${planned.fromVersion ?? '?'}\n`);
  io.out(renderPlan(planned.plan, { catalog: await readPriceCatalog(step.client) }));
  if (planned.plan.kind === 'refused') {
    io.err(`${said}the plan cannot be applied (see above); nothing was sent`);
    return 1;
  }
  return planned;
}

/** Applies a planned rollback (nothing when the endpoint is at release N already) and checks the endpoint read back. */
async function applyRollback(
  step: RollbackStep,
  planned: PlannedRollback,
  io: CliIo,
): Promise<{ readonly ok: true } | { readonly ok: false; readonly message: string }> {
  const { client, prefix, command } = step;
  if (planned.plan.kind !== 'update') return { ok: true };
  const outcome = await applyDeploy({
    client,
    plan: planned.plan,
    target: planned.target,
    ...(step.root !== undefined ? { rolledBackIn: step.root } : {}),
    onProgress: (_step, message) => {
      io.err(`  ${message}`);
    },
  });
  if (!outcome.ok) {
    const message = `the rollback failed: ${client.redact(outcome.applied.failure.message)}`;
    io.err(`endpoint-studio ${command}: ${prefix}${message}`);
    for (const problem of outcome.applied.failure.problems) io.err(`  ${problem.path}: ${client.redact(problem.message)}`);
    if (outcome.applied.failure.outcomeUnknown)
      io.err('  the change may or may not have been made; endpoint-studio rollout shows where it stands');
    return { ok: false, message };
  }
  const verified = reportReadBack({ command, client, prefix, wanted: `release ${planned.toVersion}` }, outcome.applied, io);
  return verified ? { ok: true } : { ok: false, message: `the endpoint read back does not show release ${planned.toVersion}` };
}

/** What a rollback after a failed deploy did, for the deploy's report and `--format json`. */
export interface RollbackReport {
  readonly toVersion: number;
  readonly fromVersion: number | null;
  /** Applied and read back showing release `toVersion`. */
  readonly rolledBack: boolean;
  readonly message: string;
  /** The rollback's own rollout, watched to its end (see rolloutJson). */
  readonly rollout: Record<string, unknown> | null;
}

/** The document `deploy --wait` deployed, the release to go back to, and how to watch that rollout. */
export interface RollbackAfterFailure extends Omit<DeployedDocument, 'previous'> {
  readonly toVersion: number;
  readonly limits: WatchLimits;
  readonly signal: AbortSignal | undefined;
}

/** `deploy --rollback-on-failure`: back to the release before the deploy, without asking (the flag asked), then watched. */
export async function rollBackAfterFailure(request: RollbackAfterFailure, io: CliIo): Promise<RollbackReport> {
  const { client, endpointId, toVersion, ref, prefix, root } = request;
  const step = { command: 'deploy', client, prefix, root };
  const failed = (message: string, fromVersion: number | null = null): RollbackReport => {
    io.err(`endpoint-studio deploy: ${prefix}not rolled back: ${message}; to try again: endpoint-studio rollback ${ref} --to ${toVersion}`);
    return { toVersion, fromVersion, rolledBack: false, message, rollout: null };
  };
  io.err(`endpoint-studio deploy: ${prefix}rolling back to release ${toVersion}, the release before this deploy`);
  const planned = await showRollback({ ...step, endpointId, toVersion }, io);
  if (planned === 1) return failed(`release ${toVersion} cannot be restored`);
  const fromVersion = planned.fromVersion ?? null;
  const applied = await applyRollback(step, planned, io);
  if (!applied.ok) return failed(applied.message, fromVersion);
  const rollout = await watchAndReport(
    { command: 'deploy', client, endpointId, ref, prefix, limits: request.limits, ...(request.signal ? { signal: request.signal } : {}) },
    io,
  );
  const message =
    rollout.kind === 'done'
      ? `rolled back to release ${toVersion}; the spec still describes the release that failed: fix it before deploying again`
      : `rolled back to release ${toVersion}, but its rollout did not finish (${rollout.kind})`;
  io.err(`endpoint-studio deploy: ${prefix}${message}`);
  return { toVersion, fromVersion, rolledBack: true, message, rollout: rolloutJson(rollout) };
}

/** The spec document a target was named by, as the rollback reads and may rewrite it. */
interface SpecDocumentFile {
  readonly file: string;
  readonly text: string;
  readonly documentIndex: number;
  readonly overlay: boolean;
  /** What the document deploys (an overlay merged into its base); undefined while it is broken. */
  readonly body?: Spec;
}

async function specDocumentOf(spec: TargetSpec, io: CliIo): Promise<SpecDocumentFile | 2> {
  const read = await readCheckedSpec(spec.file, 'rollback', io);
  if (read === undefined) return 2;
  const { text, checked } = read;
  const checkedDocument = checked.documents.find((d) => d.index === spec.documentIndex);
  return {
    file: spec.file,
    text,
    documentIndex: spec.documentIndex,
    overlay: checked.overlay !== undefined,
    ...(isRecord(checkedDocument?.body) ? { body: checkedDocument.body } : {}),
  };
}

/** Where the spec differs from release N: `before` release N's value, `after` the spec's. */
function specAgainstRelease(spec: SpecDocumentFile, planned: PlannedRollback): ReturnType<typeof diffEffective> | undefined {
  return spec.body ? diffEffective(effectiveSpec(spec.body), effectiveSpec(planned.spec)) : undefined;
}

/** An overlay holds only its environment's differences from the base, so release N cannot simply be written into it. */
function refuseOverlayWrite(spec: SpecDocumentFile, planned: PlannedRollback, io: CliIo): 2 {
  const differences = specAgainstRelease(spec, planned) ?? [];
  io.err(
    `endpoint-studio rollback: --write-spec cannot rewrite ${spec.file}: an overlay holds only its environment's differences from its base; nothing was sent`,
  );
  if (differences.length === 0) io.err(`  it already describes release ${planned.toVersion}`);
  else {
    io.err(
      `  release ${planned.toVersion} differs from it (merged into its base) in (before = release ${planned.toVersion}, after = the overlay):`,
    );
    for (const change of differences) io.err(`    ${renderChange(change)}`);
    io.err('  change those in the overlay or its base by hand, or roll back without --write-spec');
  }
  return 2;
}

/** Says whether the spec still describes the release rolled back from, or writes release N into it; false when writing failed. */
async function reportSpec(spec: SpecDocumentFile, planned: PlannedRollback, write: boolean, io: CliIo): Promise<boolean> {
  const differences = specAgainstRelease(spec, planned);
  if (differences?.length === 0) {
    io.out(`${spec.file} already describes release ${planned.toVersion}\n`);
    return true;
  }
  if (!write) {
    io.out(
      `the spec still describes release ${planned.fromVersion ?? '?'}: deploying it again undoes the rollback; run with --write-spec to write release ${planned.toVersion} into ${spec.file}\n`,
    );
    return true;
  }
  // Release N's configuration as pull writes one, set into the document: its `$schema` and comments stay.
  const rewritten = writeConfigurationIntoSpec(spec.text, specFormatOf(spec.file), spec.documentIndex, planned.spec);
  if (!rewritten) {
    io.err(`endpoint-studio rollback: ${spec.file} was not rewritten: its document ${spec.documentIndex} cannot be read as a mapping`);
    return false;
  }
  try {
    await writeFileAtomic(spec.file, rewritten.text);
  } catch (error) {
    io.err(`endpoint-studio rollback: ${spec.file} was not rewritten: ${(error as Error).message}`);
    return false;
  }
  io.out(`wrote release ${planned.toVersion} into ${spec.file}${spec.documentIndex > 0 ? ` (document ${spec.documentIndex})` : ''}\n`);
  return true;
}
