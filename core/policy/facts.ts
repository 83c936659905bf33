/**
 * What a policy finding carries beside its message, for the editor: the rule that found it and the limit it
 * broke (a hover names them and where the policy writes them), and for a pool the allowed pools with their VRAM
 * (a quick fix swaps a pool for an allowed one of the same VRAM). Plain data, so it travels in an LSP
 * diagnostic's `data` and back with a code-action request.
 */
import type { Catalog } from '../endpointSpec/catalog/catalog';
import type { SpecDiagnostic } from '../endpointSpec/check';
import type { SpecProblem } from '../endpointSpec/problem';
import { valueAt } from '../endpointSpec/schemaValidation';
import type { PolicyRule } from './policyFile';
import type { PolicyContext, PolicyFinding, PolicyRuleKind } from './rules';

/** A pool with its VRAM in GB, when the catalog knows it and its GPU types agree on it. */
interface PoolMemory {
  readonly id: string;
  readonly memoryGb?: number;
}

export interface PolicyFacts {
  /** The rule's `name`. */
  readonly rule: string;
  /** The rule's key that sets the limit broken (`maxWorkers`). */
  readonly limitKey: PolicyRuleKind['limit'];
  /** The limit as the rule writes it. */
  readonly limit: PolicyRule[PolicyRuleKind['limit']];
  /** For a pool not allowed: the allowed pools with their VRAM, and the VRAM of the pool written. */
  readonly allowedPools?: readonly PoolMemory[];
  readonly memoryGb?: number;
  /**
   * The diagnostic lies on the value the judged body holds; false for an environment's finding shown on its
   * base's line or on its overlay's `extends` line, where changing the text there would not change that value.
   */
  readonly onValue?: boolean;
}

/** A policy finding as a problem, with its facts. */
export type PolicyProblem = SpecProblem & { readonly policy: PolicyFacts };

/** The facts of `finding`, which `kind` found in `body` against `rule`. */
export function findingFacts(
  kind: PolicyRuleKind,
  rule: PolicyRule,
  finding: PolicyFinding,
  body: Record<string, unknown>,
  { catalog }: PolicyContext,
): PolicyFacts {
  const facts: PolicyFacts = { rule: rule.name, limitKey: kind.limit, limit: rule[kind.limit] };
  if (kind.limit !== 'allowedPools' || !catalog) return facts;
  const written = valueAt(body, finding.path);
  const memoryGb = typeof written === 'string' ? poolMemory(catalog, written) : undefined;
  return {
    ...facts,
    allowedPools: (rule.allowedPools ?? []).map((id) => withMemory(id, poolMemory(catalog, id))),
    ...(memoryGb === undefined ? {} : { memoryGb }),
  };
}

/** The facts a policy finding carries; undefined for any other diagnostic. */
export function policyFactsOf(diagnostic: SpecDiagnostic | SpecProblem): PolicyFacts | undefined {
  return (diagnostic as { readonly policy?: PolicyFacts }).policy;
}

/** `diagnostic` with the facts of the problem it was placed from, and where it lies. */
export function withFacts<T extends SpecDiagnostic>(diagnostic: T, problem: SpecProblem, onValue: boolean): T {
  const facts = policyFactsOf(problem);
  return facts ? { ...diagnostic, policy: { ...facts, onValue } } : diagnostic;
}

const withMemory = (id: string, memoryGb: number | undefined): PoolMemory => (memoryGb === undefined ? { id } : { id, memoryGb });

function poolMemory(catalog: Catalog, pool: string): number | undefined {
  const sizes = new Set(catalog.pools.get(pool)?.map((type) => type.memory));
  return sizes.size === 1 ? [...sizes][0] : undefined;
}
