/**
 * What the last validation of one document found, so that the check after an edit runs again only what
 * reads a changed top-level field. A rule that reads none of them keeps its findings (each rule declares the
 * fields it reads, and a test holds it to that), and so do the schema's problems inside unchanged fields
 * (schemaValidation.ts). The problems are always those a fresh validation gives: the tests compare the two
 * over every fixture and thousands of random edits.
 */
import type { Catalog } from './catalog/catalog';
import type { FieldsRead, RuleFinding } from './rules/rule';
import { ownSubset, sameData } from './ownData';
import type { SchemaFindings } from './schemaValidation';
import type { SpecMode } from './schemas';
import type { ValidationContext } from './validate';

export interface Validation {
  readonly body: Record<string, unknown>;
  readonly mode: SpecMode;
  readonly catalog?: Catalog;
  readonly liveProperties?: ReadonlySet<string>;
  /** Per rule, in the order validate.ts runs them. */
  readonly findings: readonly (readonly RuleFinding[])[];
  readonly schema: SchemaFindings;
}

export class ValidationMemo {
  private last?: { validation: Validation; fields: readonly string[] };

  /**
   * The last validation and the top-level fields of `body` whose values differ from it, or nothing when it
   * cannot be built on: another mode or catalog, or fields added, removed or reordered (the schema's verdict
   * on the fields' names, and rules that read every field, depend on those).
   */
  since(body: Record<string, unknown>, mode: SpecMode, context: ValidationContext): { last: Validation; changed: Set<string> } | undefined {
    const last = this.last;
    if (!last) return undefined;
    const { validation, fields } = last;
    if (validation.mode !== mode || validation.catalog !== context.catalog || validation.liveProperties !== context.liveProperties)
      return undefined;
    const changed = new Set<string>();
    let count = 0;
    for (const field in body) {
      if (!Object.hasOwn(body, field)) continue;
      if (fields[count++] !== field) return undefined;
      // Most fields are the very objects the last check saw (scalarEdit.ts shares them): no comparison to make.
      const value = body[field];
      const before = validation.body[field];
      if (value !== before && !sameData(value, before, true)) changed.add(field);
    }
    return count === fields.length ? { last: validation, changed } : undefined;
  }

  /** `sameFields`: the body has the fields of the last one, as `since` found, so their list is kept. */
  remember(validation: Validation, sameFields: boolean): void {
    const fields = sameFields && this.last ? this.last.fields : Object.keys(validation.body);
    this.last = { validation, fields };
  }

  forget(): void {
    this.last = undefined;
  }
}

/** A rule as validate.ts runs it: spec rules ignore the catalog. */
export interface MemoRule {
  readonly reads: FieldsRead;
  check(spec: Record<string, unknown>, catalog: Catalog): RuleFinding[];
}

/** The spec after an edit, as the rules see it: its body, the top-level fields the edit changed, the catalog. */
export interface EditedSpec {
  readonly body: Record<string, unknown>;
  readonly changed: ReadonlySet<string>;
  readonly catalog: Catalog;
}

/** The rule's findings for the edited spec, from its `previous` ones where what it reads did not change. */
export function findingsAfter(rule: MemoRule, previous: readonly RuleFinding[], spec: EditedSpec): readonly RuleFinding[] {
  const { reads } = rule;
  const { body, changed, catalog } = spec;
  if (reads === 'names' || changed.size === 0) return previous;
  if (reads === 'each') return eachFieldAfter(rule, previous, spec);
  for (let i = 0; i < reads.length; i++) if (changed.has(reads[i])) return rule.check(body, catalog);
  return previous;
}

/** A rule that looks at each field on its own runs on the changed fields only; the findings stay in the fields' order. */
function eachFieldAfter(rule: MemoRule, previous: readonly RuleFinding[], { body, changed, catalog }: EditedSpec): readonly RuleFinding[] {
  const fresh = rule.check(ownSubset(body, changed), catalog);
  if (fresh.length === 0 && previous.every((finding) => !changed.has(String(finding.path[0])))) return previous;
  const findings: RuleFinding[] = [];
  for (const field in body) {
    if (!Object.hasOwn(body, field)) continue;
    const source = changed.has(field) ? fresh : previous;
    for (let i = 0; i < source.length; i++) if (source[i].path[0] === field) findings.push(source[i]);
  }
  return findings;
}
