/**
 * Check a spec's text the same way from every front-end: parse, schema and cross-field rules, and
 * the catalog rules against whichever catalog the caller has (the live service, a pinned snapshot,
 * or none). The answer is the documents and their problems, never printed or shown here.
 */
import type { ApiClient } from '../api';
import { Catalog } from '../endpointSpec/catalog/catalog';
import { fetchCatalogData } from '../catalog/fetch';
import { checkSpecText, type CheckResult, type SpecDiagnostic } from '../endpointSpec/check';
import type { CheckedOverlay } from '../environments/overlays';
import type { SpecDocument, SpecFormat } from '../endpointSpec/tree';
import type { ValidationContext } from '../endpointSpec/validate';
import type { PolicyFile, SuppressedDiagnostic } from '../policy';
import { SpecWorkspace, type FileView } from '../workspace/specWorkspace';

/** Where the catalog rules get their GPU types, flavors, data centers and templates from. */
export type CatalogSource =
  | { readonly kind: 'none' }
  | { readonly kind: 'snapshot'; readonly catalog: Catalog }
  | { readonly kind: 'live'; readonly client: ApiClient; readonly timeoutMs?: number };

export interface CheckSpecInput {
  readonly text: string;
  readonly format: SpecFormat;
  readonly catalog: CatalogSource;
  /**
   * Where the text lives, so an overlay (`extends`) is checked merged into its base: `view` shows the
   * workspace's files (the text above stands for the file at `path`), `roots` are the folders a base may lie
   * in. Without it an overlay is checked as a spec on its own, which it never passes.
   */
  readonly file?: { readonly path: string; readonly view: FileView; readonly roots: readonly string[] };
  /**
   * Prices for the team policy's cost limit when `catalog` gives none: the service's prices a plan reads for its
   * cost line (too few facts for the catalog rules, enough to price a spec).
   */
  readonly prices?: Catalog;
}

/** One document of the text, with whether it holds a spec at all (an empty document does not). */
export interface CheckedDocument {
  readonly index: number;
  readonly document: SpecDocument;
  readonly isSpec: boolean;
  /** What deploying the document sends: its data, or for an overlay its base with it merged in (undefined while broken). */
  readonly body: unknown;
}

/** What an overlay adds to its check. */
export interface OverlayFacts {
  readonly environment?: string;
  /** Absolute path of the base, once found. */
  readonly basePath?: string;
  /** Problems of the merged body on the base's lines that the base alone does not have, each naming the environment. */
  readonly baseDiagnostics: readonly (SpecDiagnostic & { readonly setInOverlay: boolean })[];
  /** Arrays of the base the overlay replaces whole (`gpu.pools`), for the plan to say. */
  readonly replacedArrays: readonly string[];
}

export interface CheckSpecResult {
  readonly documents: readonly CheckedDocument[];
  readonly diagnostics: readonly SpecDiagnostic[];
  /** The catalog the rules ran against; undefined when none was asked for or the live one could not be read. */
  readonly catalog?: Catalog;
  /** Why the live catalog was not used (the check still ran, without catalog rules). */
  readonly catalogError?: string;
  /** Present when the text is an overlay checked with its base. */
  readonly overlay?: OverlayFacts;
  /** Findings an ignore comment or an exception of the team policy silences, with the reason (a file's check only). */
  readonly suppressed: readonly SuppressedDiagnostic[];
  /** The team policy over the file, broken or not (a file's check only); undefined when there is none. */
  readonly policy?: PolicyFile;
}

export async function checkSpec(input: CheckSpecInput): Promise<CheckSpecResult> {
  const resolved = await resolveCatalog(input.catalog);
  const context = resolved.catalog ? { catalog: resolved.catalog } : {};
  const { file } = input;
  const checked: CheckResult & { overlay?: CheckedOverlay; suppressed?: readonly SuppressedDiagnostic[]; policy?: PolicyFile } = file
    ? workspaceOf(file, input.text, context, resolved.catalog ?? input.prices).check(file.path)
    : checkSpecText(input.text, input.format, 'create', context);
  const { overlay } = checked;
  const governed = { suppressed: checked.suppressed ?? [], ...(checked.policy ? { policy: checked.policy } : {}) };
  if (overlay) {
    const documents = overlay.documents.map((document, index) => ({ index, document, isSpec: true, body: overlay.merged }));
    const { environment, basePath, base: baseDiagnostics, replacedArrays } = overlay;
    return {
      documents,
      diagnostics: checked.diagnostics,
      ...resolved,
      ...governed,
      overlay: { environment, basePath, baseDiagnostics, replacedArrays },
    };
  }
  const documents = checked.documents.map((document, index) => ({
    index,
    document,
    isSpec: isSpecDocument(document),
    body: document.data,
  }));
  return { documents, diagnostics: checked.diagnostics, ...resolved, ...governed };
}

/** The workspace's owner of spec files, seeing `text` as the file at `file.path`. */
function workspaceOf(
  file: NonNullable<CheckSpecInput['file']>,
  text: string,
  context: ValidationContext,
  prices: Catalog | undefined,
): SpecWorkspace {
  const view: FileView = { read: (path) => (path === file.path ? text : file.view.read(path)), list: (folder) => file.view.list(folder) };
  return new SpecWorkspace(view, {
    roots: () => file.roots,
    context: () => context,
    policyContext: () => (prices ? { catalog: prices } : {}),
  });
}

/** Whether any of these problems, in the documents given (all when absent), is an error. */
export function hasErrors(diagnostics: readonly SpecDiagnostic[], documentIndexes?: readonly number[]): boolean {
  return diagnostics.some((d) => d.severity === 'error' && (!documentIndexes || documentIndexes.includes(d.documentIndex)));
}

async function resolveCatalog(source: CatalogSource): Promise<{ catalog?: Catalog; catalogError?: string }> {
  if (source.kind === 'none') return {};
  if (source.kind === 'snapshot') return { catalog: source.catalog };
  try {
    return { catalog: new Catalog(await fetchCatalogData(source.client, { timeoutMs: source.timeoutMs ?? 10_000 })) };
  } catch (error) {
    return { catalogError: source.client.redact(error instanceof Error ? error.message : String(error)) };
  }
}

function isSpecDocument(document: SpecDocument): boolean {
  return !(document.data == null && (!document.root || (document.root.kind === 'scalar' && document.root.value === null)));
}
