/**
 * The property paths a service's OpenAPI document accepts in a create body. A property the
 * bundled schema lacks but the live one has means the service is newer than this extension:
 * that is a warning to update, not an error to fix.
 */
import { pointerTokens, type JsonPath } from './tree';

type Loose = Record<string, unknown>;

/** Paths such as `gpu.pools` and `cpu[].id`, from `components.schemas.CreateEndpointRequest`. */
export function createBodyPropertyPaths(openApi: unknown): Set<string> {
  const paths = new Set<string>();
  const schemas = ((openApi as Loose | null)?.components as Loose | undefined)?.schemas as Loose | undefined;
  const root = schemas?.CreateEndpointRequest;
  if (!root || typeof root !== 'object') return paths;
  const resolve = (schema: Loose): Loose | undefined => {
    const ref = schema.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/')) return schema;
    let target: unknown = openApi;
    for (const token of pointerTokens(ref.slice(1))) target = (target as Loose | undefined)?.[token];
    return target && typeof target === 'object' ? (target as Loose) : undefined;
  };
  const visit = (raw: unknown, prefix: string, depth: number): void => {
    if (!raw || typeof raw !== 'object' || depth > 24) return;
    const schema = resolve(raw as Loose);
    if (!schema) return;
    if (schema !== raw) visit(schema, prefix, depth + 1);
    for (const key of ['allOf', 'anyOf', 'oneOf'] as const)
      for (const part of (schema[key] as unknown[] | undefined) ?? []) visit(part, prefix, depth + 1);
    if (schema.items) visit(schema.items, `${prefix}[]`, depth + 1);
    for (const [name, child] of Object.entries((schema.properties as Loose | undefined) ?? {})) {
      const path = prefix ? `${prefix}.${name}` : name;
      paths.add(path);
      visit(child, path, depth + 1);
    }
  };
  visit(root, '', 0);
  return paths;
}

/** `['cpu', 0, 'id']` as `cpu[].id`, the form `createBodyPropertyPaths` uses. */
export function propertyPathKey(path: JsonPath): string {
  return path.reduce<string>((out, segment) => (typeof segment === 'number' ? `${out}[]` : out ? `${out}.${segment}` : segment), '');
}
