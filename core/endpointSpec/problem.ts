import type { JsonPath } from './tree';

export type Severity = 'error' | 'warning' | 'information';

/**
 * One thing wrong with a spec, independent of text: it names the JSON path and whether the
 * key or the value is at fault. The locator turns it into a range; the emulator into a problem body.
 */
export interface SpecProblem {
  /** Stable identifier, used by quick fixes, the CLI's JSON output and suppressions. */
  readonly code: string;
  readonly message: string;
  /** `error`: the service rejects the spec. `warning`/`information`: accepted, but likely not what was meant. */
  readonly severity: Severity;
  readonly path: JsonPath;
  readonly target: 'key' | 'value';
  /** HTTP status the service answers for an error: 400 for rule conflicts, 422 for failed validation. */
  readonly status?: 400 | 404 | 422;
  /** The value the user most likely meant (a key or enum value), for "did you mean" quick fixes. */
  readonly suggestion?: string;
  /** Further values a quick fix needs (e.g. the other GPU types of a pool, to exclude them). */
  readonly related?: readonly string[];
  /** For a `missing-property` problem, the name of the property missing; `path` is its parent's. */
  readonly missingProperty?: string;
}

export const DIAGNOSTIC_SOURCE = 'endpoint-studio';
