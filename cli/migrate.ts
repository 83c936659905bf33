/**
 * `endpoint-studio migrate`: converts REST v1 / GraphQL-era spec files to v2 specs. Prints the
 * result, or with --write replaces each file atomically (temp file + rename).
 * Exit codes: 0 converted (or nothing to convert), 1 a document could not be converted or is
 * still invalid after conversion, 2 usage error or unreadable file.
 */
import { catalogFileFromEnvironment } from '../core/api/config';
import { writeFileAtomic } from '../core/util/atomicWrite';
import { isLegacyBody, migrateLegacyBody } from '../core/endpointSpec/migrate';
import { parseSpecText } from '../core/endpointSpec/parse';
import { specFormatOf } from '../core/protocol';
import { serializeSpec } from '../core/endpointSpec/serialize';
import { formatJsonPath, type SpecDocument, type SpecFormat } from '../core/endpointSpec/tree';
import type { Catalog } from '../core/endpointSpec/catalog/catalog';
import { validateSpecData } from '../core/endpointSpec/validate';
import { readCommandLine, usageError } from './args';
import { loadCatalogOption, readSpecFile, type CliIo } from './inputs';

export const MIGRATE_HELP = `Usage: endpoint-studio migrate [--write] [--catalog FILE] <files...>

Converts specs holding a REST v1 create body (gpuTypeIds, workersMin, scalerType, imageName, ...)
or GraphQL-era fields (gpuIds, dockerArgs, env as key/value pairs, ports as a comma list) into
v2 specs. GPU type ids become pools plus exclusions, which needs a catalog (--catalog FILE or
$ENDPOINT_STUDIO_CATALOG_FILE). Without --write the converted specs are printed.

Exit status: 0 converted, 1 a spec could not be converted or is invalid afterwards, 2 usage error.`;

const COMMAND_LINE = {
  command: 'migrate',
  usage: MIGRATE_HELP,
  options: { write: { type: 'boolean', default: false }, catalog: { type: 'string' } },
  allowPositionals: true,
} as const;

export async function runMigrate(args: string[], io: CliIo): Promise<number> {
  const line = readCommandLine(COMMAND_LINE, args, io);
  if (typeof line === 'number') return line;
  const { write, catalog: catalogOption } = line.values;
  const files = line.positionals;
  if (files.length === 0) return usageError(COMMAND_LINE, io, 'no files given');
  const catalogPath = catalogOption ?? catalogFileFromEnvironment();
  const catalog = loadCatalogOption(catalogPath, 'migrate', io);
  if (catalog === false) return 2;

  let exitCode = 0;
  for (const file of files) {
    const text = readSpecFile(file, 'migrate', io);
    if (text === undefined) return 2;
    const converted = convertFile(file, text, catalog, io);
    if (!converted.clean) exitCode = 1;
    await deliver(file, converted, { write, several: files.length > 1 }, io);
  }
  return exitCode;
}

interface Converted {
  readonly text: string;
  /** Something legacy was converted. */
  readonly changed: boolean;
  /** Nothing failed to convert and nothing is invalid afterwards. */
  readonly clean: boolean;
}

/** The file with each legacy document converted and every other one kept as written; problems go to stderr. */
function convertFile(file: string, text: string, catalog: Catalog | undefined, io: CliIo): Converted {
  const format = specFormatOf(file);
  const documents = parseSpecText(text, format).map((document) => convertDocument(file, text, document, format, catalog, io));
  return {
    text: `${documents.map((d) => d.text).join(format === 'json' ? '\n' : '\n---\n')}\n`,
    changed: documents.some((d) => d.changed),
    clean: documents.every((d) => d.clean),
  };
}

function convertDocument(
  file: string,
  text: string,
  document: SpecDocument,
  format: SpecFormat,
  catalog: Catalog | undefined,
  io: CliIo,
): Converted {
  const original = text
    .slice(document.span.offset, document.span.offset + document.span.length)
    .replace(/^---\s*\n/, '')
    .trimEnd();
  if (!isLegacyBody(document.data)) return { text: original, changed: false, clean: true };
  const result = migrateLegacyBody(document.data, catalog);
  if (!result.ok) {
    io.err(`${file}: not converted: ${result.reason}`);
    return { text: original, changed: false, clean: false };
  }
  const { spec, notes } = result.migration;
  for (const note of notes) io.err(`${file}: ${note}`);
  const problems = validateSpecData(spec, 'create', { catalog }).filter((p) => p.severity === 'error');
  for (const problem of problems) io.err(`${file}: still to fix after conversion: ${formatJsonPath(problem.path)}: ${problem.message}`);
  return {
    text: serializeSpec(
      spec,
      format,
      notes.map((n) => `converted from REST v1: ${n}`),
    ),
    changed: true,
    clean: problems.length === 0,
  };
}

/** Prints the converted file, or with --write replaces it when something was converted. */
async function deliver(file: string, converted: Converted, options: { write: boolean; several: boolean }, io: CliIo): Promise<void> {
  if (!options.write) {
    if (options.several) io.out(`# ${file}\n`);
    io.out(converted.text);
  } else if (converted.changed) {
    // A crash between the two steps leaves the old file whole, never half a spec.
    await writeFileAtomic(file, converted.text);
    io.err(`${file}: converted to REST v2`);
  } else {
    io.err(`${file}: nothing to convert`);
  }
}
