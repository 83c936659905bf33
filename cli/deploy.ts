/**
 * `endpoint-studio plan|deploy|pull|bind`: the operations layer over files, for terminals and CI. This
 * module asks, renders and reports; checking, planning, applying and binding are `core/operations`.
 * The service and key come from ENDPOINT_STUDIO_API_URL / ENDPOINT_STUDIO_API_KEY (or RUNPOD_API_KEY); an
 * environment's overlay (--env, or given directly) deploys on its own key variable, and a protected one asks
 * for its name typed (or, with no terminal, --yes).
 * `deploy --wait` then follows each endpoint's rollout (cli/deployWait.ts): a smoke job, a rollback on failure.
 * Exit codes: 0 done (or nothing to do), 1 invalid spec, refused plan, unbound namesake or API problem,
 * 2 usage error, unreadable file or no key, 3 confirmation needed (deploy without --yes); with --wait also
 * 4 rollout stalled, 5 rollout failed or smoke check failed, 130 stopped watching with Ctrl-C (cli/rolloutReport.ts).
 */
import { catalogFileFromEnvironment } from '../core/api/config';
import type { ApplyAction, ApplyFailure } from '../core/deploy/apply';
import type { Spec } from '../core/deploy/effective';
import { renderChange } from '../core/deploy/render';
import { locatePath } from '../core/endpointSpec/locate';
import type { JsonPath, SpecDocument } from '../core/endpointSpec/tree';
import {
  applyDeploy,
  bindSpec,
  checkSpec,
  ENVIRONMENT_NAME,
  filesForEnvironment,
  needsApplying,
  pullSpec,
  readRollout,
  readSpecBindings,
  specFileOnDisk,
  specForEnvironment,
  type NamesakePolicy,
} from '../core/operations';
import { specFormatOf } from '../core/protocol';
import { confirmApply, reportReadBack, type DeployIo } from './applying';
import { readCommandLine, usageError } from './args';
import { adoptNamesakes, heading, plansAsText, prepare, type PlannedDocument, type Prepared } from './deployPrepare';
import { followDeployed, followJson, type FollowReport, type NoPreviousRelease, type WaitOptions } from './deployWait';
import { readRequestFile } from './jobRequest';
import { textOnStderr, WATCH_EXIT_HELP, WATCH_FLAGS, WATCH_FLAGS_HELP, watchLimits } from './rolloutReport';
import { isPlanFormat, planFiles } from './plan';
import { expandInputs } from './validate';
import { readSpecFile } from './inputs';
import { serviceClient } from './service';
import { reportPath } from './validateReport';

export { terminalAsk, terminalConfirm, type DeployIo } from './applying';

export const DEPLOY_HELP = `Usage:
  endpoint-studio plan [--format text|json|markdown] [--env ENV] [--document N] [--catalog FILE] [--adopt] <specs...>
  endpoint-studio deploy [--yes] [--env ENV] [--document N] [--catalog FILE] [--adopt | --create-new]
                         [--wait [--stall-after S] [--fail-after S] [--smoke FILE] [--rollback-on-failure]]
                         [--format text|json] <spec>
  endpoint-studio pull [--format yaml|json] <endpointId>
  endpoint-studio bind [--document N] <spec> <endpointId>

plan    shows what a deploy would do: create, the fields an update changes, or nothing,
        for every spec file, folder or glob given. --format markdown writes a section per
        document (for a pull request's job summary); json one array, one entry per document
        or per file that could not be planned.
deploy  validates, plans, asks (or takes --yes), applies, reads the endpoint back and checks
        it, and records the endpoint in .endpoint-studio/deployments.json (commit it).
pull    prints a live endpoint's configuration as a spec.
bind    records that a spec describes an existing endpoint, without deploying: the next
        deploy updates it.

An unbound spec whose name is already taken by live endpoints is not deployed: deploy
exits 1 and names them. --adopt binds the spec to its one namesake and updates it to the
spec; --create-new creates another endpoint of that name on purpose.

--env ENV     the ENV environment: its overlays (<base>.ENV.endpoint.yaml) among the files
              and folders given, or a base's overlay of that environment. An overlay given
              without --env is planned as its environment. An environment's key is read
              from its own variable only: ENDPOINT_STUDIO_API_KEY_<ENV>, or the keyVariable
              that .endpoint-studio/environments.yaml names. A protected environment asks
              for its name typed on a terminal; with no terminal, --yes.
--document N  only the Nth document (0-based) of a multi-document YAML file.
The service is $ENDPOINT_STUDIO_API_URL with the key in $ENDPOINT_STUDIO_API_KEY.

deploy --wait then watches each endpoint's rollout, a line on stderr for each change,
until every worker runs the new release (an endpoint already matching the spec is
watched too):
${WATCH_FLAGS_HELP}
--smoke FILE     once rolled out, run the job request FILE ({"input": ...}, as run sends
                 it) on the endpoint: it passes when it completes on the new release.
--rollback-on-failure
                 when the rollout stalls or fails, or the smoke job fails, go back to the
                 release before this deploy (as endpoint-studio rollback does, without
                 asking) and watch that rollout; the exit status still says the failure.
                 Without it, the rollback command to run is printed.
--format F       text (default), or json: one JSON object on stdout with each document's
                 plan, apply, rollout, smoke check and rollback; the rest goes to stderr.

Exit status: 0 done, 1 invalid spec, refused plan, unbound namesake or API problem,
2 usage error, 3 confirmation needed (run deploy with --yes when there is no terminal to ask);
with --wait also
${WATCH_EXIT_HELP}`;

type DeployCommand = 'plan' | 'deploy' | 'pull' | 'bind';

/** The commands share one set of flags; each refuses those that are not its own. */
function commandLine(command: DeployCommand) {
  return {
    command,
    usage: DEPLOY_HELP,
    options: {
      yes: { type: 'boolean', short: 'y', default: false },
      format: { type: 'string' },
      document: { type: 'string' },
      catalog: { type: 'string' },
      adopt: { type: 'boolean', default: false },
      'create-new': { type: 'boolean', default: false },
      env: { type: 'string' },
      wait: { type: 'boolean', default: false },
      smoke: { type: 'string' },
      'rollback-on-failure': { type: 'boolean', default: false },
      ...WATCH_FLAGS,
    },
    allowPositionals: true,
  } as const;
}

interface Options {
  /** The spec file (plan, deploy, bind) or the endpoint id (pull). */
  readonly file: string;
  /** Every file, folder or glob given (plan). */
  readonly inputs: readonly string[];
  /** The endpoint id of `bind`. */
  readonly endpointId?: string;
  readonly format?: string;
  readonly document?: number;
  readonly yes: boolean;
  readonly catalogPath?: string;
  readonly namesakes: NamesakePolicy;
  /** The environment asked for with --env. */
  readonly environment?: string;
  /** deploy --wait and the flags that go with it, as given. */
  readonly wait: boolean;
  readonly smoke?: string;
  readonly rollbackOnFailure: boolean;
  readonly stallAfter?: string;
  readonly failAfter?: string;
}

/** The flags each command takes (plan takes --yes and pull --catalog and ignores them, as they always have). */
const FLAGS_OF: Record<DeployCommand, readonly string[]> = {
  plan: ['yes', 'format', 'document', 'catalog', 'adopt', 'env'],
  deploy: [
    'yes',
    'document',
    'catalog',
    'adopt',
    'create-new',
    'env',
    'format',
    'wait',
    'smoke',
    'rollback-on-failure',
    'stall-after',
    'fail-after',
  ],
  pull: ['format', 'catalog'],
  bind: ['document'],
};

/** Why a flag given is not this command's, or undefined when all are. */
function foreignFlag(command: DeployCommand, given: Readonly<Record<string, boolean>>): string | undefined {
  if (command === 'pull' && (given.document || given.yes)) return '--document and --yes are for plan and deploy';
  const flag = Object.keys(given).find((name) => given[name] && !FLAGS_OF[command].includes(name));
  return flag === undefined ? undefined : `--${flag} is not an option of ${command}`;
}

/** The flags and the spec or id, or the exit status after printing help or a usage error. */
function parseOptions(command: DeployCommand, args: string[], io: DeployIo): Options | number {
  const spec = commandLine(command);
  const line = readCommandLine(spec, args, io);
  if (typeof line === 'number') return line;
  const { yes, format, document, catalog, adopt, env, wait, smoke } = line.values;
  const createNew = line.values['create-new'];
  const rollbackOnFailure = line.values['rollback-on-failure'];
  const stallAfter = line.values['stall-after'];
  const failAfter = line.values['fail-after'];
  const given = {
    yes,
    format: format !== undefined,
    document: document !== undefined,
    catalog: catalog !== undefined,
    adopt,
    'create-new': createNew,
    env: env !== undefined,
    wait,
    smoke: smoke !== undefined,
    'rollback-on-failure': rollbackOnFailure,
    'stall-after': stallAfter !== undefined,
    'fail-after': failAfter !== undefined,
  };
  const foreign = foreignFlag(command, given);
  if (foreign !== undefined) return usageError(spec, io, foreign);
  if (adopt && createNew) return usageError(spec, io, '--adopt and --create-new exclude each other');
  if (env !== undefined && !ENVIRONMENT_NAME.test(env))
    return usageError(
      spec,
      io,
      `--env takes an environment name (letters, digits, - and _), as in <base>.<env>.endpoint.yaml; got: ${env || 'nothing'}`,
    );
  if (document !== undefined && !/^\d+$/.test(document))
    return usageError(spec, io, `--document takes a document index (0, 1, ...); got: ${document || 'nothing'}`);
  const { positionals } = line;
  const wanted = command === 'bind' ? 2 : 1;
  if (positionals.length < wanted) return usageError(spec, io, neededArguments(command));
  // plan takes every file, folder or glob given; the others one thing at a time.
  if (positionals.length > wanted && command !== 'plan')
    return usageError(spec, io, command === 'bind' ? 'one spec and one endpoint id, please' : 'one at a time, please');
  return {
    file: positionals[0],
    inputs: positionals,
    endpointId: positionals.at(1),
    format,
    document: document === undefined ? undefined : Number(document),
    yes,
    catalogPath: catalog ?? catalogFileFromEnvironment(io.env ?? process.env),
    namesakes: adopt ? 'adopt' : createNew ? 'create-new' : 'refuse',
    ...(env !== undefined ? { environment: env } : {}),
    wait,
    ...(smoke !== undefined ? { smoke } : {}),
    rollbackOnFailure,
    ...(stallAfter !== undefined ? { stallAfter } : {}),
    ...(failAfter !== undefined ? { failAfter } : {}),
  };
}

function neededArguments(command: DeployCommand): string {
  if (command === 'pull') return 'an endpoint id is needed';
  if (command === 'bind') return 'a spec file and an endpoint id are needed';
  return 'a spec file is needed';
}

export async function runPlan(args: string[], io: DeployIo): Promise<number> {
  const options = parseOptions('plan', args, io);
  if (typeof options === 'number') return options;
  const format = options.format ?? 'text';
  if (!isPlanFormat(format)) return usageError(commandLine('plan'), io, `--format takes text, json or markdown; got: ${format}`);
  const expanded = await expandInputs(options.inputs, io);
  if (expanded === undefined) return 2;
  const files = options.environment === undefined ? expanded : environmentFiles('plan', options, expanded, io);
  if (files === undefined) return 2;
  if (options.document !== undefined && files.length > 1) return usageError(commandLine('plan'), io, '--document needs a single spec file');
  return planFiles({ ...options, format, files }, io);
}

/**
 * The files of `options.environment` among those given: its overlays, and each base's overlay of it. A file
 * named directly that has none is an error; a folder or glob just contributes the overlays it holds.
 */
function environmentFiles(command: DeployCommand, options: Options, files: readonly string[], io: DeployIo): string[] | undefined {
  const environment = options.environment ?? '';
  for (const named of options.inputs.filter((input) => files.includes(input))) {
    const picked = specForEnvironment(named, environment);
    if (!picked.ok) {
      io.err(`endpoint-studio ${command}: ${picked.message}`);
      return undefined;
    }
  }
  const chosen = filesForEnvironment(files, environment).map((path) => reportPath(process.cwd(), path));
  if (chosen.length === 0)
    io.err(`endpoint-studio ${command}: no ${environment} overlay (<base>.${environment}.endpoint.yaml) among the files given`);
  return chosen.length === 0 ? undefined : chosen;
}

export async function runDeploy(args: string[], io: DeployIo): Promise<number> {
  const parsed = parseOptions('deploy', args, io);
  if (typeof parsed === 'number') return parsed;
  const format = parsed.format ?? 'text';
  if (format !== 'text' && format !== 'json') return usageError(commandLine('deploy'), io, `--format takes text or json; got: ${format}`);
  const wait = await waitOptions(parsed, io);
  if (typeof wait === 'number') return wait;
  const picked = parsed.environment === undefined ? undefined : environmentFiles('deploy', parsed, [parsed.file], io);
  if (picked === undefined && parsed.environment !== undefined) return 2;
  const options = picked ? { ...parsed, file: picked[0] } : parsed;
  const prepared = await prepare('deploy', options, io);
  if ('exitCode' in prepared) return prepared.exitCode;
  if (format === 'text') return (await deployPrepared(prepared, options, wait, io)).exitCode;
  const report = await deployPrepared(prepared, options, wait, textOnStderr(io));
  io.out(`${JSON.stringify(deployJson(prepared, report), null, 2)}\n`);
  return report.exitCode;
}

/** --wait and what goes with it (the smoke request read and checked now, before anything is sent); or the exit status. */
async function waitOptions(options: Options, io: DeployIo): Promise<WaitOptions | undefined | number> {
  const spec = commandLine('deploy');
  if (!options.wait) {
    const stray = [
      options.smoke !== undefined && '--smoke',
      options.rollbackOnFailure && '--rollback-on-failure',
      options.stallAfter !== undefined && '--stall-after',
      options.failAfter !== undefined && '--fail-after',
    ].filter((flag) => flag !== false);
    return stray.length === 0 ? undefined : usageError(spec, io, `${stray.join(', ')} ${stray.length === 1 ? 'goes' : 'go'} with --wait`);
  }
  const limits = watchLimits({ 'stall-after': options.stallAfter, 'fail-after': options.failAfter });
  if (typeof limits === 'string') return usageError(spec, io, limits);
  if (options.smoke === undefined) return { limits, rollbackOnFailure: options.rollbackOnFailure };
  const read = await readRequestFile(options.smoke);
  if (!read.ok) {
    io.err(`endpoint-studio deploy: --smoke ${options.smoke}: ${read.problems.join('; ')} (nothing was sent)`);
    return 2;
  }
  return { limits, smoke: read.request, rollbackOnFailure: options.rollbackOnFailure };
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
async function deployPrepared(prepared: Prepared, options: Options, wait: WaitOptions | undefined, io: DeployIo): Promise<DeployReport> {
  const untouched = (exitCode: number): DeployReport => ({ exitCode, documents: prepared.planned.map((item) => ({ item, exitCode })) });
  const adopted = await adoptNamesakes(prepared, 'deploy', options.namesakes, io);
  io.out(plansAsText(prepared));
  if (adopted !== undefined) return untouched(adopted);
  if (prepared.planned.some((p) => p.planned.plan.kind === 'refused')) {
    io.err('endpoint-studio deploy: the plan cannot be applied (see above); nothing was sent');
    return untouched(1);
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
      endpointId: document.endpointId ?? null,
      applied: document.applied ?? (document.failure !== undefined ? { failed: document.failure } : null),
      ...followJson(document.follow),
    })),
  };
}

export async function runPull(args: string[], io: DeployIo): Promise<number> {
  const options = parseOptions('pull', args, io);
  if (typeof options === 'number') return options;
  const format = options.format ?? 'yaml';
  if (format !== 'yaml' && format !== 'json') return usageError(commandLine('pull'), io, `--format takes yaml or json; got: ${format}`);
  const client = serviceClient('pull', io, { announceRateLimits: true });
  if (typeof client === 'number') return client;
  const pulled = await pullSpec({ client, endpointId: options.file, format, withHeader: true });
  if (!pulled.ok) {
    io.err(`endpoint-studio pull: ${pulled.message}`);
    return 1;
  }
  io.out(`${pulled.text}\n`);
  return 0;
}

export async function runBind(args: string[], io: DeployIo): Promise<number> {
  const options = parseOptions('bind', args, io);
  if (typeof options === 'number') return options;
  const { file, endpointId = '' } = options;
  const documentIndex = options.document ?? 0;
  const text = await readSpecFile(file, 'bind', io);
  if (text === undefined) return 2;
  const checked = await checkSpec({
    text,
    format: specFormatOf(file),
    catalog: { kind: 'none' },
    file: specFileOnDisk(file, process.cwd()),
  });
  const document = checked.documents.at(documentIndex);
  if (!document?.isSpec) {
    io.err(`endpoint-studio bind: ${file} has no spec document ${documentIndex}`);
    return 2;
  }
  const client = serviceClient('bind', io, { announceRateLimits: true });
  if (typeof client === 'number') return client;
  const bindings = readSpecBindings(file);
  if (!bindings.ok) {
    io.err(`endpoint-studio bind: ${bindings.error}`);
    return 1;
  }
  const ref = { ...bindings.location, documentIndex };
  if (document.body === undefined) {
    io.err(`endpoint-studio bind: ${file} has errors (its base cannot be merged); run endpoint-studio validate ${file}`);
    return 1;
  }
  const bound = await bindSpec({ client, document: ref, endpointId, spec: document.body as Spec });
  if (!bound.ok) {
    io.err(`endpoint-studio bind: ${bound.message}`);
    return 1;
  }
  const previous = bindings.binding(documentIndex);
  const replaced = previous && previous.endpointId !== endpointId ? ` (was ${previous.endpointId})` : '';
  io.out(
    `bound ${ref.key} (document ${documentIndex}) to endpoint ${bound.endpoint.id} ${JSON.stringify(bound.endpoint.name)}${replaced}\n`,
  );
  if (bound.drift.length === 0) io.out('the endpoint matches the spec\n');
  else {
    io.out(
      `the endpoint differs from the spec in ${bound.drift.length} field(s) (before = live, after = spec); deploy makes the update:\n`,
    );
    for (const change of bound.drift) io.out(`  ${renderChange(change)}\n`);
  }
  return 0;
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
