/**
 * A fast path for the YAML specs are almost always written in: one document of block mappings and
 * sequences, one-line flow lists and maps, plain and simple quoted scalars, comments. The `yaml` library
 * lexes, parses, composes a document and builds data from it; this single pass over the lines builds the
 * tree and the data at once, which is what lets `endpoint-studio validate` check a repository of specs at
 * a few thousand files a second rather than about 1,200. It gives exactly the document parse.ts builds through the
 * `yaml` library (a test holds it to that) or `undefined` at the first thing it does not handle (anchors,
 * tags, block scalars, escapes, multi-line scalars, directives, markers, non-ASCII text, any error),
 * and the library parses such text as before.
 */
import { spanEnd, type ArrayNode, type ObjectNode, type PropertyNode, type ScalarNode, type SpecDocument, type SpecNode } from './tree';

/** Deeper block nesting is left to the library; specs nest a few levels. parse.ts skips its nesting scan for this path on that bound. */
const MAX_DEPTH = 32;
/** YAML allows implicit keys of up to 1,024 characters; long ones are left to the library's rules. */
const MAX_KEY_LENGTH = 1000;

/** Characters that may not start a plain scalar here (YAML's indicators); `-` may when a name character follows. */
const INDICATORS = new Set('-?:,[]{}#&*!|>%@`');

/** A key of the fast path is a name (letters, digits, `_`, `.`, `-`, `/`; no spaces, quotes or indicators), as every spec key is. */
function isKeyStart(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f;
}

function isKeyChar(c: number): boolean {
  return isKeyStart(c) || c === 0x2e || c === 0x2d || c === 0x2f;
}

interface OpenCollection {
  readonly indent: number;
  readonly node: ObjectNode | ArrayNode;
  readonly data: Record<string, unknown> | unknown[];
  /** Set while a key's value is the block on the lines that follow (`key:` at the end of its line). */
  pendingKey?: { readonly property: number };
  /** Where the last line belonging to this collection ends, trailing comment included. */
  end: number;
}

class Unsupported extends Error {}

/** The document the `yaml` library would give for `text`, or `undefined` when the text is not in the plain subset. */
export function parsePlainYaml(text: string): SpecDocument | undefined {
  if (!isPlainAscii(text)) return undefined;
  try {
    return new PlainYamlParser(text).parse();
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

function isPlainAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 0x0a) || c > 0x7e) return false;
  }
  return true;
}

function unsupported(): never {
  throw new Unsupported();
}

class PlainYamlParser {
  private readonly stack: OpenCollection[] = [];
  private root?: OpenCollection;
  private contentSeen = false;
  private indentedCommentSinceContent = false;
  private commentSinceContent = false;
  /** The data of the inline value read last (a result field rather than a pair per value). */
  private valueData: unknown;

  constructor(private readonly text: string) {}

  parse(): SpecDocument {
    const { text } = this;
    for (let at = 0; at < text.length;) {
      const lineBreak = text.indexOf('\n', at);
      const lineEnd = lineBreak === -1 ? text.length : lineBreak;
      this.line(at, lineEnd);
      at = lineEnd + 1;
    }
    const root = this.root;
    // Comments after the last line stay outside the collections only when the root is all that is open and they are not indented.
    const trailingCommentsApart = this.stack.length === 1 && this.continuesInnermost(0) && !this.indentedCommentSinceContent;
    if (!root || (this.commentSinceContent && !trailingCommentsApart)) return unsupported();
    while (this.stack.length > 0) this.close();
    return {
      span: { offset: root.node.offset, length: text.length - root.node.offset },
      root: root.node,
      data: root.data,
      syntaxProblems: [],
    };
  }

  private line(start: number, end: number): void {
    let content = start;
    while (content < end && this.text.charCodeAt(content) === 0x20) content++;
    if (content === end) return;
    if (this.text.charCodeAt(content) === 0x23 /* # */) {
      if (this.contentSeen) this.commentSinceContent = true;
      if (content > start) this.indentedCommentSinceContent = true;
      return;
    }
    const indent = content - start;
    if (indent === 0 && (this.text.startsWith('---', start) || this.text.startsWith('...', start) || this.text[start] === '%'))
      unsupported();
    // A comment where a collection ends or begins belongs to the collections' ends in ways only the library knows.
    if (this.commentSinceContent && !this.continuesInnermost(indent)) unsupported();
    this.commentSinceContent = false;
    this.indentedCommentSinceContent = false;
    this.contentSeen = true;
    const lineEnd = this.contentLine(content, indent, end);
    for (let i = 0; i < this.stack.length; i++) this.stack[i].end = lineEnd;
  }

  /** Whether a line at `indent` adds to the innermost open collection, neither closing nor opening one. */
  private continuesInnermost(indent: number): boolean {
    const top = this.stack.at(-1);
    return top !== undefined && !top.pendingKey && top.indent === indent;
  }

  /** One line with content at `indent`; answers where the line's text ends (trailing spaces left out). */
  private contentLine(content: number, indent: number, end: number): number {
    const top = this.openFor(indent, content);
    if (top.node.kind === 'object') return this.entry(top, content, end);
    if (!this.startsItem(content, end)) unsupported();
    let value = content + 1;
    while (value < end && this.text.charCodeAt(value) === 0x20) value++;
    if (value === end || this.stack.length >= MAX_DEPTH) unsupported();
    if (this.keyEnd(value, end) >= 0) {
      // The mapping's column: its next keys line up under this one.
      const map = this.push(indent + value - content, value, 'object');
      (top.data as unknown[]).push(map.data);
      top.node.items.push(map.node);
      return this.entry(map, value, end);
    }
    const item = this.inlineValue(value, end);
    (top.data as unknown[]).push(this.valueData);
    top.node.items.push(item);
    return this.lineRest(spanEnd(item), end);
  }

  /** The collection a line at `indent` belongs to: closes deeper ones, opens the block a `key:` announced. */
  private openFor(indent: number, content: number): OpenCollection {
    let top = this.stack.at(-1);
    if (top?.pendingKey) {
      if (indent <= top.indent || this.stack.length >= MAX_DEPTH) unsupported();
      const property = top.pendingKey.property;
      top.pendingKey = undefined;
      const child = this.push(indent, content, this.startsItem(content, this.text.length) ? 'array' : 'object');
      const parent = top.node as ObjectNode;
      const { key, keySpan } = parent.properties[property];
      parent.properties[property] = { key, keySpan, value: child.node };
      (top.data as Record<string, unknown>)[key] = child.data;
      return child;
    }
    if (!top) {
      if (indent !== 0 || this.startsItem(content, this.text.length)) unsupported();
      this.root = this.push(0, content, 'object');
      return this.root;
    }
    while (top && top.indent > indent) {
      this.close();
      top = this.stack.at(-1);
    }
    if (top?.indent !== indent) return unsupported();
    return top;
  }

  private push(indent: number, offset: number, kind: 'object' | 'array'): OpenCollection {
    const node: ObjectNode | ArrayNode =
      kind === 'object'
        ? { kind, properties: [], multiline: false, flow: false, offset, length: 0 }
        : { kind, items: [], multiline: false, flow: false, offset, length: 0 };
    const open: OpenCollection = { indent, node, data: kind === 'object' ? {} : [], end: offset };
    this.stack.push(open);
    return open;
  }

  /** Ends the innermost collection: its extent is known once a line outside it (or the end) is reached. */
  private close(): void {
    const open = this.stack.pop();
    if (!open) return;
    if (open.pendingKey) unsupported();
    const node = open.node as { length: number; multiline: boolean };
    node.length = open.end - open.node.offset;
    node.multiline = this.text.lastIndexOf('\n', open.end - 1) >= open.node.offset;
  }

  private startsItem(at: number, end: number): boolean {
    return (
      this.text.charCodeAt(at) === 0x2d /* - */ && (at + 1 === end || this.text.charCodeAt(at + 1) === 0x20 || at + 1 === this.text.length)
    );
  }

  /** End of the key at `at` when a `key:` entry starts there (the colon followed by a space or the line's end), else -1. */
  private keyEnd(at: number, end: number): number {
    if (!isKeyStart(this.text.charCodeAt(at))) return -1;
    let colon = at + 1;
    while (colon < end && isKeyChar(this.text.charCodeAt(colon))) colon++;
    if (this.text.charCodeAt(colon) !== 0x3a /* : */) return -1;
    return colon + 1 === end || this.text.charCodeAt(colon + 1) === 0x20 ? colon : -1;
  }

  /** A `key: value` or `key:` line of the block mapping `map`. */
  private entry(map: OpenCollection, at: number, end: number): number {
    if (map.node.kind !== 'object') return unsupported();
    const colon = this.keyEnd(at, end);
    if (colon < 0) unsupported();
    const data = map.data as Record<string, unknown>;
    const key = this.checkedKey(data, at, colon);
    let value = colon + 1;
    while (value < end && this.text.charCodeAt(value) === 0x20) value++;
    if (value === end || this.text.charCodeAt(value) === 0x23 /* # */) {
      // Its data is set with the block, which comes before any other key of this mapping.
      map.node.properties.push({ key, keySpan: { offset: at, length: colon - at }, value: undefined });
      map.pendingKey = { property: map.node.properties.length - 1 };
      return this.lineRest(colon + 1, end);
    }
    const parsed = this.inlineValue(value, end);
    this.addProperty(map.node, data, key, at, parsed);
    return this.lineRest(spanEnd(parsed), end);
  }

  private checkedKey(data: Record<string, unknown>, start: number, end: number): string {
    const key = this.text.slice(start, end);
    // A key the core schema reads as a number, boolean or null, and keys data would treat specially, are the library's.
    if (key.length > MAX_KEY_LENGTH || key === '__proto__' || Object.hasOwn(data, key) || typeof resolvePlain(key) !== 'string')
      unsupported();
    return key;
  }

  /**
   * Each data key is set once, with its final value, as the library builds data: the validators then meet the same object shapes.
   * `value` is the inline value just read, whose data is in `valueData`.
   */
  private addProperty(node: ObjectNode, data: Record<string, unknown>, key: string, start: number, value: SpecNode): void {
    node.properties.push({ key, keySpan: { offset: start, length: key.length }, value } satisfies PropertyNode);
    data[key] = this.valueData;
  }

  /** After a value: nothing but spaces or a comment; answers where the line's text ends. */
  private lineRest(at: number, end: number): number {
    let i = at;
    while (i < end && this.text.charCodeAt(i) === 0x20) i++;
    if (i === end) return at;
    if (this.text.charCodeAt(i) !== 0x23 || i === at) unsupported();
    let lineEnd = end;
    while (this.text.charCodeAt(lineEnd - 1) === 0x20) lineEnd--;
    return lineEnd;
  }

  /** A value that fits on its line: a flow list or map, a quoted or a plain scalar; its data is left in `valueData`. */
  private inlineValue(at: number, end: number): SpecNode {
    const c = this.text.charCodeAt(at);
    if (c === 0x5b /* [ */) return this.flowList(at, end);
    if (c === 0x7b /* { */) return this.flowMap(at, end);
    return this.scalar(at, end, false);
  }

  private scalar(at: number, end: number, inFlow: boolean): ScalarNode {
    const c = this.text.charCodeAt(at);
    if (c === 0x22 /* " */ || c === 0x27 /* ' */) {
      const close = this.text.indexOf(this.text[at], at + 1);
      const body = close < 0 || close >= end ? unsupported() : this.text.slice(at + 1, close);
      if (body.includes('\\') || (!inFlow && close + 1 < end && this.text.charCodeAt(close + 1) !== 0x20)) unsupported();
      this.valueData = body;
      return { kind: 'scalar', value: body, quoted: true, offset: at, length: close + 1 - at };
    }
    if (INDICATORS.has(this.text[at]) && !(c === 0x2d && isKeyChar(this.text.charCodeAt(at + 1)))) unsupported();
    let stop = at;
    while (stop < end && !this.endsPlain(stop, inFlow)) stop++;
    while (this.text.charCodeAt(stop - 1) === 0x20) stop--;
    const source = this.text.slice(at, stop);
    const value = resolvePlain(source);
    this.valueData = value;
    return { kind: 'scalar', value, quoted: false, offset: at, length: stop - at };
  }

  /** Whether a plain scalar ends at `i`: a comment, a `: ` (which would make it a key), or in flow a bracket or comma. */
  private endsPlain(i: number, inFlow: boolean): boolean {
    const c = this.text.charCodeAt(i);
    const next = this.text.charCodeAt(i + 1);
    if (c === 0x3a /* : */ && (next === 0x20 || next === 0x0a || Number.isNaN(next) || inFlow)) return unsupported();
    if (c === 0x23 /* # */ && this.text.charCodeAt(i - 1) === 0x20) return true;
    if (c === 0x22 || c === 0x27) return unsupported();
    if (!inFlow) return false;
    if (c === 0x2c /* , */ || c === 0x5d /* ] */ || c === 0x7d /* } */) return true;
    return c === 0x5b || c === 0x7b ? unsupported() : false;
  }

  private flowList(at: number, end: number): ArrayNode {
    const items: SpecNode[] = [];
    const data: unknown[] = [];
    let i = this.skipSpaces(at + 1, end);
    if (this.text.charCodeAt(i) !== 0x5d) {
      for (;;) {
        const item = this.scalar(i, end, true);
        items.push(item);
        data.push(this.valueData);
        i = this.skipSpaces(spanEnd(item), end);
        if (this.text.charCodeAt(i) === 0x5d /* ] */) break;
        if (this.text.charCodeAt(i) !== 0x2c /* , */) unsupported();
        i = this.skipSpaces(i + 1, end);
        if (i >= end || this.text.charCodeAt(i) === 0x5d) unsupported();
      }
    }
    this.valueData = data;
    return { kind: 'array', items, multiline: false, flow: true, offset: at, length: i + 1 - at };
  }

  private flowMap(at: number, end: number): ObjectNode {
    const node: ObjectNode = { kind: 'object', properties: [], multiline: false, flow: true, offset: at, length: 0 };
    const data: Record<string, unknown> = {};
    let i = this.skipSpaces(at + 1, end);
    if (this.text.charCodeAt(i) !== 0x7d) {
      for (;;) {
        const colon = this.keyEnd(i, end);
        if (colon < 0 || colon + 1 >= end) unsupported();
        const key = this.checkedKey(data, i, colon);
        const value = this.scalar(this.skipSpaces(colon + 1, end), end, true);
        this.addProperty(node, data, key, i, value);
        i = this.skipSpaces(spanEnd(value), end);
        if (this.text.charCodeAt(i) === 0x7d /* } */) break;
        if (this.text.charCodeAt(i) !== 0x2c /* , */) unsupported();
        i = this.skipSpaces(i + 1, end);
        if (i >= end || this.text.charCodeAt(i) === 0x7d) unsupported();
      }
    }
    (node as { length: number }).length = i + 1 - at;
    this.valueData = data;
    return node;
  }

  private skipSpaces(at: number, end: number): number {
    let i = at;
    while (i < end && this.text.charCodeAt(i) === 0x20) i++;
    return i >= end ? unsupported() : i;
  }
}

/**
 * A plain scalar as the YAML 1.2 core schema reads it (the `yaml` library's tests, in its order: null,
 * boolean, integers, floats). Forms whose value takes more care (octal, hex, infinities, long numbers)
 * are left to the library.
 */
function resolvePlain(source: string): string | number | boolean | null {
  // Most values are names: a first letter that starts no null, boolean or number is a string.
  const first = source.charCodeAt(0);
  if (isKeyStart(first) && !(first >= 0x30 && first <= 0x39) && !'nNtTfF'.includes(source[0])) return source;
  // Next most are whole numbers, read without a regular expression.
  if (isDigits(source)) return source.length <= 15 ? parseInt(source, 10) : unsupported();
  if (NULL.test(source)) return source === '' ? unsupported() : null;
  if (BOOLEAN.test(source)) return source.startsWith('t') || source.startsWith('T');
  if (INTEGER.test(source)) return parseInt(source, 10);
  if (FLOAT.test(source)) return source.length <= 15 ? parseFloat(source) : unsupported();
  if (LEFT_TO_LIBRARY.test(source)) return unsupported();
  return source;
}

function isDigits(source: string): boolean {
  if (source.length === 0) return false;
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

// Module constants: a regular expression literal makes a new object each time it is evaluated.
const NULL = /^(?:~|[Nn]ull|NULL)?$/;
const BOOLEAN = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INTEGER = /^[-+]?[0-9]{1,15}$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
const LEFT_TO_LIBRARY = /^(?:0o[0-7]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
