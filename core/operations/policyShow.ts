/**
 * `policy show`: which rules of the team policy judge a spec (or any spec of an environment), each with its
 * limits, and how much of a cost limit the spec leaves unspent at `workers.max`. The spec is checked by the
 * workspace's owner like any other, so the policy, the environment and the body are the ones `validate` and a
 * deploy use, and the cost is priced by the same function the `maxCostPerHour` rule is judged with.
 */
import { join, resolve } from 'node:path';
import { findWorkspaceRoot } from '../deploy/bindings';
import type { Catalog } from '../endpointSpec/catalog/catalog';
import { DISK_FILE_VIEW } from '../environments/overlays';
import { costAtMax, findPolicy, rulesFor, type PolicyFile, type PolicyRule } from '../policy';
import { checkSpecFile } from './environments';

/** A rule that applies, with the limits it sets (the policy file's keys and values). */
export interface AppliedRule {
  readonly name: string;
  /** The environments it is limited to; absent: every spec. */
  readonly environments?: readonly string[];
  readonly limits: Readonly<Record<string, unknown>>;
}

/** A cost limit against the spec's cost at workers.max; `perHour` and `headroom` absent when it was not checked. */
export interface CostHeadroom {
  readonly rule: string;
  readonly document: number;
  /** USD an hour. */
  readonly limit: number;
  readonly perHour?: number;
  /** `limit - perHour`: negative when the spec is over the limit. */
  readonly headroom?: number;
  /** Why the cost could not be checked (in full): no catalog, or no price for part of the selection. */
  readonly unchecked?: string;
}

export interface PolicyShown {
  /** The spec file (absolute); absent when an environment was asked about without a spec. */
  readonly file?: string;
  /** The environment the spec deploys to, or the one asked about. */
  readonly environment?: string;
  /** The policy over it, from the workspace root; absent when there is none. */
  readonly policy?: { readonly path: string; readonly broken: boolean; readonly problems: readonly string[] };
  readonly rules: readonly AppliedRule[];
  readonly cost: readonly CostHeadroom[];
}

export interface PolicyShowInput {
  /** Spec files (an overlay for an environment's spec); none: the policy over `folder`. */
  readonly files: readonly string[];
  /** Without files: the rules for this environment (every rule when absent). */
  readonly environment?: string;
  /** The current directory: where the policy is looked for without files, and a root a base may lie in. */
  readonly folder: string;
  /** The prices; without them each cost limit says it could not be checked. */
  readonly catalog?: Catalog;
}

export function policyShow(input: PolicyShowInput): Promise<PolicyShown[]> {
  if (input.files.length === 0) return Promise.resolve([policyOfFolder(input.folder, input.environment)]);
  return Promise.all(input.files.map((file) => policyOfSpec(file, input)));
}

async function policyOfSpec(path: string, input: PolicyShowInput): Promise<PolicyShown> {
  const file = resolve(path);
  const checked = await checkSpecFile(file, DISK_FILE_VIEW.read(file) ?? '', input.folder, input);
  const environment = checked.overlay?.environment;
  const base = { file, ...(environment !== undefined ? { environment } : {}), ...policyFacts(checked.policy) };
  const policy = checked.policy?.policy;
  if (!policy) return { ...base, rules: [], cost: [] };
  const rules = rulesFor(policy, environment);
  const cost = checked.documents
    .filter((d) => d.isSpec)
    .flatMap((d) => rules.flatMap((rule) => headroom(rule, d.index, d.body, input.catalog)));
  return { ...base, rules: rules.map(applied), cost };
}

/** The policy over the specs of `folder`: the rules of `environment`, or every rule. */
function policyOfFolder(folder: string, environment: string | undefined): PolicyShown {
  const here = resolve(folder);
  // The policy over a spec that would lie here: looked for up to the workspace root, as for a spec.
  const found = findPolicy(here, [here, findWorkspaceRoot(join(here, 'spec'))], DISK_FILE_VIEW).file;
  const base = { ...(environment !== undefined ? { environment } : {}), ...policyFacts(found) };
  const policy = found?.policy;
  if (!policy) return { ...base, rules: [], cost: [] };
  const rules = environment === undefined ? policy.rules : rulesFor(policy, environment);
  return { ...base, rules: rules.map(applied), cost: [] };
}

function policyFacts(found: PolicyFile | undefined): Pick<PolicyShown, 'policy'> {
  if (!found) return {};
  const problems = found.problems.map((p) => `line ${p.range.start.line + 1}: ${p.message}`);
  return { policy: { path: found.path, broken: found.policy === undefined, problems } };
}

function applied(rule: PolicyRule): AppliedRule {
  const { name, environments, ...limits } = rule;
  return { name, ...(environments ? { environments } : {}), limits };
}

function headroom(rule: PolicyRule, document: number, body: unknown, catalog: Catalog | undefined): CostHeadroom[] {
  const limit = rule.maxCostPerHour;
  if (limit === undefined) return [];
  const cost = costAtMax(body, catalog);
  const at = { rule: rule.name, document, limit };
  if (!cost) return [{ ...at, unchecked: 'the spec has no gpu or cpu selection and worker counts to price' }];
  const priced = cost.perHour === undefined ? {} : { perHour: cost.perHour, headroom: round(limit - cost.perHour) };
  return [{ ...at, ...priced, ...(cost.unchecked !== undefined ? { unchecked: cost.unchecked } : {}) }];
}

const round = (usd: number): number => Math.round(usd * 10_000) / 10_000;
