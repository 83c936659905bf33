/** What every CLI command reads the same way: spec files, the --catalog snapshot, diagnostic lines. */
import { readFile, stat } from 'node:fs/promises';
import type { Catalog } from '../core/endpointSpec/catalog/catalog';
import { loadCatalogFile } from '../core/endpointSpec/catalog/load';
import type { SpecDiagnostic } from '../core/endpointSpec/check';

export const MAX_SPEC_FILE_BYTES = 10 * 1024 * 1024;

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

/** The file's text, or undefined after saying why it cannot be read (the caller exits 2). */
export async function readSpecFile(file: string, command: string, io: CliIo): Promise<string | undefined> {
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new Error('not a file');
    if (info.size > MAX_SPEC_FILE_BYTES) throw new Error(`larger than ${MAX_SPEC_FILE_BYTES / 1024 / 1024} MB`);
    return await readFile(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    io.err(`endpoint-studio ${command}: cannot read ${file}: ${reason}`);
    return undefined;
  }
}

/** The pinned catalog named by --catalog; `false` after saying why it cannot be used (the caller exits 2). */
export function loadCatalogOption(path: string | undefined, command: string, io: CliIo): Catalog | undefined | false {
  if (!path) return undefined;
  try {
    return loadCatalogFile(path);
  } catch (error) {
    io.err(`endpoint-studio ${command}: ${(error as Error).message}`);
    return false;
  }
}

/** `file:line:col: severity code message`, 1-based, as terminals and editors make clickable. */
export function diagnosticLine(file: string, d: SpecDiagnostic): string {
  return `${file}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.severity} ${d.code} ${d.message}`;
}
