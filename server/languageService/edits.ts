/**
 * Minimal text edits on a spec, addressed by JSON path: replace a value, rename a key, remove a
 * property or list item. The user's formatting and comments elsewhere stay exactly as they were.
 */
import * as jsonc from 'jsonc-parser';
import {
  findProperty,
  spanEnd,
  type ArrayNode,
  type JsonPath,
  type ObjectNode,
  type PropertyNode,
  type SpecDocument,
  type SpecFormat,
  type SpecNode,
} from '../../core/endpointSpec/tree';

export interface TextEdit {
  readonly offset: number;
  readonly length: number;
  readonly newText: string;
}

interface Resolved {
  readonly node?: SpecNode;
  readonly property?: PropertyNode;
  readonly parent?: SpecNode;
  readonly parentPath: JsonPath;
}

export function resolvePath(root: SpecNode | undefined, path: JsonPath): Resolved | undefined {
  let node = root;
  let parent: SpecNode | undefined;
  let property: PropertyNode | undefined;
  for (const segment of path) {
    if (!node) return undefined;
    parent = node;
    if (node.kind === 'object' && typeof segment === 'string') {
      property = findProperty(node, segment);
      if (!property) return undefined;
      node = property.value;
    } else if (node.kind === 'array' && typeof segment === 'number') {
      property = undefined;
      if (!Number.isInteger(segment) || segment < 0 || segment >= node.items.length) return undefined;
      node = node.items[segment];
    } else {
      return undefined;
    }
  }
  return { node, property, parent, parentPath: path.slice(0, -1) };
}

export function replaceValue(text: string, document: SpecDocument, path: JsonPath, newText: string): TextEdit[] {
  const target = resolvePath(document.root, path);
  const node = target?.node;
  if (node && node.length > 0) return [{ offset: node.offset, length: node.length, newText }];
  // `key:` with nothing after it: the value goes after the colon, separated by a space.
  const keyEnd = target?.property ? spanEnd(target.property.keySpan) : undefined;
  const colon = keyEnd === undefined ? -1 : text.indexOf(':', keyEnd);
  if (colon === -1) return [];
  return [{ offset: colon + 1, length: 0, newText: ` ${newText}` }];
}

export function renameKey(document: SpecDocument, path: JsonPath, newKey: string, format: SpecFormat): TextEdit[] {
  const key = resolvePath(document.root, path)?.property?.keySpan;
  return key ? [{ offset: key.offset, length: key.length, newText: format === 'json' ? JSON.stringify(newKey) : newKey }] : [];
}

/** Removes a property or a list item; an object left empty is removed with it, so no `key:` with a null value remains. */
export function remove(text: string, document: SpecDocument, path: JsonPath, format: SpecFormat): TextEdit[] {
  const target = resolvePath(document.root, path);
  if (!target || path.length === 0) return [];
  const siblings =
    target.parent?.kind === 'object' ? target.parent.properties.length : target.parent?.kind === 'array' ? target.parent.items.length : 0;
  if (siblings === 1 && target.parentPath.length > 0) return remove(text, document, target.parentPath, format);
  if (format === 'json') {
    const edits = jsonc.modify(text, [...path], undefined, { formattingOptions: { insertSpaces: true, tabSize: 2 } });
    return edits.map((e) => ({ offset: e.offset, length: e.length, newText: e.content }));
  }
  return removeYaml(text, target);
}

function removeYaml(text: string, target: Resolved): TextEdit[] {
  const parent = target.parent;
  if (!parent || (parent.kind !== 'object' && parent.kind !== 'array')) return [];
  const start = target.property ? target.property.keySpan.offset : target.node?.offset;
  if (start === undefined) return [];
  const end = target.node ? spanEnd(target.node) : start + (target.property?.keySpan.length ?? 0);
  if (parent.flow) return removeFromFlow(parent, start, end);
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const lead = text.slice(lineStart, start);
  // A block item's marker (`- `) belongs to the item; a property sharing the marker's line would take it along.
  const ownsLine = target.property ? lead.trim() === '' : /^\s*-\s*$/.test(lead);
  if (!ownsLine) return [];
  const lineBreak = text.indexOf('\n', end);
  return [{ offset: lineStart, length: (lineBreak === -1 ? text.length : lineBreak + 1) - lineStart, newText: '' }];
}

/** In `[a, b, c]` or `{a: 1, b: 2}`: take the separator before the entry, or after it for the first one. */
function removeFromFlow(parent: ObjectNode | ArrayNode, start: number, end: number): TextEdit[] {
  const entries =
    parent.kind === 'object'
      ? parent.properties.map((p) => ({ start: p.keySpan.offset, end: spanEnd(p.value ?? p.keySpan) }))
      : parent.items.map((i) => ({ start: i.offset, end: spanEnd(i) }));
  const index = entries.findIndex((entry) => entry.start === start);
  if (index === -1) return [];
  if (index > 0) return [{ offset: entries[index - 1].end, length: end - entries[index - 1].end, newText: '' }];
  if (index + 1 >= entries.length) return [];
  return [{ offset: start, length: entries[index + 1].start - start, newText: '' }];
}

/** A YAML or JSON scalar as text: quoted when YAML would read it as another type. */
export function scalarText(value: string | number | boolean, format: SpecFormat): string {
  if (typeof value !== 'string') return String(value);
  if (format === 'json') return JSON.stringify(value);
  return /^[A-Za-z_][\w./-]*$/.test(value) && !/^(true|false|null|yes|no|on|off|~)$/i.test(value) ? value : JSON.stringify(value);
}

/**
 * Adds `key: value` after the last property of the object at `objectPath` (which must have one):
 * on a new line at that property's indentation, or inline for a one-line flow object.
 */
export function addProperty(
  text: string,
  document: SpecDocument,
  objectPath: JsonPath,
  key: string,
  value: unknown,
  format: SpecFormat,
): TextEdit[] {
  const object = resolvePath(document.root, objectPath)?.node;
  if (object?.kind !== 'object' || object.properties.length === 0) return [];
  const last = object.properties[object.properties.length - 1];
  const lastEnd = spanEnd(last.value ?? last.keySpan);
  const entry = `${format === 'json' ? JSON.stringify(key) : key}: ${inlineValue(value)}`;
  const separator = object.flow ? ',' : '';
  if (object.flow && !object.multiline) return [{ offset: lastEnd, length: 0, newText: `${separator} ${entry}` }];
  const indent = last.keySpan.offset - (text.lastIndexOf('\n', last.keySpan.offset - 1) + 1);
  return [{ offset: lastEnd, length: 0, newText: `${separator}\n${' '.repeat(indent)}${entry}` }];
}

/** A value on one line, valid as JSON and as YAML flow: `["a", "b"]`. */
function inlineValue(value: unknown): string {
  return Array.isArray(value) ? `[${value.map((v) => JSON.stringify(v)).join(', ')}]` : JSON.stringify(value);
}

/**
 * Appends `value` to the list at `arrayPath`, written as the list's items are: a new `- ` line at the last
 * item's indentation for a block list, after a comma in a flow list or JSON (on a new line when the list
 * spans lines). An empty block list, or one whose last item shares a line with something else, gets no edit.
 */
export function appendItem(text: string, document: SpecDocument, arrayPath: JsonPath, value: unknown, format: SpecFormat): TextEdit[] {
  const list = resolvePath(document.root, arrayPath)?.node;
  if (list?.kind !== 'array') return [];
  const item = itemText(value, format);
  const last = list.items.at(-1);
  if (!last) return list.flow && list.length >= 2 ? [{ offset: list.offset + 1, length: 0, newText: item }] : [];
  const end = spanEnd(last);
  const lineStart = text.lastIndexOf('\n', last.offset - 1) + 1;
  const lead = text.slice(lineStart, last.offset);
  if (!list.flow) return /^\s*-\s*$/.test(lead) ? [afterLine(text, end, `${lead}${item}`)] : [];
  if (!list.multiline || lead.trim() !== '') return [{ offset: end, length: 0, newText: `, ${item}` }];
  return [{ offset: end, length: 0, newText: `,\n${lead}${item}` }];
}

/** `line` as a new line after the one `offset` is on, so a comment at that line's end stays with its item. */
function afterLine(text: string, offset: number, line: string): TextEdit {
  const lineBreak = text.indexOf('\n', offset);
  if (lineBreak === -1) return { offset: text.length, length: 0, newText: `\n${line}` };
  const crlf = text[lineBreak - 1] === '\r';
  return { offset: crlf ? lineBreak - 1 : lineBreak, length: 0, newText: `${crlf ? '\r\n' : '\n'}${line}` };
}

/** A list item on one line: a scalar as `scalarText` writes it, a mapping as `{ id: cpu3c, vcpuCount: 4 }`. */
function itemText(value: unknown, format: SpecFormat): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return scalarText(value, format);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return inlineValue(value);
  const entries = Object.entries(value).map(([key, v]) => `${format === 'json' ? JSON.stringify(key) : key}: ${itemText(v, format)}`);
  return `{ ${entries.join(', ')} }`;
}
