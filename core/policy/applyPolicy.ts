/**
 * A spec file's check with the team's policy over it: the rules that judge it evaluated on the body it deploys
 * and placed in the file that wrote each value, then every diagnostic (the engine's too) silenced, re-graded or
 * turned off as the comments and the policy say. The workspace's owner of spec files (core/workspace) calls
 * this once per check it keeps, so the editor and `validate` see the same findings.
 */
import { byPosition, type SpecDiagnostic } from '../endpointSpec/check';
import type { SpecDocument, SpecFormat } from '../endpointSpec/tree';
import { evaluatePolicy, rulesFor } from './evaluate';
import { bareIgnores, govern, IGNORE_MARKER, type SuppressedDiagnostic } from './govern';
import { placeForOverlay, placeInDocuments, type OverlayPlacement } from './place';
import { POLICY_FILE, type Policy, type PolicyFile } from './policyFile';
import type { PolicyContext } from './rules';

type BaseDiagnostic = SpecDiagnostic & { readonly setInOverlay: boolean };

/** An overlay, merged into its base: what its policy findings are placed with. */
interface OverlayUnderPolicy {
  readonly environment: string;
  /** The body it deploys; undefined while it or its base is broken (nothing is judged then). */
  readonly merged?: Record<string, unknown>;
  readonly documents: readonly SpecDocument[];
  /** Undefined while `extends` names no base that can be read. */
  readonly base?: { readonly path: string; readonly text: string; readonly documents: readonly SpecDocument[] };
  /** The merged body's problems on the base's lines (core/endpointSpec/overlay.ts). */
  readonly baseDiagnostics: readonly BaseDiagnostic[];
}

export interface SpecUnderPolicy {
  readonly path: string;
  readonly text: string;
  readonly format: SpecFormat;
  /** The file's documents; read only when a rule judges them. */
  readonly documents: () => readonly SpecDocument[];
  readonly diagnostics: readonly SpecDiagnostic[];
  readonly overlay?: OverlayUnderPolicy;
  /** The policy over the file, broken or not. */
  readonly policy?: PolicyFile;
  readonly context: PolicyContext;
  /** Another file's text (an overlay's base), for the ignore comments on the lines problems come from. */
  readonly read: (path: string) => string | undefined;
}

export interface SpecWithPolicy {
  readonly diagnostics: SpecDiagnostic[];
  readonly suppressed: SuppressedDiagnostic[];
  /** An overlay's problems on its base's lines, governed likewise. */
  readonly base?: { readonly diagnostics: BaseDiagnostic[]; readonly suppressed: SuppressedDiagnostic<BaseDiagnostic>[] };
}

/** Whether anything here can change the check: a policy, or an ignore comment in the file or its base. */
export function isGoverned(spec: Pick<SpecUnderPolicy, 'text' | 'policy'> & { readonly baseText?: string }): boolean {
  return spec.policy !== undefined || spec.text.includes(IGNORE_MARKER) || spec.baseText?.includes(IGNORE_MARKER) === true;
}

export function applyPolicy(spec: SpecUnderPolicy): SpecWithPolicy {
  const { policy: found, overlay } = spec;
  const policy = found?.policy;
  const own: SpecDiagnostic[] = [...spec.diagnostics, ...bareIgnores(spec)];
  let baseDiagnostics: BaseDiagnostic[] = [...(overlay?.baseDiagnostics ?? [])];
  if (found && !policy) own.push(brokenPolicy(found));
  else if (policy && overlay) {
    const placed = judgeOverlay(spec, overlay, policy);
    own.push(...placed.overlay);
    baseDiagnostics = [...baseDiagnostics, ...placed.base];
  } else if (policy) {
    const rules = rulesFor(policy, undefined);
    if (rules.length > 0)
      own.push(...placeInDocuments({ ...spec, documents: spec.documents() }, (data) => evaluatePolicy(data, rules, spec.context)));
  }
  const governed = govern(spec, own);
  const result = { diagnostics: byPosition(governed.diagnostics), suppressed: governed.suppressed };
  if (!overlay?.base) return result;
  const base = govern(
    { path: overlay.base.path, text: overlay.base.text, format: spec.format, read: spec.read, ...(found ? { policy: found } : {}) },
    baseDiagnostics,
  );
  return { ...result, base: { diagnostics: byPosition(base.diagnostics), suppressed: base.suppressed } };
}

function judgeOverlay(spec: SpecUnderPolicy, overlay: OverlayUnderPolicy, policy: Policy): OverlayPlacement {
  const rules = rulesFor(policy, overlay.environment);
  if (rules.length === 0 || overlay.merged === undefined || !overlay.base) return { overlay: [], base: [] };
  const problems = evaluatePolicy(overlay.merged, rules, spec.context);
  const alone = evaluatePolicy(overlay.base.documents[0]?.data, rulesFor(policy, undefined), spec.context);
  return placeForOverlay(
    { path: spec.path, text: spec.text, documents: overlay.documents, environment: overlay.environment },
    overlay.base,
    problems,
    alone,
  );
}

/** A broken policy configures nothing, and every spec under it says so: a typo never turns the policy off unseen. */
function brokenPolicy(found: PolicyFile): SpecDiagnostic {
  const first = found.problems.at(0);
  const where = first ? ` (line ${first.range.start.line + 1}: ${first.message})` : '';
  return {
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    offset: 0,
    length: 0,
    severity: 'error',
    code: 'policy-invalid',
    message: `not checked against the team policy: ${POLICY_FILE} is broken${where}`,
    path: [],
    documentIndex: 0,
    ...(first ? { origin: { path: found.path, range: first.range, message: first.message } } : {}),
  };
}
