/** What every CLI command reads the same way: spec files, the --catalog snapshot, diagnostic lines. */
import { readFileSync, statSync, type Stats } from 'node:fs';
import type { Catalog } from '../core/endpointSpec/catalog/catalog';
import { readCatalogSnapshot, type ReadSnapshot } from '../core/catalog/snapshot';
import type { SpecDiagnostic } from '../core/endpointSpec/check';
import { formatJsonPath } from '../core/endpointSpec/tree';

const MAX_SPEC_FILE_BYTES = 10 * 1024 * 1024;

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

/** Why a file was not checked, as JSON output names it: its own code, so a pipeline can tell it from a spec problem. */
export type UnreadableCode = 'file-unreadable' | 'file-too-large';

export type SpecFileRead = { readonly text: string } | { readonly code: UnreadableCode; readonly reason: string };

/**
 * The file's text, or why it cannot be read. Read synchronously: one blocking read from the page cache costs a
 * fraction of the four thread-pool round trips (open, stat, read, close) and promises of an asynchronous one.
 */
export function readSpecFileResult(file: string): SpecFileRead {
  try {
    return refusal(statSync(file)) ?? { text: readFileSync(file, 'utf8') };
  } catch (error) {
    return { code: 'file-unreadable', reason: unreadableReason(error) };
  }
}

function refusal(info: Stats): SpecFileRead | undefined {
  if (!info.isFile()) return { code: 'file-unreadable', reason: 'not a file' };
  if (info.size > MAX_SPEC_FILE_BYTES) return { code: 'file-too-large', reason: `larger than ${MAX_SPEC_FILE_BYTES / 1024 / 1024} MB` };
  return undefined;
}

/** Why a file cannot be read: `no such file`, or the system's message. */
export const unreadableReason = (error: unknown): string =>
  (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;

/** The line said on stderr for a file that cannot be read. */
export const unreadableLine = (command: string, file: string, reason: string): string =>
  `endpoint-studio ${command}: cannot read ${file}: ${reason}`;

/** The file's text, or undefined after saying why it cannot be read (the caller exits 2). */
export function readSpecFile(file: string, command: string, io: CliIo): string | undefined {
  const read = readSpecFileResult(file);
  if ('text' in read) return read.text;
  io.err(unreadableLine(command, file, read.reason));
  return undefined;
}

/** The pinned catalog named by --catalog; `false` after saying why it cannot be used (the caller exits 2). */
export function loadCatalogOption(path: string | undefined, command: string, io: CliIo): Catalog | undefined | false {
  const snapshot = loadSnapshotOption(path, command, io);
  return snapshot && snapshot.catalog;
}

/** The snapshot named by --catalog with when it was read; `false` after saying why it cannot be used. */
export function loadSnapshotOption(path: string | undefined, command: string, io: CliIo): ReadSnapshot | undefined | false {
  if (!path) return undefined;
  try {
    return readCatalogSnapshot(path);
  } catch (error) {
    io.err(`endpoint-studio ${command}: ${(error as Error).message}`);
    return false;
  }
}

/** A problem as the JSON outputs show it. */
export function diagnosticJson(d: SpecDiagnostic): Record<string, unknown> {
  return { range: d.range, severity: d.severity, code: d.code, message: d.message, path: formatJsonPath(d.path) };
}

/** `file:line:col: severity code message`, 1-based, as terminals and editors make clickable. */
export function diagnosticLine(file: string, d: SpecDiagnostic): string {
  return `${file}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.severity} ${d.code} ${d.message}`;
}
