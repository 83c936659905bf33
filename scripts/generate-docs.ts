/**
 * Writes the reference pages that must never disagree with the code they describe: docs/rules.md from
 * the rule objects' own code, severity, modes and description (with an example from
 * test/fixtures/rules/<code>/ run through the engine), and docs/settings.md from package.json's
 * `contributes.configuration`. test/scripts/docs.test.ts fails when the committed pages differ from
 * what this writes now, so a changed rule or setting cannot leave its documentation behind.
 *
 *   node --import tsx scripts/generate-docs.ts     (npm run docs)
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CATALOG_RULES } from '../core/endpointSpec/catalog/rules';
import { checkSpecText } from '../core/endpointSpec/check';
import { SPEC_RULES } from '../core/endpointSpec/rules';
import type { SpecRule } from '../core/endpointSpec/rules/rule';
import { isSpecFile, specFormatOf } from '../core/protocol';
import { FIXABLE_CODES } from '../server/languageService/quickFixes';
import { readLocalizedManifest } from './manifest';

export const REPO_ROOT = join(__dirname, '..');
export const RULE_FIXTURES = 'test/fixtures/rules';

export interface GeneratedDoc {
  /** Relative to the repository root, with forward slashes. */
  readonly path: string;
  readonly content: string;
}

/** Both pages as text; nothing is written. */
export function generateDocs(root: string = REPO_ROOT): GeneratedDoc[] {
  const manifest = readLocalizedManifest(root);
  return [
    { path: 'docs/rules.md', content: renderRules(documentedCodes(), root) },
    { path: 'docs/settings.md', content: renderSettings(manifest) },
  ];
}

// ---------------------------------------------------------------- the codes

type CodeKind = 'syntax' | 'document' | 'schema' | 'rule' | 'catalog' | 'editor';

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
 * Codes no rule object carries: the parser's, the whole document's, the schema's and the editor's.
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

function editor(code: string, severity: string, description: string): DocumentedCode {
  return { code, kind: 'editor', severity, appliesTo: 'in the editor', description };
}

function fromRule(
  rule: Pick<SpecRule, 'code' | 'severity' | 'description'> & { status?: number },
  kind: CodeKind,
  appliesTo: string,
): DocumentedCode {
  return {
    code: rule.code,
    kind,
    severity: rule.severity,
    appliesTo,
    description: rule.description,
    ...(rule.status ? { status: rule.status } : {}),
  };
}

/** Every code, in the order of the page: parser, document, schema, rules (in report order), catalog, editor. */
export function documentedCodes(): DocumentedCode[] {
  const rules = SPEC_RULES.map((rule) => fromRule(rule, 'rule', rule.modes.length > 1 ? BOTH : `${rule.modes.join(', ')} only`));
  const catalog = CATALOG_RULES.map((rule) => fromRule(rule, 'catalog', `${BOTH}, with a catalog`));
  const ofKind = (kind: CodeKind): DocumentedCode[] => NON_RULE_CODES.filter((c) => c.kind === kind);
  return [...ofKind('syntax'), ...ofKind('document'), ...ofKind('schema'), ...rules, ...catalog, ...ofKind('editor')];
}

// ---------------------------------------------------------------- examples

interface Example {
  readonly file: string;
  readonly text: string;
  readonly language: 'yaml' | 'json';
  readonly reported: readonly string[];
}

const CARET_ANNOTATION = /^\s*#[\s^]*?\^+\s+[a-z0-9-]+\s*$/;
const EXPECT_ANNOTATION = /^\s*#\s*expect:/;

/** The fixture without its test annotations: comments, so the spec reads the same without them. */
function withoutAnnotations(text: string): string {
  return text
    .split('\n')
    .filter((line) => !CARET_ANNOTATION.test(line) && !EXPECT_ANNOTATION.test(line))
    .join('\n');
}

/** `invalid.endpoint.yaml` first, then other YAML, then JSON. */
function preference(name: string): string {
  return `${name === 'invalid.endpoint.yaml' ? 0 : specFormatOf(name) === 'yaml' ? 1 : 2}${name}`;
}

/** The first invalid fixture of the code that the engine reports it on, with what it reports. */
function exampleFor(code: string, root: string): Example | undefined {
  const directory = join(root, RULE_FIXTURES, code);
  if (!existsSync(directory)) return undefined;
  const names = readdirSync(directory)
    .filter((name) => name.startsWith('invalid') && isSpecFile(name))
    .sort((a, b) => preference(a).localeCompare(preference(b)));
  for (const name of names) {
    const language = specFormatOf(name);
    const text = withoutAnnotations(readFileSync(join(directory, name), 'utf8'));
    const found = checkSpecText(text, language).diagnostics.filter((d) => d.code === code);
    const reported = found.map(
      (d) => `${name}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.severity} ${d.code} ${d.message}`,
    );
    if (reported.length > 0) return { file: `${RULE_FIXTURES}/${code}/${name}`, text, language, reported };
  }
  return undefined;
}

// ---------------------------------------------------------------- docs/rules.md

const GENERATED_NOTE = (sources: string): string =>
  `<!-- Generated by scripts/generate-docs.ts from ${sources}. Do not edit: change those, then run \`npm run docs\`. -->`;

const GROUPS: readonly { kind: CodeKind; title: string; intro: string }[] = [
  {
    kind: 'syntax',
    title: 'Syntax',
    intro: 'Reading the text (`core/endpointSpec/parse.ts`). Nothing else is checked in a document whose data could not be built.',
  },
  { kind: 'document', title: 'Whole document', intro: 'Before and around the schema (`core/endpointSpec/validate.ts`).' },
  {
    kind: 'schema',
    title: 'Schema',
    intro:
      "The JSON Schemas in `schemas/`, through validators compiled from them ahead of time (`scripts/generate-validators.mjs`) and messages rewritten for people (`core/endpointSpec/schemaValidation.ts`). Where a rule reports on the same spot, its message replaces the schema's.",
  },
  {
    kind: 'rule',
    title: 'Cross-field rules',
    intro:
      'One object per concern in `core/endpointSpec/rules/`, listed in `rules/index.ts` in the order their findings are reported. A spec that is a REST v1 body reports `legacy-field` alone, since one conversion fixes everything else.',
  },
  {
    kind: 'catalog',
    title: 'Catalog rules',
    intro:
      "`core/endpointSpec/catalog/rules.ts`, run only with the service's catalog at hand (the language server's live or cached one, or a snapshot from `--catalog` / `ENDPOINT_STUDIO_CATALOG_FILE`). Without one they are skipped, never guessed.",
  },
  {
    kind: 'editor',
    title: 'Editor only',
    intro: 'Reported by the language server or the deploy command in VS Code, never by `endpoint-studio validate`.',
  },
];

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function renderRules(codes: readonly DocumentedCode[], root: string): string {
  const lines = [
    '# Diagnostic codes',
    '',
    GENERATED_NOTE(
      'the rule objects in core/endpointSpec/rules/ and core/endpointSpec/catalog/rules.ts, its own list of the other codes, and test/fixtures/rules/',
    ),
    '',
    'Every diagnostic carries `source: "endpoint-studio"`, one of these stable codes, and `data.path` (the JSON path as an array) with `data.jsonPath`. `endpoint-studio validate` prints the same codes. **error**: the service refuses the spec. **warning**: the service accepts it, but it almost certainly does not do what was meant.',
    '',
    '"create" is a spec or a `POST /v2/serverless` body, "update" a `PATCH` body (the emulator checks those). "quick fix": the editor offers one.',
    '',
    '| code | severity | checked on | service answers | quick fix | what it checks |',
    '|---|---|---|---|---|---|',
    ...codes.map(
      (c) =>
        `| [\`${c.code}\`](#${c.code}) | ${c.severity} | ${c.appliesTo} | ${c.status ?? ''} | ${FIXABLE_CODES.includes(c.code) ? 'yes' : ''} | ${cell(c.description)} |`,
    ),
  ];
  for (const group of GROUPS) {
    lines.push('', `## ${group.title}`, '', group.intro);
    for (const code of codes.filter((c) => c.kind === group.kind)) lines.push('', ...renderCode(code, exampleFor(code.code, root)));
  }
  return `${lines.join('\n')}\n`;
}

function renderCode(code: DocumentedCode, example: Example | undefined): string[] {
  const facts = [`**${code.severity}**`, code.appliesTo];
  if (code.status !== undefined) facts.push(`the service answers ${code.status}`);
  if (FIXABLE_CODES.includes(code.code)) facts.push('quick fix');
  const lines = [`### ${code.code}`, '', facts.join(' · '), '', code.description];
  if (!example) return lines;
  return [
    ...lines,
    '',
    `Example, [\`${example.file}\`](../${example.file}) without its test annotations:`,
    '',
    `\`\`\`${example.language}`,
    example.text.replace(/\n+$/, ''),
    '```',
    '',
    '```text',
    ...example.reported,
    '```',
  ];
}

// ---------------------------------------------------------------- docs/settings.md

interface SettingSchema {
  readonly type?: string | readonly string[];
  readonly default?: unknown;
  readonly enum?: readonly unknown[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly scope?: string;
  readonly format?: string;
  readonly markdownDescription?: string;
  readonly description?: string;
}

const SCOPES: Readonly<Record<string, string>> = {
  application: 'user settings only, for every window',
  machine: "user settings of this machine only: a workspace's `.vscode/settings.json` cannot set it",
  'machine-overridable': 'user settings of this machine, which a workspace may override',
  window: 'user or workspace settings',
  resource: 'user, workspace or folder settings',
  'language-overridable': 'user, workspace or folder settings, also per language',
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every setting of `contributes.configuration` (an object or a list of them), in manifest order. */
function settingsOf(manifest: unknown): [string, SettingSchema][] {
  const contributes = isObject(manifest) ? manifest.contributes : undefined;
  const configuration = isObject(contributes) ? contributes.configuration : undefined;
  const sections: unknown[] = Array.isArray(configuration) ? configuration : [configuration];
  return sections.flatMap((section) =>
    isObject(section) && isObject(section.properties)
      ? Object.entries(section.properties).map(([key, value]): [string, SettingSchema] => [key, isObject(value) ? value : {}])
      : [],
  );
}

function restrictedSettings(manifest: unknown): ReadonlySet<string> {
  const capabilities = isObject(manifest) ? manifest.capabilities : undefined;
  const untrusted = isObject(capabilities) ? capabilities.untrustedWorkspaces : undefined;
  const restricted = isObject(untrusted) ? untrusted.restrictedConfigurations : undefined;
  return new Set(Array.isArray(restricted) ? restricted.filter((key): key is string => typeof key === 'string') : []);
}

const typeOf = (setting: SettingSchema): string =>
  setting.enum ? setting.enum.map((v) => JSON.stringify(v)).join(' \\| ') : [setting.type ?? 'any'].flat().join(' \\| ');

function allowedValues(setting: SettingSchema): string {
  if (setting.minimum !== undefined && setting.maximum !== undefined) return `${setting.minimum} to ${setting.maximum}`;
  if (setting.minimum !== undefined) return `at least ${setting.minimum}`;
  if (setting.maximum !== undefined) return `at most ${setting.maximum}`;
  return setting.format === 'uri' ? 'a URL' : '';
}

/** VS Code links a setting written `` `#id#` ``; on a plain page it is just the setting's name. */
const plainDescription = (setting: SettingSchema): string =>
  (setting.markdownDescription ?? setting.description ?? '').replace(/`?#([\w.]+)#`?/g, '`$1`');

function renderSettings(manifest: unknown): string {
  const settings = settingsOf(manifest);
  const restricted = restrictedSettings(manifest);
  const lines = [
    '# Settings',
    '',
    GENERATED_NOTE("package.json's `contributes.configuration`"),
    '',
    'Set them in VS Code\'s Settings editor (search for "Endpoint Studio") or in `settings.json`.',
    '',
    '| setting | type | default | values | scope |',
    '|---|---|---|---|---|',
    ...settings.map(
      ([key, s]) =>
        `| [\`${key}\`](#${key.replace(/\./g, '').toLowerCase()}) | ${typeOf(s)} | \`${JSON.stringify(s.default)}\` | ${allowedValues(s)} | ${s.scope ?? 'window'} |`,
    ),
  ];
  for (const [key, setting] of settings) {
    const scope = setting.scope ?? 'window';
    lines.push('', `## ${key}`, '', plainDescription(setting), '');
    lines.push(`- type: ${typeOf(setting)}; default: \`${JSON.stringify(setting.default)}\``);
    if (allowedValues(setting)) lines.push(`- values: ${allowedValues(setting)}`);
    lines.push(`- scope: \`${scope}\` (${SCOPES[scope] ?? 'see the VS Code documentation'})`);
    if (restricted.has(key)) lines.push('- in an untrusted workspace only the user settings value is used (Restricted Mode)');
  }
  return `${lines.join('\n')}\n`;
}

// ---------------------------------------------------------------- writing

function main(): void {
  for (const doc of generateDocs()) {
    const path = join(REPO_ROOT, doc.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, doc.content);
    process.stdout.write(`wrote ${doc.path}\n`);
  }
}

if (require.main === module) main();
