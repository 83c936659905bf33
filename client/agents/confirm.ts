/**
 * What the editor shows before an agent tool runs: a one-line progress message for every tool, and
 * for the two that change the service a confirmation with exactly what will happen (the plan's
 * change table and cost line for a deploy, the input for a job). Reading a plan token's record does
 * not use the token up and nothing here calls the service: preparing must never deploy or run.
 */
import { relative } from 'node:path';
import type { PlanTokenStore } from '../../agents/planTokens';

/** The editor's name of a catalogue tool is this prefix and the tool's name: `endpointStudio_validate_spec`. */
export const TOOL_PREFIX = 'endpointStudio_';

export interface AgentToolPreparation {
  readonly invocationMessage: string;
  readonly confirmationMessages?: { readonly title: string; readonly message: string };
}

/** Characters of a job's input shown in the confirmation. */
const MAX_INPUT_SHOWN = 2000;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

export function prepareAgentTool(
  name: string,
  input: Record<string, unknown>,
  plans: PlanTokenStore,
  workspaceRoot: string,
): AgentToolPreparation {
  switch (name) {
    case 'deploy_spec':
      return prepareDeploy(text(input.planToken), plans, workspaceRoot);
    case 'rollback_endpoint':
      return prepareRollback(text(input.planToken), plans);
    case 'run_job':
      return prepareJob(input);
    default:
      return { invocationMessage: progressMessage(name, input) };
  }
}

function prepareDeploy(token: string | undefined, plans: PlanTokenStore, workspaceRoot: string): AgentToolPreparation {
  const record = token === undefined ? undefined : plans.peek(token);
  if (!record || record.kind === 'rollback')
    return {
      invocationMessage: 'Deploying a planned spec',
      confirmationMessages: {
        title: 'Deploy a spec?',
        message:
          'The plan token was already used, has expired or is unknown, so the deploy will be refused: nothing will be sent. Plan again to see what would change.',
      },
    };
  const file = relative(workspaceRoot, record.specPath) || record.specPath;
  const document = record.document > 0 ? ` (document ${record.document})` : '';
  return {
    invocationMessage: `Deploying ${file}${document}`,
    confirmationMessages: {
      title: `Deploy ${file}${document}?`,
      message: `${record.planText}\nExactly this plan is applied, then the endpoint is read back and checked. If the spec file or the live endpoint changed since the plan was made, nothing is sent.`,
    },
  };
}

function prepareRollback(token: string | undefined, plans: PlanTokenStore): AgentToolPreparation {
  const record = token === undefined ? undefined : plans.peek(token);
  if (record?.kind !== 'rollback')
    return {
      invocationMessage: 'Rolling an endpoint back',
      confirmationMessages: {
        title: 'Roll an endpoint back?',
        message:
          'The plan token is not a live rollback plan (used, expired, unknown or a deploy plan), so the rollback will be refused: nothing will be sent. Plan the rollback again to see what would change.',
      },
    };
  return {
    invocationMessage: `Rolling endpoint ${record.endpointId} back to release ${record.toVersion}`,
    confirmationMessages: {
      title: `Roll endpoint ${record.endpointId} back to release ${record.toVersion}?`,
      message: `${record.planText}\nExactly this plan is applied as a new release, then the endpoint is read back and checked. If the endpoint changed since the plan was made, nothing is sent. Spec files are not changed.`,
    },
  };
}

function prepareJob(input: Record<string, unknown>): AgentToolPreparation {
  const endpointId = text(input.endpointId) ?? '(no endpoint)';
  const json = JSON.stringify(input.input) as string | undefined;
  const shown = json === undefined ? '(none)' : json.length > MAX_INPUT_SHOWN ? `${json.slice(0, MAX_INPUT_SHOWN)}…` : json;
  const how = input.sync === true ? 'with runsync, waiting up to 60 s for the result' : 'queued; follow it with get_job';
  return {
    invocationMessage: `Running a job on endpoint ${endpointId}`,
    confirmationMessages: {
      title: `Run a job on endpoint ${endpointId}?`,
      message: `The job runs on your workers and is billed.\ninput: ${shown}\n${how}`,
    },
  };
}

function progressMessage(name: string, input: Record<string, unknown>): string {
  const subject = text(input.path) ?? text(input.endpointId) ?? text(input.query);
  const what: Record<string, string> = {
    validate_spec: 'Validating',
    estimate_cost: 'Estimating the cost of',
    search_catalog: 'Searching the catalog for',
    plan_deploy: 'Planning the deploy of',
    watch_rollout: 'Watching the rollout of',
    plan_rollback: 'Planning the rollback of',
    plan_promotion: 'Planning the promotion of',
    list_endpoints: 'Listing the endpoints',
    get_endpoint: 'Reading endpoint',
    read_worker_logs: 'Reading the worker logs of',
    get_job: 'Reading a job of',
    billing_summary: 'Reading the billing history',
  };
  const verb = what[name] ?? `Running ${name}`;
  return subject === undefined || name === 'list_endpoints' || name === 'billing_summary' ? verb : `${verb} ${subject}`;
}
