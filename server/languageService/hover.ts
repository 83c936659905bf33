/** Hovers: a field's documentation from the schema, and the meaning of an enum value. */
import { schemaViewAt, type SchemaView } from '../../core/endpointSpec/schemas';
import { formatFieldPath, type JsonPath, type SpecNode } from '../../core/endpointSpec/tree';
import { describeType } from './completion';
import type { Catalog } from '../../core/endpointSpec/catalog/catalog';
import { catalogValuesAt } from './catalogValues';
import { costHoverMarkdown } from './costHover';

export function hoverMarkdown(
  path: JsonPath,
  onKey: boolean,
  node: SpecNode | undefined,
  data: unknown,
  catalog?: Catalog,
): string | undefined {
  const markdown = fieldHover(path, onKey, node, data, catalog);
  // The cost of the spec follows the field's own documentation where the cost depends on that field.
  const cost = markdown && catalog ? costHoverMarkdown(path, data, catalog) : undefined;
  return cost ? `${markdown}\n\n${cost}` : markdown;
}

function fieldHover(path: JsonPath, onKey: boolean, node: SpecNode | undefined, data: unknown, catalog?: Catalog): string | undefined {
  const view = schemaViewAt(path, data);
  if (!view) return undefined;
  if (catalog && !onKey && node?.kind === 'scalar' && node.value !== null) {
    const entry = catalogValuesAt(catalog, data, path)?.find((v) => String(v.value) === String(node.value));
    if (entry) return `${entry.documentation}\n\n---\n\n${fieldMarkdown(path, view)}`;
  }
  if (!onKey && node?.kind === 'scalar' && typeof node.value === 'string') {
    const meaning = view.enumDescriptions?.[node.value];
    if (meaning) return `**${node.value}** (\`${formatFieldPath(path)}\`)\n\n${meaning}`;
  }
  return fieldMarkdown(path, view);
}

export function fieldMarkdown(path: JsonPath, view: SchemaView): string {
  const lines = [`**${formatFieldPath(path)}**: \`${describeType(view)}\``];
  if (view.description) lines.push('', view.description);
  const facts: string[] = [];
  if (view.default !== undefined) facts.push(`default \`${JSON.stringify(view.default)}\``);
  if (view.minimum !== undefined) facts.push(`minimum ${view.minimum}`);
  if (view.maximum !== undefined) facts.push(`maximum ${view.maximum}`);
  if (facts.length > 0) lines.push('', facts.join(' · '));
  if (view.enumDescriptions) {
    lines.push('', ...Object.entries(view.enumDescriptions).map(([value, meaning]) => `- \`${value}\`: ${meaning}`));
  }
  return lines.join('\n');
}
