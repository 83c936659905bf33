import { computeChoice } from './compute';
import { argsJsonShape, argsMatchCommand, envValuesAreStrings, imageRequired, loadBalancerEnv, portFormat } from './container';
import { vcpuPowerOfTwo } from './cpu';
import { cudaAllowedWithMin, cudaOutsideGpu } from './cuda';
import { finiteNumbers, responseOnlyFields, timeoutInMilliseconds } from './fields';
import { duplicateIds, excludedTypesDistinct } from './gpu';
import { idleTimeoutNotApplicable, scalerMatchesType } from './scaling';
import { workersMaxZero, workersMinAboveMax } from './workers';
import { legacyFields } from './legacy';
import type { SpecRule } from './rule';

/** Every cross-field rule, in the order their findings are reported. */
export const SPEC_RULES: readonly SpecRule[] = [
  legacyFields,
  computeChoice,
  imageRequired,
  scalerMatchesType,
  idleTimeoutNotApplicable,
  cudaAllowedWithMin,
  cudaOutsideGpu,
  excludedTypesDistinct,
  vcpuPowerOfTwo,
  argsJsonShape,
  argsMatchCommand,
  portFormat,
  envValuesAreStrings,
  responseOnlyFields,
  finiteNumbers,
  workersMinAboveMax,
  workersMaxZero,
  timeoutInMilliseconds,
  duplicateIds,
  loadBalancerEnv,
];
