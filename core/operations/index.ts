/**
 * The use cases, one module each, that every front-end runs: the editor's commands and the CLI's
 * ask, render and report; what is checked, planned, applied and bound is decided here. No `vscode`,
 * no stdout, no prompts: progress and confirmation arrive through callbacks, results as values.
 */
export { checkSpec, fetchCatalogData, fetchLiveCatalog, hasErrors } from './checkSpec';
export type { CatalogSource, CheckedDocument, CheckSpecInput, CheckSpecResult, OverlayFacts } from './checkSpec';
export {
  ENVIRONMENT_NAME,
  environmentOfSpecFile,
  environmentSettings,
  filesForEnvironment,
  overlayEnvironment,
  protectedImageRefusal,
  specFileOnDisk,
  specForEnvironment,
} from './environments';
export type {
  DeployEnvironment,
  EnvironmentSettingsResult,
  EnvironmentSpecResult,
  OverlayEnvironment,
  OverlayEnvironmentResult,
} from './environments';
export { decideNamesakes, namesakeNote, planDeploy, UNTRACKED_NOTE } from './planDeploy';
export type { EndpointSummary, NamesakeDecision, NamesakePolicy, PlanDeployInput, PlanDeployResult, PlanTarget } from './planDeploy';
export { applyDeploy, needsApplying } from './applyDeploy';
export { changeOrigins, environmentReach, overlayChangeOrigins, reachLines, reachOf } from './reach';
export type { ChangeOrigins, EnvironmentReach } from './reach';
export type { ApplyDeployInput, ApplyDeployResult } from './applyDeploy';
export { bindSpec } from './bindSpec';
export type { BindSpecInput, BindSpecResult } from './bindSpec';
export { pullSpec, specTextOf } from './pullSpec';
export type { PullSpecInput, PullSpecResult } from './pullSpec';
export { forgetBinding, noteOnRelease, readSpecBindings, recordRelease, saveBinding } from './specBindings';
export type { SaveBindingResult, SpecBindingsResult, SpecDocumentRef, SpecLocation } from './specBindings';
export { deleteOrphanedEndpoint, forgetOrphan, orphanedBindings } from './orphans';
export type {
  DeleteOrphanedEndpointInput,
  DeleteOrphanedEndpointResult,
  ForgetOrphanResult,
  OrphanedBinding,
  OrphanedBindingsResult,
} from './orphans';
export { followWorkerLogs, MAX_LOG_LINES, readWorkerLogs } from './workerLogs';
export type {
  FollowStatus,
  FollowWorkerLogsHandlers,
  FollowWorkerLogsInput,
  LogsClient,
  ReadWorkerLogsInput,
  ReadWorkerLogsResult,
  WorkerLogLine,
} from './workerLogs';
export { cancelJob, followJob, getJob, isAborted, isTerminal, retryJob, runJob, waitingNote, whyJobWaits } from './jobs';
export type { FollowPace, JobHandlers, JobProgress, JobRef, JobResult, JobsClient, JobSnapshot, RunJobInput } from './jobs';
export { billingRequestOf, queryBilling } from './billing';
export type { BillingRequestResult, QueryBillingInput, QueryBillingKind, QueryBillingResult } from './billing';
export { budgetDelayMs, readRollout, readRolloutState, ROLLOUT_DEFAULTS, rolloutProgress, watchRollout } from './rollout';
export type { RolloutOutcome, RolloutProgress, RolloutState, WatchRolloutInput } from './rollout';
export { noteJobCompleted, readinessOfRelease, recordedReadiness } from './readiness';
export { CAUSE_LOG_LINES, causeMessage, endpointNotServing, explainCrash, notServingCause, withAlternatives } from './notServing';
export type {
  CrashLoopingCause,
  EndpointNotServingOptions,
  NoCapacityCause,
  NotServingCause,
  NotServingClient,
  NotServingFacts,
  StartingCause,
} from './notServing';
export { planRollback, unknownFieldsNote } from './rollback';
export type { PlanRollbackInput, PlanRollbackResult } from './rollback';
export { smokeCheck } from './smoke';
export type { SmokeCheckInput, SmokeOutcome } from './smoke';
export { recordSmoke } from './releaseSmoke';
export type { RecordSmokeInput } from './releaseSmoke';
export { applyPromotion, DEFAULT_PROMOTED_FIELDS, planPromotion, releaseName, verificationLine } from './promote';
export type {
  ApplyPromotionResult,
  PlanPromotionInput,
  PromotionFiles,
  PromotedValue,
  Promotion,
  PromotionRefusal,
  PromotionSource,
} from './promote';
