/**
 * `endpoint-studio plan|deploy|pull`: the deploy engine over files, for terminals and CI.
 * The service and key come from ENDPOINT_STUDIO_API_URL / ENDPOINT_STUDIO_API_KEY (or RUNPOD_API_KEY).
 * Exit codes: 0 done (or nothing to do), 1 invalid spec, refused plan or API problem,
 * 2 usage error, unreadable file or no key, 3 confirmation needed (deploy without --yes).
 */
import { createInterface } from 'node:readline/promises';
import { configFromEnvironment, createApiClient, type ApiClient, type Environment } from '../core/api';
import { applyPlan, type ApplyResult } from '../core/deploy/apply';
import {
  findWorkspaceRoot,
  getBinding,
  readBindings,
  repairBinding,
  specKey,
  updateBindings,
  withBinding,
  type BindingStore,
} from '../core/deploy/bindings';
import { renderChange } from '../core/deploy/render';
import { liveAsSpec, type Spec } from '../core/deploy/effective';
import { planDeployment, renderPlan, type DeploymentPlan } from '../core/deploy/plan';
import { checkSpecText } from '../core/endpointSpec/check';
import { locatePath } from '../core/endpointSpec/locate';
import { formatForFileName } from '../core/endpointSpec/parse';
import { serializeSpec } from '../core/endpointSpec/serialize';
import type { JsonPath, SpecDocument } from '../core/endpointSpec/tree';
import { diagnosticLine, loadCatalogOption, readSpecFile, type CliIo } from './inputs';
import { readPriceCatalog } from '../core/billing/priceCatalog';
import type { Catalog } from '../core/endpointSpec/catalog/catalog';

export interface DeployIo extends CliIo {
  /** Asks a yes/no question; absent in a non-interactive run, where deploy needs --yes. */
  confirm?(question: string): Promise<boolean>;
  /** Defaults to `process.env`. */
  env?: Environment;
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

interface Options {
  file?: string;
  format?: string;
  document?: number;
  yes: boolean;
  catalogPath?: string;
}

function parseOptions(command: string, args: string[], io: DeployIo): Options | number {
  const options: Options = { yes: false, catalogPath: (io.env ?? process.env).ENDPOINT_STUDIO_CATALOG_FILE || undefined };
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string | undefined => inline ?? args[++i];
    if (flag === '--help' || flag === '-h') {
      io.out(`${DEPLOY_HELP}\n`);
      return 0;
    } else if (flag === '--yes' || flag === '-y') options.yes = true;
    else if (flag === '--format') options.format = value();
    else if (flag === '--catalog') options.catalogPath = value();
    else if (flag === '--document') {
      const text = value() ?? '';
      if (!/^\d+$/.test(text)) return usage(io, command, `--document takes a document index (0, 1, ...); got: ${text || 'nothing'}`);
      options.document = Number(text);
    } else if (arg.startsWith('-')) return usage(io, command, `unknown option: ${arg}`);
    else positional.push(arg);
  }
  if (positional.length !== 1)
    return usage(
      io,
      command,
      positional.length === 0 ? `${command === 'pull' ? 'an endpoint id' : 'a spec file'} is needed` : 'one at a time, please',
    );
  options.file = positional[0];
  return options;
}

function usage(io: DeployIo, command: string, problem: string): number {
  io.err(`endpoint-studio ${command}: ${problem}\n\n${DEPLOY_HELP}`);
  return 2;
}

function clientFor(io: DeployIo, command: string): ApiClient | number {
  const config = configFromEnvironment(io.env ?? process.env);
  if (!config.apiKey) {
    io.err(`endpoint-studio ${command}: no API key: set ENDPOINT_STUDIO_API_KEY (or RUNPOD_API_KEY)`);
    return 2;
  }
  try {
    return createApiClient({
      ...config,
      userAgent: 'endpoint-studio-cli',
      // A wait the service asked for (429) is said, so a pause never looks like a hang.
      onRetry: (n) => {
        if (n.reason === 'rateLimited')
          io.err(`endpoint-studio ${command}: rate limited on ${n.method} ${n.path}; retrying in ${Math.ceil(n.waitMs / 1000)}s`);
      },
    });
  } catch (error) {
    io.err(`endpoint-studio ${command}: ${(error as Error).message}`);
    return 2;
  }
}

/** One spec document with what the engine decided for it. */
interface PlannedDocument {
  readonly index: number;
  readonly document: SpecDocument;
  readonly plan: DeploymentPlan;
  /** Existing endpoint ids, listed before a create so a lost answer is never confused with them. */
  readonly existingIds?: string[];
}

interface Prepared {
  readonly file: string;
  /** The text that was planned: problems are placed in it, not in a file changed since. */
  readonly text: string;
  readonly root: string;
  readonly key: string;
  readonly client: ApiClient;
  readonly planned: PlannedDocument[];
  /** Prices for the plan's always-on cost line: the --catalog file, else the service's catalog. */
  readonly prices?: Catalog;
}

/** Everything `plan` and `deploy` share: read, validate, find the bindings, look the endpoints up, plan. */
async function prepare(command: string, options: Options, io: DeployIo): Promise<Prepared | number> {
  const file = options.file!;
  const catalog = loadCatalogOption(options.catalogPath, command, io);
  if (catalog === false) return 2;
  const text = await readSpecFile(file, command, io);
  if (text === undefined) return 2;
  const checked = checkSpecText(text, formatForFileName(file), 'create', catalog ? { catalog } : {});
  const wanted = checked.documents
    .map((document, index) => ({ document, index }))
    .filter(({ document, index }) => (options.document === undefined || options.document === index) && isSpecDocument(document));
  // Text that could not be read as a spec at all (a syntax error, nesting too deep) says why.
  const unreadable = wanted.length === 0 && options.document === undefined ? checked.diagnostics.filter((d) => d.severity === 'error') : [];
  if (unreadable.length > 0) {
    io.err(unreadable.map((d) => diagnosticLine(file, d)).join('\n'));
    io.err(`endpoint-studio ${command}: ${file} has errors; fix them first (nothing was sent)`);
    return 1;
  }
  if (wanted.length === 0) {
    io.err(
      `endpoint-studio ${command}: ${options.document !== undefined ? `${file} has no document ${options.document}` : `${file} holds no spec`}`,
    );
    return options.document !== undefined ? 2 : 1;
  }
  const diagnostics = checked.diagnostics.filter((d) => wanted.some((w) => w.index === d.documentIndex));
  if (diagnostics.length > 0) io.err(diagnostics.map((d) => diagnosticLine(file, d)).join('\n'));
  if (diagnostics.some((d) => d.severity === 'error')) {
    io.err(`endpoint-studio ${command}: ${file} has errors; fix them first (nothing was sent)`);
    return 1;
  }

  const client = clientFor(io, command);
  if (typeof client === 'number') return client;
  const root = findWorkspaceRoot(file);
  const key = specKey(root, file);
  const bindings = readBindings(root);
  if (!bindings.ok) {
    io.err(`endpoint-studio ${command}: ${bindings.error}`);
    return 1;
  }
  const planned: PlannedDocument[] = [];
  let listed: { id: string; name: string }[] | undefined;
  try {
    for (const { document, index } of wanted) {
      const spec = document.data as Spec;
      const live = await boundEndpoint(client, bindings.store, key, index, io);
      if (live === 'error') return 1;
      let plan = planDeployment(spec, live);
      if (plan.kind === 'create') {
        listed ??= (await client.serverless.list()).map((e) => ({ id: e.id, name: e.name }));
        const namesakes = listed.filter((e) => e.name === spec.name).map((e) => e.id);
        if (namesakes.length > 0)
          plan = {
            ...plan,
            notes: [
              ...plan.notes,
              `an endpoint named ${JSON.stringify(spec.name)} already exists (${namesakes.join(', ')}) but this spec is not bound to it; deploying creates another one`,
            ],
          };
      }
      planned.push({ index, document, plan, ...(plan.kind === 'create' ? { existingIds: listed!.map((e) => e.id) } : {}) });
    }
  } catch (error) {
    io.err(`endpoint-studio ${command}: ${client.redact((error as Error).message)}`);
    return 1;
  }
  return { file, text, root, key, client, planned, prices: catalog || (await readPriceCatalog(client)) };
}

/** The endpoint a document is bound to; `undefined` when unbound or deleted elsewhere (so the plan is a create). */
async function boundEndpoint(
  client: ApiClient,
  store: BindingStore,
  key: string,
  index: number,
  io: DeployIo,
): Promise<Spec | undefined | 'error'> {
  const binding = getBinding(store, key, index);
  if (!binding) return undefined;
  const check = await repairBinding(client, binding);
  if (check.status === 'bound') return check.endpoint as unknown as Spec;
  if (check.status === 'missing') {
    io.err(
      `endpoint-studio: ${key} (document ${index}) was bound to endpoint ${binding.endpointId}, which no longer exists; a deploy creates a new one`,
    );
    return undefined;
  }
  io.err(`endpoint-studio: cannot read endpoint ${binding.endpointId}: ${client.redact(check.error.message)}`);
  return 'error';
}

function isSpecDocument(document: SpecDocument): boolean {
  return !(document.data == null && (!document.root || (document.root.kind === 'scalar' && document.root.value === null)));
}

/** `file:line:col` of a spec path, so terminals make an API problem clickable. */
function positionOf(file: string, text: string, document: SpecDocument, path: JsonPath): string {
  const span = locatePath(document.root, path, 'value', document.span);
  const before = text.slice(0, span.offset).split('\n');
  return `${file}:${before.length}:${before[before.length - 1].length + 1}`;
}

const heading = (prepared: Prepared, item: PlannedDocument): string =>
  prepared.planned.length > 1 || item.index > 0 ? `${prepared.key} (document ${item.index}): ` : '';

export async function runPlan(args: string[], io: DeployIo): Promise<number> {
  const options = parseOptions('plan', args, io);
  if (typeof options === 'number') return options;
  if (options.format !== undefined && options.format !== 'text' && options.format !== 'json')
    return usage(io, 'plan', `--format takes text or json; got: ${options.format}`);
  const prepared = await prepare('plan', options, io);
  if (typeof prepared === 'number') return prepared;
  if (options.format === 'json') {
    io.out(
      `${JSON.stringify(
        prepared.planned.map((p) => ({ file: prepared.key, document: p.index, ...withoutSpec(p.plan) })),
        null,
        2,
      )}\n`,
    );
  } else {
    for (const item of prepared.planned) io.out(`${heading(prepared, item)}${renderPlan(item.plan, { catalog: prepared.prices })}`);
  }
  return prepared.planned.some((p) => p.plan.kind === 'refused') ? 1 : 0;
}

function withoutSpec(plan: DeploymentPlan): Record<string, unknown> {
  const { spec: _spec, ...rest } = plan;
  return rest;
}

export async function runDeploy(args: string[], io: DeployIo): Promise<number> {
  const options = parseOptions('deploy', args, io);
  if (typeof options === 'number') return options;
  if (options.format !== undefined) return usage(io, 'deploy', '--format is for plan and pull');
  const prepared = await prepare('deploy', options, io);
  if (typeof prepared === 'number') return prepared;
  for (const item of prepared.planned) io.out(`${heading(prepared, item)}${renderPlan(item.plan, { catalog: prepared.prices })}`);
  if (prepared.planned.some((p) => p.plan.kind === 'refused')) {
    io.err('endpoint-studio deploy: the plan cannot be applied (see above); nothing was sent');
    return 1;
  }
  const work = prepared.planned.filter((p) => p.plan.kind !== 'unchanged');
  if (work.length === 0) return 0;
  if (!options.yes) {
    if (!io.confirm) {
      io.err('endpoint-studio deploy: not applied: confirm with --yes (there is no terminal to ask)');
      return 3;
    }
    if (!(await io.confirm(`Apply ${work.length === 1 ? 'this plan' : `these ${work.length} plans`}?`))) {
      io.err('endpoint-studio deploy: not applied');
      return 3;
    }
  }
  let exitCode = 0;
  const text = prepared.text;
  for (const item of work) {
    const result = await applyPlan(prepared.client, item.plan, {
      ...(item.existingIds ? { existingIds: item.existingIds } : {}),
      onProgress: (_step, message) => {
        io.err(`  ${message}`);
      },
    });
    exitCode = Math.max(exitCode, reportResult(prepared, item, result, text, io));
  }
  return exitCode;
}

function reportResult(prepared: Prepared, item: PlannedDocument, result: ApplyResult, text: string, io: DeployIo): number {
  const prefix = heading(prepared, item);
  if (!result.ok) {
    const { failure } = result;
    io.err(`endpoint-studio deploy: ${prefix}${result.action} failed: ${prepared.client.redact(failure.message)}`);
    for (const problem of failure.problems) {
      io.err(
        `${positionOf(prepared.file, text, item.document, problem.segments)}: error api ${problem.path}: ${prepared.client.redact(problem.message)}`,
      );
    }
    if (failure.endpointGone) io.err('  the bound endpoint no longer exists; deploy again to create a new one');
    if (failure.outcomeUnknown) io.err('  the change may or may not have been made; run plan to see where the endpoint stands');
    return 1;
  }
  const { endpoint } = result;
  const what: Record<typeof result.action, string> = {
    created: 'created',
    reconciled: 'created (its answer was lost; found by listing, no duplicate made)',
    updated: 'updated',
    unchanged: 'unchanged',
  };
  io.out(`${prefix}${what[result.action]} endpoint ${endpoint.id} ${JSON.stringify(endpoint.name)}\n`);
  const saved = updateBindings(prepared.root, (store) =>
    withBinding(store, prepared.key, item.index, {
      endpointId: endpoint.id,
      endpointName: endpoint.name,
      deployedAt: new Date().toISOString(),
    }),
  );
  let exitCode = 0;
  if (!saved.ok) {
    io.err(
      `endpoint-studio deploy: endpoint ${endpoint.id} was deployed but the binding was not saved (${saved.error}); until it is, a deploy of this spec would create another endpoint`,
    );
    exitCode = 1;
  }
  if (result.readBackError) {
    io.err(
      `endpoint-studio deploy: the change was made but reading the endpoint back failed, so it is not verified: ${prepared.client.redact(result.readBackError)}`,
    );
    return 1;
  }
  if (!result.verified) {
    io.err(`endpoint-studio deploy: endpoint ${endpoint.id} does not match the spec after the deploy (before = live, after = spec):`);
    for (const change of result.differences) io.err(`  ${renderChange(change)}`);
    return 1;
  }
  io.out(`${prefix}verified: the endpoint read back matches the spec\n`);
  return exitCode;
}

export async function runPull(args: string[], io: DeployIo): Promise<number> {
  const options = parseOptions('pull', args, io);
  if (typeof options === 'number') return options;
  const format = options.format ?? 'yaml';
  if (format !== 'yaml' && format !== 'json') return usage(io, 'pull', `--format takes yaml or json; got: ${format}`);
  if (options.document !== undefined || options.yes) return usage(io, 'pull', '--document and --yes are for plan and deploy');
  const client = clientFor(io, 'pull');
  if (typeof client === 'number') return client;
  try {
    const live = await client.serverless.get(options.file!);
    const templateId = (live as unknown as Spec).templateId;
    const notes = [`endpoint ${live.id}, read ${new Date().toISOString()}`];
    if (typeof templateId === 'string') notes.push(`created from template ${templateId}; its settings are written out below`);
    io.out(`${serializeSpec(liveAsSpec(live), format, notes)}\n`);
    return 0;
  } catch (error) {
    io.err(`endpoint-studio pull: ${client.redact((error as Error).message)}`);
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
