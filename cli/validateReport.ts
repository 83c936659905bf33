/**
 * What every output format of `validate` is made from: the files' outcomes, whether the catalog checks that
 * were expected could not run, and the folder the run's paths are told relative to. The formats for other
 * programs (GitHub's workflow commands, SARIF) name files the way those programs resolve them: relative to
 * the repository root, which is where a workflow step runs. An overlay's problems that its base wrote are
 * reported in the base (`placeBaseProblems`), once, whichever formats print them; so are a broken team policy's
 * problems, in the policy file.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { SpecDiagnostic } from '../core/endpointSpec/check';
import { plural } from '../core/util/plural';
import type { SuppressedDiagnostic } from '../core/policy';
import type { BaseProblems, FileOutcome } from './checkFiles';

export interface ValidateReport {
  readonly outcomes: readonly FileOutcome[];
  /** Why the catalog checks a key or snapshot promised were skipped; undefined when nothing was skipped. */
  readonly catalogSkipped?: string;
  /** The folder paths are made relative to (the current directory). */
  readonly base: string;
}

/** `specs/a.endpoint.yaml` for a file under `base`, with forward slashes; the absolute path for one outside it. */
export function reportPath(base: string, file: string): string {
  const absolute = resolve(base, file);
  const inside = relative(base, absolute);
  if (inside === '' || inside.startsWith(`..${sep}`) || inside === '..' || isAbsolute(inside)) return absolute;
  return inside.split(sep).join('/');
}

/**
 * Each problem in the file that wrote it: an overlay's share of its base's problems joins the base's outcome (the
 * base's entry when the run lists it, one more entry when it does not), sorted among the base's own by position.
 * A broken policy's problems join its file's outcome once, however many specs it governs.
 */
export function placeBaseProblems(outcomes: readonly FileOutcome[], base: string): FileOutcome[] {
  const placed: FileOutcome[] = outcomes.map((outcome) =>
    'diagnostics' in outcome
      ? { file: outcome.file, diagnostics: outcome.diagnostics, ...(outcome.suppressed ? { suppressed: outcome.suppressed } : {}) }
      : outcome,
  );
  const byPath = new Map(placed.map((outcome, index) => [resolve(base, outcome.file), index]));
  const policies = new Set<string>();
  const join = (problems: BaseProblems): void => {
    const index = byPath.get(problems.path);
    const target = index === undefined ? undefined : placed[index];
    if (target !== undefined && !('diagnostics' in target)) return;
    const diagnostics = [...(target?.diagnostics ?? []), ...problems.diagnostics].sort(byPosition);
    const suppressed: SuppressedDiagnostic[] = [...(target?.suppressed ?? []), ...(problems.suppressed ?? [])].sort(byPosition);
    const joined = { file: target?.file ?? reportPath(base, problems.path), diagnostics, ...(suppressed.length > 0 ? { suppressed } : {}) };
    if (index === undefined) byPath.set(problems.path, placed.push(joined) - 1);
    else placed[index] = joined;
  };
  for (const outcome of outcomes) {
    if (!('diagnostics' in outcome)) continue;
    if (outcome.inBase) join(outcome.inBase);
    if (outcome.policy && !policies.has(outcome.policy.path)) {
      policies.add(outcome.policy.path);
      join(outcome.policy);
    }
  }
  return placed;
}

const byPosition = (a: SpecDiagnostic, b: SpecDiagnostic): number =>
  a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character || a.code.localeCompare(b.code);

/** `4 files checked: 8 errors, 1 warning` (`, 2 suppressed` when some were): the last line of the text and GitHub formats. */
export function summaryLine(outcomes: readonly FileOutcome[]): string {
  const checked = outcomes.filter((o) => 'diagnostics' in o);
  const severities = checked.flatMap((o) => o.diagnostics.map((d) => d.severity));
  const errors = severities.filter((s) => s === 'error').length;
  const warnings = severities.filter((s) => s === 'warning').length;
  const suppressed = checked.reduce((sum, o) => sum + (o.suppressed?.length ?? 0), 0);
  const silenced = suppressed > 0 ? `, ${suppressed} suppressed` : '';
  return `${plural(checked.length, 'file')} checked: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}${silenced}`;
}
