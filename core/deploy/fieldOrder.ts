/**
 * One order for an endpoint configuration's fields wherever two of them are read side by side: the create body's
 * fields in their order, the fields of `gpu`, `workers`, `scaling` (and of each `cpu` item) in their schema's, `env`
 * by key. The plan lists its changes in it and both sides of a live ↔ spec diff are written in it, so a key that
 * only sits elsewhere in the file is never read as a change.
 */
import { schemaViewAt } from '../endpointSpec/schemas';
import type { JsonPathSegment } from '../endpointSpec/tree';
import { CREATE_ENDPOINT_FIELDS } from '../api/types';
import type { Spec } from './effective';
import { record } from '../endpointSpec/rules/rule';

const childOrders = new Map<string, readonly string[]>();

/** The schema's order of the fields of the object at `path` (list items as index 0); empty where the schema has none. */
function schemaOrder(path: readonly JsonPathSegment[]): readonly string[] {
  const key = path.map((segment) => (typeof segment === 'number' ? '[]' : segment)).join('.');
  let order = childOrders.get(key);
  if (!order) childOrders.set(key, (order = [...(schemaViewAt(path)?.properties.keys() ?? [])]));
  return order;
}

/**
 * Where a field sorts: the create body's fields in their order, the fields of `gpu`, `workers` and `scaling` in their
 * schema's; `env.*` sorts at the place of `env` (by key among themselves, which the caller breaks ties with), and
 * what neither knows comes last.
 */
export function fieldRank(segments: readonly JsonPathSegment[]): number {
  const [field, child] = segments;
  const top = CREATE_ENDPOINT_FIELDS.findIndex((name) => name === field);
  if (top < 0) return Number.MAX_SAFE_INTEGER;
  const nested = field !== 'env' && typeof field === 'string' && typeof child === 'string' ? schemaOrder([field]).indexOf(child) : -1;
  return top * 100 + nested + 1;
}

/** Sorts `keys` by their place in `order`; keys it does not name keep their own order, after the ones it does. */
function sortedBy(keys: readonly string[], order: readonly string[]): string[] {
  const place = (key: string): number => {
    const at = order.indexOf(key);
    return at < 0 ? order.length : at;
  };
  return [...keys].sort((a, b) => place(a) - place(b));
}

function keysInOrder(object: Spec, path: readonly JsonPathSegment[]): string[] {
  const keys = Object.keys(object);
  if (path.length === 0) return sortedBy(keys, CREATE_ENDPOINT_FIELDS);
  if (path.length === 1 && path[0] === 'env') return keys.sort();
  return sortedBy(keys, schemaOrder(path));
}

function ordered(value: unknown, path: readonly JsonPathSegment[]): unknown {
  if (Array.isArray(value)) return value.map((item: unknown) => ordered(item, [...path, 0]));
  const object = record(value);
  if (!object) return value;
  return Object.fromEntries(keysInOrder(object, path).map((key) => [key, ordered(object[key], [...path, key])]));
}

/**
 * A copy of a spec (or of a live endpoint as a spec) with its keys in the one order: the create body's fields, then
 * any the create body does not know in their own order; nested objects in their schema's order; `env` by key.
 */
export function inSpecOrder(spec: Spec): Spec {
  return ordered(spec, []) as Spec;
}
