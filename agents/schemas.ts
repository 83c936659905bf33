/**
 * Schema parts whose JSON Schema says what they mean to every MCP client. Zod writes "any other
 * field" and "any value" as `{}`, a schema without a single keyword, which strict schema checkers
 * (the MCP Inspector's `--strict`) report as untyped, and which clients that map tool schemas onto
 * a narrower dialect may reject. These parts accept exactly what zod's own would, and spell it out.
 */
import { z } from 'zod';

/**
 * An object with these fields and possibly others: a result that gains fields by situation, or
 * that passes the service's own record on. `additionalProperties: true` where zod writes `{}`.
 */
export function openObject<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  return z.looseObject(shape).meta({ additionalProperties: true });
}

/**
 * Any JSON value, each kind with its type. Not `z.json()`: that is a recursive `$ref`, which some
 * clients cannot follow in a tool's input, for no gain: the value is the user's or the service's.
 */
export function jsonValue() {
  return z.unknown().meta({
    anyOf: [
      { type: 'object', additionalProperties: true },
      { type: 'array' },
      { type: 'string' },
      { type: 'number' },
      { type: 'boolean' },
      { type: 'null' },
    ],
  });
}

/** A field a plan, a drift or a read-back changes: before = live, after = spec; either is absent when the field is. */
export const changeShape = z.object({ path: z.string(), before: jsonValue().optional(), after: jsonValue().optional() });

/** What a plan returns after its subject: its text and changes, and the token that applies it when it can be applied. */
export const plannedShape = { plan: z.string(), changes: z.array(changeShape), deployable: z.boolean(), planToken: z.string().optional() };

/** A problem placed in a spec: 1-based line and column, as editors and terminals show them. */
export const problemShape = z.object({
  line: z.number(),
  column: z.number(),
  severity: z.string(),
  code: z.string(),
  message: z.string(),
  path: z.string(),
  document: z.number(),
});
