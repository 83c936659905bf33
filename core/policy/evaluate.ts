/**
 * Which rules of the policy judge a spec, and what they find in the body it deploys. A spec that is not an
 * overlay belongs to no environment, so only the rules without `environments` judge it; an overlay is judged on
 * its merged body by those and by the rules naming its environment. Findings are problems like the engine's
 * (a JSON path, key or value), so they are located, shown and counted the same way.
 */
import { isRecord } from '../endpointSpec/ownData';
import { findingFacts, type PolicyProblem } from './facts';
import type { Policy, PolicyRule } from './policyFile';
import { POLICY_RULE_KINDS, type PolicyContext } from './rules';

/** The rules that judge a spec of `environment` (undefined: a spec that is not an overlay). */
export function rulesFor(policy: Policy, environment: string | undefined): PolicyRule[] {
  return policy.rules.filter(
    (rule) => rule.environments === undefined || (environment !== undefined && rule.environments.includes(environment)),
  );
}

/**
 * The body's findings against `rules`, each naming the rule it breaks, with the facts the editor shows and fixes
 * them by; none for a body that is not a mapping.
 */
export function evaluatePolicy(body: unknown, rules: readonly PolicyRule[], context: PolicyContext): PolicyProblem[] {
  if (rules.length === 0 || !isRecord(body)) return [];
  const problems: PolicyProblem[] = [];
  for (const rule of rules)
    for (const kind of POLICY_RULE_KINDS)
      for (const finding of kind.check(body, rule, context))
        problems.push({
          code: finding.code ?? kind.code,
          severity: finding.severity ?? 'error',
          message: `${finding.message} (policy ${rule.name})`,
          path: finding.path,
          target: finding.target,
          policy: findingFacts(kind, rule, finding, body, context),
        });
  return problems;
}
