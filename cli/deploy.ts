/**
 * `endpoint-studio plan|deploy|pull`: the deploy engine over files, for terminals and CI.
 * The service and key come from ENDPOINT_STUDIO_API_URL / ENDPOINT_STUDIO_API_KEY (or RUNPOD_API_KEY).
 * Exit codes: 0 done (or nothing to do), 1 invalid spec, refused plan or API problem,
 * 2 usage error, unreadable file or no key, 3 confirmation needed (deploy without --yes).
 */
import { createInterface } from 'node:readline/promises';
import type { Endpoint } from '../core/api';
import { applyPlan, type ApplyFailure, type ApplyResult } from '../core/deploy/apply';
import { updateBindings, withBinding } from '../core/deploy/bindings';
import { liveAsSpec, type Spec } from '../core/deploy/effective';
import { renderPlan, type DeploymentPlan } from '../core/deploy/plan';
import { renderChange } from '../core/deploy/render';
import { locatePath } from '../core/endpointSpec/locate';
import { serializeSpec } from '../core/endpointSpec/serialize';
import type { JsonPath, SpecDocument } from '../core/endpointSpec/tree';
import { readCommandLine, usageError } from './args';
import { prepare, type PlannedDocument, type Prepared } from './deployPrepare';
import { serviceClient, type ServiceIo } from './service';

export interface DeployIo extends ServiceIo {
  /** Asks a yes/no question; absent in a non-interactive run, where deploy needs --yes. */
  confirm?(question: string): Promise<boolean>;
}

export const DEPLOY_HELP = `Usage:
  endpoint-studio plan [--format text|json] [--document N] [--catalog FILE] <spec>
  endpoint-studio deploy [--yes] [--document N] [--catalog FILE] <spec>
  endpoint-studio pull [--format yaml|json] <endpointId>

plan    shows what a deploy would do: create, the fields an update changes, or nothing.
deploy  validates, plans, asks (or takes --yes), applies, reads the endpoint back and checks
        it, and records the endpoint in .endpoint-studio/deployments.json (commit it).
pull    prints a live endpoint's configuration as a spec.

--document N  only the Nth document (0-based) of a multi-document YAML file.
The service is $ENDPOINT_STUDIO_API_URL with the key in $ENDPOINT_STUDIO_API_KEY.

Exit status: 0 done, 1 invalid spec, refused plan or API problem, 2 usage error,
3 confirmation needed (run deploy with --yes when there is no terminal to ask).`;

type DeployCommand = 'plan' | 'deploy' | 'pull';

/** The three commands share one set of flags; each refuses those that are not its own. */
function commandLine(command: DeployCommand) {
  return {
    command,
    usage: DEPLOY_HELP,
    options: {
      yes: { type: 'boolean', short: 'y', default: false },
      format: { type: 'string' },
      document: { type: 'string' },
      catalog: { type: 'string' },
    },
    allowPositionals: true,
  } as const;
}

interface Options {
  /** The spec file (plan, deploy) or the endpoint id (pull). */
  readonly file: string;
  readonly format?: string;
  readonly document?: number;
  readonly yes: boolean;
  readonly catalogPath?: string;
}

/** The flags and the one spec or id, or the exit status after printing help or a usage error. */
function parseOptions(command: DeployCommand, args: string[], io: DeployIo): Options | number {
  const spec = commandLine(command);
  const line = readCommandLine(spec, args, io);
  if (typeof line === 'number') return line;
  const { yes, format, document, catalog } = line.values;
  if (document !== undefined && !/^\d+$/.test(document))
    return usageError(spec, io, `--document takes a document index (0, 1, ...); got: ${document || 'nothing'}`);
  const { positionals } = line;
  if (positionals.length === 0) return usageError(spec, io, `${command === 'pull' ? 'an endpoint id' : 'a spec file'} is needed`);
  if (positionals.length > 1) return usageError(spec, io, 'one at a time, please');
  return {
    file: positionals[0],
    format,
    document: document === undefined ? undefined : Number(document),
    yes,
    catalogPath: catalog ?? ((io.env ?? process.env).ENDPOINT_STUDIO_CATALOG_FILE || undefined),
  };
}

export async function runPlan(args: string[], io: DeployIo): Promise<number> {
  const options = parseOptions('plan', args, io);
  if (typeof options === 'number') return options;
  if (options.format !== undefined && options.format !== 'text' && options.format !== 'json')
    return usageError(commandLine('plan'), io, `--format takes text or json; got: ${options.format}`);
  const prepared = await prepare('plan', options, io);
  if (typeof prepared === 'number') return prepared;
  io.out(options.format === 'json' ? plansAsJson(prepared) : plansAsText(prepared));
  return prepared.planned.some((p) => p.plan.kind === 'refused') ? 1 : 0;
}

export async function runDeploy(args: string[], io: DeployIo): Promise<number> {
  const options = parseOptions('deploy', args, io);
  if (typeof options === 'number') return options;
  if (options.format !== undefined) return usageError(commandLine('deploy'), io, '--format is for plan and pull');
  const prepared = await prepare('deploy', options, io);
  if (typeof prepared === 'number') return prepared;
  io.out(plansAsText(prepared));
  if (prepared.planned.some((p) => p.plan.kind === 'refused')) {
    io.err('endpoint-studio deploy: the plan cannot be applied (see above); nothing was sent');
    return 1;
  }
  const work = prepared.planned.filter((p) => p.plan.kind !== 'unchanged');
  if (work.length === 0) return 0;
  if (!options.yes) {
    const declined = await askToApply(work.length, io);
    if (declined !== undefined) return declined;
  }
  let exitCode = 0;
  for (const item of work) exitCode = Math.max(exitCode, await applyDocument(prepared, item, io));
  return exitCode;
}

export async function runPull(args: string[], io: DeployIo): Promise<number> {
  const options = parseOptions('pull', args, io);
  if (typeof options === 'number') return options;
  const format = options.format ?? 'yaml';
  if (format !== 'yaml' && format !== 'json') return usageError(commandLine('pull'), io, `--format takes yaml or json; got: ${format}`);
  if (options.document !== undefined || options.yes)
    return usageError(commandLine('pull'), io, '--document and --yes are for plan and deploy');
  const client = serviceClient('pull', io, { announceRateLimits: true });
  if (typeof client === 'number') return client;
  try {
    const live = await client.serverless.get(options.file);
    const templateId = (live as unknown as Spec).templateId;
    const notes = [`endpoint ${live.id}, read ${new Date().toISOString()}`];
    if (typeof templateId === 'string') notes.push(`created from template ${templateId}; its settings are written out below`);
    io.out(`${serializeSpec(liveAsSpec(live), format, notes)}\n`);
    return 0;
  } catch (error) {
    io.err(`endpoint-studio pull: ${client.redact(error instanceof Error ? error.message : String(error))}`);
    return 1;
  }
}

/** A yes/no question on the terminal, for `DeployIo.confirm` when stdin and stdout are TTYs. */
export async function terminalConfirm(question: string): Promise<boolean> {
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await prompt.question(`${question} [y/N] `)).trim());
  } finally {
    prompt.close();
  }
}

const heading = (prepared: Prepared, item: PlannedDocument): string =>
  prepared.planned.length > 1 || item.index > 0 ? `${prepared.key} (document ${item.index}): ` : '';

function plansAsText(prepared: Prepared): string {
  return prepared.planned.map((item) => `${heading(prepared, item)}${renderPlan(item.plan, { catalog: prepared.prices })}`).join('');
}

function plansAsJson(prepared: Prepared): string {
  const entries = prepared.planned.map((p) => ({ file: prepared.key, document: p.index, ...withoutSpec(p.plan) }));
  return `${JSON.stringify(entries, null, 2)}\n`;
}

function withoutSpec(plan: DeploymentPlan): Record<string, unknown> {
  const { spec: _spec, ...rest } = plan;
  return rest;
}

/** Undefined when the person said yes; otherwise exit status 3, after saying why nothing was applied. */
async function askToApply(plans: number, io: DeployIo): Promise<3 | undefined> {
  if (!io.confirm) {
    io.err('endpoint-studio deploy: not applied: confirm with --yes (there is no terminal to ask)');
    return 3;
  }
  if (await io.confirm(`Apply ${plans === 1 ? 'this plan' : `these ${plans} plans`}?`)) return undefined;
  io.err('endpoint-studio deploy: not applied');
  return 3;
}

/** Applies one document's plan and reports it: 0 when deployed, bound and verified, 1 otherwise. */
async function applyDocument(prepared: Prepared, item: PlannedDocument, io: DeployIo): Promise<number> {
  const result = await applyPlan(prepared.client, item.plan, {
    ...(item.existingIds ? { existingIds: item.existingIds } : {}),
    onProgress: (_step, message) => {
      io.err(`  ${message}`);
    },
  });
  if (!result.ok) return reportFailure(prepared, item, result.action, result.failure, io);
  const what: Record<typeof result.action, string> = {
    created: 'created',
    reconciled: 'created (its answer was lost; found by listing, no duplicate made)',
    updated: 'updated',
    unchanged: 'unchanged',
  };
  io.out(`${heading(prepared, item)}${what[result.action]} endpoint ${result.endpoint.id} ${JSON.stringify(result.endpoint.name)}\n`);
  const bound = saveBinding(prepared, item, result.endpoint, io);
  const verified = reportVerification(prepared, item, result, io);
  return bound && verified ? 0 : 1;
}

function reportFailure(prepared: Prepared, item: PlannedDocument, action: string, failure: ApplyFailure, io: DeployIo): 1 {
  const { client } = prepared;
  io.err(`endpoint-studio deploy: ${heading(prepared, item)}${action} failed: ${client.redact(failure.message)}`);
  for (const problem of failure.problems) {
    const position = positionOf(prepared.file, prepared.text, item.document, problem.segments);
    io.err(`${position}: error api ${problem.path}: ${client.redact(problem.message)}`);
  }
  if (failure.endpointGone) io.err('  the bound endpoint no longer exists; deploy again to create a new one');
  if (failure.outcomeUnknown) io.err('  the change may or may not have been made; run plan to see where the endpoint stands');
  return 1;
}

/** Records the endpoint for the spec document; false (said on stderr) when the binding file cannot be written. */
function saveBinding(prepared: Prepared, item: PlannedDocument, endpoint: Endpoint, io: DeployIo): boolean {
  const saved = updateBindings(prepared.root, (store) =>
    withBinding(store, prepared.key, item.index, {
      endpointId: endpoint.id,
      endpointName: endpoint.name,
      deployedAt: new Date().toISOString(),
    }),
  );
  if (saved.ok) return true;
  io.err(
    `endpoint-studio deploy: endpoint ${endpoint.id} was deployed but the binding was not saved (${saved.error}); until it is, a deploy of this spec would create another endpoint`,
  );
  return false;
}

/** Whether the endpoint read back after the change matches the spec, said either way. */
function reportVerification(prepared: Prepared, item: PlannedDocument, result: ApplyResult & { ok: true }, io: DeployIo): boolean {
  if (result.readBackError) {
    io.err(
      `endpoint-studio deploy: the change was made but reading the endpoint back failed, so it is not verified: ${prepared.client.redact(result.readBackError)}`,
    );
    return false;
  }
  if (!result.verified) {
    io.err(
      `endpoint-studio deploy: endpoint ${result.endpoint.id} does not match the spec after the deploy (before = live, after = spec):`,
    );
    for (const change of result.differences) io.err(`  ${renderChange(change)}`);
    return false;
  }
  io.out(`${heading(prepared, item)}verified: the endpoint read back matches the spec\n`);
  return true;
}

/** `file:line:col` of a spec path, so terminals make an API problem clickable. */
function positionOf(file: string, text: string, document: SpecDocument, path: JsonPath): string {
  const span = locatePath(document.root, path, 'value', document.span);
  const before = text.slice(0, span.offset).split('\n');
  return `${file}:${before.length}:${before[before.length - 1].length + 1}`;
}
