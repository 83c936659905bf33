/**
 * What the team policy costs a person typing: the typical spec typed in a folder whose
 * `.endpoint-studio/policy.yaml` holds 10 rules, beside the same spec typed in a folder without one, each server
 * its own process, taking turns window by window. The spec keeps every rule, so the answers of both are held
 * to a check of their text alone: the policy adds its work to each keystroke, and no finding.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { EditCase } from './fixtures';
import { startOurServer } from './measure';
import { ms, row, side } from './table';
import { typeTogether, type KeystrokeFigures, type TypingPlan } from './typing';

/** The policy adds at most this to a keystroke's p95 (the product's target). */
export const POLICY_P95_ADDED_TARGET_MS = 1;

/**
 * Ten rules a team might write, each limit one the typical spec (bench/fixtures.ts) keeps, with a severity
 * and an exception for another file: every rule is evaluated on every keystroke, none finds anything.
 */
export const TEN_RULE_POLICY = `rules:
  - name: workers
    maxWorkers: 5
  - name: gpu-pools
    allowedPools: [ADA_24, AMPERE_24, ADA_48_PRO, AMPERE_48]
  - name: cpu-flavors
    allowedCpuFlavors: [cpu3c, cpu3g, cpu5c]
  - name: data-centers
    allowedDataCenters: [EU-RO-1, US-TX-3, US-GA-1]
  - name: endpoint-types
    allowedTypes: [QUEUE, LOAD_BALANCER]
  - name: pinned-images
    pinnedImage: true
  - name: logging
    requiredEnv: [LOG_LEVEL]
  - name: model
    requiredEnv: [MODEL_ID, HF_HOME]
  - name: small-fleets
    maxWorkers: 8
    allowedTypes: [QUEUE]
  - name: regions
    allowedDataCenters: [EU-RO-1, US-TX-3]
    allowedPools: [ADA_24, AMPERE_24]
severity:
  timeout-units: error
exceptions:
  - { file: legacy.endpoint.yaml, code: policy-pinned-image, reason: 'pinned by digest at deploy' }
`;

/** `c` typed by ours into the same spec twice: in a folder without a policy, and in one with TEN_RULE_POLICY. */
export async function typeWithPolicy(
  c: EditCase,
  cacheDir: string,
  plan: TypingPlan,
): Promise<Record<'without' | 'with', KeystrokeFigures>> {
  const root = mkdtempSync(join(tmpdir(), 'es-bench-policy-'));
  try {
    const without = join(root, 'without', 'typed.endpoint.yaml');
    const policed = join(root, 'with', 'typed.endpoint.yaml');
    mkdirSync(join(root, 'without'));
    mkdirSync(join(root, 'with', '.endpoint-studio'), { recursive: true });
    writeFileSync(without, c.text);
    writeFileSync(policed, c.text);
    writeFileSync(join(root, 'with', '.endpoint-studio', 'policy.yaml'), TEN_RULE_POLICY);
    const ours = (): ReturnType<typeof startOurServer> => startOurServer(cacheDir, {}, true);
    const figures = await typeTogether(
      [
        { name: 'without', start: ours, uri: pathToFileURL(without).href, verify: true },
        { name: 'with', start: ours, uri: pathToFileURL(policed).href, verify: true },
      ],
      c,
      plan,
    );
    return { without: figures.without, with: figures.with };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The two side by side, and what the policy adds to a keystroke's p95 and CPU. */
export function policyRows(c: EditCase, { without, with: policed }: Record<'without' | 'with', KeystrokeFigures>): void {
  const name = `${c.name}, with a 10-rule policy`;
  const latency = (f: KeystrokeFigures): string => `${ms(f.p50).replace(' ms', '')} / ${ms(f.p95)}`;
  const added = policed.p95 - without.p95;
  row(
    'keystrokes',
    `${name}: keystroke → its diagnostics, p50 / p95, without; with the policy; p95 added`,
    `${[without, policed].map(latency).join('; ')}; ${added >= 0 ? '+' : ''}${ms(added)}`,
    `≤ ${String(POLICY_P95_ADDED_TARGET_MS)} ms added`,
    added <= POLICY_P95_ADDED_TARGET_MS,
  );
  const cpuAdded = policed.cpuMsPerKeystroke - without.cpuMsPerKeystroke;
  row(
    'keystrokes',
    `${name}: server CPU per keystroke, without / with the policy; added (${String(Math.round(without.cpuMs / 10))} and ${String(Math.round(policed.cpuMs / 10))} ticks)`,
    `${side([without, policed].map((f) => ms(f.cpuMsPerKeystroke)))}; ${cpuAdded >= 0 ? '+' : ''}${ms(cpuAdded)}`,
  );
  row(
    'keystrokes',
    `${name}: answers unlike a check of their text alone, without / with the policy`,
    side([without, policed].map((f) => `${String(f.differing)} of ${String(f.verified)}`)),
    '0 unlike',
    without.differing + policed.differing === 0 && policed.verified > 0,
  );
  row(
    'keystrokes',
    `${name}: files read, listed or statted while typing, with the policy`,
    String(policed.fsCalls.length),
    'none',
    policed.fsCalls.length === 0,
  );
}
