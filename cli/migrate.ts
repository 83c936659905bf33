/**
 * `endpoint-studio migrate`: converts REST v1 / GraphQL-era spec files to v2 specs. Prints the
 * result, or with --write replaces each file atomically (temp file + rename).
 * Exit codes: 0 converted (or nothing to convert), 1 a document could not be converted or is
 * still invalid after conversion, 2 usage error or unreadable file.
 */
import { writeFileAtomic } from '../core/util/atomicWrite';
import { isLegacyBody, migrateLegacyBody } from '../core/endpointSpec/migrate';
import { formatForFileName, parseSpecText } from '../core/endpointSpec/parse';
import { serializeSpec } from '../core/endpointSpec/serialize';
import { formatJsonPath } from '../core/endpointSpec/tree';
import { validateSpecData } from '../core/endpointSpec/validate';
import { loadCatalogOption, readSpecFile, type CliIo } from './inputs';

export const MIGRATE_HELP = `Usage: endpoint-studio migrate [--write] [--catalog FILE] <files...>

Converts specs holding a REST v1 create body (gpuTypeIds, workersMin, scalerType, imageName, ...)
or GraphQL-era fields (gpuIds, dockerArgs, env as key/value pairs, ports as a comma list) into
v2 specs. GPU type ids become pools plus exclusions, which needs a catalog (--catalog FILE or
$ENDPOINT_STUDIO_CATALOG_FILE). Without --write the converted specs are printed.

Exit status: 0 converted, 1 a spec could not be converted or is invalid afterwards, 2 usage error.`;

export async function runMigrate(args: string[], io: CliIo): Promise<number> {
  let write = false;
  let catalogPath = process.env.ENDPOINT_STUDIO_CATALOG_FILE || undefined;
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--write') write = true;
    else if (arg === '--catalog') catalogPath = args[++i];
    else if (arg.startsWith('--catalog=')) catalogPath = arg.slice('--catalog='.length);
    else if (arg === '--help' || arg === '-h') {
      io.out(`${MIGRATE_HELP}\n`);
      return 0;
    } else if (arg.startsWith('-')) {
      io.err(`endpoint-studio migrate: unknown option: ${arg}\n\n${MIGRATE_HELP}`);
      return 2;
    } else files.push(arg);
  }
  if (files.length === 0) {
    io.err(`endpoint-studio migrate: no files given\n\n${MIGRATE_HELP}`);
    return 2;
  }
  const catalog = loadCatalogOption(catalogPath, 'migrate', io);
  if (catalog === false) return 2;

  let exitCode = 0;
  for (const file of files) {
    const text = await readSpecFile(file, 'migrate', io);
    if (text === undefined) return 2;
    const format = formatForFileName(file);
    const parts: string[] = [];
    let changed = false;
    for (const document of parseSpecText(text, format)) {
      const original = text
        .slice(document.span.offset, document.span.offset + document.span.length)
        .replace(/^---\s*\n/, '')
        .trimEnd();
      if (!isLegacyBody(document.data)) {
        parts.push(original);
        continue;
      }
      const result = migrateLegacyBody(document.data, catalog);
      if (!result.ok) {
        io.err(`${file}: not converted: ${result.reason}`);
        exitCode = 1;
        parts.push(original);
        continue;
      }
      changed = true;
      for (const note of result.migration.notes) io.err(`${file}: ${note}`);
      for (const problem of validateSpecData(result.migration.spec, 'create', { catalog }).filter((p) => p.severity === 'error')) {
        io.err(`${file}: still to fix after conversion: ${formatJsonPath(problem.path)}: ${problem.message}`);
        exitCode = 1;
      }
      parts.push(
        serializeSpec(
          result.migration.spec,
          format,
          result.migration.notes.map((n) => `converted from REST v1: ${n}`),
        ),
      );
    }
    const output = `${parts.join(format === 'json' ? '\n' : '\n---\n')}\n`;
    if (write && changed) {
      // A crash between the two steps leaves the old file whole, never half a spec.
      await writeFileAtomic(file, output);
      io.err(`${file}: converted to REST v2`);
    } else if (!write) {
      if (files.length > 1) io.out(`# ${file}\n`);
      io.out(output);
    } else {
      io.err(`${file}: nothing to convert`);
    }
  }
  return exitCode;
}
