/**
 * What the tests hold tool schemas to. `strictFindings` applies the checks the MCP Inspector's
 * `--strict` runs on a tools/list answer (its schema portability lint, Inspector 2.x): a bare
 * boolean where a schema belongs, a `type` array, a `$ref` outside the document, and a schema with
 * no validation keyword at all (zod's `{}` for "anything"). `structuredContentChecker` checks a
 * result's structured content against the output schema the server listed, as a client does.
 */
import Ajv, { type ValidateFunction } from 'ajv';

export interface SchemaFinding {
  readonly rule: 'boolean-schema' | 'type-union' | 'remote-ref' | 'untyped-schema';
  readonly path: string;
}

/** Keywords whose value may be a bare boolean: `additionalProperties: true` is fine, `items: true` is not. */
const BOOLEAN_VALUED = new Set(['additionalProperties', 'unevaluatedProperties', 'additionalItems', 'unevaluatedItems']);
const SUBSCHEMA = [
  'items',
  'contains',
  'not',
  'propertyNames',
  'if',
  'then',
  'else',
  'additionalProperties',
  'unevaluatedProperties',
  'additionalItems',
  'unevaluatedItems',
  'contentSchema',
];
const SUBSCHEMA_ARRAYS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', 'dependentSchemas', 'dependencies', '$defs', 'definitions'];
/** A schema with none of these (and no if with then or else) accepts every value. */
const CONSTRAINING = new Set([
  ...['type', 'enum', 'const', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum'],
  ...['maxLength', 'minLength', 'pattern', 'format', 'contentMediaType', 'contentEncoding', 'contentSchema'],
  ...['maxItems', 'minItems', 'uniqueItems', 'maxContains', 'minContains', 'maxProperties', 'minProperties'],
  ...['required', 'dependentRequired', 'allOf', 'anyOf', 'oneOf', 'not', 'items', 'prefixItems', 'contains'],
  ...['additionalItems', 'unevaluatedItems', 'properties', 'patternProperties', 'additionalProperties'],
  ...['unevaluatedProperties', 'propertyNames', 'dependentSchemas', 'dependencies', '$ref', '$dynamicRef', '$recursiveRef'],
]);

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every finding in one schema, with the path as the Inspector prints it (`properties.input`). */
export function strictFindings(schema: unknown): SchemaFinding[] {
  const findings: SchemaFinding[] = [];
  walk(schema, '', undefined, findings);
  return findings;
}

function walk(node: unknown, path: string, keyword: string | undefined, findings: SchemaFinding[]): void {
  if (typeof node === 'boolean') {
    if (keyword === undefined || !BOOLEAN_VALUED.has(keyword)) findings.push({ rule: 'boolean-schema', path });
    return;
  }
  if (!isNode(node)) return;
  if (Array.isArray(node.type)) findings.push({ rule: 'type-union', path });
  if (typeof node.$ref === 'string' && node.$ref !== '' && !node.$ref.startsWith('#')) findings.push({ rule: 'remote-ref', path });
  const constrains = Object.keys(node).some((key) => CONSTRAINING.has(key)) || ('if' in node && ('then' in node || 'else' in node));
  if (!constrains && keyword !== 'not') findings.push({ rule: 'untyped-schema', path });
  for (const [sub, subPath, subKeyword] of subschemas(node, path)) walk(sub, subPath, subKeyword, findings);
}

/** Each schema directly inside `node`, with its path and the keyword it sits under. */
function* subschemas(node: Node, path: string): Generator<[unknown, string, string]> {
  const child = (key: string) => (path === '' ? key : `${path}.${key}`);
  for (const key of SUBSCHEMA_MAPS) {
    const map = node[key];
    if (isNode(map)) for (const [name, sub] of Object.entries(map)) yield [sub, `${child(key)}.${name}`, key];
  }
  for (const key of [...SUBSCHEMA_ARRAYS, 'items']) {
    const list = node[key];
    if (Array.isArray(list)) for (const [i, sub] of list.entries()) yield [sub, `${child(key)}[${i}]`, key];
  }
  for (const key of SUBSCHEMA) if (key in node && !(key === 'items' && Array.isArray(node.items))) yield [node[key], child(key), key];
}

interface ListedTool {
  readonly name: string;
  readonly outputSchema?: Record<string, unknown>;
}

/**
 * Asserts a tool's structured content is valid under the output schema the server listed for it. Ajv
 * in strict mode, so a schema that only loosely means something fails to compile rather than passing all.
 */
export function structuredContentChecker(tools: readonly ListedTool[]): (tool: string, structured: unknown) => string | undefined {
  const ajv = new Ajv({ allErrors: true, strict: true });
  const validators = new Map<string, ValidateFunction>();
  for (const tool of tools) if (tool.outputSchema) validators.set(tool.name, ajv.compile(tool.outputSchema));
  return (tool, structured) => {
    const validate = validators.get(tool);
    if (!validate) return `${tool} lists no output schema`;
    return validate(structured) ? undefined : `${tool}: ${ajv.errorsText(validate.errors)}`;
  };
}
