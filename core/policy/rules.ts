/**
 * The team policy's rule kinds: one object per limit a policy rule can set, each with its stable code, so a
 * finding can be silenced, re-graded and documented by code like any other diagnostic. Each reads the body a
 * spec deploys (an overlay's merged into its base) as plain data and must tolerate any shape: the spec's own
 * diagnostics say what is malformed, a limit only speaks about values it can read.
 */
import { specCost } from '../billing/cost';
import { formatUsd } from '../billing/format';
import { unpinnedImage } from '../deploy/plan';
import type { Catalog } from '../endpointSpec/catalog/catalog';
import { defaultNumber } from '../endpointSpec/contract';
import type { Severity } from '../endpointSpec/problem';
import { record, type RuleFinding } from '../endpointSpec/rules/rule';
import type { PolicyRule } from './policyFile';

/** What a policy rule is checked with: the catalog for prices, when there is one. */
export interface PolicyContext {
  readonly catalog?: Catalog;
}

/** A finding; a rule kind that could not check its limit says so under another code and severity. */
export interface PolicyFinding extends RuleFinding {
  readonly code?: string;
  readonly severity?: Severity;
}

export interface PolicyRuleKind {
  readonly code: string;
  /** The key of a policy rule that sets this limit. */
  readonly limit: keyof PolicyRule;
  /** One line for docs/rules.md and the SARIF rule. */
  readonly description: string;
  /** The body's findings against `rule`'s limit; none when the rule sets no such limit. */
  check(body: Record<string, unknown>, rule: PolicyRule, context: PolicyContext): PolicyFinding[];
}

const listed = (values: readonly string[]): string => values.join(', ');

const maxWorkers: PolicyRuleKind = {
  code: 'policy-max-workers',
  limit: 'maxWorkers',
  description: "`workers.max` (or its default, when the spec leaves it out) is at most the rule's `maxWorkers`.",
  check(body, rule) {
    const limit = rule.maxWorkers;
    if (limit === undefined) return [];
    const written = record(body.workers)?.max;
    const max = written ?? defaultNumber('workers.max');
    if (typeof max !== 'number' || max <= limit) return [];
    const value = written === undefined ? `workers.max ${max} (the default)` : `workers.max ${max}`;
    return [{ path: ['workers', 'max'], target: 'value', message: `${value} is above ${limit}` }];
  },
};

const maxCost: PolicyRuleKind = {
  code: 'policy-max-cost',
  limit: 'maxCostPerHour',
  description:
    "The cost per hour with `workers.max` running, at the priciest placement the selection allows (the cost hover's catalog prices), is at most the rule's `maxCostPerHour`. Without a catalog, or without a price for part of the selection, `policy-cost-unchecked` says so instead.",
  check(body, rule, { catalog }) {
    const limit = rule.maxCostPerHour;
    if (limit === undefined) return [];
    const at = { path: ['workers', 'max'], target: 'value' as const };
    const cost = costAtMax(body, catalog);
    if (!cost) return [];
    if (cost.perHour !== undefined && cost.perHour > limit)
      return [{ ...at, message: `the cost at workers.max, ${formatUsd(cost.perHour)} an hour, is above ${formatUsd(limit)}` }];
    if (cost.unchecked === undefined) return [];
    const message = `the cost at workers.max is not checked against ${formatUsd(limit)} an hour: ${cost.unchecked}`;
    return [{ ...at, code: 'policy-cost-unchecked', severity: 'warning', message }];
  },
};

/** What `maxCostPerHour` is judged on: the priciest hour at `workers.max`, or why it cannot be fully priced. */
export interface CostAtMax {
  /** USD an hour with workers.max running at the priciest placement the selection allows, as far as priced. */
  readonly perHour?: number;
  /** Why the cost is not known in full: no catalog, or no price for part of the selection. */
  readonly unchecked?: string;
}

/**
 * The cost the `maxCostPerHour` limit is checked against (the cost hover's prices), for the rule and for
 * `policy show`'s headroom alike; undefined for a body whose compute or counts cannot be read (its own errors
 * say why: a price made up from it would be fiction).
 */
export function costAtMax(body: unknown, catalog: Catalog | undefined): CostAtMax | undefined {
  if (!catalog) return { unchecked: 'no catalog (sign in, or give a catalog snapshot)' };
  const cost = specCost(body, catalog);
  if (!cost) return undefined;
  const perHour = cost.atMax ? { perHour: cost.atMax.high } : {};
  if (!cost.atMax || cost.unpriced.length > 0) return { ...perHour, unchecked: `the catalog has no price for ${listed(cost.unpriced)}` };
  return perHour;
}

interface AllowedValues {
  readonly code: string;
  readonly limit: 'allowedPools' | 'allowedCpuFlavors' | 'allowedDataCenters' | 'allowedTypes';
  readonly description: string;
  /** What a value is called in a message (`gpu pool`). */
  readonly field: string;
  /** The values of the list (or the one value) with their paths; undefined when the body has no such list. */
  readonly read: (body: Record<string, unknown>) => { value: unknown; path: (string | number)[] }[] | undefined;
}

/** A rule kind that lets through only the listed values of one list (or one value) in the body. */
function allowedValues({ code, limit, description, field, read }: AllowedValues): PolicyRuleKind {
  return {
    code,
    limit,
    description,
    check(body, rule) {
      const allowed = rule[limit];
      if (allowed === undefined) return [];
      const values = read(body);
      if (values === undefined) return [];
      return values.flatMap(({ value, path }) =>
        typeof value !== 'string' || allowed.includes(value)
          ? []
          : [{ path, target: 'value' as const, message: `${field} ${value} is not allowed; allowed: ${listed(allowed)}` }],
      );
    },
  };
}

const items = (list: unknown, path: string[], key?: string): { value: unknown; path: (string | number)[] }[] | undefined =>
  Array.isArray(list)
    ? list.map((item: unknown, index) => ({
        value: key === undefined ? item : record(item)?.[key],
        path: key === undefined ? [...path, index] : [...path, index, key],
      }))
    : undefined;

const allowedPools = allowedValues({
  code: 'policy-allowed-pools',
  limit: 'allowedPools',
  description: "Each of `gpu.pools` is one of the rule's `allowedPools`.",
  field: 'gpu pool',
  read: (body) => items(record(body.gpu)?.pools, ['gpu', 'pools']),
});

const allowedCpuFlavors = allowedValues({
  code: 'policy-allowed-cpu-flavors',
  limit: 'allowedCpuFlavors',
  description: "Each `cpu[].id` is one of the rule's `allowedCpuFlavors`.",
  field: 'CPU flavor',
  read: (body) => items(body.cpu, ['cpu'], 'id'),
});

const dataCenters = allowedValues({
  code: 'policy-allowed-data-centers',
  limit: 'allowedDataCenters',
  description:
    "`dataCenterIds` is set, and each of them is one of the rule's `allowedDataCenters` (without `dataCenterIds` the service may place workers anywhere).",
  field: 'data center',
  read: (body) => items(body.dataCenterIds, ['dataCenterIds']),
});

const allowedDataCenters: PolicyRuleKind = {
  ...dataCenters,
  check(body, rule, context) {
    const allowed = rule.allowedDataCenters;
    if (allowed === undefined || body.dataCenterIds !== undefined) return dataCenters.check(body, rule, context);
    return [
      {
        path: ['dataCenterIds'],
        target: 'key',
        message: `dataCenterIds is not set, so workers may run in any data center; allowed: ${listed(allowed)}`,
      },
    ];
  },
};

const allowedTypes = allowedValues({
  code: 'policy-allowed-types',
  limit: 'allowedTypes',
  description: "`type` is one of the rule's `allowedTypes`.",
  field: 'type',
  read: (body) => [{ value: body.type, path: ['type'] }],
});

const pinnedImage: PolicyRuleKind = {
  code: 'policy-pinned-image',
  limit: 'pinnedImage',
  description: "With the rule's `pinnedImage: true`, `image` has a tag other than `latest`, or a digest.",
  check(body, rule) {
    const image = body.image;
    if (rule.pinnedImage !== true || typeof image !== 'string' || image === '' || unpinnedImage(image) === undefined) return [];
    return [
      { path: ['image'], target: 'value', message: `image ${image} is not pinned; a version tag (not latest) or a digest is required` },
    ];
  },
};

const requiredEnv: PolicyRuleKind = {
  code: 'policy-required-env',
  limit: 'requiredEnv',
  description: "`env` sets each variable of the rule's `requiredEnv`.",
  check(body, rule) {
    const required = rule.requiredEnv;
    if (required === undefined) return [];
    const env = record(body.env);
    return required
      .filter((name) => env === undefined || !Object.hasOwn(env, name) || env[name] === null)
      .map((name) => ({ path: ['env'], target: 'key' as const, message: `env ${name} is not set; required: ${listed(required)}` }));
  },
};

/** Every rule kind, in the order their findings are reported. */
export const POLICY_RULE_KINDS: readonly PolicyRuleKind[] = [
  maxWorkers,
  maxCost,
  allowedPools,
  allowedCpuFlavors,
  allowedDataCenters,
  allowedTypes,
  pinnedImage,
  requiredEnv,
];
