/**
 * What a base's fields are in each environment: the hover on a field of a base lists, per overlay, the value
 * the environment deploys and whether its overlay or the base sets it, and an inlay hint beside each value an
 * overlay changes says what each environment deploys there, so nobody opens every overlay to know.
 */
import { overlayOwns } from '../../core/endpointSpec/overlay';
import { valueAt } from '../../core/endpointSpec/schemaValidation';
import { formatFieldPath, spanEnd, type JsonPath, type SpecDocument, type SpecNode, type TextSpan } from '../../core/endpointSpec/tree';
import { resolvePath } from './edits';
import type { SpecInlayHint } from './inlayHints';

/** One environment of a base, as the hover needs it. */
export interface EnvironmentValues {
  readonly environment: string;
  /** The overlay's own values (without `extends`). */
  readonly patch: Record<string, unknown>;
  /** The body the environment deploys; undefined while its overlay is broken. */
  readonly merged?: Record<string, unknown>;
}

export function environmentsHoverMarkdown(path: JsonPath, environments: readonly EnvironmentValues[]): string | undefined {
  if (environments.length === 0 || path.length === 0) return undefined;
  const lines = [...environments]
    .sort((a, b) => a.environment.localeCompare(b.environment))
    .map(({ environment, patch, merged }) => {
      if (!merged) return `- \`${environment}\`: unknown (its overlay has problems)`;
      const value = valueAt(merged, path);
      const shown = value === undefined ? 'not set' : `\`${JSON.stringify(value)}\``;
      return `- \`${environment}\`: ${shown} (${overlayOwns(patch, path) ? 'its overlay' : 'the base'})`;
    });
  return [`**${formatFieldPath(path)} in each environment**`, '', ...lines].join('\n');
}

/** The longest value a hint shows before it is cut. */
const HINT_VALUE_LENGTH = 24;

/** Beside each value of the base that an overlay changes: `prod 10 · staging 1`, the values those environments deploy. */
export function environmentHints(
  document: SpecDocument | undefined,
  environments: readonly EnvironmentValues[],
  range: TextSpan,
): SpecInlayHint[] {
  const byPath = new Map<string, { node: SpecNode; parts: string[]; path: JsonPath }>();
  for (const { environment, patch, merged } of [...environments].sort((a, b) => a.environment.localeCompare(b.environment))) {
    for (const path of leafPaths(patch)) {
      const node = resolvePath(document?.root, path)?.node;
      if (!node) continue;
      const key = JSON.stringify(path);
      const entry = byPath.get(key) ?? { node, parts: [], path };
      const value = merged === undefined ? '?' : shortValue(valueAt(merged, path));
      entry.parts.push(`${environment} ${value}`);
      byPath.set(key, entry);
    }
  }
  return [...byPath.values()]
    .filter(({ node }) => spanEnd(node) >= range.offset && spanEnd(node) <= spanEnd(range))
    .map(({ node, parts, path }) => ({
      offset: spanEnd(node),
      label: parts.join(' · '),
      tooltip: `**${formatFieldPath(path)}** as each environment deploys it (its overlay sets it)`,
    }));
}

/** The paths the overlay writes a value at: each key down to a value that is not a mapping. */
function leafPaths(patch: unknown, path: JsonPath = []): JsonPath[] {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return path.length > 0 ? [path] : [];
  return Object.entries(patch).flatMap(([key, value]) => leafPaths(value, [...path, key]));
}

function shortValue(value: unknown): string {
  if (value === undefined) return 'removed';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > HINT_VALUE_LENGTH ? `${text.slice(0, HINT_VALUE_LENGTH - 1)}…` : text;
}
