/**
 * What a base's fields are in each environment: the hover on a field of a base lists, per overlay, the value
 * the environment deploys and whether its overlay or the base sets it, so nobody opens every overlay to know.
 */
import { overlayOwns } from '../../core/endpointSpec/overlay';
import { valueAt } from '../../core/endpointSpec/schemaValidation';
import { formatFieldPath, type JsonPath } from '../../core/endpointSpec/tree';

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
