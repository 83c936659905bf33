/**
 * The facts of the contract that code acts on: what a create body left out defaults to, the bounds
 * of numbers, and which fields a combination of values rules out. They are read from the JSON
 * Schemas (schemas/*.json), so the rules, the deploy planner, the emulator, the cost model and
 * migration all follow the schema instead of each keeping a copy that can drift from it.
 *
 * Fields are named by their path from the body root, the way liveSchema names them:
 * `workers.idleTimeout`, `gpu.count`, `cpu[].vcpuCount` (`[]` for every item of an array).
 */
import commonSchema from '../../schemas/common.schema.json';
import createSchema from '../../schemas/endpoint-create.schema.json';
import { isRecord } from './ownData';
import { resolveRef, type SchemaObject } from './schemas';

export type FieldPath = string;

/** The value of `x-notApplicableWhen`: field paths (no `[]`) with the value each must have. */
export type FieldConditions = Readonly<Record<FieldPath, unknown>>;

export interface ContractFacts {
  /** Every `default` the create schema states, by field path. */
  readonly defaults: ReadonlyMap<FieldPath, unknown>;
  readonly minimums: ReadonlyMap<FieldPath, number>;
  readonly maximums: ReadonlyMap<FieldPath, number>;
  /** The unit of a number (`s`, `ms`), as the schema's `x-unit` states it. */
  readonly units: ReadonlyMap<FieldPath, string>;
  /** Fields the service refuses, and leaves out of the endpoint, when all of their conditions hold. */
  readonly notApplicableWhen: ReadonlyMap<FieldPath, FieldConditions>;
}

export interface ContractSchemas {
  /** The create body's schema: its defaults are what a create that leaves a field out gets. */
  readonly create: SchemaObject;
  /** The schemas its `$ref`s reach, found by `$id`. */
  readonly referenced: readonly SchemaObject[];
}

const BUNDLED: ContractSchemas = { create: createSchema, referenced: [commonSchema] };
// The schemas nest a few levels deep; the bound only stops a `$ref` cycle.
const MAX_DEPTH = 32;

/** The facts stated by `schemas`. Pure: the schemas are only read. */
export function readContract(schemas: ContractSchemas): ContractFacts {
  const byId = new Map<string, SchemaObject>();
  for (const schema of [schemas.create, ...schemas.referenced]) if (typeof schema.$id === 'string') byId.set(schema.$id, schema);
  const facts: CollectedFacts = {
    defaults: new Map(),
    minimums: new Map(),
    maximums: new Map(),
    units: new Map(),
    notApplicableWhen: new Map(),
  };
  const visit = (node: unknown, baseId: string, path: FieldPath, depth: number): void => {
    if (!isRecord(node) || depth > MAX_DEPTH) return;
    // A referencing site's keywords come before the referenced schema's, so they win.
    if (path !== '') collectFacts(node, path, facts);
    if (typeof node.$ref === 'string') {
      const target = resolveRef(node.$ref, baseId, byId);
      if (target) visit(target.schema, target.baseId, path, depth + 1);
    }
    for (const keyword of ['allOf', 'anyOf', 'oneOf'])
      for (const part of Array.isArray(node[keyword]) ? node[keyword] : []) visit(part, baseId, path, depth + 1);
    if (isRecord(node.properties))
      for (const [name, child] of Object.entries(node.properties)) visit(child, baseId, path ? `${path}.${name}` : name, depth + 1);
    if (isRecord(node.items)) visit(node.items, baseId, `${path}[]`, depth + 1);
  };
  visit(schemas.create, typeof schemas.create.$id === 'string' ? schemas.create.$id : '', '', 0);
  return facts;
}

interface CollectedFacts extends ContractFacts {
  readonly defaults: Map<FieldPath, unknown>;
  readonly minimums: Map<FieldPath, number>;
  readonly maximums: Map<FieldPath, number>;
  readonly units: Map<FieldPath, string>;
  readonly notApplicableWhen: Map<FieldPath, FieldConditions>;
}

function collectFacts(node: Record<string, unknown>, path: FieldPath, facts: CollectedFacts): void {
  if ('default' in node && !facts.defaults.has(path)) facts.defaults.set(path, node.default);
  if (typeof node.minimum === 'number' && !facts.minimums.has(path)) facts.minimums.set(path, node.minimum);
  if (typeof node.maximum === 'number' && !facts.maximums.has(path)) facts.maximums.set(path, node.maximum);
  if (typeof node['x-unit'] === 'string' && !facts.units.has(path)) facts.units.set(path, node['x-unit']);
  const conditions = node['x-notApplicableWhen'];
  if (conditions === undefined || facts.notApplicableWhen.has(path)) return;
  if (!isRecord(conditions) || Object.keys(conditions).length === 0 || Object.keys(conditions).some((key) => key.includes('[]')))
    throw new Error(`x-notApplicableWhen at ${path} must be an object of field paths (without []) to values`);
  facts.notApplicableWhen.set(path, conditions);
}

let source: ContractSchemas = BUNDLED;
let current: ContractFacts | undefined;

/** The facts of the schemas in force (the bundled ones), read once on first use. */
export function contract(): ContractFacts {
  current ??= readContract(source);
  return current;
}

/**
 * Puts the facts of `schemas` in force for every consumer (the bundled schemas when omitted), so
 * a change made to a schema alone can be followed through the rules, the planner and the emulator.
 */
export function useContractSchemas(schemas: ContractSchemas = BUNDLED): void {
  source = schemas;
  current = undefined;
}

/** The create default of a field, undefined when the schema states none. */
export function createDefault(path: FieldPath): unknown {
  return contract().defaults.get(path);
}

export function defaultNumber(path: FieldPath): number {
  const value = createDefault(path);
  if (typeof value !== 'number') throw new Error(`the create schema states no numeric default for ${path}`);
  return value;
}

export function defaultString(path: FieldPath): string {
  const value = createDefault(path);
  if (typeof value !== 'string') throw new Error(`the create schema states no string default for ${path}`);
  return value;
}

export function minimumOf(path: FieldPath): number {
  const value = contract().minimums.get(path);
  if (value === undefined) throw new Error(`the create schema states no minimum for ${path}`);
  return value;
}

/** The unit the schema gives a number field (`s`, `ms`), undefined when it gives none. */
export function unitOf(path: FieldPath): string | undefined {
  return contract().units.get(path);
}

/** The conditions under which the service refuses a field, undefined when it always accepts it. */
export function notApplicableWhen(path: FieldPath): FieldConditions | undefined {
  return contract().notApplicableWhen.get(path);
}

/** Whether `body` (a spec, a create body or a stored endpoint) may hold the field. */
export function fieldApplies(path: FieldPath, body: unknown): boolean {
  const conditions = notApplicableWhen(path);
  if (!conditions) return true;
  // A loop without arrays or closures: the rules ask this on every check the editor runs.
  for (const field in conditions) if (valueAtPath(body, field) !== conditions[field]) return true;
  return false;
}

/** Conditions as a reader would say them: `type is QUEUE and scaling.type is REQUEST_COUNT`. */
export function describeConditions(conditions: FieldConditions): string {
  return Object.entries(conditions)
    .map(([field, value]) => `${field} is ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' and ');
}

/** Each condition's path cut once: the rules read them on every check, and the same strings look up fastest. */
const pathSegments = new Map<FieldPath, readonly string[]>();

function valueAtPath(body: unknown, path: FieldPath): unknown {
  let segments = pathSegments.get(path);
  if (!segments) pathSegments.set(path, (segments = path.split('.')));
  let value = body;
  for (let i = 0; i < segments.length; i++) value = isRecord(value) ? value[segments[i]] : undefined;
  return value;
}
