/**
 * The contract's key order, which formatting can put a spec's keys in: the create body's fields as a spec
 * file shows them (`CREATE_ENDPOINT_FIELDS`), and inside a section the order its schema lists its members.
 */
import { CREATE_ENDPOINT_FIELDS } from '../../core/api/types';
import { schemaViewAt } from '../../core/endpointSpec/schemas';
import type { JsonPath } from '../../core/endpointSpec/tree';

/** The keys of the mapping at `path` in the contract's order; empty where the contract names none (`env`). */
export function contractKeyOrder(path: JsonPath, data: unknown): readonly string[] {
  if (path.length === 0) return CREATE_ENDPOINT_FIELDS;
  return [...(schemaViewAt(path, data)?.properties.keys() ?? [])];
}

/**
 * `entries` sorted into the contract's order at `path`, stably: keys it does not know keep their own order
 * after the ones it does.
 */
export function inContractOrder<T>(entries: readonly T[], keyOf: (entry: T) => string | undefined, path: JsonPath, data: unknown): T[] {
  const order = contractKeyOrder(path, data);
  if (order.length === 0) return [...entries];
  const rank = (entry: T, index: number): number => {
    const key = keyOf(entry);
    const at = key === undefined ? -1 : order.indexOf(key);
    return at === -1 ? order.length + index : at;
  };
  return entries
    .map((entry, index) => ({ entry, rank: rank(entry, index) }))
    .sort((a, b) => a.rank - b.rank)
    .map((ranked) => ranked.entry);
}
