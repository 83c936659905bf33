/**
 * Maps a JSON path back to text. A path that does not exist in the tree (a missing property,
 * an item of an alias) falls back to the closest ancestor that does.
 */
import { findProperty, type JsonPath, type PropertyNode, type SpecNode, type TextSpan } from './tree';

export function locatePath(root: SpecNode | undefined, path: JsonPath, target: 'key' | 'value', documentSpan: TextSpan): TextSpan {
  if (!root) return { offset: documentSpan.offset, length: 0 };
  if (path.length === 0) return ancestorSpan(root, undefined, root);
  let node: SpecNode = root;
  let viaProperty: PropertyNode | undefined;
  for (const segment of path) {
    let next: SpecNode | undefined;
    let nextProperty: PropertyNode | undefined;
    if (node.kind === 'object' && typeof segment === 'string') {
      nextProperty = findProperty(node, segment);
      next = nextProperty?.value;
      if (nextProperty && !next) return nextProperty.keySpan;
    } else if (node.kind === 'array' && typeof segment === 'number') {
      next = node.items[segment];
    }
    if (!next) return ancestorSpan(node, viaProperty, root);
    node = next;
    viaProperty = nextProperty;
  }
  if (viaProperty && (target === 'key' || isBlock(node) || node.length === 0)) return viaProperty.keySpan;
  return node.length > 0 ? node : { offset: node.offset, length: 1 };
}

function ancestorSpan(node: SpecNode, viaProperty: PropertyNode | undefined, root: SpecNode): TextSpan {
  if (viaProperty) return viaProperty.keySpan;
  if (node === root && node.kind === 'object' && node.properties.length > 0) return node.properties[0].keySpan;
  return isBlock(node) ? { offset: node.offset, length: 1 } : node;
}

function isBlock(node: SpecNode): boolean {
  return (node.kind === 'object' || node.kind === 'array') && node.multiline;
}
