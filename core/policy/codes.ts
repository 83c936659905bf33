/**
 * The team policy's diagnostic codes with what they mean, beside the engine's (core/endpointSpec/diagnosticCodes.ts):
 * the rule kinds' own, and those of the policy file and of ignore comments. docs/rules.md and the SARIF log's
 * rules are made from `everyDocumentedCode`, and a policy's `severity` and `exceptions` may name any code of it.
 */
import { documentedCodes, type DocumentedCode } from '../endpointSpec/diagnosticCodes';
import { POLICY_RULE_KINDS } from './rules';

const APPLIES_TO = 'every spec a rule selects, with `.endpoint-studio/policy.yaml`';

const POLICY_CODES: readonly DocumentedCode[] = [
  ...POLICY_RULE_KINDS.map((kind) => ({
    code: kind.code,
    kind: 'policy' as const,
    severity: 'error',
    appliesTo: APPLIES_TO,
    description: kind.description,
  })),
  {
    code: 'policy-cost-unchecked',
    kind: 'policy',
    severity: 'warning',
    appliesTo: APPLIES_TO,
    description:
      'A `maxCostPerHour` limit could not be checked: there is no catalog (no key and no snapshot), or the catalog has no price for part of the selection. Never a silent pass.',
  },
  {
    code: 'policy-invalid',
    kind: 'policy',
    severity: 'error',
    appliesTo: '`.endpoint-studio/policy.yaml`, and every spec under it',
    description:
      'The policy file does not parse or breaks its schema (`schemas/policy.schema.json`), or names a code that does not exist. A broken policy configures nothing, so each spec it governs says it was not checked against it.',
  },
  {
    code: 'ignore-without-reason',
    kind: 'policy',
    severity: 'warning',
    appliesTo: 'YAML specs',
    description: 'An `# endpoint-studio-ignore <code>` comment without `: <reason>`: it silences nothing until it says why.',
  },
];

/** The policy's codes, in the order of the page. */
export function policyDocumentedCodes(): readonly DocumentedCode[] {
  return POLICY_CODES;
}

/** Every code a diagnostic can carry, in the order of the page: the engine's, the policy's, then the editor's own. */
export function everyDocumentedCode(): DocumentedCode[] {
  const engine = documentedCodes();
  const editor = engine.filter((code) => code.kind === 'editor');
  return [...engine.filter((code) => code.kind !== 'editor'), ...POLICY_CODES, ...editor];
}

let known: ReadonlySet<string> | undefined;

/** The codes a policy's `severity` and `exceptions` may name. */
export function knownCodes(): ReadonlySet<string> {
  known ??= new Set(everyDocumentedCode().map((code) => code.code));
  return known;
}
