/**
 * `endpoint-studio policy show`: the rules of the team policy that judge each spec (or the specs of an
 * environment), each with its limits, and what a cost limit leaves unspent at workers.max (`prod: $9.80/h of
 * $12.50`), priced with the catalog `validate` would use. What applies and the prices are core's
 * (core/operations/policyShow.ts); this module picks the files and the catalog, and prints.
 * Exit codes: 0 shown, 1 the policy is broken, 2 usage error or unreadable file.
 */
import { relative } from 'node:path';
import { catalogFileFromEnvironment } from '../core/api/config';
import { formatUsd } from '../core/billing/format';
import { catalogUsedJson, describeCatalogUsed } from '../core/catalog/catalogUsed';
import { ENVIRONMENT_NAME } from '../core/operations/environments';
import { policyShow, type AppliedRule, type CostHeadroom, type PolicyShown } from '../core/operations/policyShow';
import { readCommandLine, usageError } from './args';
import { chooseCatalog } from './catalogChoice';
import { specFilesOf } from './deployCommandLine';
import type { ServiceIo } from './service';
import { reportPath } from './validateReport';

export const POLICY_HELP = `Usage: endpoint-studio policy show [--env ENV] [--format text|json] [--catalog FILE | --offline] [<specs...>]

Shows the rules of the team policy (.endpoint-studio/policy.yaml) that judge each spec given
(files, folders or globs): an overlay is judged as its environment, by the rules without
environments and those naming it. For each maxCostPerHour, the spec's cost with workers.max
running at the priciest placement it allows, against the limit (prod: $9.80/h of $12.50),
priced as the rule is. Without specs, the rules over the current folder.

  --env ENV       the ENV environment: with specs, their ENV overlays (as plan --env picks
                  them); without, the rules that judge ENV's specs
  --format json   {catalog, specs: [{file, environment, policy, rules, cost}]}
  --catalog FILE  price against a catalog snapshot; default $ENDPOINT_STUDIO_CATALOG_FILE, else
                  the service's catalog with a key. Without one, a cost limit is shown as not
                  checked, never as met
  --offline       send nothing: the cached catalog if there is one

Exit status: 0 shown, 1 the policy is broken, 2 usage error or unreadable file.`;

const COMMAND_LINE = {
  command: 'policy',
  usage: POLICY_HELP,
  options: {
    env: { type: 'string' },
    format: { type: 'string', default: 'text' },
    catalog: { type: 'string' },
    offline: { type: 'boolean', default: false },
  },
  allowPositionals: true,
} as const;

interface ShowOptions {
  readonly inputs: readonly string[];
  readonly environment?: string;
  readonly format: 'text' | 'json';
  readonly catalogPath?: string;
  readonly offline: boolean;
}

function showOptions(args: readonly string[], io: ServiceIo): ShowOptions | number {
  const line = readCommandLine(COMMAND_LINE, args, io);
  if (typeof line === 'number') return line;
  const [subcommand, ...inputs] = line.positionals;
  if (subcommand !== 'show')
    return usageError(COMMAND_LINE, io, subcommand ? `unknown subcommand: ${subcommand}` : 'show is the one subcommand');
  const { env, format, catalog, offline } = line.values;
  if (env !== undefined && !ENVIRONMENT_NAME.test(env))
    return usageError(COMMAND_LINE, io, `--env takes an environment name (letters, digits, - and _); got: ${env || 'nothing'}`);
  if (format !== 'text' && format !== 'json') return usageError(COMMAND_LINE, io, `--format takes text or json; got: ${format}`);
  if (catalog === '') return usageError(COMMAND_LINE, io, '--catalog takes a file');
  if (catalog !== undefined && offline)
    return usageError(COMMAND_LINE, io, '--catalog reads no network already; give --catalog or --offline');
  const catalogPath = catalog ?? catalogFileFromEnvironment(io.env ?? process.env);
  return { inputs, format, offline, ...(env !== undefined ? { environment: env } : {}), ...(catalogPath ? { catalogPath } : {}) };
}

export async function runPolicy(args: readonly string[], io: ServiceIo): Promise<number> {
  const options = showOptions(args, io);
  if (typeof options === 'number') return options;
  const files = options.inputs.length === 0 ? [] : await specFilesOf('policy', options.inputs, options.environment, io);
  if (files === undefined) return 2;
  const run = await chooseCatalog('policy', { catalogPath: options.catalogPath, offline: options.offline }, io);
  if (run === false) return 2;
  const folder = process.cwd();
  const shown = await policyShow({
    files,
    folder,
    ...(files.length === 0 && options.environment !== undefined ? { environment: options.environment } : {}),
    ...(run.catalog ? { catalog: run.catalog } : {}),
  });
  if (options.format === 'json') {
    const specs = shown.map((entry) => asJson(entry, folder));
    io.out(`${JSON.stringify({ catalog: catalogUsedJson(run.used), specs }, null, 2)}\n`);
  } else {
    io.out(shown.map((entry) => asText(entry, folder)).join('\n'));
    io.err(describeCatalogUsed(run.used));
  }
  return shown.some((entry) => entry.policy?.broken) ? 1 : 0;
}

function asJson(entry: PolicyShown, folder: string): Record<string, unknown> {
  return {
    file: entry.file === undefined ? null : reportPath(folder, entry.file),
    environment: entry.environment ?? null,
    policy: entry.policy ? { ...entry.policy, path: reportPath(folder, entry.policy.path) } : null,
    rules: entry.rules,
    cost: entry.cost,
  };
}

/** A spec's (or the folder's) heading, its policy, each rule with its limits, then each cost limit's headroom. */
function asText(entry: PolicyShown, folder: string): string {
  const what =
    entry.file === undefined
      ? entry.environment === undefined
        ? 'this folder'
        : `environment ${entry.environment}`
      : reportPath(folder, entry.file);
  const environment = entry.file !== undefined && entry.environment !== undefined ? ` (environment ${entry.environment})` : '';
  const { policy } = entry;
  if (!policy) return `${what}${environment}: no team policy (no .endpoint-studio/policy.yaml over it)\n`;
  const where = relative(folder, policy.path) || policy.path;
  if (policy.broken)
    return (
      [
        `${what}${environment}: ${where} is broken, so deploys are refused until it is fixed:`,
        ...policy.problems.map((p) => `  ${p}`),
      ].join('\n') + '\n'
    );
  const lines = [`${what}${environment}: ${where}`];
  if (entry.rules.length === 0) lines.push('  no rule applies');
  lines.push(...entry.rules.map((rule) => `  ${ruleLine(rule)}`));
  const many = new Set(entry.cost.map((c) => c.document)).size > 1 || entry.cost.some((c) => c.document > 0);
  lines.push(
    ...entry.cost.map((cost) => `  cost at workers.max: ${many ? `document ${cost.document}: ` : ''}${costLine(cost, entry.environment)}`),
  );
  return `${lines.join('\n')}\n`;
}

/** `prod-limits (prod): maxWorkers 4, maxCostPerHour $12.50/h, allowedPools ADA_24, AMPERE_80`. */
function ruleLine(rule: AppliedRule): string {
  const scope = rule.environments ? ` (${rule.environments.join(', ')})` : ' (every spec)';
  const limits = Object.entries(rule.limits).map(([key, value]) => `${key} ${limitText(key, value)}`);
  return `${rule.name}${scope}: ${limits.length > 0 ? limits.join(', ') : 'no limit'}`;
}

function limitText(key: string, value: unknown): string {
  if (key === 'maxCostPerHour' && typeof value === 'number') return `${formatUsd(value)}/h`;
  if (Array.isArray(value)) return value.join(', ');
  return String(value);
}

/** `prod: $9.80/h of $12.50 (policy prod-limits), $2.70/h to spare`, or why it was not checked. */
function costLine(cost: CostHeadroom, environment: string | undefined): string {
  const label = environment === undefined ? '' : `${environment}: `;
  const rule = `(policy ${cost.rule})`;
  if (cost.perHour === undefined || cost.headroom === undefined)
    return `${label}not checked against ${formatUsd(cost.limit)}/h ${rule}: ${cost.unchecked ?? 'no price'}`;
  const spare = cost.headroom >= 0 ? `${formatUsd(cost.headroom)}/h to spare` : `${formatUsd(-cost.headroom)}/h over`;
  const partly = cost.unchecked === undefined ? '' : `; not in full: ${cost.unchecked}`;
  return `${label}${formatUsd(cost.perHour)}/h of ${formatUsd(cost.limit)} ${rule}, ${spare}${partly}`;
}
