/**
 * Check a spec's text the same way from every front-end: parse, schema and cross-field rules, and
 * the catalog rules against whichever catalog the caller has (the live service, a pinned snapshot,
 * or none). The answer is the documents and their problems, never printed or shown here.
 */
import type { ApiClient } from '../api';
import { Catalog } from '../endpointSpec/catalog/catalog';
import { fetchCatalogData } from '../catalog/fetch';
import { checkSpecText, type SpecDiagnostic } from '../endpointSpec/check';
import type { SpecDocument, SpecFormat } from '../endpointSpec/tree';

/** Where the catalog rules get their GPU types, flavors, data centers and templates from. */
export type CatalogSource =
  | { readonly kind: 'none' }
  | { readonly kind: 'snapshot'; readonly catalog: Catalog }
  | { readonly kind: 'live'; readonly client: ApiClient; readonly timeoutMs?: number };

export interface CheckSpecInput {
  readonly text: string;
  readonly format: SpecFormat;
  readonly catalog: CatalogSource;
}

/** One document of the text, with whether it holds a spec at all (an empty document does not). */
export interface CheckedDocument {
  readonly index: number;
  readonly document: SpecDocument;
  readonly isSpec: boolean;
}

export interface CheckSpecResult {
  readonly documents: readonly CheckedDocument[];
  readonly diagnostics: readonly SpecDiagnostic[];
  /** The catalog the rules ran against; undefined when none was asked for or the live one could not be read. */
  readonly catalog?: Catalog;
  /** Why the live catalog was not used (the check still ran, without catalog rules). */
  readonly catalogError?: string;
}

export async function checkSpec(input: CheckSpecInput): Promise<CheckSpecResult> {
  const resolved = await resolveCatalog(input.catalog);
  const checked = checkSpecText(input.text, input.format, 'create', resolved.catalog ? { catalog: resolved.catalog } : {});
  const documents = checked.documents.map((document, index) => ({ index, document, isSpec: isSpecDocument(document) }));
  return { documents, diagnostics: checked.diagnostics, ...resolved };
}

/** Whether any of these problems, in the documents given (all when absent), is an error. */
export function hasErrors(diagnostics: readonly SpecDiagnostic[], documentIndexes?: readonly number[]): boolean {
  return diagnostics.some((d) => d.severity === 'error' && (!documentIndexes || documentIndexes.includes(d.documentIndex)));
}

async function resolveCatalog(source: CatalogSource): Promise<{ catalog?: Catalog; catalogError?: string }> {
  switch (source.kind) {
    case 'none':
      return {};
    case 'snapshot':
      return { catalog: source.catalog };
    case 'live':
      try {
        return { catalog: await fetchLiveCatalog(source.client, source.timeoutMs ?? 10_000) };
      } catch (error) {
        return { catalogError: source.client.redact(error instanceof Error ? error.message : String(error)) };
      }
  }
}

export { fetchCatalogData } from '../catalog/fetch';

/** The service's catalog as a checker reads it. */
export async function fetchLiveCatalog(client: ApiClient, timeoutMs: number): Promise<Catalog> {
  return new Catalog(await fetchCatalogData(client, { timeoutMs }));
}

function isSpecDocument(document: SpecDocument): boolean {
  return !(document.data == null && (!document.root || (document.root.kind === 'scalar' && document.root.value === null)));
}
