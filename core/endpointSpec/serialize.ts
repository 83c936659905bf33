/**
 * Writes a spec as text in the file's own format: a new spec (`serializeSpec`, with optional leading notes as YAML
 * comments), or a configuration into a document of an existing spec file (`writeConfigurationIntoSpec`), as a pull
 * or a rollback does from the editor and the CLI alike. What a person wrote around the values (comments, the
 * `$schema` an editor validates with, the other documents) is theirs, and a rewrite keeps it.
 */
import * as jsonc from 'jsonc-parser';
import * as YAML from 'yaml';
import { commonPrefixLength, commonSuffixLength } from './chunks';
import { isRecord, sameData } from './ownData';
import type { SpecFormat } from './tree';

export function serializeSpec(spec: Record<string, unknown>, format: SpecFormat, notes: readonly string[] = []): string {
  if (format === 'json') return JSON.stringify(spec, null, 2);
  const comments = notes.map((n) => `# ${n.replace(/\n/g, ' ')}\n`).join('');
  return `${comments}${YAML.stringify(spec, { lineWidth: 0 }).trimEnd()}`;
}

/** `length` characters at `offset` become `text`. */
interface SpecTextEdit {
  readonly offset: number;
  readonly length: number;
  readonly text: string;
}

/** A configuration written into a spec file: the file's new text, and the one edit that makes it from the old. */
export interface SpecRewrite {
  readonly text: string;
  readonly edit: SpecTextEdit;
}

/**
 * The file with its document `documentIndex` made to describe `configuration`. Only what differs is set, on the
 * parsed document (YAML through the `yaml` library's Document API, JSON through jsonc-parser's edits), so the
 * document keeps its `$schema`, its comments, the order of its keys and the other documents; a key the
 * configuration lacks goes, and a new one comes last in its mapping. Undefined when there is no such document,
 * or it does not parse, or it is not a mapping.
 */
export function writeConfigurationIntoSpec(
  text: string,
  format: SpecFormat,
  documentIndex: number,
  configuration: Record<string, unknown>,
): SpecRewrite | undefined {
  const written = format === 'json' ? rewriteJson(text, documentIndex, configuration) : rewriteYaml(text, documentIndex, configuration);
  return written === undefined ? undefined : { text: written, edit: editBetween(text, written) };
}

type Mapping = Record<string, unknown>;

/** A value to set at a path of a spec document; undefined removes the key. */
export interface SpecValue {
  readonly path: readonly string[];
  readonly value: unknown;
}

/**
 * The file with `values` set in its document `documentIndex`, everything else as it is (comments, key order, the
 * other documents): what keeping a live value in the spec writes. Undefined as for writeConfigurationIntoSpec.
 */
export function writeValuesIntoSpec(
  text: string,
  format: SpecFormat,
  documentIndex: number,
  values: readonly SpecValue[],
): SpecRewrite | undefined {
  const current: unknown = format === 'json' ? jsonc.parse(text) : YAML.parseAllDocuments(text).at(documentIndex)?.toJS();
  if (!isRecord(current)) return undefined;
  const configuration = structuredClone(current);
  for (const { path, value } of values) setAt(configuration, path, value);
  return writeConfigurationIntoSpec(text, format, documentIndex, configuration);
}

function setAt(target: Mapping, path: readonly string[], value: unknown): void {
  if (path.length === 0) return;
  const [key, ...rest] = path;
  if (rest.length === 0) {
    if (value === undefined) Reflect.deleteProperty(target, key);
    else target[key] = value;
    return;
  }
  if (!isRecord(target[key])) target[key] = {};
  setAt(target[key] as Mapping, rest, value);
}

/** One key to set to `value`, or to remove. */
type Change = { readonly path: readonly string[]; readonly value: unknown } | { readonly path: readonly string[]; readonly remove: true };

/**
 * What turns `current` into `wanted` key by key, down through the mappings both have (only when `deep`); a top-level
 * `$schema` stays.
 */
function changesBetween(current: Mapping, wanted: Mapping, deep = true, path: readonly string[] = []): Change[] {
  const changes: Change[] = [];
  for (const key of Object.keys(current))
    if (!Object.hasOwn(wanted, key) && !(path.length === 0 && key === '$schema')) changes.push({ path: [...path, key], remove: true });
  for (const [key, value] of Object.entries(wanted)) {
    const was = Object.hasOwn(current, key) ? current[key] : undefined;
    if (deep && isRecord(was) && isRecord(value)) changes.push(...changesBetween(was, value, deep, [...path, key]));
    else if (was === undefined || !sameData(was, value)) changes.push({ path: [...path, key], value });
  }
  return changes;
}

function rewriteYaml(text: string, documentIndex: number, configuration: Mapping): string | undefined {
  const documents = YAML.parseAllDocuments(text);
  const document = documents.at(documentIndex);
  if (!document || document.errors.length > 0 || !YAML.isMap(document.contents)) return undefined;
  const current = document.toJS() as Mapping;
  if (changesBetween(current, configuration).length === 0) return text;
  const wanted = Object.hasOwn(current, '$schema') ? { $schema: current.$schema, ...configuration } : configuration;
  // Key by key where it can; else whole top-level values (an alias or a merge supplied what lay below); else anew.
  const set = (deep: boolean) => setInPlace(document, changesBetween(document.toJS() as Mapping, configuration, deep), wanted);
  if (!set(true) && !set(false)) writeAnew(document, wanted);
  // Each document's text runs from where the one before it ends; the document prints its own `---` and comments.
  const bom = text.startsWith('\uFEFF') ? 1 : 0;
  const start = documentIndex === 0 ? bom : (documents[documentIndex - 1]?.range[2] ?? bom);
  const end = documentIndex === documents.length - 1 ? text.length : document.range[2];
  // Flow collections as people write them (`[ADA_24]`), so an untouched list keeps its text.
  return `${text.slice(0, start)}${document.toString({ lineWidth: 0, flowCollectionPadding: false })}${text.slice(end)}`;
}

/** Makes each change on the parsed document; false when that fails or does not give `wanted`. */
function setInPlace(document: YAML.Document, changes: readonly Change[], wanted: Mapping): boolean {
  try {
    for (const change of changes) {
      if ('remove' in change) document.deleteIn(change.path);
      // A scalar set as a plain value keeps its node, and with it the comment beside it.
      else
        document.setIn(
          change.path,
          isRecord(change.value) || Array.isArray(change.value) ? document.createNode(change.value) : change.value,
        );
    }
    return sameData(document.toJS(), wanted);
  } catch {
    return false;
  }
}

/** The mapping written anew, under the comment that headed it. */
function writeAnew(document: YAML.Document, wanted: Mapping): void {
  const heading = document.contents?.commentBefore;
  document.contents = document.createNode(wanted);
  document.contents.commentBefore = heading;
}

function rewriteJson(text: string, documentIndex: number, configuration: Mapping): string | undefined {
  const errors: jsonc.ParseError[] = [];
  const current: unknown = jsonc.parse(text, errors, { disallowComments: true, allowTrailingComma: false });
  if (documentIndex !== 0 || errors.length > 0 || !isRecord(current)) return undefined;
  const indent = /^[ \t]+(?=")/m.exec(text)?.[0] ?? '  ';
  const formattingOptions = { insertSpaces: !indent.includes('\t'), tabSize: indent.length, eol: text.includes('\r\n') ? '\r\n' : '\n' };
  let written = text;
  for (const change of changesBetween(current, configuration)) {
    const value = 'remove' in change ? undefined : change.value;
    written = jsonc.applyEdits(written, jsonc.modify(written, [...change.path], value, { formattingOptions }));
  }
  return written;
}

/** The one edit from `before` to `after`: what lies between the text they start with and the text they end with. */
function editBetween(before: string, after: string): SpecTextEdit {
  const head = commonPrefixLength(before, after);
  const tail = commonSuffixLength(before, after, Math.min(before.length, after.length) - head);
  return { offset: head, length: before.length - head - tail, text: after.slice(head, after.length - tail) };
}
