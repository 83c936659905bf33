/**
 * Whether the team policy refuses a deploy, decided once for the CLI, the agents and the editor. A finding the
 * policy's `severity` left an error refuses; one silenced with a reason, or graded down to a warning, does not.
 * A broken policy file refuses every deploy under it, even when its `policy-invalid` error was silenced on a
 * spec's line: a typo or a comment must never turn the policy off.
 */
import type { SpecDiagnostic } from '../endpointSpec/check';
import { POLICY_FILE, rulesFor, type PolicyFile } from '../policy';
import type { CheckSpecResult } from './checkSpec';

export type PolicyRefusalCode = 'policy-invalid' | 'policy-violation';

export interface PolicyRefusal {
  /** `policy-invalid`: the policy file is broken; `policy-violation`: the spec breaks a rule of it. */
  readonly code: PolicyRefusalCode;
  /** One line naming the finding (and the rule it breaks), or what breaks the policy file. */
  readonly message: string;
  /** The policy's error findings; empty for a broken policy file. */
  readonly findings: readonly SpecDiagnostic[];
}

/**
 * The policy's refusal of the documents given (all when absent): its file broken, or every error among their
 * diagnostics a policy finding. Undefined when it does not refuse, or when the spec has errors of its own, which
 * a caller reports as an invalid spec (the policy's findings among them).
 */
export function policyRefusal(
  checked: { readonly diagnostics: readonly SpecDiagnostic[]; readonly policy?: PolicyFile },
  documentIndexes?: readonly number[],
): PolicyRefusal | undefined {
  const { policy } = checked;
  if (policy && !policy.policy) return { code: 'policy-invalid', message: brokenPolicyMessage(policy), findings: [] };
  const errors = checked.diagnostics.filter(
    (d) => d.severity === 'error' && (!documentIndexes || documentIndexes.includes(d.documentIndex)),
  );
  // Codes of the team policy: its rule kinds, `policy-invalid` and `policy-cost-unchecked`.
  if (errors.length === 0 || !errors.every((d) => d.code.startsWith('policy-'))) return undefined;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return { code: 'policy-violation', message: `${errors[0].message}${more}`, findings: errors };
}

/** `.endpoint-studio/policy.yaml is broken, so deploys are refused until it is fixed: line 3: ...`. */
export function brokenPolicyMessage(policy: PolicyFile): string {
  const first = policy.problems.at(0);
  const where = first ? `: line ${first.range.start.line + 1}: ${first.message}` : '';
  return `${POLICY_FILE} is broken, so deploys are refused until it is fixed${where}`;
}

/**
 * Whether a cost limit of the policy judges the spec while its check had no catalog to price it: a deploy then
 * reads the service's prices and checks again, so a key is enough to hold a deploy to its budget.
 */
export function costLimitUnpriced(checked: Pick<CheckSpecResult, 'policy' | 'catalog' | 'overlay'>): boolean {
  const policy = checked.policy?.policy;
  if (!policy || checked.catalog) return false;
  return rulesFor(policy, checked.overlay?.environment).some((rule) => rule.maxCostPerHour !== undefined);
}
