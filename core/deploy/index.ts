/**
 * The deploy engine: compare a spec with its live endpoint, plan the create or the PATCH, apply
 * it through the API client with read-back verification, and remember which endpoint each spec
 * document deployed to. Pure where it can be; the editor and the CLI drive it.
 */
export { effectiveSpec, liveAsSpec } from './effective';
export type { Spec } from './effective';
export { diffEffective, driftBetween } from './diff';
export type { Change } from './diff';
export { planDeployment, unpinnedImage } from './plan';
export type { DeploymentPlan } from './plan';
export { configurationAt } from './rollback';
export { restartsWorkers, WORKER_RESTART_FIELDS } from './workerRestart';
export { renderPlan } from './render';
export { renderPlanMarkdown, renderPlansMarkdown, renderUnplannedMarkdown } from './renderMarkdown';
export { applyPlan } from './apply';
export type { ApplyFailure, ApplyResult, MappedProblem } from './apply';
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
export type { Binding, BindingStore, DeployedRelease } from './bindings';
