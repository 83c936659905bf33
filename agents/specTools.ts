/**
 * The tools that read a spec without deploying it: `validate_spec` runs the same check as the
 * editor and `endpoint-studio validate` (a file's with its team policy applied, silenced findings listed with
 * their reason, never counted), and `estimate_cost` prices it from the service's catalog
 * with the same code as the hovers and the plan's cost line, so an agent and a person never get
 * two answers about one spec.
 */
import { relative } from 'node:path';
import { z } from 'zod';
import { perMonth, specCost, type SpecCost } from '../core/billing/cost';
import { describeCatalogUsed } from '../core/catalog/catalogUsed';
import { formatUsdRange, type UsdRange } from '../core/billing/format';
import { readPriceCatalog } from '../core/billing/priceCatalog';
import { checkSpec, type CatalogSource, type CheckSpecInput, type CheckSpecResult } from '../core/operations';
import {
  callOptions,
  catalogOrigin,
  fileCheck,
  pinnedCatalog,
  placeDiagnostic,
  problemLine,
  readSpecAt,
  requireClient,
  ToolFailure,
  type AgentContext,
} from './context';
import { openObject, problemShape } from './schemas';
import { defineTool, type ToolResult } from './tool';

const specSource = {
  text: z.string().max(4_000_000).optional().describe('The spec text itself (YAML or JSON). Give either text or path.'),
  format: z.enum(['yaml', 'json']).optional().describe('Format of text; default yaml. Ignored with path (taken from the file name).'),
  path: z.string().min(1).optional().describe('A *.endpoint.yaml / *.endpoint.json file, absolute or relative to the workspace.'),
};

/** The spec to check, and its name for the model: the file as named, or `<text>` for inline text. */
function specInput(
  input: { text?: string; format?: 'yaml' | 'json'; path?: string },
  context: AgentContext,
): { name: string; source: Omit<CheckSpecInput, 'catalog'> } {
  if (input.text === undefined && input.path === undefined)
    throw new ToolFailure('a spec is needed: give its text (with format) or the path of its file');
  if (input.text !== undefined && input.path !== undefined) throw new ToolFailure('give either text (with format) or path, not both');
  if (input.path !== undefined) return { name: input.path, source: fileCheck(context, readSpecAt(context, input.path)) };
  return { name: '<text>', source: { text: input.text ?? '', format: input.format ?? 'yaml' } };
}

const suppressedShape = problemShape.extend({
  suppressed: z.object({ kind: z.enum(['inSource', 'external']), reason: z.string() }),
});

/** The team policy over a file: where it is, and whether it is broken (then nothing under it deploys). */
const policyShape = z.object({ path: z.string(), broken: z.boolean() });

function policyOf(checked: CheckSpecResult, root: string): { path: string; broken: boolean } | undefined {
  const { policy } = checked;
  return policy && { path: relative(root, policy.path) || policy.path, broken: policy.policy === undefined };
}

export const validateSpec = defineTool({
  name: 'validate_spec',
  title: 'Validate an endpoint spec',
  description:
    'Check an endpoint spec (the body of POST /v2/serverless as YAML or JSON) for everything the service would reject or almost certainly not mean: schema errors, cross-field rules, when signed in the live catalog (GPU pools, CPU flavors, data centers, templates), and for a file (path) the team policy (.endpoint-studio/policy.yaml: codes policy-*, each naming its rule). Returns every problem with its 1-based line and column, code and message, and the findings silenced by an ignore comment or a policy exception under suppressed, with the reason. A policy error refuses plan_deploy. Run it after every edit of a spec, before plan_deploy.',
  writes: false,
  input: z.object(specSource),
  output: openObject({
    valid: z.boolean(),
    errors: z.number(),
    warnings: z.number(),
    documents: z.number(),
    catalog: z.enum(['live', 'snapshot', 'none']),
    problems: z.array(problemShape),
    suppressed: z.array(suppressedShape),
    policy: policyShape.optional(),
  }),
  async run(input, context): Promise<ToolResult> {
    const spec = specInput(input, context);
    const pinned = pinnedCatalog(context);
    const catalog: CatalogSource = pinned
      ? { kind: 'snapshot', catalog: pinned.catalog }
      : context.client
        ? { kind: 'live', client: context.client, timeoutMs: 10_000 }
        : { kind: 'none' };
    const checked = await checkSpec({ ...spec.source, catalog });
    const problems = checked.diagnostics.map(placeDiagnostic);
    const errors = problems.filter((p) => p.severity === 'error').length;
    const warnings = problems.filter((p) => p.severity === 'warning').length;
    const suppressed = checked.suppressed.map((d) => ({ ...placeDiagnostic(d), suppressed: d.suppression }));
    const policy = policyOf(checked, context.workspaceRoot);
    const documents = checked.documents.filter((d) => d.isSpec).length;
    const catalogNote = pinned
      ? `checked against the ${describeCatalogUsed(pinned.used)}`
      : checked.catalog
        ? 'checked against the live catalog'
        : `checked without catalog rules (${checked.catalogError ?? 'not signed in'})`;
    const silencedNote = suppressed.length > 0 ? `, ${suppressed.length} suppressed` : '';
    const summary =
      problems.length === 0
        ? `${spec.name}: valid (${documents} spec document${documents === 1 ? '' : 's'}${silencedNote}; ${catalogNote})`
        : `${spec.name}: ${errors} error(s), ${warnings} warning(s)${silencedNote} (${catalogNote})`;
    const silenced = suppressed.map((p) => `${problemLine(spec.name, p)} (suppressed: ${p.suppressed.reason})`);
    return {
      text: [summary, ...problems.map((p) => problemLine(spec.name, p)), ...silenced].join('\n'),
      structured: {
        valid: errors === 0 && documents > 0,
        errors,
        warnings,
        documents,
        ...(checked.catalog ? catalogOrigin(pinned) : { catalog: 'none' }),
        ...(checked.catalogError ? { catalogError: checked.catalogError } : {}),
        problems,
        suppressed,
        ...(policy ? { policy } : {}),
      },
    };
  },
});

const costShape = openObject({
  document: z.number(),
  name: z.string().optional(),
  compute: z.enum(['gpu', 'cpu']).optional(),
  priced: z.boolean(),
});

/** Money rounded to the cent's hundredth: enough for a per-hour price, no float noise. */
const round = (range: UsdRange): UsdRange => ({
  low: Math.round(range.low * 10_000) / 10_000,
  high: Math.round(range.high * 10_000) / 10_000,
});

function costEntry(document: number, name: unknown, cost: SpecCost | undefined): { data: Record<string, unknown>; line: string } {
  const label = `document ${document}${typeof name === 'string' ? ` (${name})` : ''}`;
  if (!cost)
    return { data: { document, priced: false }, line: `${label}: cannot be priced (no valid gpu or cpu selection and worker counts)` };
  const base = {
    document,
    ...(typeof name === 'string' ? { name } : {}),
    compute: cost.compute,
    workersMin: cost.workersMin,
    workersMax: cost.workersMax,
    ...(cost.gpuCount !== undefined ? { gpuCount: cost.gpuCount } : {}),
    unpriced: cost.unpriced,
  };
  if (!cost.alwaysOn || !cost.atMax || !cost.perWorker)
    return {
      data: { ...base, priced: false },
      line: `${label}: the catalog prices none of ${cost.unpriced.join(', ') || 'its placements'}`,
    };
  const data = {
    ...base,
    priced: true,
    perWorkerHour: round(cost.perWorker),
    alwaysOn: { perHour: round(cost.alwaysOn), perMonth: round(perMonth(cost.alwaysOn)) },
    atMax: { perHour: round(cost.atMax), perMonth: round(perMonth(cost.atMax)) },
    placements: cost.placements.map((p) => ({ id: p.id, name: p.name, perWorkerHour: p.perWorkerHour })),
  };
  const line = `${label}: always-on ${formatUsdRange(cost.alwaysOn)}/h (${formatUsdRange(perMonth(cost.alwaysOn))}/month) for workers.min ${cost.workersMin}; at max ${formatUsdRange(cost.atMax)}/h (${formatUsdRange(perMonth(cost.atMax))}/month) for workers.max ${cost.workersMax}`;
  return { data, line };
}

export const estimateCost = defineTool({
  name: 'estimate_cost',
  title: 'Estimate what a spec costs to run',
  description:
    'Price an endpoint spec from the service catalog before deploying it: the always-on cost that workers.min keeps running and the cost with workers.max running, per hour and per month (730 h), as a range from the cheapest to the priciest GPU type or CPU flavor the selection allows. Disk, network volumes and fees are not included. Needs an API key, or a catalog snapshot named by ENDPOINT_STUDIO_CATALOG_FILE.',
  writes: false,
  input: z.object(specSource),
  output: openObject({ currency: z.literal('USD'), hoursPerMonth: z.number(), documents: z.array(costShape) }),
  async run(input, context): Promise<ToolResult> {
    const spec = specInput(input, context);
    const pinned = pinnedCatalog(context);
    const client = pinned ? undefined : requireClient(context);
    const checked = await checkSpec({ ...spec.source, catalog: { kind: 'none' } });
    const specs = checked.documents.filter((d) => d.isSpec);
    if (specs.length === 0) throw new ToolFailure(`${spec.name} holds no spec to price; run validate_spec to see why`);
    const prices = client ? await readPriceCatalog(client, callOptions(context)) : pinned?.catalog;
    if (!prices) throw new ToolFailure('the service catalog (GPU and CPU prices) could not be read; try again');
    const entries = specs.map((d) => {
      const data = d.body as Record<string, unknown> | null | undefined;
      return costEntry(d.index, data?.name, specCost(data, prices));
    });
    return {
      text: [
        `${spec.name}: cost from catalog prices (USD; disk, volumes and fees not included)`,
        ...entries.map((e) => e.line),
        ...(pinned ? [describeCatalogUsed(pinned.used)] : []),
      ].join('\n'),
      structured: { currency: 'USD', hoursPerMonth: 730, documents: entries.map((e) => e.data), ...catalogOrigin(pinned) },
    };
  },
});
