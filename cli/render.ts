/**
 * `endpoint-studio render`: the body each spec deploys, an overlay merged into its base, as one JSON document,
 * so a repository can commit production's body and CI can fail a pull request that changes it unseen
 * (`--check`). It reads files only: no key, no catalog, no request. The rendering and the comparison are core's
 * (core/deploy/renderBodies.ts); this module gathers the files and prints.
 * Exit codes: 0 rendered or up to date, 1 a spec has errors or the file differs, 2 usage error or unreadable file.
 */
import { readFile } from 'node:fs/promises';
import { differenceLine, readRendered, renderBodies, renderedDifferences, type RenderedSpec } from '../core/deploy/renderBodies';
import { ENVIRONMENT_NAME } from '../core/operations/environments';
import { renderSpec, type RenderSpecResult } from '../core/operations/renderSpecs';
import { readCommandLine, usageError } from './args';
import { specFilesOf } from './deployCommandLine';
import { diagnosticLine, readSpecFileResult, unreadableLine, unreadableReason, type CliIo } from './inputs';
import { reportPath } from './validateReport';

export const RENDER_HELP = `Usage: endpoint-studio render [--env ENV] [--check FILE] <files, folders or globs...>

Prints the body each spec deploys, exactly as plan and deploy would send it: an overlay
merged into its base, editor-only keys ($schema, extends) removed. Reads the files only:
no key, no catalog, nothing sent. One JSON document on stdout:

  {"specs/sdxl.prod.endpoint.yaml": {"environment": "prod", "body": {...}}, ...}

keyed by path relative to the current directory; "environment" is null for a base; a file
of several documents has "documents": {"0": {...}, "1": {...}} instead of "body". Object
keys are sorted at every level, arrays keep their order, 2-space indent.

  --env ENV     the ENV environment: its overlays among the files and folders given, a
                base as its ENV overlay (as plan --env picks them)
  --check FILE  print nothing; compare with FILE, written by render earlier, as JSON values,
                and name each field that differs on stderr. FILE is never written

Exit status: 0 rendered (with --check: FILE matches), 1 a spec has errors (nothing is
printed) or FILE differs, 2 usage error, unreadable spec, or FILE unreadable or not JSON.`;

const COMMAND_LINE = {
  command: 'render',
  usage: RENDER_HELP,
  options: { env: { type: 'string' }, check: { type: 'string' } },
  allowPositionals: true,
} as const;

interface RenderOptions {
  readonly inputs: readonly string[];
  readonly environment?: string;
  readonly checkFile?: string;
}

function renderOptions(args: readonly string[], io: CliIo): RenderOptions | number {
  const line = readCommandLine(COMMAND_LINE, args, io);
  if (typeof line === 'number') return line;
  const { env, check } = line.values;
  if (env !== undefined && !ENVIRONMENT_NAME.test(env))
    return usageError(COMMAND_LINE, io, `--env takes an environment name (letters, digits, - and _); got: ${env || 'nothing'}`);
  if (check === '') return usageError(COMMAND_LINE, io, '--check takes a file');
  if (line.positionals.length === 0) return usageError(COMMAND_LINE, io, 'no files given');
  return {
    inputs: line.positionals,
    ...(env !== undefined ? { environment: env } : {}),
    ...(check !== undefined ? { checkFile: check } : {}),
  };
}

export async function runRender(args: readonly string[], io: CliIo): Promise<number> {
  const options = renderOptions(args, io);
  if (typeof options === 'number') return options;
  // The file to check against is read first: a wrong path is a usage problem, whatever the specs say.
  const written = options.checkFile === undefined ? undefined : await readWritten(options.checkFile, io);
  if (written === false) return 2;
  const files = await specFilesOf('render', options.inputs, options.environment, io);
  if (files === undefined) return 2;
  const rendered = await renderFiles(files, io);
  if (typeof rendered === 'number') return rendered;
  if (written === undefined || options.checkFile === undefined) {
    io.out(renderBodies(rendered));
    return 0;
  }
  return reportCheck(options, options.checkFile, written, rendered, io);
}

/** The file written earlier, read as a rendered document; false after saying why it cannot be. */
async function readWritten(file: string, io: CliIo): Promise<Record<string, unknown> | false> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    io.err(`endpoint-studio render: cannot read ${file}: ${unreadableReason(error)}`);
    return false;
  }
  const read = readRendered(text);
  if ('problem' in read) {
    io.err(`endpoint-studio render: ${file} ${read.problem}`);
    return false;
  }
  return read.document;
}

/** Every file rendered; or, once each problem is said, 2 for an unreadable file and 1 for a spec with errors. */
async function renderFiles(files: readonly string[], io: CliIo): Promise<RenderedSpec[] | number> {
  const folder = process.cwd();
  const specs: RenderedSpec[] = [];
  const seen = new Set<string>();
  let unreadable = false;
  const refused: string[] = [];
  for (const file of files) {
    const key = reportPath(folder, file);
    if (seen.has(key)) continue;
    seen.add(key);
    const read = readSpecFileResult(file);
    if (!('text' in read)) {
      io.err(unreadableLine('render', file, read.reason));
      unreadable = true;
      continue;
    }
    const result = await renderSpec({ path: file, text: read.text, key, folder });
    if (result.ok) {
      specs.push(result.spec);
      continue;
    }
    io.err(refusalLines(file, result, folder).join('\n'));
    refused.push(file);
  }
  if (unreadable) return 2;
  if (refused.length === 0) return specs;
  const which = refused.length === 1 ? `${refused[0]} is` : `${refused.length} files are`;
  io.err(`endpoint-studio render: ${which} not rendered; fix ${refused.length === 1 ? 'it' : 'them'} first (nothing was printed)`);
  return 1;
}

/** A refused file's problems as validate prints them, an overlay's share of its base's on the base's lines. */
function refusalLines(file: string, result: Extract<RenderSpecResult, { ok: false }>, folder: string): string[] {
  if (result.code === 'no-spec') return [`endpoint-studio render: ${file} holds no spec`];
  const own = result.diagnostics.map((d) => diagnosticLine(file, d));
  if (!result.inBase) return own;
  const base = reportPath(folder, result.inBase.path);
  return [...own, ...result.inBase.diagnostics.map((d) => diagnosticLine(base, d))];
}

function reportCheck(
  options: RenderOptions,
  checkFile: string,
  written: Record<string, unknown>,
  specs: readonly RenderedSpec[],
  io: CliIo,
): number {
  const differences = renderedDifferences(written, specs);
  if (differences.length === 0) {
    io.err(`endpoint-studio render: ${checkFile} matches the ${specs.length === 1 ? 'spec' : `${specs.length} specs`} rendered`);
    return 0;
  }
  io.err(
    [
      `endpoint-studio render: ${checkFile} differs from what the specs deploy now:`,
      ...differences.map((difference) => `  ${differenceLine(difference)}`),
      `If that is meant, write it again: ${rerunCommand(options, checkFile)}`,
    ].join('\n'),
  );
  return 1;
}

/** The command that writes the file again: this one without --check, its output sent to the file. */
function rerunCommand(options: RenderOptions, checkFile: string): string {
  const environment = options.environment === undefined ? [] : ['--env', options.environment];
  return `endpoint-studio render ${[...environment, ...options.inputs].map(shellWord).join(' ')} > ${shellWord(checkFile)}`;
}

const shellWord = (word: string): string => (/^[\w./@%+=:,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`);
