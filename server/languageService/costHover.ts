/**
 * The cost hover: on `workers`, `workers.min`, `workers.max`, `gpu` (pools, exclusions, count) and
 * `cpu`, what the spec costs per hour and per month with `workers.min` always on and with
 * `workers.max` running, from catalog prices. Pure: spec data and catalog in, markdown out.
 */
import { HOURS_PER_MONTH, perMonth, specCost, type SpecCost } from '../../core/billing/cost';
import { formatUsd, formatUsdRange } from '../../core/billing/format';
import type { Catalog } from '../../core/endpointSpec/catalog/catalog';
import type { JsonPath } from '../../core/endpointSpec/tree';

/** Whether the cost depends on what the cursor is on. */
export function isCostPath(path: JsonPath): boolean {
  const [head, field] = path;
  const whole = path.length === 1;
  if (head === 'workers') return whole || field === 'min' || field === 'max';
  if (head === 'gpu') return whole || field === 'pools' || field === 'excludedTypes' || field === 'count';
  return head === 'cpu';
}

export function costHoverMarkdown(path: JsonPath, data: unknown, catalog: Catalog): string | undefined {
  if (!isCostPath(path)) return undefined;
  const cost = specCost(data, catalog);
  // A rule parts the cost from the field's own documentation above it.
  return cost ? `---\n\n${costMarkdown(cost)}` : undefined;
}

function basis(cost: SpecCost): string {
  if (cost.compute === 'gpu') {
    const gpus = cost.gpuCount === 1 ? '1 GPU' : `${cost.gpuCount} GPUs`;
    const cheapest = cost.placements[0];
    const priciest = cost.placements[cost.placements.length - 1];
    const types =
      cheapest === priciest
        ? `${cheapest.name} at ${formatUsd(cheapest.unitPrice)}`
        : `${cheapest.name} at ${formatUsd(cheapest.unitPrice)} to ${priciest.name} at ${formatUsd(priciest.unitPrice)}`;
    return `Per worker: ${gpus} × ${types} per GPU-hour (secure-cloud price; ${cost.placements.length} GPU type${cost.placements.length === 1 ? '' : 's'} in the selection).`;
  }
  const each = cost.placements.map((p) => `${p.id} ${p.vcpuCount} vCPU × ${formatUsd(p.unitPrice)} = ${formatUsd(p.perWorkerHour)}`);
  return `Per worker-hour: ${each.join('; ')} (serverless price per vCPU-hour).`;
}

/** The cost table with its basis: the cost hover's body, and the cost inlay hints' tooltip. */
export function costMarkdown(cost: SpecCost): string {
  const lines = ['**Cost from catalog prices**', ''];
  if (!cost.alwaysOn || !cost.atMax) {
    lines.push(
      `The catalog has no price for ${cost.unpriced.length > 0 ? cost.unpriced.join(', ') : 'this selection'}, so its cost cannot be estimated.`,
    );
    return lines.join('\n');
  }
  lines.push(
    `| | per hour | per month (${HOURS_PER_MONTH} h) |`,
    '|---|---|---|',
    `| Always on: \`workers.min\` ${cost.workersMin} | ${formatUsdRange(cost.alwaysOn)} | ${formatUsdRange(perMonth(cost.alwaysOn))} |`,
    `| At \`workers.max\` ${cost.workersMax} | ${formatUsdRange(cost.atMax)} | ${formatUsdRange(perMonth(cost.atMax))} |`,
    '',
    basis(cost),
  );
  if (cost.placements.length > 1)
    lines.push('', 'A range runs from the cheapest placement to the priciest; the scheduler picks among them.');
  if (cost.unpriced.length > 0) lines.push('', `Not priced (no catalog price): ${cost.unpriced.join(', ')}.`);
  lines.push(
    '',
    'The catalog has no separate rate for always-on (active) workers, so the workers `workers.min` keeps running and those scaled up to `workers.max` are priced alike. Disk, network volumes and fees are not included.',
  );
  return lines.join('\n');
}
