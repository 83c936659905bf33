/**
 * Spec data is user text all the way down: any key, `toString`, `constructor` and `__proto__`
 * included, can stand where a field name is expected, and any string where a table is indexed.
 * A plain `{}`, `key in table` or `table[key]` also sees Object.prototype's members, so every read
 * by a name that came from a spec goes through these, which see a mapping's own data only.
 */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `table[key]` when `key` is one of the table's own entries; `undefined` for `toString` and the like. */
export function ownValue<V>(table: Readonly<Record<string, V>> | undefined, key: string): V | undefined {
  return table !== undefined && Object.hasOwn(table, key) ? table[key] : undefined;
}

/** The item or own property `segment` of a list or mapping; `undefined` for anything else. */
export function childValue(value: unknown, segment: string | number): unknown {
  if (Array.isArray(value)) return typeof segment === 'number' ? (value as unknown[])[segment] : undefined;
  return isRecord(value) && Object.hasOwn(value, segment) ? value[segment] : undefined;
}

/** Writes `key` as data: an assignment to `__proto__` would change the prototype instead. */
export function setOwnValue(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A copy of a table of names that answers only for its own entries (no prototype behind it). */
export function ownTable<V>(entries: Readonly<Record<string, V>>): Readonly<Record<string, V>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, V>, entries));
}

/**
 * Equality of JSON-like data (what `uniqueItems` means): same lists item by item, same mappings
 * key by key, reading own keys only, so a mapping with a `valueOf` or `toString` key compares like
 * any other. Iterative: a list nested a hundred thousand levels deep costs a loop, not the stack.
 * With `keysInOrder`, mappings must also list their keys in the same order (as problems and findings do).
 */
export function sameData(a: unknown, b: unknown, keysInOrder = false): boolean {
  const pending: [unknown, unknown][] = [[a, b]];
  for (let pair = pending.pop(); pair !== undefined; pair = pending.pop()) {
    const [x, y] = pair;
    if (x === y) continue;
    // NaN (YAML can write `.nan`) equals itself here, as in the deep equality ajv ships with.
    if (typeof x === 'number' && typeof y === 'number' && Number.isNaN(x) && Number.isNaN(y)) continue;
    if (Array.isArray(x) && Array.isArray(y)) {
      if (x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) pending.push([x[i], y[i]]);
    } else if (isRecord(x) && isRecord(y)) {
      const keys = Object.keys(x);
      const otherKeys = Object.keys(y);
      if (keys.length !== otherKeys.length) return false;
      if (keysInOrder ? keys.some((key, i) => key !== otherKeys[i]) : !keys.every((key) => Object.hasOwn(y, key))) return false;
      for (const key of keys) pending.push([x[key], y[key]]);
    } else {
      return false;
    }
  }
  return true;
}
