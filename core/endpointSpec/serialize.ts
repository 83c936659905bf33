/** Writes a spec as text in the file's own format, with optional leading notes (YAML comments). */
import * as YAML from 'yaml';
import type { SpecFormat } from './tree';

export function serializeSpec(spec: Record<string, unknown>, format: SpecFormat, notes: readonly string[] = []): string {
  if (format === 'json') return JSON.stringify(spec, null, 2);
  const comments = notes.map((n) => `# ${n.replace(/\n/g, ' ')}\n`).join('');
  return `${comments}${YAML.stringify(spec, { lineWidth: 0 }).trimEnd()}`;
}
