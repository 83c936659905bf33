/**
 * What `plan` and `deploy` share before anything changes: read the spec, check it (the operations
 * layer's `checkSpec`, an overlay merged into its base), find each document's binding and plan it
 * (`planDeploy`, with the body a deploy sends), apply the namesake policy, saying on stderr what a
 * person should know. An overlay is planned as its environment, on that environment's key. Nothing
 * is sent to the service for a spec with errors, one the team policy refuses, or any under a broken policy.
 */
import { relative } from 'node:path';
import type { ApiClient } from '../core/api';
import { readPriceCatalog } from '../core/billing/priceCatalog';
import type { Spec } from '../core/deploy/effective';
import type { Catalog } from '../core/endpointSpec/catalog/catalog';
import type { SpecDiagnostic } from '../core/endpointSpec/check';
import type { SpecDocument } from '../core/endpointSpec/tree';
import { renderPlan } from '../core/deploy/render';
import {
  checkSpecFile,
  decideNamesakes,
  environmentReach,
  overlayChangeOrigins,
  overlayEnvironment,
  planDeploy,
  protectedImageRefusal,
  reachLines,
  readSpecBindings,
  replacedLine,
  type CheckedDocument,
  type CheckSpecResult,
  type EndpointSummary,
  type NamesakePolicy,
  type OverlayEnvironment,
  type PlanDeployResult,
} from '../core/operations';
import { costLimitUnpriced, policyRefusal, type PolicyRefusal, type PolicyRefusalCode } from '../core/operations/policyGate';
import { diagnosticLine, loadCatalogOption, readSpecFileResult, unreadableLine, type CliIo, type UnreadableCode } from './inputs';
import { serviceClient, type ServiceIo } from './service';

export interface PrepareOptions {
  readonly file: string;
  /** Only this document (0-based) of a multi-document file. */
  readonly document?: number;
  readonly catalogPath?: string;
}

/** One spec document with what the operations layer planned for it. */
export interface PlannedDocument {
  readonly index: number;
  readonly document: SpecDocument;
  /** What deploying it sends: for an overlay, its base with the overlay merged in. */
  readonly body: Spec;
  readonly planned: Extract<PlanDeployResult, { ok: true }>;
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
  /** Set for an overlay: the environment it deploys to. */
  readonly environment?: OverlayEnvironment;
}

/** Why a file was not planned, said on stderr already; JSON and Markdown plans show it as an entry of its own. */
export interface PrepareFailure {
  readonly exitCode: 1 | 2;
  readonly code:
    | 'catalog-unreadable'
    | UnreadableCode
    | 'spec-invalid'
    | PolicyRefusalCode
    | 'no-spec'
    | 'no-document'
    | 'no-api-key'
    | 'bindings-unreadable'
    | 'environments-invalid'
    | 'unpinned-image'
    | 'api-error';
  readonly message: string;
  readonly diagnostics?: readonly SpecDiagnostic[];
}

function failure(exitCode: 1 | 2, code: PrepareFailure['code'], message: string, diagnostics?: readonly SpecDiagnostic[]): PrepareFailure {
  return { exitCode, code, message, ...(diagnostics ? { diagnostics } : {}) };
}

/** The io, keeping its last stderr line: a shared helper's message becomes the failure's. */
function remembering(io: ServiceIo): ServiceIo & { last: string } {
  const kept = {
    ...io,
    last: '',
    err: (line: string) => {
      kept.last = line;
      io.err(line);
    },
  };
  return kept;
}

/** Read, check, find the bindings, plan; or why not, after saying it on stderr. */
export async function prepare(command: string, options: PrepareOptions, io: ServiceIo): Promise<Prepared | PrepareFailure> {
  const { file } = options;
  const said = remembering(io);
  const catalog = loadCatalogOption(options.catalogPath, command, said);
  if (catalog === false) return failure(2, 'catalog-unreadable', said.last);
  const read = readSpecFileResult(file);
  if (!('text' in read)) {
    io.err(unreadableLine(command, file, read.reason));
    return failure(2, read.code, `cannot read ${file}: ${read.reason}`);
  }
  const { text } = read;
  let wanted = await wantedDocuments(command, options, text, { catalog }, io);
  if ('exitCode' in wanted) return wanted;
  const settings = overlayEnvironment(file, wanted.checked.overlay);
  if (!settings.ok) {
    io.err(`endpoint-studio ${command}: ${settings.message}`);
    return failure(2, 'environments-invalid', settings.message);
  }
  const { environment } = settings;
  const refusal = wanted.documents.map(({ body }) => protectedImageRefusal(environment, body)).find((why) => why !== undefined);
  if (refusal !== undefined) {
    io.err(`endpoint-studio ${command}: ${refusal} (nothing was sent)`);
    return failure(1, 'unpinned-image', refusal);
  }

  const client = serviceClient(command, said, { announceRateLimits: true, ...(environment ? { environment } : {}) });
  if (typeof client === 'number') {
    if (wanted.warnings.length > 0) io.err(wanted.warnings.join('\n'));
    return failure(2, 'no-api-key', said.last);
  }
  // A cost limit the check could not price is judged again with the service's prices, before anything is sent.
  const fetched = costLimitUnpriced(wanted.checked) ? await readPriceCatalog(client) : undefined;
  if (fetched) {
    const priced = await wantedDocuments(command, options, text, { prices: fetched }, io);
    if ('exitCode' in priced) return priced;
    wanted = priced;
  }
  if (wanted.warnings.length > 0) io.err(wanted.warnings.join('\n'));
  const bindings = readSpecBindings(file);
  if (!bindings.ok) {
    io.err(`endpoint-studio ${command}: ${bindings.error}`);
    return failure(1, 'bindings-unreadable', bindings.error);
  }
  const { root, key } = bindings.location;
  const planned: PlannedDocument[] = [];
  let listed: readonly EndpointSummary[] | undefined;
  for (const { document, index, body } of wanted.documents) {
    const result = await planDeploy({
      client,
      spec: body as Spec,
      binding: bindings.binding(index),
      ...(listed ? { listed } : {}),
      ...(catalog ? { catalog } : {}),
    });
    if (!result.ok) {
      io.err(`endpoint-studio ${command}: ${result.message}`);
      return failure(1, 'api-error', result.message);
    }
    if (result.target.kind === 'missing')
      io.err(
        `endpoint-studio: ${key} (document ${index}) was bound to endpoint ${result.target.binding.endpointId}, which no longer exists; a deploy creates a new one`,
      );
    listed = result.listed ?? listed;
    planned.push({ index, document, body: body as Spec, planned: result });
  }
  const prices = catalog ?? fetched ?? (await readPriceCatalog(client));
  return { file, text, root, key, client, planned, prices, ...(environment ? { environment } : {}) };
}

/**
 * The documents to plan with their warnings' lines, to print once the check is final; or why not, printed, when
 * there is none or one has errors. `prices` price the team policy's cost limit when there is no catalog.
 */
async function wantedDocuments(
  command: string,
  options: PrepareOptions,
  text: string,
  catalogs: { catalog?: Catalog; prices?: Catalog },
  io: CliIo,
): Promise<{ documents: CheckedDocument[]; checked: CheckSpecResult; warnings: string[] } | PrepareFailure> {
  const checked = await checkSpecFile(options.file, text, process.cwd(), catalogs);
  const wanted = checked.documents.filter(({ index, isSpec }) => (options.document === undefined || options.document === index) && isSpec);
  if (wanted.length === 0) return nothingToPlan(command, options, checked.diagnostics, io);
  const diagnostics = checked.diagnostics.filter((d) => wanted.some((w) => w.index === d.documentIndex));
  const inBase = baseLines(checked);
  const refused = policyRefusal(
    checked,
    wanted.map((w) => w.index),
  );
  if (refused) return refuseByPolicy(command, options.file, diagnostics, refused, io, inBase);
  if (diagnostics.some((d) => d.severity === 'error') || wanted.some((w) => w.body === undefined))
    return refuseErrors(command, options.file, diagnostics, io, inBase);
  const warnings = diagnostics.length > 0 ? [...diagnostics.map((d) => diagnosticLine(options.file, d)), ...inBase] : [];
  return { documents: wanted, checked, warnings };
}

/** An overlay's problems that its base wrote, on the base's lines: where a person fixes them. */
function baseLines(checked: CheckSpecResult): string[] {
  const { overlay } = checked;
  if (overlay?.basePath === undefined) return [];
  const base = relative(process.cwd(), overlay.basePath);
  return overlay.baseDiagnostics.filter((d) => !d.setInOverlay).map((d) => diagnosticLine(base, d));
}

function nothingToPlan(command: string, options: PrepareOptions, diagnostics: readonly SpecDiagnostic[], io: CliIo): PrepareFailure {
  if (options.document !== undefined) {
    io.err(`endpoint-studio ${command}: ${options.file} has no document ${options.document}`);
    return failure(2, 'no-document', `${options.file} has no document ${options.document}`);
  }
  // Text that could not be read as a spec at all (a syntax error, nesting too deep) says why.
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) return refuseErrors(command, options.file, errors, io);
  io.err(`endpoint-studio ${command}: ${options.file} holds no spec`);
  return failure(1, 'no-spec', `${options.file} holds no spec`);
}

/** Prints the problems (errors and any warnings next to them) and refuses the spec: exit status 1. */
function refuseErrors(
  command: string,
  file: string,
  diagnostics: readonly SpecDiagnostic[],
  io: CliIo,
  inBase: readonly string[] = [],
): PrepareFailure {
  io.err([...diagnostics.map((d) => diagnosticLine(file, d)), ...inBase].join('\n'));
  io.err(`endpoint-studio ${command}: ${file} has errors; fix them first (nothing was sent)`);
  return failure(1, 'spec-invalid', `${file} has errors; fix them first (nothing was sent)`, diagnostics);
}

/** Prints the problems and refuses the spec as the team policy does, naming the finding and its rule: exit status 1. */
function refuseByPolicy(
  command: string,
  file: string,
  diagnostics: readonly SpecDiagnostic[],
  refused: PolicyRefusal,
  io: CliIo,
  inBase: readonly string[],
): PrepareFailure {
  const lines = [...diagnostics.map((d) => diagnosticLine(file, d)), ...inBase];
  if (lines.length > 0) io.err(lines.join('\n'));
  const message =
    refused.code === 'policy-invalid'
      ? `${file} is refused (nothing was sent): ${refused.message}`
      : `${file} breaks the team policy (nothing was sent): ${refused.message}`;
  io.err(`endpoint-studio ${command}: ${message}`);
  return failure(1, refused.code, message, diagnostics);
}

/**
 * Applies the namesake policy to every planned create: refuses (exit 1, naming the endpoints, before
 * anything is sent), or replans an adopted document as an update of its namesake. Undefined to go on;
 * either way the caller prints the plans as they now stand.
 */
export async function adoptNamesakes(
  prepared: Prepared,
  command: 'plan' | 'deploy',
  policy: NamesakePolicy,
  io: CliIo,
): Promise<number | undefined> {
  for (const [position, item] of prepared.planned.entries()) {
    const decision = decideNamesakes(item.planned.namesakes, policy);
    if (decision.action === 'proceed') continue;
    if (decision.action === 'refuse') {
      io.err(`endpoint-studio ${command}: ${heading(prepared, item)}${decision.reason}; nothing was sent`);
      const ids = item.planned.namesakes.map((e) => e.id);
      io.err(
        ids.length === 1
          ? `  --adopt to update ${ids[0]} to the spec and bind it, --create-new to create another, or endpoint-studio bind ${prepared.file} ${ids[0]}`
          : `  endpoint-studio bind ${prepared.file} <one of ${ids.join(', ')}>, or --create-new to create another`,
      );
      return 1;
    }
    const adopted = await planDeploy({ client: prepared.client, spec: item.body, adopt: decision.endpointId });
    if (!adopted.ok) {
      io.err(`endpoint-studio ${command}: cannot adopt endpoint ${decision.endpointId}: ${adopted.message}`);
      return 1;
    }
    io.err(`endpoint-studio ${command}: ${heading(prepared, item)}adopting endpoint ${decision.endpointId}: the spec will be bound to it`);
    prepared.planned[position] = { ...item, planned: adopted };
  }
  return undefined;
}

/** `key (document N): ` before a plan or message, when the file has more than one document (or `always`, for many files). */
export const heading = (prepared: Prepared, item: PlannedDocument, always = false): string =>
  always || prepared.planned.length > 1 || item.index > 0 ? `${documentTitle(prepared, item)}: ` : '';

/** `specs/a.endpoint.yaml`, or `specs/a.endpoint.yaml (document 1)` for a document of a multi-document file. */
export const documentTitle = (prepared: Prepared, item: PlannedDocument): string =>
  prepared.planned.length > 1 || item.index > 0 ? `${prepared.key} (document ${item.index})` : prepared.key;

export function plansAsText(prepared: Prepared, always = false): string {
  return prepared.planned
    .map(
      (item) =>
        `${heading(prepared, item, always)}${environmentHeader(prepared, item)}${renderPlan(item.planned.plan, { catalog: prepared.prices })}${replacedLine(prepared.environment)}${reachText(prepared, item)}`,
    )
    .join('');
}

/** The endpoint a plan deploys to: the bound (or adopted) one's id, or a new one. */
export function endpointOfPlan(item: PlannedDocument): string {
  const { plan, target } = item.planned;
  if (plan.kind !== 'create') return plan.endpointId;
  return target.kind === 'adopted' ? target.endpointId : 'a new endpoint';
}

/** `environment prod (protected), key from $ENDPOINT_STUDIO_API_KEY_PROD, endpoint ep_1`: before an overlay's plan. */
function environmentHeader(prepared: Prepared, item: PlannedDocument): string {
  const { environment } = prepared;
  if (!environment) return '';
  const protection = environment.protected ? ' (protected)' : '';
  return `environment ${environment.name}${protection}, key from $${environment.keyVariable}, endpoint ${endpointOfPlan(item)}\n`;
}

/**
 * What an edit reaches: an environment's plan says which changes come from the base and which from its overlay; a
 * base's plan, which environments its edit changes on their next deploy.
 */
function reachText(prepared: Prepared, item: PlannedDocument): string {
  const { plan } = item.planned;
  if (prepared.environment) {
    const changes = plan.kind === 'update' || plan.kind === 'refused' ? plan.changes : [];
    const origins = changes.length > 0 ? overlayChangeOrigins(prepared.file, changes) : undefined;
    if (!origins) return '';
    const from = [
      ...(origins.fromBase.length > 0 ? [`from the base: ${origins.fromBase.join(', ')}`] : []),
      ...(origins.fromOverlay.length > 0 ? [`from the ${prepared.environment.name} overlay: ${origins.fromOverlay.join(', ')}`] : []),
    ];
    return `  ${from.join('; ')}\n`;
  }
  const lines = reachLines(environmentReach(prepared.file));
  return lines.length === 0 ? '' : `  environments this base reaches:\n${lines.map((line) => `    ${line}\n`).join('')}`;
}
