/**
 * An overlay's base, found on disk (or in the editor's open documents) and checked with it: the rules of
 * `extends` that need files (the base exists, lies in the workspace, has the overlay's format, is not the
 * overlay itself) live here, so the language server and the CLI refuse the same bases with the same words.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import {
  checkOverlay,
  environmentOfFile,
  EXTENDS_KEY,
  extendsEntry,
  type BaseSource,
  type OverlayCheck,
  type ValidateBody,
} from '../endpointSpec/overlay';
import { parseSpecText } from '../endpointSpec/parse';
import type { SpecDocument, SpecFormat } from '../endpointSpec/tree';
import type { ValidationContext } from '../endpointSpec/validate';
import { isSpecFile, specFormatOf } from '../protocol/specFiles';

/** The text of a spec file by absolute path (an open editor's text first), or undefined when there is none. */
export type ReadSpecText = (path: string) => string | undefined;

/** A spec file's text parsed (parseSpecText); a caller that keeps parses per file answers from them. */
type ParseSpecFile = (path: string, text: string, format: SpecFormat) => SpecDocument[];

const parseAnew: ParseSpecFile = (_path, text, format) => parseSpecText(text, format);

export interface OverlayFile {
  /** Absolute path of the overlay. */
  readonly path: string;
  readonly text: string;
  readonly format: SpecFormat;
}

export interface CheckedOverlay extends OverlayCheck {
  readonly environment?: string;
  /** Absolute path of the base, once `extends` named one that exists. */
  readonly basePath?: string;
}

/** A spec file's text from disk; undefined when it cannot be read. */
export const readSpecFromDisk: ReadSpecText = (path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

/** The disk as the workspace's owner of spec files sees it (core/workspace), for the front-ends without editors. */
export const DISK_FILE_VIEW = {
  read: readSpecFromDisk,
  list: (folder: string): string[] => {
    try {
      return readdirSync(folder);
    } catch {
      return [];
    }
  },
};

/**
 * Whether `file` is an overlay: its (only) document has an `extends` key. The target it names, null when it
 * names none; undefined for any other spec.
 */
export function overlayTarget(
  text: string,
  format: SpecFormat,
  parse: () => SpecDocument[] = () => parseSpecText(text, format),
): string | null | undefined {
  if (!text.includes(EXTENDS_KEY)) return undefined;
  const entry = parse()
    .map((document) => extendsEntry(document))
    .find((found) => found !== undefined);
  return entry ? (entry.target ?? null) : undefined;
}

/** Where an overlay's base comes from and how the pair is checked. */
export interface OverlayCheckOptions {
  readonly read: ReadSpecText;
  /** The folders a base may lie in (the workspace). */
  readonly roots: readonly string[];
  readonly context?: ValidationContext;
  readonly parse?: ParseSpecFile;
  /** Validates a body with `context`; by default anew each time. */
  readonly validate?: ValidateBody;
}

/** The overlay checked against its base. */
export function checkOverlayFile(file: OverlayFile, options: OverlayCheckOptions): CheckedOverlay {
  const { read, roots, context = {}, parse = parseAnew, validate } = options;
  const environment = environmentOfFile(file.path);
  const documents = parse(file.path, file.text, file.format);
  const source = {
    text: file.text,
    format: file.format,
    name: basename(file.path),
    path: file.path,
    environment: environment ?? '?',
    documents,
  };
  const check = (base: BaseSource | { readonly error: string }): OverlayCheck => checkOverlay(source, base, context, validate);
  const target = overlayTarget(file.text, file.format, () => documents);
  if (!environment) {
    const stem = basename(file.path).replace(/\.endpoint\.(ya?ml|json)$/i, '');
    return check({
      error: `an overlay's file name says its environment: ${stem}.<environment>.endpoint.${file.format === 'json' ? 'json' : 'yaml'}`,
    });
  }
  const base = typeof target === 'string' ? findBase(file, target, read, roots, parse) : { error: 'no base named' };
  return { ...check(base), environment, ...('error' in base ? {} : { basePath: base.path }) };
}

function findBase(
  file: OverlayFile,
  target: string,
  read: ReadSpecText,
  roots: readonly string[],
  parse: ParseSpecFile,
): (BaseSource & { path: string }) | { error: string } {
  if (isAbsolute(target) || /^[a-z][a-z0-9+.-]*:/i.test(target))
    return { error: `${EXTENDS_KEY} takes a path relative to this file (./${basename(target)}), not ${target}` };
  const path = resolve(dirname(file.path), target);
  if (path === file.path) return { error: `${target} is this file: an overlay extends its base, not itself` };
  if (!roots.some((root) => isInside(path, root)))
    return { error: `${target} lies outside the workspace; a base sits beside its overlays` };
  if (!isSpecFile(path)) return { error: `${target} is not a spec file (*.endpoint.yaml, *.endpoint.yml or *.endpoint.json)` };
  const format = specFormatOf(path);
  if (format !== file.format)
    return {
      error: `${target} is ${format.toUpperCase()} and this overlay is ${file.format.toUpperCase()}: an overlay and its base share one format`,
    };
  const text = read(path);
  if (text === undefined) return { error: `${target} does not exist` };
  const documents = parse(path, text, format);
  const back = overlayTarget(text, format, () => documents);
  if (typeof back === 'string' && resolve(dirname(path), back) === file.path)
    return { error: `${target} extends this file back: a cycle; the base must be a plain spec` };
  return { text, format, name: basename(path), path, documents };
}

function isInside(path: string, root: string): boolean {
  const fromRoot = relative(root, path);
  return fromRoot !== '' && !fromRoot.startsWith(`..${sep}`) && fromRoot !== '..' && !isAbsolute(fromRoot);
}
