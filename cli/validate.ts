/**
 * `endpoint-studio validate`: the language server's engine over files, for CI, with the catalog the
 * server would use (live, cached, or a pinned snapshot) and a word on which one it was.
 * Exit codes: 0 no error, 1 at least one error, 2 usage error or unreadable file.
 */
import { stat } from 'node:fs/promises';
import { glob, isDynamicPattern } from 'tinyglobby';
import { catalogFileFromEnvironment } from '../core/api/config';
import type { SpecDiagnostic } from '../core/endpointSpec/check';
import { catalogUsedJson, describeCatalogUsed } from '../core/catalog/catalogUsed';
import type { RunCatalog } from '../core/catalog/forRun';
import { checkFiles, type FileOutcome } from './checkFiles';
import { readCommandLine, usageError } from './args';
import { chooseCatalog, type CatalogChoice } from './catalogChoice';
import { diagnosticJson, diagnosticLine, type CliIo } from './inputs';
import type { ServiceIo } from './service';
import { placeBaseProblems, summaryLine, type ValidateReport } from './validateReport';
import { SPEC_FILE_GLOB } from '../core/protocol';

export const VALIDATE_HELP = `Usage: endpoint-studio validate [--format text|json|github|sarif] [--catalog FILE | --offline] <files, folders or globs...>

Checks endpoint specs (*.endpoint.yaml, *.endpoint.yml, *.endpoint.json) against the v2
schema and every rule of the service. Folders are searched for spec files. An overlay
(<base>.<env>.endpoint.yaml, first key extends) is checked merged into its base, which must
lie under the current directory or in the overlay's repository; each problem is reported in
the file that wrote it. The team policy (.endpoint-studio/policy.yaml) judges every spec: its
limits, its severities, and its exceptions; a finding silenced by an exception or an
# endpoint-studio-ignore <code>: <reason> comment is listed as suppressed, never counted.

  --format text   file:line:col: severity code message (default); which catalog was used on stderr
  --format json   one JSON array of {file, range, severity, code, message, path, catalog}, a
                  silenced finding with suppressed: {kind, reason}
  --format github GitHub Actions workflow commands (::error file=...,line=...::message), which
                  annotate the files in a pull request; paths relative to the current directory
  --format sarif  a SARIF 2.1.0 log for code scanning (github/codeql-action/upload-sarif), one
                  rule per code, silenced findings with their suppressions; paths relative to
                  the current directory
  --catalog FILE  check against a catalog snapshot (endpoint-studio catalog export); default
                  $ENDPOINT_STUDIO_CATALOG_FILE. Without one, a key ($ENDPOINT_STUDIO_API_KEY)
                  checks against the service's live catalog, or its cache when unreachable
  --offline       send nothing: the cached catalog if there is one, else no catalog checks

Exit status: 0 no errors, 1 errors found, 2 usage error or unreadable file.`;

const COMMAND_LINE = {
  command: 'validate',
  usage: VALIDATE_HELP,
  options: { format: { type: 'string', default: 'text' }, catalog: { type: 'string' }, offline: { type: 'boolean', default: false } },
  allowPositionals: true,
} as const;

const FORMATS = ['text', 'json', 'github', 'sarif'] as const;

interface ValidateOptions extends CatalogChoice {
  readonly format: (typeof FORMATS)[number];
  readonly inputs: string[];
}

/** The checked flags and inputs, or the exit status after printing help or a usage error. */
function validateOptions(args: string[], io: ServiceIo): ValidateOptions | number {
  const line = readCommandLine(COMMAND_LINE, args, io);
  if (typeof line === 'number') return line;
  const { format, catalog, offline } = line.values;
  if (!isFormat(format)) return usageError(COMMAND_LINE, io, `--format takes text, json, github or sarif; got: ${format}`);
  if (catalog === '') return usageError(COMMAND_LINE, io, '--catalog takes a file');
  if (catalog !== undefined && offline)
    return usageError(COMMAND_LINE, io, '--catalog reads no network already; give --catalog or --offline');
  if (line.positionals.length === 0) return usageError(COMMAND_LINE, io, 'no files given');
  const catalogPath = catalog ?? catalogFileFromEnvironment(io.env ?? process.env);
  return { format, catalogPath, offline, inputs: line.positionals };
}

const isFormat = (format: string): format is ValidateOptions['format'] => (FORMATS as readonly string[]).includes(format);

export async function runValidate(args: string[], io: ServiceIo): Promise<number> {
  const options = validateOptions(args, io);
  if (typeof options === 'number') return options;
  const { format, inputs } = options;
  const files = await expandInputs(inputs, io);
  if (files === undefined) return 2;
  const chosen = await chooseCatalog('validate', options, io);
  if (chosen === false) return 2;

  const checked = await checkFiles(files, {
    ...(chosen.catalog ? { data: chosen.catalog.data } : {}),
    ...(chosen.liveProperties ? { liveProperties: [...chosen.liveProperties] } : {}),
  });
  const outcomes = placeBaseProblems(checked, process.cwd());
  for (const outcome of outcomes) if ('unreadable' in outcome) io.err(outcome.unreadable);
  // Without a key or a snapshot nothing was asked of the catalog, as before there was one: no line.
  if (chosen.expected && (format === 'text' || format === 'github'))
    io.err(`endpoint-studio validate: ${describeCatalogUsed(chosen.used)}`);
  io.out(await render(format, { outcomes, base: process.cwd(), ...catalogSkipped(chosen) }, chosen));
  if (outcomes.some((o) => 'unreadable' in o)) return 2;
  return outcomes.some((o) => 'diagnostics' in o && o.diagnostics.some((d) => d.severity === 'error')) ? 1 : 0;
}

/** Each format's module is loaded only when asked for: most runs print text. */
async function render(format: ValidateOptions['format'], report: ValidateReport, chosen: RunCatalog): Promise<string> {
  switch (format) {
    case 'text':
      return renderText(report.outcomes);
    case 'json':
      return renderJson(report, chosen);
    case 'github':
      return (await import('./githubFormat.js')).renderGithub(report);
    case 'sarif':
      return (await import('./sarifFormat.js')).renderSarif(report);
  }
}

/** A run that expected the catalog rules but could not have them says so, so an empty result never passes for a full check. */
function catalogSkipped(chosen: RunCatalog): { catalogSkipped?: string } {
  return chosen.expected && chosen.used.source === 'none' ? { catalogSkipped: describeCatalogUsed(chosen.used) } : {};
}

export async function expandInputs(inputs: readonly string[], io: CliIo): Promise<string[] | undefined> {
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
      // Without regard to case, as isSpecFile: a folder holds the specs that named one by one would be checked.
      const matches = await glob(SPEC_FILE_GLOB, { cwd: input, caseSensitiveMatch: false, ignore: ['**/node_modules/**', '**/.git/**'] });
      files.push(...matches.sort().map((m) => `${input.replace(/\/+$/, '')}/${m}`));
    } else {
      files.push(input);
    }
  }
  return [...new Set(files)];
}

function renderText(outcomes: readonly FileOutcome[]): string {
  // 1-based positions, the way terminals and editors make `file:line:col` clickable.
  const lines = outcomes.flatMap((o) => ('diagnostics' in o ? o.diagnostics.map((d) => diagnosticLine(o.file, d)) : []));
  return [...lines, summaryLine(outcomes)].join('\n') + '\n';
}

const FILE_START = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/**
 * One array whatever happened: a file that could not be read is an entry with its own code, and a run
 * that expected the catalog rules but could not have them says so once per file, so an empty array
 * never passes for a full check.
 */
function renderJson({ outcomes, catalogSkipped: skipped }: ValidateReport, chosen: RunCatalog): string {
  const catalog = catalogUsedJson(chosen.used);
  const entries = outcomes.flatMap((outcome) => {
    const { file } = outcome;
    if ('unreadable' in outcome)
      return [{ file, range: FILE_START, severity: 'error', code: outcome.code, message: outcome.unreadable, path: '$', catalog }];
    const entry = (d: SpecDiagnostic) => ({ file, ...diagnosticJson(d), catalog });
    const problems = [
      ...outcome.diagnostics.map(entry),
      ...(outcome.suppressed ?? []).map((d) => ({ ...entry(d), suppressed: d.suppression })),
    ];
    return skipped
      ? [...problems, { file, range: FILE_START, severity: 'information', code: 'catalog-skipped', message: skipped, path: '$', catalog }]
      : problems;
  });
  return JSON.stringify(entries, null, 2) + '\n';
}
