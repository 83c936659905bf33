/**
 * Environments: an overlay (`<base>.<env>.endpoint.yaml`, first key `extends: ./<base>.endpoint.yaml`) holds
 * only what differs from its base, and the endpoint it deploys is the base with the overlay merged in by JSON
 * Merge Patch (RFC 7396). The merged body is checked with every rule, and each problem is put on the text that
 * caused it: the overlay's line when the overlay set the value, the base's line otherwise. Pure (texts in,
 * problems out); reading the base from disk is core/environments' work.
 */
import { TextDocument } from 'vscode-languageserver-textdocument';
import { diagnosticAt, problemAt, type SpecDiagnostic } from './check';
import { isRecord } from './ownData';
import { parseSpecText } from './parse';
import type { SpecProblem } from './problem';
import { validateAgainstSchema } from './schemaValidation';
import { findProperty, formatFieldPath, type JsonPath, type SpecDocument, type SpecFormat, type TextSpan } from './tree';
import { toServiceBody, validateSpecData, type ValidationContext } from './validate';

/** The overlay's key naming its base: read by the editor and the CLI, never sent to the service. */
export const EXTENDS_KEY = 'extends';

/**
 * What an environment may be called (`prod`, `eu-staging`): it is part of file names, profile mappings and
 * variable names. The one rule for the file names, `--env` and the agent tools' input; the environments file's
 * schema (schemas/environments.schema.json) repeats it as a pattern, kept equal by a test.
 */
export const ENVIRONMENT_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/** `sdxl.prod.endpoint.yaml` → `prod`: the last dot-separated part before `.endpoint.`, if there are two. */
export function environmentOfFile(fileName: string): string | undefined {
  const stem = /([^/\\]+)\.endpoint\.(?:ya?ml|json)$/i.exec(fileName)?.[1];
  const dot = stem?.lastIndexOf('.') ?? -1;
  if (!stem || dot <= 0) return undefined;
  const environment = stem.slice(dot + 1);
  return ENVIRONMENT_NAME.test(environment) ? environment : undefined;
}

/** Where a document names its base: the `extends` property, its value when it is a string. */
export interface ExtendsEntry {
  readonly keySpan: TextSpan;
  /** The value's span (the key's when there is no value). */
  readonly valueSpan: TextSpan;
  readonly target?: string;
  /** Whether `extends` is the document's first key, as the format asks. */
  readonly first: boolean;
}

export function extendsEntry(document: SpecDocument | undefined): ExtendsEntry | undefined {
  const root = document?.root;
  const property = findProperty(root, EXTENDS_KEY);
  if (!property || root?.kind !== 'object') return undefined;
  const value = property.value;
  return {
    keySpan: property.keySpan,
    valueSpan: value ?? property.keySpan,
    ...(value?.kind === 'scalar' && typeof value.value === 'string' ? { target: value.value } : {}),
    first: root.properties[0] === property,
  };
}

/** RFC 7396: maps merge key by key, `null` removes a key, anything else (arrays included) replaces whole. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isRecord(patch)) return patch;
  const result: Record<string, unknown> = isRecord(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) Reflect.deleteProperty(result, key);
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}

/** The overlay's data without `extends`: the patch it applies. */
export function overlayPatch(data: unknown): Record<string, unknown> {
  if (!isRecord(data)) return {};
  const patch = { ...data };
  Reflect.deleteProperty(patch, EXTENDS_KEY);
  return patch;
}

/**
 * Whether the overlay wrote the value at `path` of the merged body: it holds that path, or replaced (or
 * removed) an ancestor of it whole. Otherwise the value, or its absence, comes from the base.
 */
export function overlayOwns(patch: unknown, path: JsonPath): boolean {
  let node: unknown = patch;
  for (const segment of path) {
    if (!isRecord(node)) return true;
    if (typeof segment !== 'string' || !Object.hasOwn(node, segment)) return false;
    node = node[segment];
  }
  return true;
}

/** Whether `data` has a value at `path`. */
export function holdsPath(data: unknown, path: JsonPath): boolean {
  let node = data;
  for (const segment of path) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, segment)) return false;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return true;
}

/** The arrays the overlay replaces whole, as field paths (`gpu.pools`): the plan says so. */
export function replacedArrays(patch: unknown, base: unknown, path: JsonPath = []): string[] {
  if (!isRecord(patch)) return [];
  return Object.entries(patch).flatMap(([key, value]) => {
    const at = [...path, key];
    const before = isRecord(base) ? base[key] : undefined;
    if (Array.isArray(value) && before !== undefined) return [formatFieldPath(at)];
    return replacedArrays(value, before, at);
  });
}

export interface BaseSource {
  readonly text: string;
  readonly format: SpecFormat;
  /** The file's name as messages show it (`sdxl.prod.endpoint.yaml`). */
  readonly name: string;
  /** Where the file lives, for the origins of problems shown in the other file; the name when absent. */
  readonly path?: string;
  /** The text already parsed (parseSpecText), so a caller that keeps parses does not pay for another. */
  readonly documents?: SpecDocument[];
}

interface OverlaySource extends BaseSource {
  readonly environment: string;
}

export interface OverlayCheck {
  /** Problems on the overlay's own lines, the broken `extends` and the base's share of the merged body included. */
  readonly overlay: SpecDiagnostic[];
  /**
   * Problems the merged body has and the base alone does not, on the base's lines, each saying the
   * environment; `setInOverlay` when the overlay wrote the value (the base only shows it).
   */
  readonly base: (SpecDiagnostic & { readonly setInOverlay: boolean })[];
  /** The body the environment deploys (without `extends`); undefined while the overlay or its base is broken. */
  readonly merged?: Record<string, unknown>;
  /** Arrays of the base the overlay replaces whole. */
  readonly replacedArrays: readonly string[];
  /** The overlay's parsed documents, for the features that read its text (hover, completion). */
  readonly documents: SpecDocument[];
}

/**
 * A body's problems with every rule (validateSpecData for a create). A caller that checks the same bodies again
 * (a base's overlays on each edit of the base) may answer from what it kept.
 */
export type ValidateBody = (data: unknown) => SpecProblem[];

/** An overlay's problems, given its base (its text) or why the base cannot be read (`baseError`). */
export function checkOverlay(
  overlay: OverlaySource,
  base: BaseSource | { readonly error: string },
  context: ValidationContext = {},
  validate: ValidateBody = (data) => validateSpecData(data, 'create', context),
): OverlayCheck {
  const overlayText = located(overlay.text, overlay.format, overlay.documents);
  const fail = (extra: SpecDiagnostic[]): OverlayCheck => ({
    overlay: [...overlayText.syntax, ...extra],
    base: [],
    replacedArrays: [],
    documents: overlayText.documents,
  });
  const document = overlayText.documents[0];
  if (overlayText.documents.length !== 1)
    return fail([
      overlayText.at(
        { offset: overlayText.documents[1]?.span.offset ?? 0, length: 0 },
        'overlay-one-document',
        'an overlay holds one document',
      ),
    ]);
  if (document.data === undefined && overlayText.syntax.some((d) => d.severity === 'error')) return fail([]);
  const entry = extendsEntry(document);
  if (!entry) return fail([]);
  const patch = overlayPatch(document.data);
  const entryProblems = extendsProblems(entry, overlayText);
  if ('error' in base) {
    // No target at all is said once, by extendsProblems.
    const baseProblem = entry.target === undefined ? [] : [overlayText.at(entry.valueSpan, 'overlay-base', base.error)];
    return fail([...entryProblems, ...baseProblem, ...ownProblems(patch, document, overlayText)]);
  }
  const baseText = located(base.text, base.format, base.documents);
  const baseDocument = baseText.documents[0];
  const baseBroken = baseBrokenReason(base, baseText);
  if (baseBroken)
    return fail([
      ...entryProblems,
      overlayText.at(entry.valueSpan, 'overlay-base', baseBroken),
      ...ownProblems(patch, document, overlayText),
    ]);
  const merged = mergePatch(baseDocument.data, patch) as Record<string, unknown>;
  const basePath = base.path ?? base.name;
  const overlayPath = overlay.path ?? overlay.name;
  const alone = new Set(validate(baseDocument.data).map(problemKey));
  const result: OverlayCheck = {
    overlay: [...overlayText.syntax, ...entryProblems],
    base: [],
    merged: toServiceBody(merged),
    replacedArrays: replacedArrays(patch, baseDocument.data),
    documents: overlayText.documents,
  };
  const ownSuggestions = ownKeySuggestions(patch);
  for (const found of validate(merged)) {
    const problem = ownSuggestions(found);
    const removed = removedByOverlay(patch, problem, document, overlayText);
    const setInOverlay = removed !== undefined || overlayOwns(patch, problem.path);
    const inOverlay = removed ?? (setInOverlay ? overlayText.locate(document, problem) : undefined);
    if (inOverlay) result.overlay.push(inOverlay);
    // What the base has on its own it shows itself; only what this environment breaks is said again, and only
    // where the base wrote something: a key that only the overlay has (a misspelt one) has no line in the base.
    if (alone.has(problemKey(problem)) || (setInOverlay && !holdsPath(baseDocument.data, problem.path))) continue;
    const inBase = baseText.locate(baseDocument, problem);
    const extendsLine = overlayText.at(
      entry.valueSpan,
      problem.code,
      `${problem.message} (${formatFieldPath(problem.path)} in ${base.name})`,
      problem.severity,
    );
    if (!inOverlay)
      result.overlay.push({
        ...extendsLine,
        origin: { path: basePath, range: inBase.range, message: `${formatFieldPath(problem.path)}, as the base sets it` },
      });
    result.base.push({
      ...inBase,
      message: `in ${overlay.environment}: ${problem.message}${setInOverlay ? ` (set in ${overlay.name})` : ''}`,
      setInOverlay,
      origin: {
        path: overlayPath,
        range: (inOverlay ?? extendsLine).range,
        message: setInOverlay ? `set here for ${overlay.environment}` : `the ${overlay.environment} overlay`,
      },
    });
  }
  if (merged.name !== undefined && merged.name === (baseDocument.data as Record<string, unknown>).name)
    result.overlay.push(
      overlayText.at(
        entry.keySpan,
        'overlay-same-name',
        `this environment keeps the base's name ${JSON.stringify(merged.name)}: set its own name, or it and the base's endpoint look like one endpoint`,
        'warning',
      ),
    );
  return result;
}

/**
 * A required property the overlay removed (`key: null`, or `key:` with nothing after it): the problem goes on
 * that key and says so, since an empty key in an overlay reads like "unchanged" but removes the base's value.
 */
function removedByOverlay(patch: unknown, problem: SpecProblem, document: SpecDocument, text: LocatedText): SpecDiagnostic | undefined {
  const name = problem.missingProperty;
  const parent = problem.path.reduce<unknown>((node, segment) => (isRecord(node) ? node[String(segment)] : undefined), patch);
  if (name === undefined || !isRecord(parent) || parent[name] !== null) return undefined;
  const at = { ...problem, path: [...problem.path, name], target: 'key' as const };
  const located = text.locate(document, at);
  return { ...located, message: `${problem.message}: this overlay removes it (an empty ${name}: is null, which removes the base's value)` };
}

/**
 * A misspelt key the overlay wrote is named against the overlay's own keys: in the merged body the base's
 * `idleTimeout` is already there, so `idleTimout` would get no "did you mean" and no Rename, though renaming it
 * in the overlay is exactly what sets that environment's value.
 */
function ownKeySuggestions(patch: Record<string, unknown>): (problem: SpecProblem) => SpecProblem {
  let own: Map<string, SpecProblem> | undefined;
  return (problem) => {
    if (problem.code !== 'unknown-property' || problem.suggestion !== undefined) return problem;
    own ??= new Map(
      validateAgainstSchema(patch, 'create')
        .filter((p) => p.code === 'unknown-property' && p.suggestion !== undefined)
        .map((p) => [JSON.stringify(p.path), p]),
    );
    return own.get(JSON.stringify(problem.path)) ?? problem;
  };
}

/** Why a base cannot be extended, or undefined when it can. */
function baseBrokenReason(base: BaseSource, text: LocatedText): string | undefined {
  if (text.documents.length !== 1)
    return `the base ${base.name} holds ${text.documents.length} documents; an overlay extends a file of one spec`;
  const document = text.documents[0];
  if (document.data === undefined || text.syntax.some((d) => d.severity === 'error'))
    return `the base ${base.name} does not parse; fix it first`;
  const nested = extendsEntry(document);
  if (nested)
    return `the base ${base.name} is itself an overlay (it extends ${nested.target ?? '?'}); an overlay extends a base spec, one level only`;
  if (!isRecord(document.data)) return `the base ${base.name} is not a mapping of fields`;
  return undefined;
}

function extendsProblems(entry: ExtendsEntry, text: LocatedText): SpecDiagnostic[] {
  const problems: SpecDiagnostic[] = [];
  if (!entry.first) problems.push(text.at(entry.keySpan, 'overlay-extends-first', `${EXTENDS_KEY} must be the overlay's first key`));
  if (entry.target === undefined)
    problems.push(
      text.at(entry.valueSpan, 'overlay-base', `${EXTENDS_KEY} takes the relative path of the base spec, e.g. ./worker.endpoint.yaml`),
    );
  return problems;
}

/** With no base to merge into, the overlay's own values are still checked against the schema, nothing required. */
function ownProblems(patch: Record<string, unknown>, document: SpecDocument, text: LocatedText): SpecDiagnostic[] {
  return validateAgainstSchema(patch, 'create')
    .filter((problem) => problem.code !== 'missing-property')
    .map((problem) => text.locate(document, problem));
}

/** The same problem of the same rule at the same place: what the base alone has is not said again for an overlay. */
export const problemKey = (problem: SpecProblem): string => `${problem.code}|${JSON.stringify(problem.path)}|${problem.message}`;

interface LocatedText {
  readonly documents: SpecDocument[];
  readonly syntax: SpecDiagnostic[];
  at(span: TextSpan, code: string, message: string, severity?: SpecDiagnostic['severity']): SpecDiagnostic;
  locate(document: SpecDocument, problem: SpecProblem): SpecDiagnostic;
}

function located(text: string, format: SpecFormat, documents = parseSpecText(text, format)): LocatedText {
  const lines = TextDocument.create('spec', 'spec', 0, text);
  const at = (span: TextSpan, code: string, message: string, severity: SpecDiagnostic['severity'] = 'error'): SpecDiagnostic =>
    diagnosticAt(lines, span, text.length, { severity, code, message, path: [] }, 0);
  return {
    documents,
    syntax: documents.flatMap((document, index) =>
      document.syntaxProblems.map((problem) => diagnosticAt(lines, problem, text.length, { ...problem, path: [] }, index)),
    ),
    at,
    locate: (document, problem) => problemAt(lines, document, text.length, problem),
  };
}
