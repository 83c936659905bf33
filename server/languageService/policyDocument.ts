/**
 * The team policy (`.endpoint-studio/policy.yaml`) as a document of its own: its problems against its schema,
 * completion of its keys (from the schema), of pool, CPU flavor and data center ids (from the catalog, as a
 * spec's completion offers them) and of diagnostic codes (`severity` and `exceptions[].code`), and hovers on its
 * keys, codes and ids. Pure, like the rest of the language service: text and parse in, proposals out.
 */
import type { Catalog } from '../../core/endpointSpec/catalog/catalog';
import type { SpecDiagnostic } from '../../core/endpointSpec/check';
import type { DocumentedCode } from '../../core/endpointSpec/diagnosticCodes';
import { parseSpecText } from '../../core/endpointSpec/parse';
import type { SchemaView } from '../../core/endpointSpec/schemas';
import type { JsonPath, SpecDocument, TextSpan } from '../../core/endpointSpec/tree';
import { everyDocumentedCode, parsePolicy, policySchemaViewAt } from '../../core/policy';
import { catalogValuesAt } from './catalogValues';
import { catalogItems, forSnippets, keyCompletions, valueCompletions, type SpecCompletion } from './completion';
import { completionContext, documentAt, nodeAt, type CursorContext } from './cursor';
import { fieldMarkdown } from './hover';

/** The policy file's problems (each `policy-invalid`, on its line) and its parse. */
export interface PolicyAnalysis {
  readonly problems: readonly SpecDiagnostic[];
  readonly documents: readonly SpecDocument[];
}

export function analyzePolicy(text: string): PolicyAnalysis {
  return { problems: parsePolicy(text).problems, documents: parseSpecText(text, 'yaml') };
}

/** A rule's list of catalog ids, with the path in a spec whose catalog values it names. */
const CATALOG_LISTS: Readonly<Record<string, JsonPath>> = {
  allowedPools: ['gpu', 'pools', 0],
  allowedCpuFlavors: ['cpu', 0, 'id'],
  allowedDataCenters: ['dataCenterIds', 0],
};

const SEVERITIES = ['error', 'warning', 'information', 'off'];

/** `snippets`: the client takes snippets; otherwise every proposal inserts plain text. */
export function completePolicy(
  text: string,
  offset: number,
  analysis: PolicyAnalysis,
  catalog?: Catalog,
  snippets = true,
): SpecCompletion[] {
  const context = completionContext(text, offset, 'yaml', documentAt(analysis.documents, offset));
  if (!context) return [];
  return forSnippets(proposalsAt(context, catalog), snippets);
}

function proposalsAt(context: CursorContext, catalog: Catalog | undefined): SpecCompletion[] {
  const { path } = context;
  const view = policySchemaViewAt(path);
  // `- ` in a list of ids reads as a key about to be typed; the schema says it is an item.
  const isScalarItem = typeof path.at(-1) === 'number' && view !== undefined && !view.types.includes('object');
  if (context.position === 'key' && !isScalarItem) {
    if (path.length === 1 && path[0] === 'severity') return codeCompletions(context, true);
    return view ? keyCompletions(view, context, 'yaml') : [];
  }
  if (path.length === 3 && path[0] === 'exceptions' && path[2] === 'code') return codeCompletions(context, false);
  const list = catalogList(path);
  if (list && catalog) {
    const asList = typeof path.at(-1) !== 'number';
    return catalogItems(catalogValuesAt(catalog, {}, list) ?? [], context, 'yaml', asList);
  }
  return view ? valueCompletions(view, context, 'yaml') : [];
}

/** The spec path whose catalog values a rule's list at `path` (or an item of it) takes. */
function catalogList(path: JsonPath): JsonPath | undefined {
  if (path[0] !== 'rules' || typeof path[1] !== 'number' || typeof path[2] !== 'string') return undefined;
  const within = path.length === 3 || (path.length === 4 && typeof path[3] === 'number');
  return within && Object.hasOwn(CATALOG_LISTS, path[2]) ? CATALOG_LISTS[path[2]] : undefined;
}

/** Every documented code, as a key of `severity` (with its grade to choose) or as a value. */
function codeCompletions(context: CursorContext, asKey: boolean): SpecCompletion[] {
  const present = new Set(context.siblingKeys);
  return everyDocumentedCode()
    .filter((code) => !asKey || !present.has(code.code))
    .map((code, index) => ({
      label: code.code,
      kind: asKey ? ('property' as const) : ('value' as const),
      detail: `${code.kind} · ${code.severity}`,
      documentation: code.description,
      insertText: asKey && !context.existingKey ? `${code.code}: \${1|${SEVERITIES.join(',')}|}` : code.code,
      snippet: asKey && !context.existingKey,
      sortText: String(index).padStart(4, '0'),
      replaceSpan: context.replaceSpan,
    }));
}

/** The hover on a key (the schema's description), a code (what it means) or a catalog id (its facts). */
export function hoverPolicy(offset: number, analysis: PolicyAnalysis, catalog?: Catalog): { markdown: string; span: TextSpan } | undefined {
  const target = nodeAt(documentAt(analysis.documents, offset)?.root, offset);
  if (!target) return undefined;
  const { path, onKey, node } = target;
  const value = !onKey && node?.kind === 'scalar' && typeof node.value === 'string' ? node.value : undefined;
  const markdown = codeHover(path, onKey, value) ?? catalogHover(path, value, catalog) ?? schemaHover(path);
  return markdown ? { markdown, span: target.span } : undefined;
}

function codeHover(path: JsonPath, onKey: boolean, value: string | undefined): string | undefined {
  const named =
    path.length === 2 && path[0] === 'severity' && onKey
      ? String(path[1])
      : path.length === 3 && path[0] === 'exceptions' && path[2] === 'code'
        ? value
        : undefined;
  const code = named === undefined ? undefined : everyDocumentedCode().find((c) => c.code === named);
  return code && codeMarkdown(code);
}

const codeMarkdown = (code: DocumentedCode): string =>
  `**${code.code}** (${code.kind}, ${code.severity} by default)\n\n${code.description}\n\nApplies to: ${code.appliesTo}`;

function catalogHover(path: JsonPath, value: string | undefined, catalog: Catalog | undefined): string | undefined {
  const list = catalogList(path);
  if (!list || !catalog || value === undefined || typeof path.at(-1) !== 'number') return undefined;
  const entry = catalogValuesAt(catalog, {}, list)?.find((v) => v.value === value);
  const view = policySchemaViewAt(path.slice(0, -1));
  return entry && `${entry.documentation}${view ? `\n\n---\n\n${fieldMarkdown(path.slice(0, -1), view)}` : ''}`;
}

function schemaHover(path: JsonPath): string | undefined {
  // On a list's item, the list is what is documented.
  const documented = typeof path.at(-1) === 'number' ? path.slice(0, -1) : path;
  const view: SchemaView | undefined = policySchemaViewAt(documented);
  return view && fieldMarkdown(documented, view);
}
