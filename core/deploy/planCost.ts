/**
 * The always-on cost line of a deploy plan. A create starts from nothing running; an update's
 * endpoint is the spec with each changed field set back to its live value (the plan's changes
 * carry both), so no second read of the endpoint is needed. A plan that touches none of the
 * fields the cost depends on says nothing about cost.
 */
import type { Catalog } from '../endpointSpec/catalog/catalog';
import { effectiveSpec, type EffectiveSpec } from './effective';
import type { DeploymentPlan } from './plan';
import { alwaysOnChange, perMonth, specCost } from '../billing/cost';
import { formatUsdChangeRange, formatUsdRange, type UsdRange } from '../billing/format';

const COST_FIELDS = ['workers.min', 'workers.max', 'gpu.pools', 'gpu.excludedTypes', 'gpu.count', 'cpu'];

/** The cost-relevant part of an effective spec, as a spec again, with some fields overridden. */
function costInput(effective: EffectiveSpec, override: ReadonlyMap<string, unknown> = new Map()): Record<string, unknown> {
  const value = (path: string): unknown => (override.has(path) ? override.get(path) : effective.fields.get(path)?.value);
  const out: Record<string, unknown> = { workers: { min: value('workers.min'), max: value('workers.max') } };
  if (effective.compute === 'gpu')
    out.gpu = { pools: value('gpu.pools'), excludedTypes: value('gpu.excludedTypes'), count: value('gpu.count') };
  else if (effective.compute === 'cpu') out.cpu = value('cpu');
  return out;
}

/** What a plan does to the always-on cost, in USD per hour (ranges: cheapest to priciest placement), and in words. */
export interface PlanCost {
  /** The `always-on cost: …` line the text, markdown and editor plans show. */
  readonly text: string;
  /** Per hour with workers.min running: before (absent for a create), after, and the change. */
  readonly alwaysOnPerHour: { readonly before?: UsdRange; readonly after: UsdRange; readonly change?: UsdRange };
  /** A create's cost at workers.max. */
  readonly atMaxPerHour?: UsdRange;
  /** An update's cost at workers.max, before and after, when the update moves it. */
  readonly atMaxChangePerHour?: { readonly before: UsdRange; readonly after: UsdRange };
  /** The changed fields that move the cost (an update's). */
  readonly fields?: readonly string[];
}

/** The plan's cost, or undefined when it changes no cost or the catalog cannot price it. */
export function planCost(plan: DeploymentPlan, catalog: Catalog): PlanCost | undefined {
  if (plan.kind === 'create') {
    const after = specCost(costInput(effectiveSpec(plan.spec)), catalog);
    if (!after?.alwaysOn || !after.atMax) return undefined;
    return {
      text: `always-on cost: ${formatUsdRange(after.alwaysOn)}/h (${formatUsdRange(perMonth(after.alwaysOn))}/month) for workers.min ${after.workersMin}; ${formatUsdRange(after.atMax)}/h at workers.max ${after.workersMax}`,
      alwaysOnPerHour: { after: after.alwaysOn },
      atMaxPerHour: after.atMax,
    };
  }
  if (plan.kind !== 'update') return undefined;
  const relevant = plan.changes.filter((c) => COST_FIELDS.includes(c.path));
  if (relevant.length === 0) return undefined;
  const wanted = effectiveSpec(plan.spec);
  const before = specCost(costInput(wanted, new Map(relevant.map((c) => [c.path, c.before]))), catalog);
  const after = specCost(costInput(wanted), catalog);
  const change = alwaysOnChange(before, after);
  if (!change || !before || !after) return undefined;
  const fields = relevant.map((c) => c.path);
  const atMax = atMaxChange(before.atMax, after.atMax);
  return {
    text: `always-on cost: ${formatUsdRange(change.before)}/h → ${formatUsdRange(change.after)}/h (${formatUsdChangeRange(change.change)}/h, ${formatUsdChangeRange(perMonth(change.change))}/month) from ${fields.join(', ')}${atMax ? `; ${atMax.text}` : ''}`,
    alwaysOnPerHour: change,
    ...(atMax ? { atMaxChangePerHour: { before: atMax.before, after: atMax.after } } : {}),
    fields,
  };
}

/** The cost at workers.max before and after, when an update moves it: raising only workers.max changes nothing always-on, yet the bill can grow. */
function atMaxChange(
  before: UsdRange | undefined,
  after: UsdRange | undefined,
): { text: string; before: UsdRange; after: UsdRange } | undefined {
  if (!before || !after || formatUsdRange(before) === formatUsdRange(after)) return undefined;
  return { text: `at workers.max ${formatUsdRange(before)}/h → ${formatUsdRange(after)}/h`, before, after };
}
