/**
 * What a team says about its findings, applied to every diagnostic of a spec file, the engine's and the
 * policy's alike: an `# endpoint-studio-ignore <code>: <reason>` comment on the line above a value or at the
 * end of its line silences that code there; an exception of the policy silences a code in a file (JSON has no
 * comments); the policy's `severity` re-grades or turns off any code. A silenced finding is not gone: it is
 * kept aside with its reason, for reports to list and the editor to show as a hint, and never counted.
 * A comment without a reason silences nothing and is itself a warning, so "why" is never skipped.
 */
import { basename, relative, sep } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { diagnosticAt, type SpecDiagnostic } from '../endpointSpec/check';
import type { SpecFormat } from '../endpointSpec/tree';
import type { PolicyException, PolicyFile } from './policyFile';

export const IGNORE_MARKER = 'endpoint-studio-ignore';

/** Why a finding is silenced: a comment in the spec (`inSource`) or an exception of the policy (`external`). */
export interface Suppression {
  readonly kind: 'inSource' | 'external';
  readonly reason: string;
}

export type SuppressedDiagnostic<T extends SpecDiagnostic = SpecDiagnostic> = T & { readonly suppression: Suppression };

export interface Governed<T extends SpecDiagnostic> {
  readonly diagnostics: T[];
  readonly suppressed: SuppressedDiagnostic<T>[];
}

/** The file whose diagnostics are governed, and how to read the files their origins lie in. */
export interface GovernedFile {
  readonly path: string;
  readonly text: string;
  readonly format: SpecFormat;
  /** The policy over the file; undefined or broken: comments still silence, nothing is re-graded. */
  readonly policy?: PolicyFile;
  /** Another file's text (the base or the overlay an origin lies in). */
  readonly read: (path: string) => string | undefined;
}

interface IgnoreComment {
  /** The line the comment applies to (0-based). */
  readonly line: number;
  /** Empty when the comment names none. */
  readonly code: string;
  readonly reason?: string;
  readonly offset: number;
  readonly length: number;
}

const IGNORE = new RegExp(`(?:^|\\s)#\\s*${IGNORE_MARKER}\\b(.*)$`);
const CODE_AND_REASON = /^\s*([a-z0-9-]+)?\s*(?::(.*))?/;
const isComment = (line: string): boolean => line.trimStart().startsWith('#');

/** The ignore comments of a YAML text: a comment alone on its line applies to the next line that is not a comment. */
function ignoreComments(text: string, format: SpecFormat): IgnoreComment[] {
  if (format !== 'yaml' || !text.includes(IGNORE_MARKER)) return [];
  const lines = text.split('\n');
  const comments: IgnoreComment[] = [];
  let offset = 0;
  lines.forEach((line, index) => {
    const match = IGNORE.exec(line);
    if (match) {
      // A comment alone on its line speaks of the value below it, past any other comments.
      let applies = index;
      if (isComment(line)) {
        applies++;
        while (applies < lines.length && isComment(lines[applies])) applies++;
      }
      const parts = CODE_AND_REASON.exec(match[1]);
      const code = parts?.at(1) ?? '';
      const reason = (parts?.at(2) ?? '').trim();
      const start = line.indexOf('#', match.index);
      comments.push({
        line: applies,
        code,
        ...(reason ? { reason } : {}),
        offset: offset + start,
        length: line.trimEnd().length - start,
      });
    }
    offset += line.length + 1;
  });
  return comments;
}

/** The file's diagnostics with the comments, the exceptions and the severities applied. */
export function govern<T extends SpecDiagnostic>(file: GovernedFile, diagnostics: readonly T[]): Governed<T> {
  if (diagnostics.length === 0) return { diagnostics: [], suppressed: [] };
  const policy = file.policy?.policy;
  const commentsIn = commentReader(file);
  const governed: Governed<T> = { diagnostics: [], suppressed: [] };
  for (const diagnostic of diagnostics) {
    const override = policy?.severity[diagnostic.code];
    if (override === 'off') continue;
    const graded = override === undefined ? diagnostic : { ...diagnostic, severity: override };
    const suppression = commentSuppression(diagnostic, file.path, commentsIn) ?? exceptionSuppression(diagnostic, file);
    if (suppression) governed.suppressed.push({ ...graded, suppression });
    else governed.diagnostics.push(graded);
  }
  return governed;
}

/** Each file's ignore comments, read once per call: the file's own, an origin's from its text. */
function commentReader(file: GovernedFile): (path: string) => IgnoreComment[] {
  const byPath = new Map<string, IgnoreComment[]>();
  return (path) => {
    let comments = byPath.get(path);
    if (!comments) {
      const text = path === file.path ? file.text : file.read(path);
      comments = text === undefined ? [] : ignoreComments(text, file.format);
      byPath.set(path, comments);
    }
    return comments;
  };
}

/** Silenced by a comment at the diagnostic's line, or at the line of the value it comes from in another file. */
function commentSuppression(
  diagnostic: SpecDiagnostic,
  path: string,
  commentsIn: (path: string) => IgnoreComment[],
): Suppression | undefined {
  const places = [{ path, line: diagnostic.range.start.line }];
  if (diagnostic.origin) places.push({ path: diagnostic.origin.path, line: diagnostic.origin.range.start.line });
  for (const place of places) {
    const comment = commentsIn(place.path).find((c) => c.line === place.line && c.code === diagnostic.code && c.reason !== undefined);
    if (comment?.reason !== undefined) return { kind: 'inSource', reason: comment.reason };
  }
  return undefined;
}

function exceptionSuppression(diagnostic: SpecDiagnostic, file: GovernedFile): Suppression | undefined {
  const found = file.policy;
  if (!found?.policy) return undefined;
  const paths = [file.path, ...(diagnostic.origin ? [diagnostic.origin.path] : [])];
  const exception = found.policy.exceptions.find(
    (e) => e.code === diagnostic.code && paths.some((path) => exceptionNames(e, path, found.root)),
  );
  return exception && { kind: 'external', reason: exception.reason };
}

/** A name matches the file anywhere; a path with a slash is the file's path from the workspace root. */
function exceptionNames(exception: PolicyException, path: string, root: string): boolean {
  if (!exception.file.includes('/')) return basename(path) === exception.file;
  return relative(root, path).split(sep).join('/') === exception.file.replace(/^\.\//, '');
}

/**
 * The file's ignore comments that name no code or give no reason: each silences nothing, and a warning on the
 * comment says why. Reported with the file's own check, once.
 */
export function bareIgnores(file: Pick<GovernedFile, 'path' | 'text' | 'format'>): SpecDiagnostic[] {
  const bare = ignoreComments(file.text, file.format).filter((comment) => comment.reason === undefined || comment.code === '');
  if (bare.length === 0) return [];
  const lines = TextDocument.create(file.path, 'spec', 0, file.text);
  return bare.map((comment) =>
    diagnosticAt(
      lines,
      comment,
      file.text.length,
      {
        severity: 'warning',
        code: 'ignore-without-reason',
        message:
          comment.code === ''
            ? `${IGNORE_MARKER} names no code, so it silences nothing; write # ${IGNORE_MARKER} <code>: <reason>`
            : `${IGNORE_MARKER} ${comment.code} gives no reason, so it silences nothing; write # ${IGNORE_MARKER} ${comment.code}: <reason>`,
        path: [],
      },
      0,
    ),
  );
}
