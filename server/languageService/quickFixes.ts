/**
 * Quick fixes, keyed by diagnostic code. Each is offered only where the fix is unambiguous (or
 * as a short list of equally valid choices), and is built from minimal text edits.
 */
import { minimumOf } from '../../core/endpointSpec/contract';
import { isPowerOfTwo } from '../../core/endpointSpec/rules/cpu';
import { valueAt } from '../../core/endpointSpec/schemaValidation';
import type { JsonPath, SpecDocument, SpecFormat } from '../../core/endpointSpec/tree';
import type { Catalog } from '../../core/endpointSpec/catalog/catalog';
import { migrateLegacyBody } from '../../core/endpointSpec/migrate';
import { serializeSpec } from '../../core/endpointSpec/serialize';
import { addProperty, remove, renameKey, replaceValue, resolvePath, scalarText, type TextEdit } from './edits';
import { stockFixes } from './stockFixes';

export interface QuickFix {
  readonly title: string;
  readonly edits: TextEdit[];
  /** The one obvious fix; editors apply it with the "auto fix" shortcut. */
  readonly preferred: boolean;
  /** The edit's text is a snippet with one placeholder (`${1:reason}`) for what the user types next. */
  readonly snippet?: boolean;
}

export interface FixRequest {
  readonly code: string;
  readonly path: JsonPath;
  readonly suggestion?: string;
  readonly related?: readonly string[];
}

export interface FixContext extends FixRequest {
  readonly text: string;
  readonly format: SpecFormat;
  readonly document: SpecDocument;
  readonly catalog?: Catalog;
}

type FixProvider = (context: FixContext) => Array<QuickFix | undefined>;

const fix = (title: string, edits: TextEdit[], preferred = false): QuickFix | undefined =>
  edits.length > 0 ? { title, edits, preferred } : undefined;

const removeAt = (c: FixContext, path: JsonPath, title: string, preferred = true) =>
  fix(title, remove(c.text, c.document, path, c.format), preferred);

const replaceWithSuggestion: FixProvider = (c) =>
  c.suggestion
    ? [fix(`Change to ${c.suggestion}`, replaceValue(c.text, c.document, c.path, scalarText(c.suggestion, c.format)), true)]
    : [];

const PROVIDERS: Record<string, FixProvider> = {
  'legacy-field': (c) => {
    const root = c.document.root;
    if (!root || typeof c.document.data !== 'object' || c.document.data === null) return [];
    const result = migrateLegacyBody(c.document.data as Record<string, unknown>, c.catalog);
    if (!result.ok) return [];
    const text = serializeSpec(
      result.migration.spec,
      c.format,
      result.migration.notes.map((n) => `converted from REST v1: ${n}`),
    );
    return [fix('Convert this spec to REST v2', [{ offset: root.offset, length: root.length, newText: text }], true)];
  },
  'pool-unknown': replaceWithSuggestion,
  'cpu-flavor-unknown': replaceWithSuggestion,
  'data-center-unknown': replaceWithSuggestion,
  'excluded-type-outside-pools': (c) => [removeAt(c, c.path, 'Remove the exclusion', false)],
  'no-serverless-stock': stockFixes,
  'no-stock-in-data-centers': stockFixes,
  'gpu-type-as-pool': (c) => {
    // Keep the selection exactly as meant: the type's pool, minus the pool's other types.
    if (!c.suggestion) return [];
    const alreadyExcluding = resolvePath(c.document.root, ['gpu', 'excludedTypes']) !== undefined;
    const others = c.related ?? [];
    if (alreadyExcluding && others.length > 0) return [];
    const edits = [
      ...replaceValue(c.text, c.document, c.path, scalarText(c.suggestion, c.format)),
      ...(others.length > 0 ? addProperty(c.text, c.document, ['gpu'], 'excludedTypes', others, c.format) : []),
    ];
    const type = String(valueAt(c.document.data, c.path));
    return [
      fix(
        others.length > 0 ? `Use pool ${c.suggestion} and exclude its other types (only ${type} stays)` : `Use pool ${c.suggestion}`,
        edits,
        true,
      ),
    ];
  },
  'unknown-property': (c) => [
    c.suggestion ? fix(`Rename to ${c.suggestion}`, renameKey(c.document, c.path, c.suggestion, c.format), true) : undefined,
    removeAt(c, c.path, `Remove ${String(c.path[c.path.length - 1])}`, false),
  ],
  'invalid-enum': replaceWithSuggestion,
  'response-only-field': (c) => [removeAt(c, c.path, `Remove ${String(c.path[c.path.length - 1])}, which the service sets`)],
  'idle-timeout-not-applicable': (c) => [removeAt(c, c.path, 'Remove idleTimeout')],
  'cuda-outside-gpu': (c) => [removeAt(c, c.path, `Remove ${String(c.path[c.path.length - 1])}`)],
  'cuda-allowed-with-min': (c) => [
    removeAt(c, ['gpu', 'minCudaVersion'], 'Keep allowedCudaVersions, remove minCudaVersion', false),
    removeAt(c, ['gpu', 'allowedCudaVersions'], 'Keep minCudaVersion, remove allowedCudaVersions', false),
  ],
  'compute-choice': (c) =>
    c.path.length === 1 ? [removeAt(c, c.path, `Remove ${String(c.path[0])} (keep the other compute)`, false)] : [],
  'duplicate-item': (c) => [removeAt(c, c.path, 'Remove the duplicate')],
  'duplicate-id': (c) => [removeAt(c, c.path, 'Remove the duplicate')],
  'excluded-type-duplicate': (c) => [removeAt(c, c.path, 'Remove the duplicate')],
  'env-value-not-string': (c) => {
    const value = valueAt(c.document.data, c.path);
    if (value !== null && typeof value === 'object') return [];
    const text = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
    return [fix(`Quote the value: "${text}"`, replaceValue(c.text, c.document, c.path, JSON.stringify(text)), true)];
  },
  'vcpu-not-power-of-two': (c) => {
    const value = valueAt(c.document.data, c.path);
    if (typeof value !== 'number' || isPowerOfTwo(value)) return [];
    const lower = 2 ** Math.floor(Math.log2(value));
    return [lower, lower * 2]
      .filter((n) => n >= minimumOf('cpu[].vcpuCount'))
      .map((n) => fix(`Change vcpuCount to ${n}`, replaceValue(c.text, c.document, c.path, String(n))));
  },
  'timeout-units': (c) => {
    const value = valueAt(c.document.data, c.path);
    if (typeof value !== 'number' || value <= 0) return [];
    return [fix(`Change to ${value * 1000} ms (${value} seconds)`, replaceValue(c.text, c.document, c.path, String(value * 1000)), true)];
  },
  'scaler-not-allowed': (c) => {
    // The load balancer has no queue: switch the scaler and carry the target over as a request count.
    const scaling = valueAt(c.document.data, ['scaling']) as Record<string, unknown> | undefined;
    const delay = scaling?.queueDelay;
    const count = typeof delay === 'number' && Number.isInteger(delay) && delay >= 1 ? delay : 1;
    const edits = [...replaceValue(c.text, c.document, ['scaling', 'type'], 'REQUEST_COUNT')];
    if (resolvePath(c.document.root, ['scaling', 'queueDelay'])) {
      edits.push(
        ...renameKey(c.document, ['scaling', 'queueDelay'], 'requestCount', c.format),
        ...replaceValue(c.text, c.document, ['scaling', 'queueDelay'], String(count)),
      );
    }
    return [fix(`Scale on REQUEST_COUNT (requestCount: ${count})`, edits, true)];
  },
};

export function quickFixes(
  request: FixRequest,
  text: string,
  format: SpecFormat,
  document: SpecDocument | undefined,
  catalog?: Catalog,
): QuickFix[] {
  // Own keys only: a code such as `constructor` must not find Object's.
  const provider = Object.hasOwn(PROVIDERS, request.code) ? PROVIDERS[request.code] : undefined;
  if (!provider || !document) return [];
  const fixes = provider({ ...request, text, format, document, catalog }).filter((f): f is QuickFix => f !== undefined);
  // Two edits touching one spot would corrupt the text; such a fix is dropped rather than applied badly.
  return fixes.filter((f) => !overlaps(f.edits));
}

function overlaps(edits: TextEdit[]): boolean {
  const sorted = [...edits].sort((a, b) => a.offset - b.offset);
  return sorted.some((e, i) => i > 0 && e.offset < sorted[i - 1].offset + sorted[i - 1].length);
}

export const FIXABLE_CODES = Object.keys(PROVIDERS);
