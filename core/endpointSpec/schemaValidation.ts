/**
 * Validates spec data against the JSON Schema with ajv, then rewrites ajv's errors for people:
 * each names the field, says what is expected, and never speaks of `oneOf` or "unevaluated".
 */
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import * as compiled from './generated/validators';
import { schemaViewAt, type SpecMode } from './schemas';
import type { SpecProblem } from './problem';
import { formatFieldPath, pointerTokens, type JsonPath, type JsonPathSegment } from './tree';
import { closestMatch } from './suggest';
import { childValue, isRecord } from './ownData';

// Compiled ahead of time from schemas/ (scripts/generate-validators.mjs): no compiler at run time.
const validators: Record<SpecMode, ValidateFunction> = { create: compiled.create, update: compiled.update };

const MAX_TRANSLATED_ERRORS = 1000;

export function validateAgainstSchema(data: unknown, mode: SpecMode): SpecProblem[] {
  const validate = validators[mode];
  if (validate(data)) return [];
  // More are never shown (check.ts lists a few hundred per document) and each costs a search for
  // a suggestion: a mapping of a million unknown keys would otherwise take minutes.
  const errors = (validate.errors ?? []).slice(0, MAX_TRANSLATED_ERRORS);
  return tidy(errors.flatMap((error) => translate(error, data, mode) ?? []));
}

/** One problem per spot and message; `flashboot: [OFF]` is first of all the wrong type, so its allowed values are not listed too. */
function tidy(problems: SpecProblem[]): SpecProblem[] {
  if (problems.length < 2) return problems;
  const seen = new Set<string>();
  const unique = problems.filter((problem) => {
    const key = `${problem.code}|${problem.target}|${problem.path.join('\u0000')}|${problem.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const wrongType = new Set(unique.filter((p) => p.code === 'wrong-type').map((p) => JSON.stringify(p.path)));
  return wrongType.size === 0 ? unique : unique.filter((p) => p.code !== 'invalid-enum' || !wrongType.has(JSON.stringify(p.path)));
}

function translate(error: ErrorObject, data: unknown, mode: SpecMode): SpecProblem | undefined {
  const path = pointerToPath(error.instancePath, data);
  const field = formatFieldPath(path);
  const problem = (
    code: string,
    message: string,
    target: 'key' | 'value' = 'value',
    at: JsonPath = path,
    suggestion?: string,
  ): SpecProblem => ({
    code,
    message,
    severity: 'error',
    path: at,
    target,
    status: 422,
    ...(suggestion !== undefined ? { suggestion } : {}),
  });
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const name = String(params.additionalProperty ?? params.unevaluatedProperty);
      const { message, suggestion } = unknownProperty(path, name, data, mode);
      return problem('unknown-property', message, 'key', [...path, name], suggestion);
    }
    case 'required': {
      const name = String(params.missingProperty);
      const scalerType = path.length === 1 && path[0] === 'scaling' ? childValue(valueAt(data, path), 'type') : undefined;
      const owner = typeof scalerType === 'string' ? ` in ${scalerType} scaling` : path.length === 0 ? '' : ` in ${field}`;
      const summary = firstSentence(schemaViewAt([...path, name], data, mode)?.description ?? '');
      const why = summary && summary.length <= 60 && !summary.includes('`') ? ` (${summary})` : '';
      return { ...problem('missing-property', `missing required property${owner}: ${name}${why}`, 'key'), missingProperty: name };
    }
    case 'type':
      return problem('wrong-type', typeMessage(String(params.type), error.data));
    case 'enum':
    case 'const': {
      const allowed = (params.allowedValues as unknown[] | undefined) ?? [params.allowedValue];
      const suggestion = typeof error.data === 'string' ? closestMatch(error.data, allowed.map(String)) : undefined;
      const hint = suggestion ? `; did you mean ${suggestion}?` : '';
      return problem(
        'invalid-enum',
        `${field} must be one of ${allowed.join(', ')}; got: ${show(error.data)}${hint}`,
        'value',
        path,
        suggestion,
      );
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum': {
      const comparison = { minimum: 'at least', maximum: 'at most', exclusiveMinimum: 'above', exclusiveMaximum: 'below' }[error.keyword];
      return problem('out-of-range', `${field} must be ${comparison} ${String(params.limit)}; got: ${show(error.data)}`);
    }
    case 'minLength':
      return problem(
        'empty-value',
        params.limit === 1 ? `${field} must not be empty` : `${field} must have at least ${String(params.limit)} characters`,
      );
    case 'minItems':
      return problem('too-few-items', `${field} needs at least ${String(params.limit)} item${params.limit === 1 ? '' : 's'}`);
    case 'pattern': {
      const hint: unknown = error.parentSchema?.['x-hint'];
      return problem(
        'pattern-mismatch',
        `${field} must be ${typeof hint === 'string' ? hint : `text matching ${String(params.pattern)}`}; got: ${show(error.data)}`,
      );
    }
    case 'uniqueItems': {
      const later = Math.max(Number(params.i), Number(params.j));
      const earlier = Math.min(Number(params.i), Number(params.j));
      return problem(
        'duplicate-item',
        `${field} items must be unique; this is the same as item ${earlier}: ${show((error.data as unknown[])[later])}`,
        'value',
        [...path, later],
      );
    }
    case 'discriminator':
    case 'oneOf':
      // `required`/`enum` on the discriminating `type` already say what is wrong, in plain words.
      return undefined;
    default:
      return problem('schema-violation', `${field} ${error.message ?? 'is not valid'}`);
  }
}

/**
 * Per mapping and mode, the schema's names not yet written in it. Worked out once per mapping, not
 * once per unknown key: a mapping of n unknown keys otherwise costs n², hours for a 10 MB file.
 */
const unwrittenNames = new WeakMap<object, Partial<Record<SpecMode, string[]>>>();

function unknownProperty(parent: JsonPath, name: string, data: unknown, mode: SpecMode): { message: string; suggestion?: string } {
  const owner = valueAt(data, parent);
  let known = isRecord(owner) ? unwrittenNames.get(owner)?.[mode] : undefined;
  if (!known) {
    const view = schemaViewAt(parent, data, mode);
    const present = new Set(Object.keys((owner as Record<string, unknown> | undefined) ?? {}));
    // Suggest only names not already written, so a rename never creates a duplicate key.
    known = view ? [...view.properties.keys()].filter((k) => !present.has(k)) : [];
    if (isRecord(owner)) unwrittenNames.set(owner, { ...unwrittenNames.get(owner), [mode]: known });
  }
  if (parent.length === 1 && parent[0] === 'scaling') {
    const owner = name === 'queueDelay' ? 'QUEUE_DELAY' : name === 'requestCount' ? 'REQUEST_COUNT' : undefined;
    const scaler = (valueAt(data, parent) as Record<string, unknown> | undefined)?.type;
    if (owner && typeof scaler === 'string')
      return { message: `${name} belongs to ${owner} scaling, but scaling.type is ${scaler}; remove it or change the type` };
  }
  const where = parent.length === 0 ? '' : ` in ${formatFieldPath(parent)}`;
  const suggestion = closestMatch(name, known);
  return { message: `unknown property${where}: ${name}${suggestion ? `; did you mean ${suggestion}?` : ''}`, suggestion };
}

function typeMessage(expected: string, actual: unknown): string {
  const article = (t: string) => (/^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`);
  const expectedText = expected.split(',').map(article).join(' or ');
  const got =
    actual === null
      ? 'null'
      : Array.isArray(actual)
        ? 'a list'
        : typeof actual === 'object'
          ? 'a mapping'
          : `${article(typeof actual)} (${show(actual)})`;
  let advice = '';
  if (
    (expected === 'integer' || expected === 'number') &&
    typeof actual === 'string' &&
    actual.trim() !== '' &&
    Number.isFinite(Number(actual))
  ) {
    advice = '; write it without quotes';
  } else if (expected === 'integer' && typeof actual === 'number') {
    advice = '; use a whole number';
  } else if (expected === 'string' && (typeof actual === 'number' || typeof actual === 'boolean')) {
    advice = `; quote it: "${String(actual)}"`;
  }
  return `expected ${expectedText}, got ${got}${advice}`;
}

/** ajv paths are JSON pointers; array indexes become numbers by looking at the data. */
function pointerToPath(pointer: string, data: unknown): JsonPath {
  const path: JsonPathSegment[] = [];
  let value = data;
  for (const token of pointerTokens(pointer)) {
    const segment: JsonPathSegment = Array.isArray(value) ? Number(token) : token;
    path.push(segment);
    value = childValue(value, segment);
  }
  return path;
}

/** The value at `path`, through own properties only: `['constructor']` of a spec without one is nothing. */
export function valueAt(data: unknown, path: JsonPath): unknown {
  return path.reduce<unknown>((value, segment) => childValue(value, segment), data);
}

function show(value: unknown): string {
  const text = value === undefined ? 'nothing' : ((JSON.stringify(value) as string | undefined) ?? `a ${typeof value}`);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function firstSentence(text: string): string {
  const sentence = text.split(/(?<=\.)\s/)[0].replace(/\.$/, '');
  return sentence.charAt(0).toLowerCase() + sentence.slice(1);
}
