/**
 * Every diagnostic code the engine, the language server and the deploy command report, with what it means:
 * the rule objects' own code, severity and description, and for the codes no rule object carries (the
 * parser's, the whole document's, the schema's, the editor's) their description here. docs/rules.md is
 * generated from this list (scripts/generate-docs.ts), and `endpoint-studio validate --format sarif` names
 * its rules from it, so the page and the rules a code scanner shows say the same.
 */
import { CATALOG_RULES } from './catalog/rules';
import { SPEC_RULES } from './rules';
import type { SpecRule } from './rules/rule';

export type CodeKind = 'syntax' | 'document' | 'schema' | 'rule' | 'catalog' | 'environment' | 'policy' | 'editor';

export interface DocumentedCode {
  readonly code: string;
  readonly kind: CodeKind;
  readonly severity: string;
  /** Which bodies it is checked on, in words. */
  readonly appliesTo: string;
  /** What the service answers when it refuses such a spec. */
  readonly status?: number;
  readonly description: string;
}

const BOTH = 'create and update';

/**
 * Codes no rule object carries: the parser's, the whole document's, the schema's, an overlay's and the editor's.
 * They have no `description` field to read, so theirs is kept here, next to the code that lists them;
 * the docs test holds this list to the codes the sources emit, both ways.
 */
const NON_RULE_CODES: readonly DocumentedCode[] = [
  syntax(
    'syntax-error',
    'error',
    'The text is not YAML or JSON, nests deeper than 256 levels, or uses a mapping or a list as a key. A YAML warning keeps the `warning` severity.',
  ),
  syntax('duplicate-key', 'error', 'A key appears twice in one mapping. The data is still checked, with the last value.'),
  syntax('alias-limit', 'error', 'YAML aliases expand more than 100 times (a "billion laughs" guard); write the values out.'),
  syntax('unknown-tag', 'warning', 'A YAML tag the parser does not know; the value is read as plain text.'),
  whole(
    'empty-spec',
    'error',
    'The document holds nothing to check. In a file of several `---` documents, an empty or comment-only one is skipped instead.',
    400,
  ),
  whole('not-a-mapping', 'error', 'The document is a list or a single value, not a mapping of fields.', 400),
  {
    ...whole(
      'newer-service-property',
      'warning',
      "A property the bundled schema does not know but the service's `/v2/openapi.json` accepts: the service is newer than this version, so update rather than delete. It replaces `unknown-property` on that key.",
    ),
    appliesTo: 'in the editor, with the live catalog',
  },
  schema('unknown-property', 'A property the schema does not define at that place; the closest name not yet written is suggested.'),
  schema('missing-property', 'A required property is absent (at the root, in `gpu`, or the setting the chosen `scaling.type` needs).'),
  schema(
    'wrong-type',
    'A value of the wrong type: a quoted number, a list where a mapping belongs, a fraction where a whole number belongs.',
  ),
  schema('invalid-enum', 'A value outside the allowed ones; the closest allowed value is suggested.'),
  schema('out-of-range', "A number below the schema's minimum or above its maximum."),
  schema('empty-value', "A string shorter than the schema's minimum length, usually an empty one."),
  schema('too-few-items', 'A list with fewer items than the schema requires.'),
  schema('pattern-mismatch', "A string in the wrong form; the message says the expected form in the schema's own words (`x-hint`)."),
  schema('duplicate-item', 'A list whose items must be unique repeats one.'),
  schema('schema-violation', 'Any other schema constraint, in the words of the validator.'),
  overlay(
    'overlay-base',
    'error',
    "`extends` names no usable base: no path, an absolute path or URL, a file that does not exist, lies outside the workspace, is not a spec file, has the other format (YAML and JSON do not mix), is the overlay itself or extends it back, holds several documents, does not parse, or is itself an overlay (one level only). Also an overlay whose file name says no environment (`<base>.<environment>.endpoint.yaml`). The overlay's own values are still checked against the schema.",
  ),
  overlay(
    'overlay-extends-first',
    'error',
    '`extends` is not the first key of the overlay: write it first, so the file says what it extends before anything it changes.',
  ),
  overlay(
    'overlay-one-document',
    'error',
    'An overlay holds one document: it patches a base of one spec, so a `---` after it has nothing to merge into.',
  ),
  overlay(
    'overlay-same-name',
    'warning',
    "The environment keeps the base's `name`: it deploys an endpoint of its own that looks like the base's (and like every other environment's) in every list. Give the overlay its own `name`.",
  ),
  editor('file-too-large', 'warning', 'The editor does not check files over 4 MB; `endpoint-studio validate` still does.'),
  editor(
    'internal-error',
    'error',
    'A check failed unexpectedly; the language server reports it as one problem and writes the details to the Endpoint Studio output.',
  ),
  editor(
    'service-rejected',
    'error',
    'A deploy the service refused: each problem of its answer is placed on the spec line its path names (source `endpoint-studio-deploy`), until the next edit.',
  ),
];

function syntax(code: string, severity: string, description: string): DocumentedCode {
  return { code, kind: 'syntax', severity, appliesTo: BOTH, description };
}

function whole(code: string, severity: string, description: string, status?: number): DocumentedCode {
  return { code, kind: 'document', severity, appliesTo: BOTH, description, ...(status ? { status } : {}) };
}

function schema(code: string, description: string): DocumentedCode {
  return { code, kind: 'schema', severity: 'error', appliesTo: BOTH, status: 422, description };
}

function overlay(code: string, severity: string, description: string): DocumentedCode {
  return { code, kind: 'environment', severity, appliesTo: 'an overlay (`extends`)', description };
}

function editor(code: string, severity: string, description: string): DocumentedCode {
  return { code, kind: 'editor', severity, appliesTo: 'in the editor', description };
}

function fromRule(
  rule: Pick<SpecRule, 'code' | 'severity' | 'description'> & { status?: number },
  kind: CodeKind,
  appliesTo: string,
): DocumentedCode {
  const { code, severity, description, status } = rule;
  return { code, kind, severity, appliesTo, description, ...(status ? { status } : {}) };
}

/** Every code, in the order of the page: parser, document, schema, rules (in report order), catalog, overlays, editor. */
export function documentedCodes(): DocumentedCode[] {
  const rules = SPEC_RULES.map((rule) => fromRule(rule, 'rule', rule.modes.length > 1 ? BOTH : `${rule.modes.join(', ')} only`));
  const catalog = CATALOG_RULES.map((rule) => fromRule(rule, 'catalog', `${BOTH}, with a catalog`));
  const ofKind = (kind: CodeKind): DocumentedCode[] => NON_RULE_CODES.filter((c) => c.kind === kind);
  return [
    ...ofKind('syntax'),
    ...ofKind('document'),
    ...ofKind('schema'),
    ...rules,
    ...catalog,
    ...ofKind('environment'),
    ...ofKind('editor'),
  ];
}
