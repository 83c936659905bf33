/** A plan as text a person reads before saying yes: one line per field, `+` added, `-` removed, `~` changed. */
import type { Change } from './diff';
import { effectiveSpec, type Spec } from './effective';
import type { DeploymentPlan } from './plan';
import type { Catalog } from '../endpointSpec/catalog/catalog';
import { childValue } from '../endpointSpec/ownData';
import type { StockShortage } from '../endpointSpec/catalog/stock';
import { outsideAuthor, type OutsideChange, type OutsideEffect, type ThreeWay } from './outside';
import { planCost } from './planCost';
import { plural } from '../util/plural';

/** Values as they would be written in JSON, shortened so one line stays one line. */
export function renderValue(value: unknown, maxLength = 120): string {
  const text = value === undefined ? '(absent)' : JSON.stringify(value);
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}

export function renderChange(change: Change): string {
  if (change.before === undefined) return `+ ${change.path}: ${renderValue(change.after)}`;
  if (change.after === undefined) return `- ${change.path}: ${renderValue(change.before)}`;
  return `~ ${change.path}: ${renderValue(change.before)} → ${renderValue(change.after)}`;
}

/** Whether the spec itself says this (rather than a default); the command counts whichever way it is spelled. */
function setInSpec(spec: Record<string, unknown>, segments: readonly (string | number)[]): boolean {
  if (segments[0] === 'entrypoint' || segments[0] === 'cmd') return ['args', 'entrypoint', 'cmd'].some((key) => spec[key] !== undefined);
  return segments.reduce<unknown>((node, segment) => childValue(node, segment), spec) !== undefined;
}

/**
 * A create as the text and Markdown plans show it: its compute, and every field it sends, marked when a default
 * sets it. Empty values (no ports, no registry, no ENTRYPOINT) say nothing, so they are left out.
 */
export function createFields(spec: Spec) {
  const effective = effectiveSpec(spec);
  const fields = [...effective.fields]
    .filter(([, field]) => field.value !== null && !(Array.isArray(field.value) && field.value.length === 0))
    .map(([path, field]) => ({ path, value: field.value, explicit: setInSpec(spec, field.segments) }));
  return { effective, compute: effective.compute === 'cpu' ? 'CPU' : 'GPU', fields };
}

/** With a catalog, the plan also says how the always-on cost moves (catalog prices × workers.min). */
export function renderPlan(plan: DeploymentPlan, options: { catalog?: Catalog } = {}): string {
  const lines: string[] = [];
  const indent = (line: string): string => `  ${line}`;
  switch (plan.kind) {
    case 'create': {
      const { effective, compute, fields } = createFields(plan.spec);
      lines.push(`create a new endpoint ${JSON.stringify(plan.spec.name)} (${String(plan.spec.type)} on ${compute})`);
      for (const { path, value, explicit } of fields) lines.push(indent(`+ ${path}: ${renderValue(value)}${explicit ? '' : ' (default)'}`));
      if (effective.unmanaged.size > 0) {
        const source = effective.templateId !== undefined ? `from template ${effective.templateId}` : 'chosen by the service';
        lines.push(indent(`  ${source}: ${[...effective.unmanaged].join(', ')}`));
      }
      break;
    }
    case 'update':
      lines.push(`update endpoint ${plan.endpointId} ${JSON.stringify(plan.endpointName)}: ${plural(plan.changes.length, 'change')}`);
      for (const change of plan.changes) lines.push(indent(renderChange(change)));
      break;
    case 'unchanged':
      lines.push(`endpoint ${plan.endpointId} ${JSON.stringify(plan.endpointName)} matches the spec: nothing to deploy`);
      break;
    case 'refused':
      lines.push(`cannot update endpoint ${plan.endpointId} ${JSON.stringify(plan.endpointName)}:`);
      for (const problem of plan.problems) lines.push(indent(`! ${problem.path}: ${problem.message}`));
      if (plan.changes.length > 0) {
        lines.push(indent(`differences (${plan.changes.length}):`));
        for (const change of plan.changes) lines.push(indent(indent(renderChange(change))));
      }
      break;
  }
  if (plan.threeWay) lines.push(...threeWayLines(plan.threeWay).map(indent));
  const cost = options.catalog && planCost(plan, options.catalog)?.text;
  if (cost) lines.push(indent(cost));
  if (plan.stock) lines.push(indent(`warning: ${stockWarning(plan.stock)}`));
  for (const note of plan.notes) lines.push(indent(`note: ${note}`));
  return `${lines.join('\n')}\n`;
}

/** The plan's stock warning, for the text and Markdown plans alike: a warning only, since stock changes by the minute. */
export function stockWarning(stock: StockShortage): string {
  return `${stock.message} (the deploy still goes ahead: stock changes by the minute)`;
}

const EFFECTS: Record<OutsideEffect, (change: OutsideChange) => string> = {
  reverts: (change) => `deploying sets it back to ${renderValue(change.deployed)}`,
  conflict: (change) => `the spec now says ${renderValue(change.spec)}: deploying overwrites it`,
  agrees: () => 'the spec now says the same',
};

/** The plan's account of the three sides, one line each, for the text and Markdown plans alike. */
export function threeWayLines(three: ThreeWay): string[] {
  const lines: string[] = [];
  if (three.outside.length > 0) {
    lines.push(`${outsideAuthor(three)} since the last deploy (${three.deployedAt.replace('T', ' ').slice(0, 16)}):`);
    for (const change of three.outside)
      lines.push(`  ${change.path}: ${renderValue(change.deployed)} → ${renderValue(change.live)}; ${EFFECTS[change.effect](change)}`);
  }
  if (three.specEdits.length > 0) lines.push(`spec edited since the last deploy: ${three.specEdits.join(', ')}`);
  return lines;
}
