/**
 * The deploy engine: compare a spec with its live endpoint, plan the create or the PATCH, apply
 * it through the API client with read-back verification, and remember which endpoint each spec
 * document deployed to. Pure where it can be; the editor and the CLI drive it.
 */
export { commandOf, effectiveLive, effectiveSpec, liveAsSpec } from './effective';
export type { EffectiveField, EffectiveSpec, Spec } from './effective';
export { diffEffective, driftBetween, sameValue, stableJson } from './diff';
export type { Change } from './diff';
export { planDeployment, unpinnedImage } from './plan';
export type { DeploymentPlan, PlanProblem } from './plan';
export { configurationAt } from './rollback';
export { restartsWorkers, WORKER_RESTART_FIELDS } from './workerRestart';
export type { ConfigurationAtResult } from './rollback';
export { planCost, planCostLine } from './planCost';
export type { PlanCost } from './planCost';
export { renderChange, renderPlan, renderValue } from './render';
export { renderPlanMarkdown, renderPlansMarkdown, renderUnplannedMarkdown } from './renderMarkdown';
export type { MarkdownSection, MarkdownSectionOptions, PlanAction } from './renderMarkdown';
export { applyPlan, failureOf, problemsOf } from './apply';
export type { ApplyAction, ApplyFailure, ApplyOptions, ApplyResult, ApplyStep, MappedProblem } from './apply';
export {
  BINDINGS_DIR,
  BINDINGS_FILE,
  bindingsPath,
  findWorkspaceRoot,
  getBinding,
  readBindings,
  repairBinding,
  serializeBindings,
  specKey,
  updateBindings,
  withBinding,
  withoutBinding,
  writeBindings,
} from './bindings';
export type { Binding, BindingCheck, BindingStore, DeployedRelease, ReadBindingsResult, ReleaseReadiness, ReleaseSmoke } from './bindings';
