import { BOTH_MODES, record, type RuleFinding, type SpecRule } from './rule';
import type { JsonPath } from '../tree';

export const excludedTypesDistinct: SpecRule = {
  code: 'excluded-type-duplicate',
  severity: 'error',
  status: 422,
  modes: BOTH_MODES,
  description: '`gpu.excludedTypes` items are unique once surrounding whitespace is trimmed.',
  check(spec) {
    const excluded = record(spec.gpu)?.excludedTypes;
    if (!Array.isArray(excluded) || excluded.length < 2) return [];
    const findings: RuleFinding[] = [];
    const firstIndex = new Map<string, number>();
    for (let index = 0; index < excluded.length; index++) {
      const item: unknown = excluded[index];
      if (typeof item !== 'string') continue;
      const trimmed = item.trim();
      const earlier = firstIndex.get(trimmed);
      // Exact duplicates are the schema's `uniqueItems`; this catches the ones that differ only in whitespace.
      if (earlier !== undefined && excluded[earlier] !== item) {
        findings.push({
          path: ['gpu', 'excludedTypes', index],
          target: 'value',
          message: `excludedTypes lists ${JSON.stringify(trimmed)} twice (whitespace is trimmed); remove one`,
        });
      }
      if (earlier === undefined) firstIndex.set(trimmed, index);
    }
    return findings;
  },
};

const LISTS_OF_IDS: JsonPath[] = [['gpu', 'pools'], ['dataCenterIds'], ['networkVolumes']];

export const duplicateIds: SpecRule = {
  code: 'duplicate-id',
  severity: 'warning',
  modes: BOTH_MODES,
  description: '`gpu.pools`, `dataCenterIds` and `networkVolumes` name each identifier once.',
  check(spec) {
    const findings: RuleFinding[] = [];
    for (let p = 0; p < LISTS_OF_IDS.length; p++) {
      const path = LISTS_OF_IDS[p];
      const list = path.length === 2 ? record(spec[path[0] as string])?.[path[1] as string] : spec[path[0] as string];
      if (!Array.isArray(list) || list.length < 2) continue;
      const seen = new Set<unknown>();
      for (let index = 0; index < list.length; index++) {
        const id: unknown = list[index];
        if (seen.has(id)) findings.push({ path: [...path, index], target: 'value', message: `listed twice: ${JSON.stringify(id)}` });
        seen.add(id);
      }
    }
    return findings;
  },
};
