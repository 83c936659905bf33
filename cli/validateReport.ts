/**
 * What every output format of `validate` is made from: the files' outcomes, whether the catalog checks that
 * were expected could not run, and the folder the run's paths are told relative to. The formats for other
 * programs (GitHub's workflow commands, SARIF) name files the way those programs resolve them: relative to
 * the repository root, which is where a workflow step runs.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { FileOutcome } from './checkFiles';

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

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

/** `4 files checked: 8 errors, 1 warning`: the last line of the text and GitHub formats. */
export function summaryLine(outcomes: readonly FileOutcome[]): string {
  const checked = outcomes.filter((o) => 'diagnostics' in o);
  const severities = checked.flatMap((o) => ('diagnostics' in o ? o.diagnostics.map((d) => d.severity) : []));
  const errors = severities.filter((s) => s === 'error').length;
  const warnings = severities.filter((s) => s === 'warning').length;
  return `${plural(checked.length, 'file')} checked: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}`;
}
