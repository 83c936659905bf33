/**
 * A plan as GitHub-flavoured Markdown, for a pull request's job summary or comment: one section per
 * spec document with the action in its heading, the changed fields as a `field | live | spec` table,
 * the always-on cost line and the notes. The same facts as the text plan (`render.ts`), laid out for
 * a reviewer who reads it in a browser rather than a terminal. An environment's overlay gets a line naming
 * the environment, its key variable and endpoint, and the base's arrays it replaces whole.
 */
import type { Catalog } from '../endpointSpec/catalog/catalog';
import type { Change } from './diff';
import type { DeploymentPlan } from './plan';
import { planCost } from './planCost';
import { createFields, renderValue, stockWarning, threeWayLines } from './render';
import { plural } from '../util/plural';

type PlanAction = DeploymentPlan['kind'];

export interface MarkdownSectionOptions {
  /** What the section is about: `specs/a.endpoint.yaml`, or with the document, `specs/a.endpoint.yaml (document 1)`. */
  readonly title: string;
  /** Prices for the cost line; without them the line is left out. */
  readonly catalog?: Catalog;
  /** Why a deploy would refuse a plan that is itself fine (a create next to unbound namesakes): the action becomes `refused`. */
  readonly refusal?: string;
  /** The environment an overlay deploys to. */
  readonly environment?: MarkdownEnvironment;
}

interface MarkdownEnvironment {
  readonly name: string;
  readonly protected: boolean;
  /** The variable its key is read from (the command line's), when there is one to name. */
  readonly keyVariable?: string;
  /** `ep_1`, or `a new endpoint`. */
  readonly endpoint: string;
  /** Arrays of the base the overlay replaces whole. */
  readonly replacedArrays: readonly string[];
}

/** `**Environment:** `prod` (protected) · key from `ENDPOINT_STUDIO_API_KEY_PROD` · endpoint `ep_1``, and the replaced arrays. */
function environmentLines(environment: MarkdownEnvironment): string[] {
  const parts = [`**Environment:** ${code(environment.name)}${environment.protected ? ' (protected)' : ''}`];
  if (environment.keyVariable !== undefined) parts.push(`key from ${code(environment.keyVariable)}`);
  parts.push(`endpoint ${environment.endpoint.startsWith('a ') ? plain(environment.endpoint) : code(environment.endpoint)}`);
  const lines = [parts.join(' · '), ''];
  if (environment.replacedArrays.length > 0)
    lines.push(`**Replaced whole by the overlay** (not merged with the base): ${environment.replacedArrays.map(code).join(', ')}`, '');
  return lines;
}

/** Text inside a code span in a table cell: pipes escaped (GFM splits cells on them first), backticks fenced. */
function code(text: string): string {
  const cell = text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
  const fence = cell.includes('`') ? '``' : '`';
  return `${fence}${fence.length > 1 ? ' ' : ''}${cell}${fence.length > 1 ? ' ' : ''}${fence}`;
}

/** Prose that may hold Markdown's own characters: shown as written. */
function plain(text: string): string {
  return text.replace(/([\\`*_[\]<>|#])/g, '\\$1');
}

const cellValue = (value: unknown): string => (value === undefined ? '—' : code(renderValue(value)));

function changesTable(changes: readonly Change[]): string[] {
  return [
    '| field | live | spec |',
    '|---|---|---|',
    ...changes.map((c) => `| ${code(c.path)} | ${cellValue(c.before)} | ${cellValue(c.after)} |`),
  ];
}

function endpointLabel(plan: Extract<DeploymentPlan, { endpointId: string }>): string {
  return `endpoint ${code(plan.endpointId)} ${plain(JSON.stringify(plan.endpointName))}`;
}

/** The body of a create: every field it sends, defaults marked, and what the service or a template chooses. */
function createBody(plan: Extract<DeploymentPlan, { kind: 'create' }>): { lines: string[]; notes: string[] } {
  const { effective, compute, fields } = createFields(plan.spec);
  const rows = fields.map(({ path, value, explicit }) => `| ${code(path)} | — | ${cellValue(value)}${explicit ? '' : ' (default)'} |`);
  const lines = [`Creates a new endpoint ${plain(JSON.stringify(plan.spec.name))} (${plain(String(plan.spec.type))} on ${compute}).`, ''];
  lines.push('| field | live | spec |', '|---|---|---|', ...rows);
  const notes: string[] = [];
  if (effective.unmanaged.size > 0) {
    const fields = [...effective.unmanaged].map(code).join(', ');
    notes.push(
      effective.templateId !== undefined ? `from template ${code(effective.templateId)}: ${fields}` : `chosen by the service: ${fields}`,
    );
  }
  return { lines, notes };
}

function body(plan: DeploymentPlan): { lines: string[]; notes: string[] } {
  switch (plan.kind) {
    case 'create':
      return createBody(plan);
    case 'update':
      return {
        lines: [`Updates ${endpointLabel(plan)}: ${plural(plan.changes.length, 'change')}.`, '', ...changesTable(plan.changes)],
        notes: [],
      };
    case 'unchanged':
      return { lines: [`${endpointLabel(plan)} matches the spec: nothing to deploy.`], notes: [] };
    case 'refused': {
      const lines = [`Cannot update ${endpointLabel(plan)}:`, '', ...plan.problems.map((p) => `- ${code(p.path)}: ${plain(p.message)}`)];
      if (plan.changes.length > 0) lines.push('', ...changesTable(plan.changes));
      return { lines, notes: [] };
    }
  }
}

/** One section: `### title: action`, the body, the cost line and the notes. */
export function renderPlanMarkdown(plan: DeploymentPlan, options: MarkdownSectionOptions): string {
  const { lines, notes } = body(plan);
  const action: PlanAction = options.refusal === undefined ? plan.kind : 'refused';
  const out = [`### ${plain(options.title)}: ${action}`, ''];
  if (options.environment) out.push(...environmentLines(options.environment));
  if (options.refusal !== undefined) out.push(`**Deploy refuses this:** ${plain(options.refusal)}.`, '');
  out.push(...lines);
  const three = plan.threeWay ? threeWayLines(plan.threeWay) : [];
  if (three.length > 0) out.push('', '```text', ...three, '```');
  const cost = options.catalog && planCost(plan, options.catalog)?.text;
  // `always-on cost: …` with its label set off in bold, as the other labels of the section are.
  if (cost)
    out.push(
      '',
      `**${plain(cost.charAt(0).toUpperCase() + cost.slice(1, cost.indexOf(':') + 1))}** ${plain(cost.slice(cost.indexOf(':') + 2))}`,
    );
  if (plan.stock) out.push('', `> **Warning:** ${plain(stockWarning(plan.stock))}`);
  const allNotes = [...notes, ...plan.notes.map(plain)];
  if (allNotes.length > 0) out.push('', ...allNotes.map((note) => `> **Note:** ${note}`));
  return `${out.join('\n')}\n`;
}

/**
 * A section for a document or file that could not be planned (unreadable, not a spec, has errors):
 * the same heading with `not planned`, the reason, and the problems as a list.
 */
export function renderUnplannedMarkdown(title: string, reason: string, problems: readonly string[] = []): string {
  const out = [`### ${plain(title)}: not planned`, '', plain(reason)];
  if (problems.length > 0) out.push('', ...problems.map((p) => `- ${plain(p)}`));
  return `${out.join('\n')}\n`;
}

export interface MarkdownSection {
  /** The section's action, `not planned` for a file or document that could not be planned. */
  readonly action: PlanAction | 'not planned';
  readonly markdown: string;
}

/** The sections under one heading, with a count of each action first so a reviewer sees the whole at a glance. */
export function renderPlansMarkdown(sections: readonly MarkdownSection[]): string {
  const counts = new Map<string, number>();
  for (const { action } of sections) counts.set(action, (counts.get(action) ?? 0) + 1);
  const order: MarkdownSection['action'][] = ['create', 'update', 'unchanged', 'refused', 'not planned'];
  const summary = order.filter((a) => counts.has(a)).map((a) => countOf(counts.get(a) ?? 0, a));
  const head = `## Endpoint deploy plan\n\n${sections.length === 0 ? 'No spec files.' : `${summary.join(', ')}.`}\n`;
  return [head, ...sections.map((s) => s.markdown)].join('\n');
}

/** `1 create`, `2 creates`, `3 unchanged`, `2 not planned`: the adjectives take no plural. */
function countOf(count: number, action: MarkdownSection['action']): string {
  const noun = action === 'create' || action === 'update' ? action : undefined;
  return `${count} ${noun !== undefined && count !== 1 ? `${noun}s` : action}`;
}
