/**
 * What `plan` and `deploy` share before anything changes: read and check the spec, find the endpoints its
 * documents are bound to, and plan each document. Nothing is sent to the service for a spec with errors.
 */
import type { ApiClient } from '../core/api';
import { readPriceCatalog } from '../core/billing/priceCatalog';
import { findWorkspaceRoot, getBinding, readBindings, repairBinding, specKey, type BindingStore } from '../core/deploy/bindings';
import type { Spec } from '../core/deploy/effective';
import { planDeployment, type DeploymentPlan } from '../core/deploy/plan';
import type { Catalog } from '../core/endpointSpec/catalog/catalog';
import { checkSpecText, type SpecDiagnostic } from '../core/endpointSpec/check';
import type { SpecDocument } from '../core/endpointSpec/tree';
import { specFormatOf } from '../core/protocol';
import { diagnosticLine, loadCatalogOption, readSpecFile, type CliIo } from './inputs';
import { serviceClient, type ServiceIo } from './service';

export interface PrepareOptions {
  readonly file: string;
  /** Only this document (0-based) of a multi-document file. */
  readonly document?: number;
  readonly catalogPath?: string;
}

/** One spec document with what the engine decided for it. */
export interface PlannedDocument {
  readonly index: number;
  readonly document: SpecDocument;
  readonly plan: DeploymentPlan;
  /** Existing endpoint ids, listed before a create so a lost answer is never confused with them. */
  readonly existingIds?: string[];
}

export interface Prepared {
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

interface WantedDocument {
  readonly index: number;
  readonly document: SpecDocument;
}

/** Read, validate, find the bindings, look the endpoints up, plan; or the exit status after saying why not. */
export async function prepare(command: string, options: PrepareOptions, io: ServiceIo): Promise<Prepared | number> {
  const { file } = options;
  const catalog = loadCatalogOption(options.catalogPath, command, io);
  if (catalog === false) return 2;
  const text = await readSpecFile(file, command, io);
  if (text === undefined) return 2;
  const wanted = wantedDocuments(command, options, text, catalog, io);
  if (typeof wanted === 'number') return wanted;

  const client = serviceClient(command, io, { announceRateLimits: true });
  if (typeof client === 'number') return client;
  const root = findWorkspaceRoot(file);
  const key = specKey(root, file);
  const bindings = readBindings(root);
  if (!bindings.ok) {
    io.err(`endpoint-studio ${command}: ${bindings.error}`);
    return 1;
  }
  const planned = await planDocuments(command, client, wanted, bindings.store, key, io);
  if (typeof planned === 'number') return planned;
  return { file, text, root, key, client, planned, prices: catalog ?? (await readPriceCatalog(client)) };
}

/** The documents to plan, their problems printed; or the exit status when there is none or one has errors. */
function wantedDocuments(
  command: string,
  options: PrepareOptions,
  text: string,
  catalog: Catalog | undefined,
  io: CliIo,
): WantedDocument[] | number {
  const checked = checkSpecText(text, specFormatOf(options.file), 'create', catalog ? { catalog } : {});
  const wanted = checked.documents
    .map((document, index) => ({ document, index }))
    .filter(({ document, index }) => (options.document === undefined || options.document === index) && isSpecDocument(document));
  if (wanted.length === 0) return nothingToPlan(command, options, checked.diagnostics, io);
  const diagnostics = checked.diagnostics.filter((d) => wanted.some((w) => w.index === d.documentIndex));
  if (diagnostics.some((d) => d.severity === 'error')) return refuseErrors(command, options.file, diagnostics, io);
  if (diagnostics.length > 0) io.err(diagnostics.map((d) => diagnosticLine(options.file, d)).join('\n'));
  return wanted;
}

function nothingToPlan(command: string, options: PrepareOptions, diagnostics: SpecDiagnostic[], io: CliIo): number {
  if (options.document !== undefined) {
    io.err(`endpoint-studio ${command}: ${options.file} has no document ${options.document}`);
    return 2;
  }
  // Text that could not be read as a spec at all (a syntax error, nesting too deep) says why.
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) return refuseErrors(command, options.file, errors, io);
  io.err(`endpoint-studio ${command}: ${options.file} holds no spec`);
  return 1;
}

/** Prints the problems (errors and any warnings next to them) and refuses the spec: exit status 1. */
function refuseErrors(command: string, file: string, diagnostics: SpecDiagnostic[], io: CliIo): 1 {
  io.err(diagnostics.map((d) => diagnosticLine(file, d)).join('\n'));
  io.err(`endpoint-studio ${command}: ${file} has errors; fix them first (nothing was sent)`);
  return 1;
}

function isSpecDocument(document: SpecDocument): boolean {
  return !(document.data == null && (!document.root || (document.root.kind === 'scalar' && document.root.value === null)));
}

async function planDocuments(
  command: string,
  client: ApiClient,
  wanted: WantedDocument[],
  store: BindingStore,
  key: string,
  io: CliIo,
): Promise<PlannedDocument[] | number> {
  const planned: PlannedDocument[] = [];
  let listed: { id: string; name: string }[] | undefined;
  try {
    for (const { document, index } of wanted) {
      const spec = document.data as Spec;
      const live = await boundEndpoint(client, store, key, index, io);
      if (live === 'error') return 1;
      const plan = planDeployment(spec, live);
      if (plan.kind !== 'create') {
        planned.push({ index, document, plan });
        continue;
      }
      listed ??= (await client.serverless.list()).map((e) => ({ id: e.id, name: e.name }));
      planned.push({ index, document, plan: withNamesakeNote(plan, spec.name, listed), existingIds: listed.map((e) => e.id) });
    }
  } catch (error) {
    io.err(`endpoint-studio ${command}: ${client.redact(error instanceof Error ? error.message : String(error))}`);
    return 1;
  }
  return planned;
}

/** A create next to a same-named endpoint this spec is not bound to says so: deploying makes a second one. */
function withNamesakeNote(plan: DeploymentPlan, name: unknown, listed: readonly { id: string; name: string }[]): DeploymentPlan {
  const namesakes = listed.filter((e) => e.name === name).map((e) => e.id);
  if (namesakes.length === 0) return plan;
  const note = `an endpoint named ${JSON.stringify(name)} already exists (${namesakes.join(', ')}) but this spec is not bound to it; deploying creates another one`;
  return { ...plan, notes: [...plan.notes, note] };
}

/** The endpoint a document is bound to; `undefined` when unbound or deleted elsewhere (so the plan is a create). */
async function boundEndpoint(
  client: ApiClient,
  store: BindingStore,
  key: string,
  index: number,
  io: CliIo,
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
