/**
 * `.endpoint-studio/policy.yaml`: the team's limits for the workspace's specs, how codes are graded, and the
 * exceptions granted with a reason. The file is checked against its schema (schemas/policy.schema.json,
 * compiled with the others), and the codes it names against the documented ones, so a typo is an error in the
 * file rather than a limit quietly not applied. A broken file configures nothing; the specs it governs say so
 * (core/policy/govern.ts), so a typo can never turn the policy off unnoticed. The file names limits only.
 */
import type { ErrorObject } from 'ajv/dist/2020';
import { join } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { diagnosticAt, type SpecDiagnostic } from '../endpointSpec/check';
import policySchema from '../../schemas/policy.schema.json';
import * as compiled from '../endpointSpec/generated/validators';
import { locatePath } from '../endpointSpec/locate';
import { parseSpecText } from '../endpointSpec/parse';
import type { Severity } from '../endpointSpec/problem';
import { schemaViewIn, type SchemaView } from '../endpointSpec/schemas';
import { closestMatch } from '../endpointSpec/suggest';
import { formatFieldPath, pointerTokens, type JsonPath, type SpecDocument, type TextSpan } from '../endpointSpec/tree';
import { knownCodes } from './codes';

export const POLICY_FILE = join('.endpoint-studio', 'policy.yaml');

type SeverityOverride = Severity | 'off';

/** One rule of the policy: its limits, for the specs of its environments (every spec without them). */
export interface PolicyRule {
  readonly name: string;
  readonly environments?: readonly string[];
  readonly maxWorkers?: number;
  readonly maxCostPerHour?: number;
  readonly allowedPools?: readonly string[];
  readonly allowedCpuFlavors?: readonly string[];
  readonly allowedDataCenters?: readonly string[];
  readonly allowedTypes?: readonly string[];
  readonly pinnedImage?: boolean;
  readonly requiredEnv?: readonly string[];
}

/** A code silenced in one file, with why. */
export interface PolicyException {
  /** A file name (any folder), or a path from the workspace root with forward slashes. */
  readonly file: string;
  readonly code: string;
  readonly reason: string;
}

export interface Policy {
  readonly rules: readonly PolicyRule[];
  readonly severity: Readonly<Record<string, SeverityOverride>>;
  readonly exceptions: readonly PolicyException[];
}

/** The policy file as read: the policy, or none with the problems (located in the file) that broke it. */
export interface ParsedPolicy {
  readonly policy?: Policy;
  readonly problems: readonly SpecDiagnostic[];
}

/** The policy file found for a spec: where it lives, its workspace root (the folder holding `.endpoint-studio/`). */
export interface PolicyFile extends ParsedPolicy {
  readonly path: string;
  readonly root: string;
}

const RULE_KEYS = Object.keys(policySchema.$defs.rule.properties);
const TOP_KEYS = Object.keys(policySchema.properties);

/** The file's text checked against its schema and the known codes; a broken file configures nothing. */
export function parsePolicy(text: string): ParsedPolicy {
  const document = parseSpecText(text, 'yaml').at(0);
  const lines = TextDocument.create('policy', 'yaml', 0, text);
  const problem = (span: TextSpan, message: string): SpecDiagnostic =>
    diagnosticAt(lines, span, text.length, { severity: 'error', code: 'policy-invalid', message, path: [] }, 0);
  const syntax = document?.syntaxProblems.filter((p) => p.severity === 'error') ?? [];
  if (syntax.length > 0) return { problems: syntax.map((p) => problem(p, p.message)) };
  // An empty file, or one of comments only, sets nothing.
  const data: unknown = document?.data ?? {};
  if (!compiled.policy(data)) {
    const errors = compiled.policy.errors ?? [];
    return { problems: errors.map((error) => schemaProblem(error, document, problem)).sort((a, b) => a.offset - b.offset) };
  }
  const policy = data as Partial<Policy>;
  const codeProblems = unknownCodes(policy).map(({ path, code }) => {
    const near = closestMatch(code, [...knownCodes()]);
    const span = document?.root
      ? locatePath(document.root, path, path.at(-2) === 'severity' ? 'key' : 'value', document.span)
      : { offset: 0, length: 0 };
    return problem(span, `${code} is not a diagnostic code (docs/rules.md)${near === undefined ? '' : `; did you mean ${near}?`}`);
  });
  if (codeProblems.length > 0) return { problems: codeProblems };
  return { policy: { rules: policy.rules ?? [], severity: policy.severity ?? {}, exceptions: policy.exceptions ?? [] }, problems: [] };
}

/** What the policy's schema says at `path` of the file: the editor's completions and hovers in it. */
export function policySchemaViewAt(path: JsonPath): SchemaView | undefined {
  return schemaViewIn(policySchema, path);
}

function schemaProblem(
  error: ErrorObject,
  document: SpecDocument | undefined,
  problem: (span: TextSpan, message: string) => SpecDiagnostic,
): SpecDiagnostic {
  const path: JsonPath = pointerTokens(error.instancePath).map((token) => (/^\d+$/.test(token) ? Number(token) : token));
  const extra = (error.params as { additionalProperty?: string }).additionalProperty;
  const at = extra === undefined ? path : [...path, extra];
  const span = document?.root
    ? locatePath(document.root, at, extra === undefined ? 'value' : 'key', document.span)
    : { offset: 0, length: 0 };
  if (extra === undefined)
    return problem(span, `${path.length === 0 ? 'the policy' : formatFieldPath(path)} ${error.message ?? 'is not valid'}`);
  const inRule = path.length === 2 && path[0] === 'rules';
  const near = closestMatch(extra, inRule ? RULE_KEYS : TOP_KEYS);
  const known = inRule ? 'a rule sets name, environments and limits' : 'the policy has rules, severity and exceptions';
  return problem(span, `${formatFieldPath(at)} is not a policy setting (${known})${near === undefined ? '' : `; did you mean ${near}?`}`);
}

/** The codes `severity` and `exceptions` name that no diagnostic carries, with where they are written. */
function unknownCodes(policy: Partial<Policy>): { path: JsonPath; code: string }[] {
  const codes = knownCodes();
  const named = [
    ...Object.keys(policy.severity ?? {}).map((code) => ({ path: ['severity', code], code })),
    ...(policy.exceptions ?? []).map((exception, index) => ({ path: ['exceptions', index, 'code'], code: exception.code })),
  ];
  return named.filter(({ code }) => !codes.has(code));
}
