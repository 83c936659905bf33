/**
 * The one rule engine: schema validation plus every cross-field rule, on plain data. The editor,
 * the CLI and the emulator all call this, so they can never disagree about what is valid.
 */
import { isRecord } from './ownData';
import type { SpecProblem } from './problem';
import { SPEC_RULES } from './rules';
import { addFindings, type SpecRule } from './rules/rule';
import { validateAgainstSchema } from './schemaValidation';
import type { SpecMode } from './schemas';
import type { Catalog } from './catalog/catalog';
import { CATALOG_RULES } from './catalog/rules';
import { isLegacyBody } from './migrate';
import { legacyFields } from './rules/legacy';
import { propertyPathKey } from './liveSchema';

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

/**
 * All problems of one spec. With a `catalog`, the catalog-aware rules run too; without one they
 * are skipped rather than guessed.
 */
export function validateSpecData(data: unknown, mode: SpecMode = 'create', context: ValidationContext = {}): SpecProblem[] {
  if (!isRecord(data)) return [wholeSpecProblem(data)];
  const body = toServiceBody(data);
  // A v1 body breaks nearly every v2 rule; one conversion fixes them all, so only that is said.
  if (isLegacyBody(body)) return addFindings([], legacyFields, legacyFields.check(body));
  const { catalog, liveProperties } = context;
  const ruleProblems: SpecProblem[] = [];
  for (const rule of RULES_BY_MODE[mode]) addFindings(ruleProblems, rule, rule.check(body));
  if (catalog) for (const rule of CATALOG_RULES) addFindings(ruleProblems, rule, rule.check(body, catalog));
  const schemaProblems = validateAgainstSchema(body, mode);
  if (schemaProblems.length === 0) return ruleProblems;
  // A rule that speaks about a spot says it better than the generic schema message there.
  // Only spots inside the spec: a rule about the whole spec (missing compute) leaves `required` alone.
  const claimed = new Set(ruleProblems.filter((p) => p.path.length > 0).map(spotKey));
  const kept = schemaProblems
    .filter((p) => !claimed.has(spotKey(p)))
    .map((p) =>
      liveProperties && p.code === 'unknown-property' && liveProperties.has(propertyPathKey(p.path)) ? newerServiceProperty(p) : p,
    );
  return [...kept, ...ruleProblems];
}

/** The problem with a spec that is not a mapping at all. */
function wholeSpecProblem(data: unknown): SpecProblem {
  const empty = data === undefined || data === null;
  const got = Array.isArray(data) ? 'a list' : `a ${typeof data}`;
  return {
    code: empty ? 'empty-spec' : 'not-a-mapping',
    message: empty
      ? 'the spec is empty: start with name, type, scaling, and gpu or cpu (try the "New Endpoint Spec" command)'
      : `a spec is a mapping of fields (name, type, scaling, ...); got ${got}`,
    severity: 'error',
    path: [],
    target: 'value',
    status: 400,
  };
}

const RULES_BY_MODE: Readonly<Record<SpecMode, readonly SpecRule[]>> = {
  create: SPEC_RULES.filter((rule) => rule.modes.includes('create')),
  update: SPEC_RULES.filter((rule) => rule.modes.includes('update')),
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
