/**
 * A format-neutral syntax tree with offsets. YAML and JSON both parse into it, so validation
 * runs on plain data and every problem is mapped back to text through one locator.
 */

export type JsonPathSegment = string | number;
export type JsonPath = readonly JsonPathSegment[];

export interface TextSpan {
  readonly offset: number;
  readonly length: number;
}

interface NodeBase extends TextSpan {
  /** The YAML tag written in the source (`!!str`, `!custom`), if any. */
  readonly tag?: string;
}

export interface ObjectNode extends NodeBase {
  readonly kind: 'object';
  readonly properties: PropertyNode[];
  /** Spread over several lines: problems about it sit on its key rather than on the whole block. */
  readonly multiline: boolean;
  /** Written in flow style (`{a: 1}`, and all JSON) rather than as an indented block. */
  readonly flow: boolean;
}

export interface ArrayNode extends NodeBase {
  readonly kind: 'array';
  readonly items: SpecNode[];
  readonly multiline: boolean;
  readonly flow: boolean;
}

export interface ScalarNode extends NodeBase {
  readonly kind: 'scalar';
  readonly value: string | number | boolean | null;
  /** True when the scalar was written in quotes (or is a JSON string). */
  readonly quoted: boolean;
}

/** A YAML alias (`*name`): it stands for another node, so locations stop at the alias itself. */
interface AliasNode extends NodeBase {
  readonly kind: 'alias';
}

export type SpecNode = ObjectNode | ArrayNode | ScalarNode | AliasNode;

export interface PropertyNode {
  readonly key: string;
  readonly keySpan: TextSpan;
  /** Absent when the key has no value at all (`image:` followed by nothing). */
  readonly value?: SpecNode;
}

export interface SyntaxProblem extends TextSpan {
  readonly code: 'syntax-error' | 'duplicate-key' | 'alias-limit' | 'unknown-tag';
  readonly message: string;
  /** Warnings (an unknown tag) leave the data usable; errors may not. */
  readonly severity: 'error' | 'warning';
}

/** One spec: a whole JSON file, or one `---` document of a YAML file. */
export interface SpecDocument {
  /** Span of the whole document in the file, used to place document-level problems. */
  readonly span: TextSpan;
  readonly root?: SpecNode;
  /** The document as plain data; `undefined` when it could not be built. */
  readonly data: unknown;
  readonly syntaxProblems: SyntaxProblem[];
}

export type SpecFormat = 'yaml' | 'json';

/**
 * Large mappings get an index on first search, so locating many problems in one of a million keys
 * is not a million-step scan each. Nodes are never changed after parsing, so it cannot go stale.
 */
const propertyIndex = new WeakMap<ObjectNode, Map<string, PropertyNode>>();
const INDEXED_FROM = 64;

/** Returns the property of `node` named `key`, preferring the last one as YAML and JSON loaders do. */
export function findProperty(node: SpecNode | undefined, key: string): PropertyNode | undefined {
  if (node?.kind !== 'object') return undefined;
  if (node.properties.length >= INDEXED_FROM) {
    let index = propertyIndex.get(node);
    if (!index) propertyIndex.set(node, (index = new Map(node.properties.map((p) => [p.key, p]))));
    return index.get(key);
  }
  for (let i = node.properties.length - 1; i >= 0; i--) {
    if (node.properties[i].key === key) return node.properties[i];
  }
  return undefined;
}

export function spanEnd(span: TextSpan): number {
  return span.offset + span.length;
}

export function containsOffset(span: TextSpan, offset: number): boolean {
  return offset >= span.offset && offset <= span.offset + span.length;
}

export function formatJsonPath(path: JsonPath): string {
  let out = '$';
  for (const segment of path) {
    out +=
      typeof segment === 'number' ? `[${segment}]` : /^[A-Za-z_$][\w$]*$/.test(segment) ? `.${segment}` : `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/** The unescaped tokens of a JSON pointer: `/a~1b/0` → `['a/b', '0']`. */
export function pointerTokens(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** `gpu.pools[0]`: the path as a user reads it in a message. */
export function formatFieldPath(path: JsonPath): string {
  return formatJsonPath(path).replace(/^\$\.?/, '') || '(the spec)';
}
