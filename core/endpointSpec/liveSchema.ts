/**
 * The property paths a service's OpenAPI document accepts in a create body. A property the
 * bundled schema lacks but the live one has means the service is newer than this extension:
 * that is a warning to update, not an error to fix.
 */
import { isRecord } from './ownData';
import { valueAt } from './schemaValidation';
import { resolveRef, type SchemaObject } from './schemas';
import type { JsonPath } from './tree';

/** Paths such as `gpu.pools` and `cpu[].id`, from `components.schemas.CreateEndpointRequest`. */
export function createBodyPropertyPaths(openApi: unknown): Set<string> {
  const paths = new Set<string>();
  // Its `#/...` references point into the document itself.
  const document = new Map([['', openApi as SchemaObject]]);
  const visit = (raw: unknown, prefix: string, depth: number): void => {
    if (!isRecord(raw) || depth > 24) return;
    const schema = typeof raw.$ref === 'string' && raw.$ref.startsWith('#/') ? resolveRef(raw.$ref, '', document)?.schema : raw;
    if (!schema) return;
    if (schema !== raw) visit(schema, prefix, depth + 1);
    for (const key of ['allOf', 'anyOf', 'oneOf'] as const)
      for (const part of (schema[key] as unknown[] | undefined) ?? []) visit(part, prefix, depth + 1);
    if (schema.items) visit(schema.items, `${prefix}[]`, depth + 1);
    for (const [name, child] of Object.entries((schema.properties as Record<string, unknown> | undefined) ?? {})) {
      const path = prefix ? `${prefix}.${name}` : name;
      paths.add(path);
      visit(child, path, depth + 1);
    }
  };
  visit(valueAt(openApi, ['components', 'schemas', 'CreateEndpointRequest']), '', 0);
  return paths;
}

/** `['cpu', 0, 'id']` as `cpu[].id`, the form `createBodyPropertyPaths` uses. */
export function propertyPathKey(path: JsonPath): string {
  return path.reduce<string>((out, segment) => (typeof segment === 'number' ? `${out}[]` : out ? `${out}.${segment}` : segment), '');
}
