/**
 * `validate --format github`: GitHub Actions workflow commands, one per problem, which the runner turns into
 * annotations on the pull request's files and in the run's log: `::error file=…,line=…::message`. Data and
 * property values are escaped as the runner reads them back (actions/toolkit's command escaping), so a
 * message with a newline or a path with a comma cannot end a command early or forge another one.
 */
import type { Severity } from '../core/endpointSpec/problem';
import type { SpecDiagnostic } from '../core/endpointSpec/check';
import { reportPath, summaryLine, type ValidateReport } from './validateReport';

const COMMANDS: Readonly<Record<Severity, string>> = { error: 'error', warning: 'warning', information: 'notice' };

/** A command's message: `%`, CR and LF would end or garble it. */
export const escapeData = (text: string): string => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

/** A property's value: also `,` (between properties) and `:` (before the message). */
export const escapeProperty = (text: string): string => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');

function command(name: string, properties: Record<string, string | number>, message: string): string {
  const list = Object.entries(properties)
    .map(([key, value]) => `${key}=${escapeProperty(String(value))}`)
    .join(',');
  return `::${name} ${list}::${escapeData(message)}`;
}

/** 1-based lines and columns; `endColumn` is the column after the range, as in SARIF. */
function position(d: SpecDiagnostic): Record<string, number> {
  const { start, end } = d.range;
  return { line: start.line + 1, col: start.character + 1, endLine: end.line + 1, endColumn: end.character + 1 };
}

export function renderGithub(report: ValidateReport): string {
  const lines: string[] = [];
  for (const outcome of report.outcomes) {
    const file = reportPath(report.base, outcome.file);
    if ('unreadable' in outcome) lines.push(command('error', { file, title: outcome.code }, outcome.unreadable));
    else for (const d of outcome.diagnostics) lines.push(command(COMMANDS[d.severity], { file, ...position(d), title: d.code }, d.message));
  }
  if (report.catalogSkipped !== undefined) lines.push(command('notice', { title: 'catalog-skipped' }, report.catalogSkipped));
  lines.push(summaryLine(report.outcomes));
  return `${lines.join('\n')}\n`;
}
