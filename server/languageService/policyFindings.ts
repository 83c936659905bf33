/**
 * A team policy finding in a spec, explained and fixed: the hover names the rule, its limit, where the policy
 * writes it and how to allow the value anyway; the quick fixes are the unambiguous ones: lower `workers.max` to
 * the limit, swap a pool for an allowed one of the same VRAM, or write an ignore comment whose reason the user
 * types (a snippet placeholder). Each reads the facts the finding carries (core/policy/facts.ts).
 */
import { basename, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SpecDiagnostic } from '../../core/endpointSpec/check';
import { locatePath } from '../../core/endpointSpec/locate';
import { parseSpecText } from '../../core/endpointSpec/parse';
import { valueAt } from '../../core/endpointSpec/schemaValidation';
import type { JsonPath, SpecDocument, SpecFormat, TextSpan } from '../../core/endpointSpec/tree';
import { IGNORE_MARKER, POLICY_RULE_KINDS, policyFactsOf, type Policy, type PolicyFacts, type Suppression } from '../../core/policy';
import { addProperty, replaceValue, resolvePath, scalarText } from './edits';
import type { QuickFix } from './quickFixes';

/** The policy over a spec, as the hover names it: the file, its workspace root, its text and what it holds. */
export interface PolicyOver {
  readonly path: string;
  readonly root: string;
  readonly text: string;
  readonly policy: Policy;
}

/** The spec hovered: its path (an exception names the file) and format (JSON holds no comments). */
export interface HoveredSpec {
  readonly path: string;
  readonly format: SpecFormat;
}

type Finding = SpecDiagnostic & { readonly suppression?: Suppression };

/** The policy findings under the cursor, explained; undefined when there is none. `policy` is read only then. */
export function policyFindingHover(
  offset: number,
  findings: readonly Finding[],
  policy: () => PolicyOver | undefined,
  spec: HoveredSpec,
): { markdown: string; span: TextSpan } | undefined {
  const hit = findings.filter((d) => policyFactsOf(d) && d.offset <= offset && offset <= d.offset + d.length);
  const first = hit.at(0);
  if (!first) return undefined;
  const over = policy();
  const markdown = hit.map((finding) => findingMarkdown(finding, policyFactsOf(finding) as PolicyFacts, over, spec)).join('\n\n---\n\n');
  return { markdown, span: { offset: first.offset, length: first.length } };
}

function findingMarkdown(finding: Finding, facts: PolicyFacts, over: PolicyOver | undefined, spec: HoveredSpec): string {
  const kind = POLICY_RULE_KINDS.find((k) => k.limit === facts.limitKey);
  const lines = [
    `**Team policy**: rule \`${facts.rule}\` sets \`${facts.limitKey}: ${limitText(facts.limit)}\` (\`${finding.code}\`)`,
    ...(kind ? ['', kind.description] : []),
  ];
  const where = over && ruleLocation(over, facts);
  if (where) lines.push('', `Written in [${where.name}, line ${where.line + 1}](${where.link}).`);
  lines.push('', finding.suppression ? `Silenced here: ${finding.suppression.reason}.` : allowHere(finding.code, over, spec));
  return lines.join('\n');
}

/** How to allow the value anyway: always with a reason, in the spec (YAML) or in the policy's exceptions. */
function allowHere(code: string, over: PolicyOver | undefined, spec: HoveredSpec): string {
  const file = over ? exceptionFile(over.root, spec.path) : basename(spec.path);
  const exception = `\`exceptions: [{ file: ${file}, code: ${code}, reason: <why> }]\` in the policy`;
  if (spec.format === 'json') return `To allow it here, add ${exception}.`;
  return `To allow it here, write \`# ${IGNORE_MARKER} ${code}: <why>\` on the line above the value (a quick fix does), or add ${exception}.`;
}

/** The spec's name when no other spec of the workspace is likely to share it; its path from the root otherwise. */
function exceptionFile(root: string, path: string): string {
  const fromRoot = relative(root, path).split(sep).join('/');
  return fromRoot.startsWith('..') ? basename(path) : fromRoot;
}

const limitText = (limit: unknown): string => (Array.isArray(limit) ? `[${limit.map(String).join(', ')}]` : String(limit));

/** Where the rule writes the limit: the first rule of that name with that limit, as the finding saw it. */
function ruleLocation(over: PolicyOver, facts: PolicyFacts): { name: string; line: number; link: string } | undefined {
  const same = JSON.stringify(facts.limit);
  const index = over.policy.rules.findIndex((rule) => rule.name === facts.rule && JSON.stringify(rule[facts.limitKey]) === same);
  const document = parseSpecText(over.text, 'yaml').at(0);
  if (index < 0 || !document?.root) return undefined;
  const span = locatePath(document.root, ['rules', index, facts.limitKey], 'key', document.span);
  const line = over.text.slice(0, span.offset).split('\n').length - 1;
  const name = relative(over.root, over.path).split(sep).join('/');
  return { name, line, link: `${pathToFileURL(over.path).href}#L${line + 1}` };
}

/** What a policy finding's quick fixes need: its code and path, its facts, where it starts, whether it is silenced. */
export interface PolicyFixRequest {
  readonly code: string;
  readonly path: JsonPath;
  readonly facts: PolicyFacts;
  /** The diagnostic's start in the text: an ignore comment goes above its line. */
  readonly offset: number;
  readonly suppressed: boolean;
}

/** The placeholder of the ignore comment's reason: the snippet's default, and the text a client without snippets gets. */
export const REASON_PLACEHOLDER = 'reason';

export function policyFixes(request: PolicyFixRequest, text: string, format: SpecFormat, document: SpecDocument | undefined): QuickFix[] {
  if (request.suppressed) return [];
  const valueFixes =
    document && request.facts.onValue === true
      ? [...lowerWorkers(request, text, format, document), ...allowedPool(request, text, format, document)]
      : [];
  return [...valueFixes, ...ignoreComment(request, text, format)];
}

function lowerWorkers({ facts }: PolicyFixRequest, text: string, format: SpecFormat, document: SpecDocument): QuickFix[] {
  if (facts.limitKey !== 'maxWorkers' || typeof facts.limit !== 'number') return [];
  const limit = facts.limit;
  const written = resolvePath(document.root, ['workers', 'max'])?.node !== undefined;
  const edits = written
    ? replaceValue(text, document, ['workers', 'max'], String(limit))
    : addProperty(text, document, ['workers'], 'max', limit, format);
  const verb = written ? 'Lower' : 'Set';
  return edits.length > 0 ? [{ title: `${verb} workers.max to ${limit} (policy ${facts.rule})`, edits, preferred: true }] : [];
}

/** The allowed pools of the same VRAM as the one written, each a fix; the one such pool is the preferred fix. */
function allowedPool({ facts, path }: PolicyFixRequest, text: string, format: SpecFormat, document: SpecDocument): QuickFix[] {
  const { memoryGb } = facts;
  if (facts.limitKey !== 'allowedPools' || memoryGb === undefined) return [];
  const chosen = valueAt(document.data, ['gpu', 'pools']);
  const listed = new Set(Array.isArray(chosen) ? chosen : []);
  const candidates = (facts.allowedPools ?? []).filter((pool) => pool.memoryGb === memoryGb && !listed.has(pool.id));
  return candidates.flatMap((pool) => {
    const edits = replaceValue(text, document, path, scalarText(pool.id, format));
    const title = `Use pool ${pool.id} (${memoryGb} GB, allowed by policy ${facts.rule})`;
    return edits.length > 0 ? [{ title, edits, preferred: candidates.length === 1 }] : [];
  });
}

/** `# endpoint-studio-ignore <code>: <reason>` above the finding's line, indented as that line, the reason to type. */
function ignoreComment({ code, offset }: PolicyFixRequest, text: string, format: SpecFormat): QuickFix[] {
  if (format !== 'yaml') return [];
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const comment = `${indent}# ${IGNORE_MARKER} ${code}: \${1:${REASON_PLACEHOLDER}}${newline}`;
  return [
    {
      title: `Ignore ${code} here, with a reason`,
      edits: [{ offset: lineStart, length: 0, newText: comment }],
      preferred: false,
      snippet: true,
    },
  ];
}
