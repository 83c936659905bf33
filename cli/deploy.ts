/**
 * `endpoint-studio deploy`: the operations layer over a spec file, for terminals and CI. This module asks, renders
 * and reports; checking, planning and applying are `core/operations`, reading and planning the file deployPrepare.ts.
 * The service and key come from ENDPOINT_STUDIO_API_URL / ENDPOINT_STUDIO_API_KEY (or RUNPOD_API_KEY); an
 * environment's overlay (--env, or given directly) deploys on its own key variable, and a protected one asks
 * for its name typed (or, with no terminal, --yes).
 * `deploy --wait` then follows each endpoint's rollout (cli/deployWait.ts): a smoke job, a rollback on failure.
 * Its flags, and the usage text it shares with `plan`, `pull` and `bind` (plan.ts, pull.ts, bind.ts), are
 * deployCommandLine.ts's.
 * Exit codes: 0 done (or nothing to do), 1 invalid spec, refused plan, unbound namesake or API problem,
 * 2 usage error, unreadable file or no key, 3 confirmation needed (deploy without --yes), 6 the plan overwrites
 * changes made outside since the last deploy (without --overwrite-outside); with --wait also
 * 4 rollout stalled, 5 rollout failed or smoke check failed, 130 stopped watching with Ctrl-C (cli/rolloutReport.ts).
 */
import type { ApplyAction, ApplyFailure } from '../core/deploy/apply';
import { overwrittenOutside, type ThreeWay } from '../core/deploy/outside';
import { locatePath } from '../core/endpointSpec/locate';
import type { JsonPath, SpecDocument } from '../core/endpointSpec/tree';
import { applyDeploy, needsApplying, readRollout, type NamesakePolicy } from '../core/operations';
import { confirmApply, reportReadBack, type DeployIo } from './applying';
import { usageError } from './args';
import {
  formatOf,
  givenFlags,
  readDeployLine,
  specFilesOf,
  usageOf,
  type DeployCommandShape,
  type DeployFlagValues,
} from './deployCommandLine';
import { adoptNamesakes, heading, plansAsText, prepare, type PlannedDocument, type Prepared, type PrepareOptions } from './deployPrepare';
import { followDeployed, followJson, type FollowReport, type NoPreviousRelease, type WaitOptions } from './deployWait';
import { readRequestFile } from './jobRequest';
import { leftBehindIn, leftBehindText, orphanJson } from './orphansReport';
import { textOnStderr, watchLimits } from './rolloutReport';

// The four commands were once this one module: callers (the tests among them) still find them, and the io, here.
export type { DeployIo } from './applying';
export { runBind } from './bind';
export { runPlan } from './plan';
export { runPull } from './pull';

/** The flags that only mean something with --wait. */
const WAIT_FLAGS = ['smoke', 'rollback-on-failure', 'stall-after', 'fail-after'] as const;

const DEPLOY = {
  command: 'deploy',
  flags: ['yes', 'document', 'catalog', 'adopt', 'create-new', 'overwrite-outside', 'keep-going', 'env', 'format', 'wait', ...WAIT_FLAGS],
  formats: ['text', 'json'],
  operands: { count: 1, many: true, missing: 'a spec file is needed' },
} as const satisfies DeployCommandShape<'text' | 'json'>;

/** What a deploy needs besides --wait: the file, its documents, the catalog, and how to go ahead. */
interface DeployOptions extends PrepareOptions {
  readonly yes: boolean;
  readonly namesakes: NamesakePolicy;
  /** Deploy over fields changed outside since the last deploy, which the plan names. */
  readonly overwriteOutside: boolean;
}

/** The exit status of a deploy refused because it would overwrite changes made outside, unasked. */
export const OVERWRITES_OUTSIDE_EXIT = 6;

/** One file of a deploy: how it ended, and what it did when it got as far as a plan. */
interface FileDeploy {
  readonly file: string;
  readonly exitCode: number;
  readonly deployed?: { readonly prepared: Prepared; readonly report: DeployReport };
}

export async function runDeploy(args: string[], io: DeployIo): Promise<number> {
  const line = readDeployLine(DEPLOY, args, io);
  if (typeof line === 'number') return line;
  const wait = await waitOptions(line.values, io);
  if (typeof wait === 'number') return wait;
  const inputs = line.operands;
  const files = await specFilesOf('deploy', inputs, line.values.env, io);
  if (files === undefined) return 2;
  if (files.length === 0) return usageError(usageOf('deploy'), io, `no spec files in ${inputs.join(', ')}`);
  if (line.document !== undefined && files.length > 1) return usageError(usageOf('deploy'), io, '--document needs a single spec file');
  const json = formatOf(DEPLOY, line) === 'json';
  const done: FileDeploy[] = [];
  // Each in turn; unless --keep-going, the first that does not end well stops the rest, which are not sent.
  for (const file of files) {
    const options: DeployOptions = {
      file,
      document: line.document,
      catalogPath: line.catalogPath,
      yes: line.values.yes,
      namesakes: line.namesakes,
      overwriteOutside: line.values['overwrite-outside'],
    };
    const prepared = await prepare('deploy', options, io);
    if ('exitCode' in prepared) done.push({ file, exitCode: prepared.exitCode });
    else {
      const report = await deployPrepared(prepared, options, wait, json ? textOnStderr(io) : io);
      done.push({ file, exitCode: report.exitCode, deployed: { prepared, report } });
    }
    if ((done.at(-1)?.exitCode ?? 0) !== 0 && !line.values['keep-going']) break;
  }
  const exitCode = done.find((d) => d.exitCode !== 0)?.exitCode ?? 0;
  // Afterwards, what deleted specs in the files' folders left behind: listed, never removed, exit status unchanged.
  const left = leftBehindIn('deploy', files, io);
  if (!json) {
    if (files.length > 1) io.err(summaryText(files, done));
    io.out(leftBehindText(left));
    return exitCode;
  }
  const orphans = left.orphans.map(orphanJson);
  const single = done.length === 1 && files.length === 1 ? done[0].deployed : undefined;
  if (single) io.out(`${JSON.stringify({ ...deployJson(single.prepared, single.report), orphans }, null, 2)}\n`);
  else io.out(`${JSON.stringify({ exitCode, files: files.map((file) => fileJson(file, done)), orphans }, null, 2)}\n`);
  return exitCode;
}

/** `deploy: 3 spec files: a.endpoint.yaml done; b.endpoint.yaml exit 1; c.endpoint.yaml not deployed (stopped)`. */
function summaryText(files: readonly string[], done: readonly FileDeploy[]): string {
  const said = files.map((file) => {
    const ended = done.find((d) => d.file === file);
    if (!ended) return `  ${file}: not deployed (stopped at the first failure; --keep-going deploys the rest)`;
    return `  ${file}: ${ended.exitCode === 0 ? 'done' : `exit ${String(ended.exitCode)}`}`;
  });
  return `endpoint-studio deploy: ${String(files.length)} spec files:\n${said.join('\n')}`;
}

function fileJson(file: string, done: readonly FileDeploy[]): Record<string, unknown> {
  const ended = done.find((d) => d.file === file);
  if (!ended) return { file, exitCode: null, skipped: true };
  return ended.deployed ? deployJson(ended.deployed.prepared, ended.deployed.report) : { file, exitCode: ended.exitCode };
}

/** --wait and what goes with it (the smoke request read and checked now, before anything is sent); or the exit status. */
async function waitOptions(values: DeployFlagValues, io: DeployIo): Promise<WaitOptions | undefined | number> {
  const rollbackOnFailure = values['rollback-on-failure'];
  if (!values.wait) {
    const stray = givenFlags(values, WAIT_FLAGS).map((flag) => `--${flag}`);
    if (stray.length === 0) return undefined;
    return usageError(usageOf('deploy'), io, `${stray.join(', ')} ${stray.length === 1 ? 'goes' : 'go'} with --wait`);
  }
  const limits = watchLimits(values);
  if (typeof limits === 'string') return usageError(usageOf('deploy'), io, limits);
  if (values.smoke === undefined) return { limits, rollbackOnFailure };
  const read = await readRequestFile(values.smoke);
  if (!read.ok) {
    io.err(`endpoint-studio deploy: --smoke ${values.smoke}: ${read.problems.join('; ')} (nothing was sent)`);
    return 2;
  }
  return { limits, smoke: read.request, rollbackOnFailure };
}

/** One document of a deploy: what was applied, and with --wait what followed. */
interface DocumentReport {
  readonly item: PlannedDocument;
  readonly exitCode: number;
  /** The endpoint it deployed to (known once applied, or when nothing needed applying). */
  readonly endpointId?: string;
  readonly applied?: { readonly action: ApplyAction; readonly verified: boolean; readonly bound: boolean };
  readonly failure?: string;
  readonly follow?: FollowReport;
}

interface DeployReport {
  readonly exitCode: number;
  readonly documents: readonly DocumentReport[];
}

/** Shows the plans, asks, applies each document and, with --wait, follows each endpoint's rollout. */
async function deployPrepared(
  prepared: Prepared,
  options: DeployOptions,
  wait: WaitOptions | undefined,
  io: DeployIo,
): Promise<DeployReport> {
  const untouched = (exitCode: number): DeployReport => ({ exitCode, documents: prepared.planned.map((item) => ({ item, exitCode })) });
  const adopted = await adoptNamesakes(prepared, 'deploy', options.namesakes, io);
  io.out(plansAsText(prepared));
  if (adopted !== undefined) return untouched(adopted);
  if (prepared.planned.some((p) => p.planned.plan.kind === 'refused')) {
    io.err('endpoint-studio deploy: the plan cannot be applied (see above); nothing was sent');
    return untouched(1);
  }
  const overwritten = prepared.planned.flatMap((p) => overwrittenOutside(p.planned.plan.threeWay).map((change) => change.path));
  if (overwritten.length > 0 && !options.overwriteOutside) {
    io.err(
      `endpoint-studio deploy: the plan overwrites changes made outside since the last deploy (${overwritten.join(', ')}; see above): to keep them, write the live values into the spec; to overwrite them, deploy with --overwrite-outside; nothing was sent`,
    );
    return untouched(OVERWRITES_OUTSIDE_EXIT);
  }
  const work = prepared.planned.filter((p) => needsApplying(p.planned.plan, p.planned.target));
  if (work.length > 0) {
    const declined = await confirmApply(
      {
        command: 'deploy',
        yes: options.yes,
        question: `Apply ${work.length === 1 ? 'this plan' : `these ${work.length} plans`}?`,
        ...(prepared.environment?.protected ? { protectedEnvironment: prepared.environment.name } : {}),
      },
      io,
    );
    if (declined !== undefined) return untouched(declined);
  }
  const documents: DocumentReport[] = [];
  const previous = new Map<PlannedDocument, number | NoPreviousRelease>();
  for (const item of prepared.planned) {
    if (wait) previous.set(item, await releaseBefore(prepared, item));
    if (work.includes(item)) documents.push(await applyDocument(prepared, item, io));
    else
      documents.push({
        item,
        exitCode: 0,
        ...(item.planned.plan.kind === 'unchanged' ? { endpointId: item.planned.plan.endpointId } : {}),
      });
  }
  if (!wait) return { exitCode: Math.max(0, ...documents.map((d) => d.exitCode)), documents };
  const signal = io.interruption?.();
  const followed: DocumentReport[] = [];
  for (const report of documents) {
    const { item, endpointId } = report;
    if (endpointId === undefined) {
      followed.push(report);
      continue;
    }
    const follow = await followDeployed(
      {
        client: prepared.client,
        endpointId,
        ref: refOf(prepared, item),
        prefix: heading(prepared, item),
        root: prepared.root,
        previous: previous.get(item) ?? 'unknown',
      },
      wait,
      signal,
      io,
    );
    followed.push({ ...report, exitCode: Math.max(report.exitCode, follow.exitCode), follow });
  }
  return { exitCode: Math.max(0, ...followed.map((d) => d.exitCode)), documents: followed };
}

/** The configuration version an update starts from, the release a failed deploy goes back to; or why there is none. */
async function releaseBefore(prepared: Prepared, item: PlannedDocument): Promise<number | NoPreviousRelease> {
  const { plan } = item.planned;
  if (plan.kind === 'create') return 'created';
  if (plan.kind !== 'update') return 'unchanged';
  try {
    return (await readRollout(prepared.client, plan.endpointId)).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The spec as commands said to the person name it: `specs/a.endpoint.yaml`, with `--document N` in a file of several. */
function refOf(prepared: Prepared, item: PlannedDocument): string {
  return prepared.planned.length > 1 || item.index > 0 ? `--document ${item.index} ${prepared.file}` : prepared.file;
}

/** `deploy --format json`: the file, its environment, the exit status and each document's plan, apply and follow-up. */
function deployJson(prepared: Prepared, report: DeployReport): Record<string, unknown> {
  return {
    file: prepared.file,
    environment: prepared.environment?.name ?? null,
    exitCode: report.exitCode,
    documents: report.documents.map((document) => ({
      document: document.item.index,
      plan: document.item.planned.plan.kind,
      ...outsideJson(document.item.planned.plan.threeWay),
      endpointId: document.endpointId ?? null,
      applied: document.applied ?? (document.failure !== undefined ? { failed: document.failure } : null),
      ...followJson(document.follow),
    })),
  };
}

/** What was changed outside since the last deploy, and what deploying does to each field: why exit status 6 refused. */
function outsideJson(three: ThreeWay | undefined): Record<string, unknown> {
  if (!three) return {};
  const changes = three.outside.map(({ path, deployed, live, spec, effect }) => ({ path, deployed, live, spec, effect }));
  return { outside: { deployedAt: three.deployedAt, changes, releases: three.releases, specEdits: three.specEdits } };
}

/** Applies one document's plan and reports it: exit status 0 when deployed, bound and verified, 1 otherwise. */
async function applyDocument(prepared: Prepared, item: PlannedDocument, io: DeployIo): Promise<DocumentReport> {
  const { plan, target, listed } = item.planned;
  const outcome = await applyDeploy({
    client: prepared.client,
    plan,
    target,
    document: { root: prepared.root, key: prepared.key, documentIndex: item.index },
    ...(listed ? { listed } : {}),
    onProgress: (_step, message) => {
      io.err(`  ${message}`);
    },
  });
  if (!outcome.ok) return reportFailure(prepared, item, outcome.applied.action, outcome.applied.failure, io);
  const result = outcome.applied;
  const what: Record<typeof result.action, string> = {
    created: 'created',
    reconciled: 'created (its answer was lost; found by listing, no duplicate made)',
    updated: 'updated',
    unchanged: 'unchanged',
  };
  io.out(`${heading(prepared, item)}${what[result.action]} endpoint ${result.endpoint.id} ${JSON.stringify(result.endpoint.name)}\n`);
  let bound = true;
  if (outcome.binding && !outcome.binding.saved) {
    bound = false;
    io.err(
      `endpoint-studio deploy: endpoint ${result.endpoint.id} was deployed but the binding was not saved (${outcome.binding.error}); until it is, a deploy of this spec would create another endpoint`,
    );
  } else if (outcome.binding && target.kind === 'adopted')
    io.out(`${heading(prepared, item)}bound the spec to endpoint ${result.endpoint.id}\n`);
  const verified = reportReadBack(
    { command: 'deploy', client: prepared.client, prefix: heading(prepared, item), wanted: 'the spec' },
    result,
    io,
  );
  return {
    item,
    exitCode: bound && verified ? 0 : 1,
    endpointId: result.endpoint.id,
    applied: { action: result.action, verified, bound },
  };
}

function reportFailure(prepared: Prepared, item: PlannedDocument, action: string, failure: ApplyFailure, io: DeployIo): DocumentReport {
  const { client } = prepared;
  const message = `${action} failed: ${client.redact(failure.message)}`;
  io.err(`endpoint-studio deploy: ${heading(prepared, item)}${message}`);
  for (const problem of failure.problems) {
    const position = positionOf(prepared.file, prepared.text, item.document, problem.segments);
    io.err(`${position}: error api ${problem.path}: ${client.redact(problem.message)}`);
  }
  if (failure.endpointGone) io.err('  the bound endpoint no longer exists; deploy again to create a new one');
  if (failure.outcomeUnknown) io.err('  the change may or may not have been made; run plan to see where the endpoint stands');
  return { item, exitCode: 1, failure: message };
}

/** `file:line:col` of a spec path, so terminals make an API problem clickable. */
function positionOf(file: string, text: string, document: SpecDocument, path: JsonPath): string {
  const span = locatePath(document.root, path, 'value', document.span);
  const before = text.slice(0, span.offset).split('\n');
  return `${file}:${before.length}:${before[before.length - 1].length + 1}`;
}
