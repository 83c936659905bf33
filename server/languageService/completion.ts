/**
 * Schema-driven completions: property keys for the object under the cursor, enum and boolean
 * values for the value under it. Catalog values plug in later through `ValueProvider`s keyed by path.
 */
import { schemaViewAt, type SchemaView } from '../../core/endpointSpec/schemas';
import type { SpecFormat, TextSpan } from '../../core/endpointSpec/tree';
import type { CursorContext } from './cursor';
import { SPEC_STARTERS } from '../../core/endpointSpec/starters';
import type { Catalog } from '../../core/endpointSpec/catalog/catalog';
import { scalarText } from './edits';
import { catalogValuesAt, type CatalogValue } from './catalogValues';
import { SECTION_SNIPPETS } from './sections';

export interface SpecCompletion {
  readonly label: string;
  readonly kind: 'property' | 'value' | 'snippet';
  readonly detail?: string;
  readonly documentation?: string;
  /** Text to insert; `snippet` means it contains `${1}` tab stops. */
  readonly insertText: string;
  readonly snippet: boolean;
  readonly sortText: string;
  readonly replaceSpan: TextSpan;
}

export function completeAt(context: CursorContext, data: unknown, format: SpecFormat, catalog?: Catalog): SpecCompletion[] {
  const view = schemaViewAt(context.path, data);
  const isScalarListItem = typeof context.path[context.path.length - 1] === 'number' && view && !view.types.includes('object');
  if (context.position === 'key' && !isScalarListItem) {
    const keys = view ? keyCompletions(view, context, format) : [];
    // A key that has its value is renamed, not replaced by a whole section.
    if (context.path.length > 0 || context.existingKey) return keys;
    const emptySpec = context.siblingKeys.length === 0 && format === 'yaml';
    return [...(emptySpec ? starterCompletions(context) : []), ...sectionCompletions(context, format), ...keys];
  }
  if (catalog) {
    const catalogCompletions = catalogValueCompletions(catalog, context, data, format, view);
    if (catalogCompletions) return catalogCompletions;
  }
  return view ? valueCompletions(view, context, format) : [];
}

/** Catalog values at the cursor; on a list key with no value yet (`pools: |`), a one-item list. */
function catalogValueCompletions(
  catalog: Catalog,
  context: CursorContext,
  data: unknown,
  format: SpecFormat,
  view: SchemaView | undefined,
): SpecCompletion[] | undefined {
  const asList = view?.types.includes('array') && typeof context.path[context.path.length - 1] !== 'number';
  const values = catalogValuesAt(catalog, data, asList ? [...context.path, 0] : context.path);
  return values && catalogItems(values, context, format, asList === true);
}

/** Catalog values as proposals at the cursor; `asList`: on a list key with no value yet, each as a one-item list. */
export function catalogItems(
  values: readonly CatalogValue[],
  context: CursorContext,
  format: SpecFormat,
  asList: boolean,
): SpecCompletion[] {
  return values.map((entry: CatalogValue, index) => {
    const text =
      typeof entry.value === 'number'
        ? String(entry.value)
        : format === 'json'
          ? JSON.stringify(entry.value)
          : context.insideQuotes
            ? entry.value
            : scalarText(entry.value, 'yaml');
    return {
      label: String(entry.value),
      kind: 'value' as const,
      detail: entry.detail,
      documentation: entry.documentation,
      insertText: asList ? `[${text}]` : text,
      snippet: false,
      sortText: String(index).padStart(4, '0'),
      replaceSpan: context.replaceSpan,
    };
  });
}

function starterCompletions(context: CursorContext): SpecCompletion[] {
  return SPEC_STARTERS.map((starter, index) => ({
    label: `endpoint: ${starter.label}`,
    kind: 'snippet',
    detail: 'Endpoint Studio starter',
    documentation: starter.description,
    insertText: starter.snippet,
    snippet: true,
    sortText: `!${index}`,
    replaceSpan: context.replaceSpan,
  }));
}

function sectionCompletions(context: CursorContext, format: SpecFormat): SpecCompletion[] {
  const present = new Set(context.siblingKeys);
  return SECTION_SNIPPETS.filter((s) => !present.has(s.key)).map((section, index) => ({
    label: section.label,
    kind: 'snippet',
    detail: 'Endpoint Studio section',
    documentation: section.description,
    insertText: format === 'json' ? section.json : section.yaml,
    snippet: true,
    sortText: `2${index}`,
    replaceSpan: context.replaceSpan,
  }));
}

export function keyCompletions(view: SchemaView, context: CursorContext, format: SpecFormat): SpecCompletion[] {
  const present = new Set(context.siblingKeys);
  const completions: SpecCompletion[] = [];
  for (const [name, property] of view.properties) {
    if (present.has(name)) continue;
    const required = view.required.includes(name);
    completions.push({
      label: name,
      kind: 'property',
      detail: `${required ? 'required' : 'optional'} ${describeType(property)}`,
      documentation: property.description,
      insertText: context.existingKey
        ? format === 'json'
          ? JSON.stringify(name)
          : name
        : format === 'json'
          ? jsonKeyInsert(name, property)
          : yamlKeyInsert(name, property),
      snippet: !context.existingKey,
      sortText: `${required ? '0' : '1'}${name}`,
      replaceSpan: context.replaceSpan,
    });
  }
  return completions;
}

export function valueCompletions(view: SchemaView, context: CursorContext, format: SpecFormat): SpecCompletion[] {
  const values: unknown[] = view.enum ? [...view.enum] : view.types.includes('boolean') ? [true, false] : [];
  if (values.length === 0 && view.default !== undefined && typeof view.default !== 'object') values.push(view.default);
  return values.map((value, index) => ({
    label: String(value),
    kind: 'value',
    detail: value === view.default ? 'default' : undefined,
    documentation: typeof value === 'string' ? view.enumDescriptions?.[value] : undefined,
    // JSON replaces the whole token, quotes included; YAML only the typed word (quotes stay).
    insertText: format === 'json' && typeof value === 'string' ? JSON.stringify(value) : String(value),
    snippet: false,
    sortText: String(index).padStart(3, '0'),
    replaceSpan: context.replaceSpan,
  }));
}

function yamlKeyInsert(name: string, view: SchemaView): string {
  if (view.types.includes('object')) return `${name}:\n  \${1}`;
  if (view.types.includes('array')) return `${name}:\n  - \${1}`;
  const example = view.default ?? view.enum?.[0];
  const scalar = typeof example === 'string' || typeof example === 'number' || typeof example === 'boolean';
  return scalar ? `${name}: \${1:${String(example)}}` : `${name}: \${1}`;
}

function jsonKeyInsert(name: string, view: SchemaView): string {
  const key = JSON.stringify(name);
  if (view.types.includes('object')) return `${key}: {\${1}}`;
  if (view.types.includes('array')) return `${key}: [\${1}]`;
  if (view.types.includes('string')) return `${key}: "\${1}"`;
  const example = view.default ?? view.enum?.[0];
  return `${key}: \${1:${example !== undefined ? JSON.stringify(example) : ''}}`;
}

/** The proposals as they are for a client that takes snippets; otherwise each inserts plain text, its placeholders at their defaults. */
export function forSnippets(proposals: SpecCompletion[], snippets: boolean): SpecCompletion[] {
  return snippets
    ? proposals
    : proposals.map((p) => (p.snippet ? { ...p, insertText: snippetAsPlainText(p.insertText), snippet: false } : p));
}

/**
 * A snippet as the text it inserts with every placeholder left at its default, for a client that takes no
 * snippets: `${1:ADA_24}` → `ADA_24`, `${2|2,4,8|}` → `2`, `${1}` and `$0` → nothing, `\$` → `$`.
 */
export function snippetAsPlainText(snippet: string): string {
  let text = snippet;
  // Inside out, since a placeholder's default may hold another placeholder.
  for (let previous = ''; previous !== text;) {
    previous = text;
    text = text
      .replace(/(?<!\\)\$\{\d+:((?:[^{}\\]|\\.)*)\}/g, '$1')
      .replace(/(?<!\\)\$\{\d+\|((?:[^,|\\]|\\.)*)[^|]*\|\}/g, '$1')
      .replace(/(?<!\\)\$(?:\{\d+\}|\d+)/g, '');
  }
  return text.replace(/\\([$}\\,|])/g, '$1');
}

export function describeType(view: SchemaView): string {
  if (view.enum) return view.enum.map(String).join(' | ');
  if (view.types.includes('array')) return `array of ${view.items ? describeType(view.items) : 'values'}`;
  if (view.types.length > 0) return view.types.join(' | ');
  return view.properties.size > 0 ? 'object' : 'value';
}
