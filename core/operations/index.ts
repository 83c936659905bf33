/**
 * The use cases, one module each, that every front-end runs: the editor's commands and the CLI's
 * ask, render and report; what is checked, planned, applied and bound is decided here. No `vscode`,
 * no stdout, no prompts: progress and confirmation arrive through callbacks, results as values.
 */
export { checkSpec, hasErrors } from './checkSpec';
export type { CatalogSource, CheckedDocument, CheckSpecInput, CheckSpecResult } from './checkSpec';
export {
  checkSpecFile,
  ENVIRONMENT_NAME,
  environmentOfSpecFile,
  environmentSettings,
  filesForEnvironment,
  overlayEnvironment,
  protectedImageRefusal,
  replacedLine,
  specFileOnDisk,
  specForEnvironment,
} from './environments';
export type { DeployEnvironment, OverlayEnvironment } from './environments';
export { decideNamesakes, planDeploy, UNTRACKED_NOTE } from './planDeploy';
export type { EndpointSummary, NamesakePolicy, PlanDeployResult } from './planDeploy';
export { applyDeploy, needsApplying, type ApplyDeployInput, type ApplyDeployResult } from './applyDeploy';
export { environmentReach, overlayChangeOrigins, reachLines, reachOf } from './reach';
export { bindSpec } from './bindSpec';
export { pullSpec } from './pullSpec';
export { forgetBinding, noteOnRelease, readSpecBindings, saveBinding, type SpecBindingsResult, type SpecDocumentRef } from './specBindings';
export { deleteOrphanedEndpoint, forgetOrphan, orphanedBindings, type OrphanedBinding } from './orphans';
export { followWorkerLogs, MAX_LOG_LINES, readWorkerLogs, type FollowStatus, type WorkerLogLine } from './workerLogs';
export { cancelJob, followJob, getJob, isAborted, isTerminal, retryJob, runJob, waitingNote, whyJobWaits } from './jobs';
export type { JobHandlers, JobProgress, JobResult, JobSnapshot, RunJobInput } from './jobs';
export { billingRequestOf, queryBilling, type QueryBillingInput } from './billing';
export { budgetDelayMs, readRollout, readRolloutState, ROLLOUT_DEFAULTS, rolloutProgress, watchRollout } from './rollout';
export type { RolloutOutcome, RolloutProgress, RolloutState } from './rollout';
export { readinessOfRelease, recordedReadiness } from './readiness';
export { endpointNotServing, notServingCause, type NotServingCause } from './notServing';
export { planRollback, type PlanRollbackResult } from './rollback';
export { smokeCheck, type SmokeOutcome } from './smoke';
export { recordSmoke } from './releaseSmoke';
export { applyPromotion, DEFAULT_PROMOTED_FIELDS, planPromotion, releaseName, verificationLine, type Promotion } from './promote';
