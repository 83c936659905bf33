import { LEGACY_FIELDS } from '../migrate';
import { ownValue } from '../ownData';
import { BOTH_MODES, type RuleFinding, type SpecRule } from './rule';

/** REST v1 retired on 2026-11-15; its bodies (and GraphQL-era fields) are recognised and converted. */
export const legacyFields: SpecRule = {
  code: 'legacy-field',
  severity: 'error',
  status: 422,
  modes: BOTH_MODES,
  description: 'REST v1 and GraphQL fields (`gpuTypeIds`, `workersMin`, `scalerType`, `imageName`, ...) are not part of v2.',
  check(spec) {
    const findings: RuleFinding[] = [];
    for (const key in spec) {
      if (!Object.hasOwn(spec, key)) continue;
      // allowedCudaVersions is a v2 field too (inside gpu): cuda-outside-gpu speaks about it.
      const replacement = ownValue(LEGACY_FIELDS, key);
      if (replacement === undefined || key === 'allowedCudaVersions') continue;
      findings.push({
        path: [key],
        target: 'key',
        message: `${key} is a REST v1/GraphQL field (v1 retired on 2026-11-15); v2 uses ${replacement}: convert the spec with the quick fix or endpoint-studio migrate`,
      });
    }
    return findings;
  },
};
