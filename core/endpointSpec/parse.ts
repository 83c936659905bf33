/**
 * Parses spec text (YAML, possibly multi-document, or JSON) once into SpecDocuments that carry
 * both the offset tree and the plain data the validators run on.
 */
import * as YAML from 'yaml';
import * as jsonc from 'jsonc-parser';
import { shiftDocument, splitYamlDocuments, type DocumentChunk } from './chunks';
import { jsonNestingBeyond, yamlNestingBeyond } from './nestingScan';
import { setOwnValue } from './ownData';
import { parsePlainYaml } from './plainYaml';
import type { ArrayNode, ObjectNode, PropertyNode, SpecDocument, SpecFormat, SpecNode, SyntaxProblem } from './tree';

/** Deeper structures than this are not specs; refusing them keeps recursion and memory bounded. */
export const MAX_NESTING_DEPTH = 256;
/** Alias expansions allowed when building data from YAML (guards against "billion laughs"). */
export const MAX_ALIAS_COUNT = 100;
/**
 * YAML whose nesting bound (see nestingScan.ts) passes this is refused before the parser sees it:
 * the parser recurses per level and overflows its stack between 500 and 1,000 levels.
 */
export const YAML_SCAN_LIMIT = MAX_NESTING_DEPTH + 128;

/** Every document of a spec file, with offsets into the whole text. */
export function parseSpecText(text: string, format: SpecFormat): SpecDocument[] {
  return specPieces(text, format).flatMap((piece) =>
    parsePiece(piece.text, format).map((document) => shiftDocument(document, piece.offset)),
  );
}

/**
 * The pieces a spec file is parsed in, each on its own: a YAML file's `---` documents (chunks.ts says why
 * that is sound), or the whole text when it is JSON or YAML whose directives or `...` markers reach across documents.
 */
export function specPieces(text: string, format: SpecFormat): DocumentChunk[] {
  return (format === 'yaml' ? splitYamlDocuments(text) : undefined) ?? [{ offset: 0, line: 0, text }];
}

/** The documents of one piece, with offsets counted from the piece's start. */
export function parsePiece(text: string, format: SpecFormat): SpecDocument[] {
  if (format === 'json') return [parseJson(text)];
  // The common plain spec in one pass; anything else goes through the library (plainYaml.ts says why).
  // The fast path nests only a few levels, far inside the scan's limit, so only the library's text needs the scan.
  const plain = parsePlainYaml(text);
  if (plain) return [plain];
  const tooDeep = yamlNestingBeyond(text, YAML_SCAN_LIMIT);
  if (tooDeep >= 0) return [{ span: { offset: 0, length: text.length }, data: undefined, syntaxProblems: [nestingProblem(tooDeep)] }];
  return parseYamlWithLibrary(text);
}

class NestingTooDeep extends Error {
  constructor(readonly offset: number) {
    super('nesting too deep');
  }
}

function nestingProblem(offset: number): SyntaxProblem {
  return {
    code: 'syntax-error',
    severity: 'error',
    message: `nesting is deeper than ${MAX_NESTING_DEPTH} levels; a spec is never this deep`,
    offset,
    length: 1,
  };
}

// ---------------------------------------------------------------- YAML

/** The `yaml` library's reading of the text, converted; exported so tests can hold the fast path to it. */
export function parseYamlWithLibrary(text: string): SpecDocument[] {
  const documents = YAML.parseAllDocuments(text, {
    prettyErrors: false,
    // The parser's own check compares each key with every earlier one (quadratic: a 10 MB mapping
    // takes hours); convertYamlNode finds duplicates with a set instead.
    uniqueKeys: false,
    strict: true,
    version: '1.2',
  });
  if (documents.length === 0 || 'empty' in documents) {
    // An empty stream (only comments or nothing at all) still is one, empty, spec document.
    return [
      {
        span: { offset: 0, length: text.length },
        data: undefined,
        syntaxProblems: 'errors' in documents ? documents.errors.map(yamlProblem) : [],
      },
    ];
  }
  return documents.map((doc) => convertYamlDocument(doc, text));
}

function yamlProblem(error: YAML.YAMLError | YAML.YAMLWarning): SyntaxProblem {
  const [start, end] = error.pos;
  const span = { offset: start, length: Math.max(1, end - start) };
  const message = lowerFirst(error.message.split('\n')[0]);
  if (error.code === 'TAG_RESOLVE_FAILED')
    return { code: 'unknown-tag', message: `${message}; the value is read as plain text`, severity: 'warning', ...span };
  return { code: 'syntax-error', message, severity: error instanceof YAML.YAMLWarning ? 'warning' : 'error', ...span };
}

function convertYamlDocument(doc: YAML.Document.Parsed, text: string): SpecDocument {
  const [start, , end] = doc.range;
  const span = { offset: start, length: end - start };
  const syntaxProblems = [...doc.errors, ...doc.warnings].map(yamlProblem);
  let root: SpecNode | undefined;
  const keyProblems: SyntaxProblem[] = [];
  try {
    root = doc.contents ? convertYamlNode(doc.contents, 0, text, keyProblems) : undefined;
  } catch (error) {
    if (!(error instanceof NestingTooDeep)) throw error;
    return { span, data: undefined, syntaxProblems: [...syntaxProblems, nestingProblem(error.offset)] };
  }
  syntaxProblems.push(...keyProblems);
  // Duplicate keys are reported, but the data (last value wins) is still worth validating.
  if (doc.errors.length > 0 || keyProblems.some((p) => p.code !== 'duplicate-key')) return { span, root, data: undefined, syntaxProblems };
  try {
    return { span, root, data: doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }), syntaxProblems };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const aliasLimit = /alias/i.test(message);
    syntaxProblems.push({
      code: aliasLimit ? 'alias-limit' : 'syntax-error',
      severity: 'error',
      message: aliasLimit ? `aliases expand too much (more than ${MAX_ALIAS_COUNT} uses); write the values out` : lowerFirst(message),
      offset: root?.offset ?? start,
      length: 1,
    });
    return { span, root, data: undefined, syntaxProblems };
  }
}

/** End of a node's text without the line breaks and indentation a block collection carries. */
function trimmedEnd(text: string, start: number, end: number): number {
  while (end > start && /\s/.test(text[end - 1])) end--;
  return end;
}

function isMultiline(text: string, start: number, end: number): boolean {
  const lineBreak = text.indexOf('\n', start);
  return lineBreak !== -1 && lineBreak < end;
}

/** Converts one node; duplicate and non-scalar keys go to `keyProblems`. */
function convertYamlNode(node: YAML.Node, depth: number, text: string, keyProblems: SyntaxProblem[]): SpecNode {
  const [start, rawEnd] = node.range ?? [0, 0];
  const valueEnd = trimmedEnd(text, start, rawEnd);
  const base = { offset: start, length: valueEnd - start, ...(node.tag && !node.tag.startsWith('tag:yaml.org') ? { tag: node.tag } : {}) };
  if (depth > MAX_NESTING_DEPTH) throw new NestingTooDeep(start);
  if (YAML.isMap(node)) {
    const properties: PropertyNode[] = [];
    // Scalar key values as the parser's own duplicate check compares them (by value, not by text).
    const seen = new Set<unknown>();
    for (const pair of node.items) {
      const keyNode = YAML.isNode(pair.key) ? pair.key : undefined;
      const [keyStart, keyEnd] = keyNode?.range ?? [start, start];
      // A collection key is named by its text: printing it as YAML costs time exponential in its depth.
      const key = YAML.isScalar(keyNode) ? String(keyNode.value) : keyNode ? text.slice(keyStart, Math.min(keyEnd, keyStart + 200)) : '';
      const keySpan = { offset: keyStart, length: Math.max(1, keyEnd - keyStart) };
      if (YAML.isScalar(keyNode)) {
        if (seen.has(keyNode.value))
          keyProblems.push({
            code: 'duplicate-key',
            message: 'duplicate key: a key may appear only once in a mapping',
            severity: 'error',
            ...keySpan,
          });
        seen.add(keyNode.value);
      } else if (YAML.isCollection(keyNode)) {
        // Building data turns such a key into JSON text, nested keys into ever longer escaped text:
        // exponential in the depth. A spec's keys are names, so it is refused.
        keyProblems.push({ code: 'syntax-error', message: 'a key must be a name, not a mapping or a list', severity: 'error', ...keySpan });
      }
      const value = YAML.isNode(pair.value) ? convertYamlNode(pair.value, depth + 1, text, keyProblems) : undefined;
      properties.push({ key, keySpan: { offset: keyStart, length: keyEnd - keyStart }, value });
    }
    return {
      kind: 'object',
      properties,
      multiline: isMultiline(text, start, valueEnd),
      flow: Boolean(node.flow),
      ...base,
    } satisfies ObjectNode;
  }
  if (YAML.isSeq(node)) {
    const items = node.items.filter(YAML.isNode).map((item) => convertYamlNode(item, depth + 1, text, keyProblems));
    return { kind: 'array', items, multiline: isMultiline(text, start, valueEnd), flow: Boolean(node.flow), ...base } satisfies ArrayNode;
  }
  if (YAML.isAlias(node)) return { kind: 'alias', ...base };
  if (YAML.isScalar(node)) {
    return {
      kind: 'scalar',
      value: scalarValue(node.value),
      quoted: node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE',
      ...base,
    };
  }
  return { kind: 'scalar', value: null, quoted: false, ...base };
}

/** A YAML scalar's value in the tree: the `!!binary` and `!!timestamp` tags make bytes and dates, kept as text. */
function scalarValue(value: unknown): string | number | boolean | null {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null) return value;
  if (value instanceof Date || value instanceof Uint8Array || typeof value === 'bigint') return value.toString();
  return typeof value;
}

// ---------------------------------------------------------------- JSON

const jsonErrorMessages: Partial<Record<jsonc.ParseErrorCode, string>> = {
  [jsonc.ParseErrorCode.InvalidSymbol]: 'unexpected character',
  [jsonc.ParseErrorCode.InvalidNumberFormat]: 'invalid number',
  [jsonc.ParseErrorCode.PropertyNameExpected]: 'expected a property name in double quotes',
  [jsonc.ParseErrorCode.ValueExpected]: 'expected a value',
  [jsonc.ParseErrorCode.ColonExpected]: "expected ':' after the property name",
  [jsonc.ParseErrorCode.CommaExpected]: "expected ',' between entries",
  [jsonc.ParseErrorCode.CloseBraceExpected]: "expected '}' to close the object",
  [jsonc.ParseErrorCode.CloseBracketExpected]: "expected ']' to close the array",
  [jsonc.ParseErrorCode.EndOfFileExpected]: 'expected the end of the file after the top-level value',
  [jsonc.ParseErrorCode.InvalidCommentToken]: 'comments are not allowed in JSON',
  [jsonc.ParseErrorCode.UnexpectedEndOfComment]: 'unterminated comment',
  [jsonc.ParseErrorCode.UnexpectedEndOfString]: 'unterminated string',
  [jsonc.ParseErrorCode.UnexpectedEndOfNumber]: 'unterminated number',
  [jsonc.ParseErrorCode.InvalidUnicode]: 'invalid unicode escape',
  [jsonc.ParseErrorCode.InvalidEscapeCharacter]: 'invalid escape character',
  [jsonc.ParseErrorCode.InvalidCharacter]: 'invalid character in string',
};

function parseJson(text: string): SpecDocument {
  // The tree builder recurses per level and throws RangeError on deep input; refuse it first.
  const tooDeep = jsonNestingBeyond(text, MAX_NESTING_DEPTH);
  if (tooDeep >= 0) return { span: { offset: 0, length: text.length }, data: undefined, syntaxProblems: [nestingProblem(tooDeep)] };
  const errors: jsonc.ParseError[] = [];
  const tree = jsonc.parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  // The scanner often reports two errors at one spot ("property name expected", "value expected"); keep the first.
  const firstPerOffset = errors.filter((e, i) => errors.findIndex((other) => other.offset === e.offset) === i);
  const syntaxProblems: SyntaxProblem[] = firstPerOffset.map((e) => ({
    code: 'syntax-error',
    severity: 'error',
    message: jsonErrorMessages[e.error] ?? lowerFirst(jsonc.printParseErrorCode(e.error)),
    offset: e.offset,
    length: Math.max(1, e.length),
  }));
  const span = { offset: 0, length: text.length };
  if (!tree) return { span, data: undefined, syntaxProblems };
  try {
    const { node, data } = convertJsonNode(tree, 0, syntaxProblems, text);
    const broken = syntaxProblems.some((p) => p.code !== 'duplicate-key');
    return { span, root: node, data: broken ? undefined : data, syntaxProblems };
  } catch (error) {
    if (!(error instanceof NestingTooDeep)) throw error;
    return { span, data: undefined, syntaxProblems: [...syntaxProblems, nestingProblem(error.offset)] };
  }
}

function convertJsonNode(node: jsonc.Node, depth: number, problems: SyntaxProblem[], text: string): { node: SpecNode; data: unknown } {
  if (depth > MAX_NESTING_DEPTH) throw new NestingTooDeep(node.offset);
  const base = { offset: node.offset, length: node.length };
  switch (node.type) {
    case 'object': {
      const properties: PropertyNode[] = [];
      const data: Record<string, unknown> = {};
      const seen = new Set<string>();
      for (const property of node.children ?? []) {
        const keyNode = property.children?.at(0);
        const valueNode = property.children?.at(1);
        if (!keyNode) continue;
        const key = String(keyNode.value);
        if (seen.has(key)) {
          problems.push({
            code: 'duplicate-key',
            severity: 'error',
            message: 'duplicate key: a key may appear only once in an object',
            offset: keyNode.offset,
            length: keyNode.length,
          });
        }
        seen.add(key);
        const value = valueNode ? convertJsonNode(valueNode, depth + 1, problems, text) : undefined;
        properties.push({ key, keySpan: { offset: keyNode.offset, length: keyNode.length }, value: value?.node });
        setOwnValue(data, key, value?.data);
      }
      return {
        node: { kind: 'object', properties, multiline: isMultiline(text, node.offset, node.offset + node.length), flow: true, ...base },
        data,
      };
    }
    case 'array': {
      const converted = (node.children ?? []).map((child) => convertJsonNode(child, depth + 1, problems, text));
      const multiline = isMultiline(text, node.offset, node.offset + node.length);
      return {
        node: { kind: 'array', items: converted.map((c) => c.node), multiline, flow: true, ...base },
        data: converted.map((c) => c.data),
      };
    }
    default:
      return {
        node: { kind: 'scalar', value: node.value as string | number | boolean | null, quoted: node.type === 'string', ...base },
        data: node.value,
      };
  }
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
