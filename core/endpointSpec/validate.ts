/**
 * The one rule engine: schema validation plus every cross-field rule, on plain data. The editor,
 * the CLI and the emulator all call this, so they can never disagree about what is valid.
 */
import type { SpecProblem } from './problem';
import { SPEC_RULES } from './rules';
import { addFindings, toProblems, type RuleFinding } from './rules/rule';
import { schemaFindings, schemaProblems } from './schemaValidation';
import type { SpecMode } from './schemas';
import type { Catalog } from './catalog/catalog';
import { CATALOG_RULES, type CatalogRule } from './catalog/rules';
import { isLegacyBody } from './migrate';
import { legacyFields } from './rules/legacy';
import { propertyPathKey } from './liveSchema';
import { findingsAfter, type ValidationMemo } from './validationMemo';

export interface ValidationContext {
  /** The service's catalog; without it the catalog rules are skipped, never guessed. */
  readonly catalog?: Catalog;
  /** Create-body property paths the live service accepts (from its OpenAPI document). */
  readonly liveProperties?: ReadonlySet<string>;
}

/** Keys that editors and schema tooling add to a spec file; they are never sent to the service. */
const EDITOR_ONLY_KEYS = ['$schema'];

/** The body the service receives for a spec: the spec minus editor-only keys. */
export function toServiceBody(spec: Record<string, unknown>): Record<string, unknown> {
  // Spreading copies every key as data, a `__proto__` key included.
  const body = { ...spec };
  for (const key of EDITOR_ONLY_KEYS) Reflect.deleteProperty(body, key);
  return body;
}

/** What the rules read: the spec itself, or its service body when it has editor-only keys (rules never write). */
function serviceView(spec: Record<string, unknown>): Record<string, unknown> {
  for (let i = 0; i < EDITOR_ONLY_KEYS.length; i++) if (Object.hasOwn(spec, EDITOR_ONLY_KEYS[i])) return toServiceBody(spec);
  return spec;
}

/**
 * All problems of one spec. With a `catalog`, the catalog-aware rules run too; without one they
 * are skipped rather than guessed. With a `memo` of the same document's last validation, only the
 * rules and schema parts that read a changed top-level field run again.
 */
export function validateSpecData(
  data: unknown,
  mode: SpecMode = 'create',
  context: ValidationContext = {},
  memo?: ValidationMemo,
): SpecProblem[] {
  const problem = wholeSpecProblem(data);
  if (problem) {
    memo?.forget();
    return [problem];
  }
  const body = serviceView(data as Record<string, unknown>);
  // The memo's last spec had the same field names, and a v1 body is known by its names alone.
  const since = memo?.since(body, mode, context);
  // A v1 body breaks nearly every v2 rule; one conversion fixes them all, so only that is said.
  if (!since && isLegacyBody(body)) {
    memo?.forget();
    return toProblems(legacyFields, legacyFields.check(body));
  }
  const { catalog, liveProperties } = context;
  const rules = catalog ? RULES_WITH_CATALOG_BY_MODE[mode] : RULES_BY_MODE[mode];
  // Loops rather than chains of arrays: the editor runs this after every pause in typing.
  const findings: (readonly RuleFinding[])[] = [];
  const ruleProblems: SpecProblem[] = [];
  const previous = since?.last.findings;
  const edited = since && { body, changed: since.changed, catalog: catalog as Catalog };
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i];
    findings.push(edited && previous ? findingsAfter(rule, previous[i], edited) : rule.check(body, catalog as Catalog));
    addFindings(ruleProblems, rule, findings[i]);
  }
  const schema = schemaFindings(body, mode, since && { findings: since.last.schema, changed: since.changed });
  memo?.remember({ body, mode, catalog, liveProperties, findings, schema }, since !== undefined);
  const schemaProblemList = schemaProblems(schema, body);
  if (schemaProblemList.length === 0) return ruleProblems;
  // A rule that speaks about a spot says it better than the generic schema message there.
  // Only spots inside the spec: a rule about the whole spec (missing compute) leaves `required` alone.
  const claimed = ruleProblems.length > 0 ? new Set(ruleProblems.filter((p) => p.path.length > 0).map(spotKey)) : undefined;
  const problems: SpecProblem[] = [];
  for (let i = 0; i < schemaProblemList.length; i++) {
    const p = schemaProblemList[i];
    if (claimed?.has(spotKey(p))) continue;
    const newer = liveProperties && p.code === 'unknown-property' && liveProperties.has(propertyPathKey(p.path));
    problems.push(newer ? newerServiceProperty(p) : p);
  }
  for (let i = 0; i < ruleProblems.length; i++) problems.push(ruleProblems[i]);
  return problems;
}

/** The problem with a spec that is not a mapping at all, when it is not. */
function wholeSpecProblem(data: unknown): SpecProblem | undefined {
  if (data === undefined || data === null) {
    return {
      code: 'empty-spec',
      message: 'the spec is empty: start with name, type, scaling, and gpu or cpu (try the "New Endpoint Spec" command)',
      severity: 'error',
      path: [],
      target: 'value',
      status: 400,
    };
  }
  if (typeof data !== 'object' || Array.isArray(data)) {
    const got = Array.isArray(data) ? 'a list' : `a ${typeof data}`;
    return {
      code: 'not-a-mapping',
      message: `a spec is a mapping of fields (name, type, scaling, ...); got ${got}`,
      severity: 'error',
      path: [],
      target: 'value',
      status: 400,
    };
  }
  return undefined;
}

/** A spec rule or a catalog rule: spec rules ignore the catalog argument. */
type Rule = Pick<CatalogRule, 'code' | 'severity' | 'status' | 'reads' | 'check'>;

const RULES_BY_MODE: Readonly<Record<SpecMode, readonly Rule[]>> = {
  create: SPEC_RULES.filter((rule) => rule.modes.includes('create')),
  update: SPEC_RULES.filter((rule) => rule.modes.includes('update')),
};

const RULES_WITH_CATALOG_BY_MODE: Readonly<Record<SpecMode, readonly Rule[]>> = {
  create: [...RULES_BY_MODE.create, ...CATALOG_RULES],
  update: [...RULES_BY_MODE.update, ...CATALOG_RULES],
};

/** The service knows the property and this extension does not: the user should update, not delete. */
function newerServiceProperty(problem: SpecProblem): SpecProblem {
  const name = String(problem.path[problem.path.length - 1]);
  return {
    code: 'newer-service-property',
    message: `${name} is accepted by the service but unknown to this version of Endpoint Studio, so it is not checked; update the extension`,
    severity: 'warning',
    path: problem.path,
    target: 'key',
  };
}

function spotKey(problem: SpecProblem): string {
  return `${problem.target}|${JSON.stringify(problem.path)}`;
}
