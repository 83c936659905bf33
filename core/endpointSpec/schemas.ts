/**
 * The v2 spec schemas (schemas/*.json, the single source) and a navigator that answers
 * "what does the schema say at this JSON path" for hovers, completions and messages.
 */
import commonSchema from '../../schemas/common.schema.json';
import createSchema from '../../schemas/endpoint-create.schema.json';
import updateSchema from '../../schemas/endpoint-update.schema.json';
import { childValue, isRecord, ownTable } from './ownData';
import { pointerTokens, type JsonPath } from './tree';

export type SchemaObject = { readonly [keyword: string]: unknown };
export type SpecMode = 'create' | 'update';
/** A schema, and the `$id` its relative `$ref`s resolve against. */
type SchemaAt = { schema: SchemaObject; baseId: string };

export const SCHEMAS: readonly SchemaObject[] = [commonSchema, createSchema, updateSchema];

const byId = new Map<string, SchemaObject>(SCHEMAS.map((s) => [s.$id as string, s]));
const ROOT_SCHEMAS = { create: createSchema, update: updateSchema };

/** What the schema allows at one path, with `allOf`, `$ref` and the `scaling` union folded together. */
export interface SchemaView {
  readonly description?: string;
  readonly types: string[];
  readonly properties: Map<string, SchemaView>;
  readonly required: string[];
  readonly enum?: unknown[];
  readonly enumDescriptions?: Record<string, string>;
  readonly default?: unknown;
  readonly examples?: unknown[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly hint?: string;
  readonly items?: SchemaView;
  /** The schema for values of keys not listed in `properties` (only `env` has one). */
  readonly additional?: SchemaView;
  readonly closed: boolean;
}

/** The view of the root of a create or update body. */
export function rootSchemaView(mode: SpecMode = 'create'): SchemaView {
  return viewOf(ROOT_SCHEMAS[mode], ROOT_SCHEMAS[mode].$id, undefined);
}

/**
 * The view at `path`. `data` (the whole spec) picks the variant of discriminated unions, so
 * `scaling.requestCount` is known under `type: REQUEST_COUNT`.
 */
export function schemaViewAt(path: JsonPath, data?: unknown, mode: SpecMode = 'create'): SchemaView | undefined {
  let view: SchemaView | undefined = viewOf(ROOT_SCHEMAS[mode], ROOT_SCHEMAS[mode].$id, data);
  let value: unknown = data;
  for (const segment of path) {
    if (!view) return undefined;
    // Own data only: a spec key named `constructor` must not lead into Object.prototype.
    value = childValue(value, segment);
    view = typeof segment === 'number' ? view.items : (view.properties.get(segment) ?? view.additional);
    if (view && value !== undefined) view = refine(view, value);
  }
  return view;
}

/**
 * The view at `path` of a schema beside the spec's (the team policy's), whose `$ref`s may point into its own
 * `$defs` or into the common schema.
 */
export function schemaViewIn(schema: SchemaObject, path: JsonPath): SchemaView | undefined {
  const id = schema.$id as string;
  if (!byId.has(id)) byId.set(id, schema);
  let view: SchemaView | undefined = viewOf(schema, id, undefined);
  for (const segment of path) view = typeof segment === 'number' ? view?.items : (view?.properties.get(segment) ?? view?.additional);
  return view;
}

// Views are built lazily and cached by schema object and variant, since hovers and completions ask often.
const cache = new WeakMap<SchemaObject, Map<string, SchemaView>>();
const pending = new Map<SchemaObject, SchemaView>();

function viewOf(schema: SchemaObject, baseId: string, data: unknown): SchemaView {
  const variantKey = variantTag(schema, baseId, data) ?? '';
  let perVariant = cache.get(schema);
  const cached = perVariant?.get(variantKey);
  if (cached) return cached;
  const inProgress = pending.get(schema);
  if (inProgress) return inProgress;
  const view = buildView(schema, baseId, data);
  if (!perVariant) cache.set(schema, (perVariant = new Map<string, SchemaView>()));
  perVariant.set(variantKey, view);
  return view;
}

function refine(view: SchemaView, value: unknown): SchemaView {
  const source = viewSources.get(view);
  if (!source || variantTag(source.schema, source.baseId, value) === undefined) return view;
  return viewOf(source.schema, source.baseId, value);
}

const viewSources = new WeakMap<SchemaView, SchemaAt>();

function buildView(schema: SchemaObject, baseId: string, data: unknown): SchemaView {
  const parts = collectParts(schema, baseId, data);
  const properties = new Map<string, SchemaView>();
  const view: {
    -readonly [K in keyof SchemaView]: SchemaView[K];
  } = { types: [], properties, required: [], closed: false };
  pending.set(schema, view);
  try {
    for (const { schema: part, baseId: partBase } of parts) {
      view.description ??= part.description as string | undefined;
      if (typeof part.type === 'string') view.types.push(part.type);
      if (Array.isArray(part.type)) view.types.push(...(part.type as string[]));
      if ('const' in part) view.enum = [part.const];
      if (Array.isArray(part.enum)) view.enum = part.enum;
      // Looked up by the value under the cursor, which may be `toString`: a table without a prototype.
      if (isRecord(part['x-enumDescriptions'])) view.enumDescriptions ??= ownTable(part['x-enumDescriptions'] as Record<string, string>);
      if ('default' in part) view.default ??= part.default;
      view.examples ??= part.examples as unknown[] | undefined;
      view.minimum ??= part.minimum as number | undefined;
      view.maximum ??= part.maximum as number | undefined;
      view.hint ??= part['x-hint'] as string | undefined;
      if (Array.isArray(part.required)) view.required.push(...(part.required as string[]));
      if (part.additionalProperties === false || part.unevaluatedProperties === false) view.closed = true;
      if (isRecord(part.properties)) {
        for (const [name, child] of Object.entries(part.properties)) {
          const childView = viewOf(child as SchemaObject, partBase, undefined);
          const existing = properties.get(name);
          // The more specific view wins: a variant's `type` const over the union's enum of all variants.
          if (!existing || (childView.enum?.length ?? 99) < (existing.enum?.length ?? 99) || !existing.description) {
            properties.set(name, existing && !childView.description ? { ...childView, description: existing.description } : childView);
          }
        }
      }
      if (isRecord(part.items)) view.items = viewOf(part.items, partBase, undefined);
      if (isRecord(part.additionalProperties)) view.additional = viewOf(part.additionalProperties, partBase, undefined);
    }
  } finally {
    pending.delete(schema);
  }
  viewSources.set(view, { schema, baseId });
  return view;
}

/** The schema itself, the schemas it references, its `allOf` parts, and the chosen (or every) `oneOf` variant. */
function collectParts(schema: SchemaObject, baseId: string, data: unknown): SchemaAt[] {
  const parts: SchemaAt[] = [];
  const visit = (s: SchemaObject, base: string, depth: number): void => {
    if (depth > 16) return;
    parts.push({ schema: s, baseId: base });
    if (typeof s.$ref === 'string') {
      const resolved = resolveRef(s.$ref, base);
      if (resolved) visit(resolved.schema, resolved.baseId, depth + 1);
    }
    for (const sub of (s.allOf as SchemaObject[] | undefined) ?? []) visit(sub, base, depth + 1);
    const variants = (s.oneOf as SchemaObject[] | undefined) ?? [];
    const tag = discriminatorValue(s, data);
    for (const variant of variants) {
      const resolved = typeof variant.$ref === 'string' ? resolveRef(variant.$ref, base) : { schema: variant, baseId: base };
      if (!resolved) continue;
      const constant = (resolved.schema.properties as Record<string, SchemaObject> | undefined)?.[discriminatorProperty(s) ?? '']?.const;
      if (tag === undefined || constant === tag) visit(resolved.schema, resolved.baseId, depth + 1);
    }
  };
  visit(schema, baseId, 0);
  return parts;
}

/** What `ref` points to from `baseId` among `ids` (by `$id`): the bundled schemas unless given others. */
export function resolveRef(ref: string, baseId: string, ids: ReadonlyMap<string, SchemaObject> = byId): SchemaAt | undefined {
  const [file, pointer = ''] = ref.split('#');
  const id = file ? new URL(file, baseId).href : baseId;
  let target: unknown = ids.get(id);
  for (const token of pointerTokens(pointer)) target = childValue(target, Array.isArray(target) ? Number(token) : token);
  return isRecord(target) ? { schema: target, baseId: id } : undefined;
}

/** The discriminator value `data` selects, looking through `$ref`s to the schema that declares the union. */
function variantTag(schema: SchemaObject, baseId: string, data: unknown, depth = 0): string | undefined {
  const own = discriminatorValue(schema, data);
  if (own !== undefined || depth > 8 || typeof schema.$ref !== 'string') return own;
  const resolved = resolveRef(schema.$ref, baseId);
  return resolved ? variantTag(resolved.schema, resolved.baseId, data, depth + 1) : undefined;
}

function discriminatorProperty(schema: SchemaObject): string | undefined {
  return (schema.discriminator as { propertyName?: string } | undefined)?.propertyName;
}

function discriminatorValue(schema: SchemaObject, data: unknown): string | undefined {
  const property = discriminatorProperty(schema);
  if (!property || !isRecord(data)) return undefined;
  const value = data[property];
  return typeof value === 'string' ? value : undefined;
}
