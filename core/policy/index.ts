/**
 * The team policy (`.endpoint-studio/policy.yaml`): limits every spec is judged by, the grade of any code, and
 * the findings silenced with a reason. The workspace's owner of spec files applies it to each check it makes.
 */
export { applyPolicy, isGoverned, type BaseDiagnostic, type SpecUnderPolicy, type SpecWithPolicy } from './applyPolicy';
export { everyDocumentedCode, knownCodes, policyDocumentedCodes } from './codes';
export { evaluatePolicy, rulesFor } from './evaluate';
export { policyFactsOf, type PolicyFacts, type PoolMemory } from './facts';
export { findPolicy, type PolicyLookup, type PolicyView } from './find';
export { bareIgnores, govern, IGNORE_MARKER, ignoreComments, type Suppression, type SuppressedDiagnostic } from './govern';
export {
  parsePolicy,
  policySchemaViewAt,
  POLICY_FILE,
  type ParsedPolicy,
  type Policy,
  type PolicyException,
  type PolicyFile,
  type PolicyRule,
} from './policyFile';
export { costAtMax, POLICY_RULE_KINDS, type CostAtMax, type PolicyContext, type PolicyRuleKind } from './rules';
