/**
 * What an agent reads before writing a spec: the JSON Schema of the create body and the rules a
 * spec is checked against, generated from the rule objects themselves so it never disagrees with
 * what `validate_spec` reports.
 */
import commonSchema from '../schemas/common.schema.json';
import createSchema from '../schemas/endpoint-create.schema.json';
import { CATALOG_RULES } from '../core/endpointSpec/catalog/rules';
import { SPEC_RULES } from '../core/endpointSpec/rules';

export interface AgentResource {
  readonly name: string;
  readonly uri: string;
  readonly title: string;
  readonly description: string;
  readonly mimeType: string;
  text(): string;
}

const COMMON_FILE = 'common.schema.json';

/**
 * The create schema with common.schema.json's `$defs` copied in and its references to them made
 * local: a client is served one resource, and a JSON Schema library resolving `common.schema.json`
 * against it stops with an unresolvable reference. The common `$defs` refer to each other as
 * `#/$defs/...`, which resolves the same in the bundle.
 */
function selfContainedCreateSchema(): Record<string, unknown> {
  const local = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(local);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        key === '$ref' && typeof item === 'string' && item.startsWith(`${COMMON_FILE}#`) ? item.slice(COMMON_FILE.length) : local(item),
      ]),
    );
  };
  const bundled = local(createSchema) as Record<string, unknown>;
  return { ...bundled, $defs: { ...commonSchema.$defs, ...(bundled.$defs as object | undefined) } };
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function rulesReference(): string {
  const table = (rules: readonly { code: string; severity: string; description: string }[]): string[] => [
    '| code | severity | what it checks |',
    '|---|---|---|',
    ...rules.map((rule) => `| \`${rule.code}\` | ${rule.severity} | ${cell(rule.description)} |`),
  ];
  return [
    '# Endpoint spec rules',
    '',
    'Besides the JSON Schema of the create body (resource endpoint-studio://schemas/endpoint-create), a spec is checked',
    'against these rules. validate_spec reports each finding with its code on a 1-based line and column.',
    '',
    '## Cross-field rules',
    '',
    ...table(SPEC_RULES),
    '',
    "## Catalog rules (only with the service's catalog)",
    '',
    ...table(CATALOG_RULES),
    '',
  ].join('\n');
}

export const AGENT_RESOURCES: readonly AgentResource[] = [
  {
    name: 'endpoint-create-schema',
    uri: 'endpoint-studio://schemas/endpoint-create',
    title: 'Endpoint spec schema',
    description:
      'JSON Schema (2020-12) of an endpoint spec: the body of POST /v2/serverless, with defaults, ranges and hints. Self-contained: every $ref points into its own $defs.',
    mimeType: 'application/schema+json',
    text: () => JSON.stringify(selfContainedCreateSchema(), null, 2),
  },
  {
    name: 'spec-rules',
    uri: 'endpoint-studio://docs/rules',
    title: 'Endpoint spec rules',
    description: 'Every cross-field and catalog rule validate_spec applies, with its code, severity and what it checks.',
    mimeType: 'text/markdown',
    text: rulesReference,
  },
];
