/**
 * The bodies spec files deploy, as one JSON document a repository commits: a base edit silently changes what
 * every environment deploys, and with the rendered body committed such a change shows in the pull request's
 * diff. The text must not move unless a body does, so keys are sorted and the shape is the same for one file
 * or many. Pure: checked bodies in, text out; and the comparison with a document written earlier, field by field.
 */
import { isRecord } from '../endpointSpec/ownData';
import { formatFieldPath, type JsonPath } from '../endpointSpec/tree';
import { sameValue } from './diff';
import { renderValue } from './render';

/** One spec file as rendered. */
export interface RenderedSpec {
  /** The file as the document names it: relative to the current directory, with forward slashes. */
  readonly key: string;
  /** The environment it deploys to; undefined for a base, which deploys by itself. */
  readonly environment?: string;
  /** Each document that holds a spec, by its index in the file, with the body a deploy sends. */
  readonly documents: readonly { readonly index: number; readonly body: Record<string, unknown> }[];
}

/** One difference between a rendered document written earlier and the specs rendered now. */
export type RenderedDifference =
  | { readonly kind: 'added' | 'removed'; readonly key: string; readonly environment?: string; readonly document?: string }
  | { readonly kind: 'environment'; readonly key: string; readonly before: unknown; readonly after: unknown }
  | {
      readonly kind: 'changed';
      readonly key: string;
      readonly environment?: string;
      readonly document?: string;
      readonly path: JsonPath;
      /** Undefined when the field is absent on that side. */
      readonly before: unknown;
      readonly after: unknown;
    };

/** A document written earlier, or why it cannot be compared with. */
export type WrittenRendering = { readonly document: Record<string, unknown> } | { readonly problem: string };

type Json = Record<string, unknown>;

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * `{"<spec path>": {"environment": "prod" | null, "body": {...}}}`, the paths in order; a file of several spec
 * documents has `"documents": {"<index>": {...}}` instead of `body`. Object keys sorted at every level, arrays
 * in their order, 2-space indent, a newline at the end.
 */
export function renderBodies(specs: readonly RenderedSpec[]): string {
  return `${JSON.stringify(renderedDocument(specs), null, 2)}\n`;
}

function renderedDocument(specs: readonly RenderedSpec[]): Json {
  const sorted = [...specs].sort((a, b) => byText(a.key, b.key));
  return Object.fromEntries(sorted.map((spec) => [spec.key, entryOf(spec)]));
}

function entryOf({ environment, documents }: RenderedSpec): Json {
  const [only] = documents;
  // null rather than absent: every entry says which environment it is for, a base included.
  if (documents.length === 1) return { environment: environment ?? null, body: sortedKeys(only.body) };
  return {
    environment: environment ?? null,
    documents: Object.fromEntries(documents.map(({ index, body }) => [String(index), sortedKeys(body)])),
  };
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (!isRecord(value)) return value;
  // fromEntries defines each key as data, so a `__proto__` key stays a key.
  return Object.fromEntries(
    Object.keys(value)
      .sort(byText)
      .map((key) => [key, sortedKeys(value[key])]),
  );
}

/** The text of a file `renderBodies` wrote, read back; a problem when it is not JSON or not such a document. */
export function readRendered(text: string): WrittenRendering {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    return { problem: `is not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  return isRecord(document) ? { document } : { problem: 'is not a rendered document (a JSON object keyed by spec path)' };
}

/**
 * How `written` differs from what `specs` render to now, in the order of the spec paths, then the fields.
 * Compared as JSON values: the written file's key order and spacing do not matter, its values do.
 */
export function renderedDifferences(written: Json, specs: readonly RenderedSpec[]): RenderedDifference[] {
  const now = JSON.parse(renderBodies(specs)) as Json;
  const keys = [...new Set([...Object.keys(written), ...Object.keys(now)])].sort(byText);
  return keys.flatMap((key): RenderedDifference[] => {
    if (!Object.hasOwn(now, key)) return [{ kind: 'removed', key, ...environmentOf(written[key]) }];
    if (!Object.hasOwn(written, key)) return [{ kind: 'added', key, ...environmentOf(now[key]) }];
    return entryDifferences(key, written[key], now[key]);
  });
}

function entryDifferences(key: string, before: unknown, after: unknown): RenderedDifference[] {
  const environment = environmentOf(after);
  const moved: RenderedDifference[] = sameValue(environmentValue(before), environmentValue(after))
    ? []
    : [{ kind: 'environment', key, before: environmentValue(before), after: environmentValue(after) }];
  const was = documentsOf(before);
  const is = documentsOf(after);
  const documents = [...new Set([...was.keys(), ...is.keys()])].sort((a, b) => Number(a) - Number(b));
  return [
    ...moved,
    ...documents.flatMap((label): RenderedDifference[] => {
      const document = label === '' ? {} : { document: label };
      if (!is.has(label)) return [{ kind: 'removed', key, ...environment, ...document }];
      if (!was.has(label)) return [{ kind: 'added', key, ...environment, ...document }];
      return fieldChanges(was.get(label), is.get(label), []).map((change) => ({
        kind: 'changed',
        key,
        ...environment,
        ...document,
        ...change,
      }));
    }),
  ];
}

const environmentValue = (entry: unknown): unknown => (isRecord(entry) ? entry.environment : undefined);

function environmentOf(entry: unknown): { environment?: string } {
  const environment = environmentValue(entry);
  return typeof environment === 'string' ? { environment } : {};
}

/** An entry's bodies by document index; a one-document entry's by ''. */
function documentsOf(entry: unknown): Map<string, unknown> {
  if (isRecord(entry) && isRecord(entry.documents)) return new Map(Object.entries(entry.documents));
  return new Map([['', isRecord(entry) ? entry.body : entry]]);
}

/** The fields that differ, down to where one side stops being an object; an array that differs is one change. */
function fieldChanges(before: unknown, after: unknown, path: JsonPath): { path: JsonPath; before: unknown; after: unknown }[] {
  if (!isRecord(before) || !isRecord(after)) return sameValue(before, after) ? [] : [{ path, before, after }];
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort(byText);
  return keys.flatMap((key) => fieldChanges(before[key], after[key], [...path, key]));
}

/** `prod: specs/sdxl.prod.endpoint.yaml: workers.max 8 → 9`: the environment (none for a base), the file, the field. */
export function differenceLine(difference: RenderedDifference): string {
  const environment = 'environment' in difference && typeof difference.environment === 'string' ? `${difference.environment}: ` : '';
  const document = 'document' in difference && difference.document !== undefined ? ` document ${difference.document}` : '';
  const where = `${environment}${difference.key}${document}`;
  switch (difference.kind) {
    case 'added':
      return `${where}: added`;
    case 'removed':
      return `${where}: removed`;
    case 'environment':
      return `${where}: environment ${renderValue(difference.before, 80)} → ${renderValue(difference.after, 80)}`;
    case 'changed':
      return `${where}: ${formatFieldPath(difference.path)} ${renderValue(difference.before, 80)} → ${renderValue(difference.after, 80)}`;
  }
}
