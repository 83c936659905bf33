/**
 * The team policy (`.endpoint-studio/policy.yaml`): limits every spec is judged by, the grade of any code, and
 * the findings silenced with a reason. The workspace's owner of spec files applies it to each check it makes.
 */
export { applyPolicy, isGoverned } from './applyPolicy';
export { everyDocumentedCode, policyDocumentedCodes } from './codes';
export { rulesFor } from './evaluate';
export { policyFactsOf, type PolicyFacts } from './facts';
export { findPolicy, type PolicyLookup, type PolicyView } from './find';
export { IGNORE_MARKER, type Suppression, type SuppressedDiagnostic } from './govern';
export {
  parsePolicy,
  policySchemaViewAt,
  POLICY_FILE,
  type ParsedPolicy,
  type Policy,
  type PolicyFile,
  type PolicyRule,
} from './policyFile';
export { costAtMax, POLICY_RULE_KINDS, type PolicyContext } from './rules';
