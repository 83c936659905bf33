/**
 * `endpoint-studio validate`: the language server's engine over files, for CI.
 * Exit codes: 0 no error, 1 at least one error, 2 usage error or unreadable file.
 */
import { stat } from 'node:fs/promises';
import { glob, isDynamicPattern } from 'tinyglobby';
import type { SpecDiagnostic } from '../core/endpointSpec/check';
import { formatJsonPath } from '../core/endpointSpec/tree';
import { checkFiles } from './checkFiles';
import { readCommandLine, usageError } from './args';
import { diagnosticLine, loadCatalogOption, type CliIo } from './inputs';
import { SPEC_FILE_GLOB } from '../core/protocol';

export type { CliIo } from './inputs';

interface FileReport {
  readonly file: string;
  readonly diagnostics: SpecDiagnostic[];
}

export const VALIDATE_HELP = `Usage: endpoint-studio validate [--format text|json] [--catalog FILE] <files, folders or globs...>

Checks endpoint specs (*.endpoint.yaml, *.endpoint.yml, *.endpoint.json) against the v2
schema and every rule of the service. Folders are searched for spec files.

  --format text   file:line:col: severity code message (default)
  --format json   one JSON array of {file, range, severity, code, message, path}
  --catalog FILE  also check against a catalog snapshot (pools, GPU types, CPU flavors,
                  data centers, templates, volumes); default $ENDPOINT_STUDIO_CATALOG_FILE

Exit status: 0 no errors, 1 errors found, 2 usage error or unreadable file.`;

const COMMAND_LINE = {
  command: 'validate',
  usage: VALIDATE_HELP,
  options: { format: { type: 'string', default: 'text' }, catalog: { type: 'string' } },
  allowPositionals: true,
} as const;

interface ValidateOptions {
  readonly format: 'text' | 'json';
  readonly catalogPath: string | undefined;
  readonly inputs: string[];
}

/** The checked flags and inputs, or the exit status after printing help or a usage error. */
function validateOptions(args: string[], io: CliIo): ValidateOptions | number {
  const line = readCommandLine(COMMAND_LINE, args, io);
  if (typeof line === 'number') return line;
  const { format, catalog } = line.values;
  if (format !== 'text' && format !== 'json') return usageError(COMMAND_LINE, io, `--format takes text or json; got: ${format}`);
  if (catalog === '') return usageError(COMMAND_LINE, io, '--catalog takes a file');
  if (line.positionals.length === 0) return usageError(COMMAND_LINE, io, 'no files given');
  return { format, catalogPath: catalog ?? (process.env.ENDPOINT_STUDIO_CATALOG_FILE || undefined), inputs: line.positionals };
}

export async function runValidate(args: string[], io: CliIo): Promise<number> {
  const options = validateOptions(args, io);
  if (typeof options === 'number') return options;
  const { format, catalogPath, inputs } = options;
  const catalog = loadCatalogOption(catalogPath, 'validate', io);
  if (catalog === false) return 2;

  const files = await expandInputs(inputs, io);
  if (files === undefined) return 2;
  const outcomes = await checkFiles(files, catalog, catalogPath);
  const reports: FileReport[] = [];
  for (const outcome of outcomes) {
    if ('unreadable' in outcome) io.err(outcome.unreadable);
    else reports.push(outcome);
  }
  const unreadable = reports.length < outcomes.length;
  io.out(format === 'json' ? renderJson(reports) : renderText(reports, reports.length));
  if (unreadable) return 2;
  return reports.some((r) => r.diagnostics.some((d) => d.severity === 'error')) ? 1 : 0;
}

async function expandInputs(inputs: string[], io: CliIo): Promise<string[] | undefined> {
  const files: string[] = [];
  for (const input of inputs) {
    if (isDynamicPattern(input)) {
      const matches = await glob(input, { ignore: ['**/node_modules/**', '**/.git/**'] });
      if (matches.length === 0) {
        io.err(`endpoint-studio: no files match: ${input}`);
        return undefined;
      }
      files.push(...matches.sort());
      continue;
    }
    const info = await stat(input).catch(() => undefined);
    if (info?.isDirectory()) {
      const matches = await glob(SPEC_FILE_GLOB, { cwd: input, ignore: ['**/node_modules/**', '**/.git/**'] });
      files.push(...matches.sort().map((m) => `${input.replace(/\/+$/, '')}/${m}`));
    } else {
      files.push(input);
    }
  }
  return [...new Set(files)];
}

function renderText(reports: FileReport[], fileCount: number): string {
  const lines: string[] = [];
  let errors = 0;
  let warnings = 0;
  for (const { file, diagnostics } of reports) {
    for (const d of diagnostics) {
      if (d.severity === 'error') errors++;
      else if (d.severity === 'warning') warnings++;
      // 1-based positions, the way terminals and editors make `file:line:col` clickable.
      lines.push(diagnosticLine(file, d));
    }
  }
  lines.push(
    `${fileCount} file${fileCount === 1 ? '' : 's'} checked: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`,
  );
  return lines.join('\n') + '\n';
}

function renderJson(reports: FileReport[]): string {
  const entries = reports.flatMap(({ file, diagnostics }) =>
    diagnostics.map((d) => ({
      file,
      range: d.range,
      severity: d.severity,
      code: d.code,
      message: d.message,
      path: formatJsonPath(d.path),
    })),
  );
  return JSON.stringify(entries, null, 2) + '\n';
}
