/**
 * What `plan` and `deploy` share before anything changes: read the spec, check it (the operations
 * layer's `checkSpec`), find each document's binding and plan it (`planDeploy`), saying on stderr
 * what a person should know. Nothing is sent to the service for a spec with errors.
 */
import type { ApiClient } from '../core/api';
import { readPriceCatalog } from '../core/billing/priceCatalog';
import type { Spec } from '../core/deploy/effective';
import type { Catalog } from '../core/endpointSpec/catalog/catalog';
import type { SpecDiagnostic } from '../core/endpointSpec/check';
import type { SpecDocument } from '../core/endpointSpec/tree';
import {
  checkSpec,
  planDeploy,
  readSpecBindings,
  type CheckedDocument,
  type EndpointSummary,
  type PlanDeployResult,
} from '../core/operations';
import { specFormatOf } from '../core/protocol';
import { diagnosticLine, loadCatalogOption, readSpecFile, type CliIo } from './inputs';
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
}

/** Read, check, find the bindings, plan; or the exit status after saying why not. */
export async function prepare(command: string, options: PrepareOptions, io: ServiceIo): Promise<Prepared | number> {
  const { file } = options;
  const catalog = loadCatalogOption(options.catalogPath, command, io);
  if (catalog === false) return 2;
  const text = await readSpecFile(file, command, io);
  if (text === undefined) return 2;
  const wanted = await wantedDocuments(command, options, text, catalog, io);
  if (typeof wanted === 'number') return wanted;

  const client = serviceClient(command, io, { announceRateLimits: true });
  if (typeof client === 'number') return client;
  const bindings = readSpecBindings(file);
  if (!bindings.ok) {
    io.err(`endpoint-studio ${command}: ${bindings.error}`);
    return 1;
  }
  const { root, key } = bindings.location;
  const planned: PlannedDocument[] = [];
  let listed: readonly EndpointSummary[] | undefined;
  for (const { document, index } of wanted) {
    const result = await planDeploy({
      client,
      spec: document.data as Spec,
      binding: bindings.binding(index),
      ...(listed ? { listed } : {}),
    });
    if (!result.ok) {
      io.err(`endpoint-studio ${command}: ${result.message}`);
      return 1;
    }
    if (result.target.kind === 'missing')
      io.err(
        `endpoint-studio: ${key} (document ${index}) was bound to endpoint ${result.target.binding.endpointId}, which no longer exists; a deploy creates a new one`,
      );
    listed = result.listed ?? listed;
    planned.push({ index, document, planned: result });
  }
  return { file, text, root, key, client, planned, prices: catalog ?? (await readPriceCatalog(client)) };
}

/** The documents to plan, their problems printed; or the exit status when there is none or one has errors. */
async function wantedDocuments(
  command: string,
  options: PrepareOptions,
  text: string,
  catalog: Catalog | undefined,
  io: CliIo,
): Promise<CheckedDocument[] | number> {
  const checked = await checkSpec({
    text,
    format: specFormatOf(options.file),
    catalog: catalog ? { kind: 'snapshot', catalog } : { kind: 'none' },
  });
  const wanted = checked.documents.filter(({ index, isSpec }) => (options.document === undefined || options.document === index) && isSpec);
  if (wanted.length === 0) return nothingToPlan(command, options, checked.diagnostics, io);
  const diagnostics = checked.diagnostics.filter((d) => wanted.some((w) => w.index === d.documentIndex));
  if (diagnostics.some((d) => d.severity === 'error')) return refuseErrors(command, options.file, diagnostics, io);
  if (diagnostics.length > 0) io.err(diagnostics.map((d) => diagnosticLine(options.file, d)).join('\n'));
  return wanted;
}

function nothingToPlan(command: string, options: PrepareOptions, diagnostics: readonly SpecDiagnostic[], io: CliIo): number {
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
function refuseErrors(command: string, file: string, diagnostics: readonly SpecDiagnostic[], io: CliIo): 1 {
  io.err(diagnostics.map((d) => diagnosticLine(file, d)).join('\n'));
  io.err(`endpoint-studio ${command}: ${file} has errors; fix them first (nothing was sent)`);
  return 1;
}
