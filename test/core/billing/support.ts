/**
 * Billing tests run against the real emulator over HTTP, started from a state file that holds a
 * known usage ledger (the emulator's own persisted format), so every amount below can be summed
 * by hand: two endpoints, three workers, a GPU type and a CPU flavor, spend spread over hours,
 * days, weeks and months, plus spend yesterday and in the current hour for windows relative to now.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withEmulator, type Emulator } from '../api/support';
import type { ApiClient, ApiClientConfig } from '../../../core/api';

export { TEST_KEY } from '../api/support';

export const GPU_4090 = 'NVIDIA GeForce RTX 4090';
const HOUR = 3600_000;
const at = (iso: string): number => Date.parse(iso);

/** The hour `now` falls in, and the same hour a day earlier. */
export const currentHour = (): number => Math.floor(Date.now() / HOUR) * HOUR;

function usage(
  endpointId: string,
  workerId: string,
  resourceId: string,
  hourStart: number,
  amounts: { gpu?: number; cpu?: number; disk?: number; fee?: number },
) {
  return {
    endpointId,
    workerId,
    resourceId,
    hourStart,
    gpuAmount: amounts.gpu ?? 0,
    cpuAmount: amounts.cpu ?? 0,
    diskAmount: amounts.disk ?? 0,
    feeAmount: amounts.fee ?? 0,
  };
}

/**
 * The ledger. In the fixed May 2026 window (Monday 4 May):
 *   ep_alpha: w_a1 4 May 10:00 GPU 1.00 + disk 0.10; w_a2 4 May 11:00 GPU 2.00; w_a1 5 May 03:00 GPU 0.50; w_a1 1 June GPU 4.00
 *   ep_beta:  w_b1 (cpu3c) 4 May 10:00 CPU 0.25 + fee 0.05; w_b1 12 May 00:00 CPU 0.75
 * Relative to now: ep_alpha w_a1 GPU 3.00 24 h before the current hour; ep_beta w_b1 CPU 1.00 in the current hour.
 * Volumes: vol_std STANDARD 100 GB for 24 h from 4 May 00:00 (100 × 0.07 / 730 × 24 = 0.230137);
 *          vol_hp HIGH_PERFORMANCE 50 GB for 6 h from 4 May 12:00 (50 × 0.14 / 730 × 6 = 0.057534).
 */
export function ledgerState(now = currentHour()) {
  return {
    formatVersion: 1,
    endpoints: [],
    releases: {},
    templates: [],
    networkVolumes: [],
    registries: [],
    usage: [
      usage('ep_alpha', 'w_a1', GPU_4090, at('2026-05-04T10:00:00Z'), { gpu: 1, disk: 0.1 }),
      usage('ep_alpha', 'w_a2', GPU_4090, at('2026-05-04T11:00:00Z'), { gpu: 2 }),
      usage('ep_alpha', 'w_a1', GPU_4090, at('2026-05-05T03:00:00Z'), { gpu: 0.5 }),
      usage('ep_alpha', 'w_a1', GPU_4090, at('2026-06-01T00:00:00Z'), { gpu: 4 }),
      usage('ep_beta', 'w_b1', 'cpu3c', at('2026-05-04T10:00:00Z'), { cpu: 0.25, fee: 0.05 }),
      usage('ep_beta', 'w_b1', 'cpu3c', at('2026-05-12T00:00:00Z'), { cpu: 0.75 }),
      usage('ep_alpha', 'w_a1', GPU_4090, now - 24 * HOUR, { gpu: 3 }),
      usage('ep_beta', 'w_b1', 'cpu3c', now, { cpu: 1 }),
    ],
    volumeUsage: [
      { volumeId: 'vol_std', type: 'STANDARD', size: 100, from: at('2026-05-04T00:00:00Z'), to: at('2026-05-05T00:00:00Z') },
      { volumeId: 'vol_hp', type: 'HIGH_PERFORMANCE', size: 50, from: at('2026-05-04T12:00:00Z'), to: at('2026-05-04T18:00:00Z') },
    ],
  };
}

/** The emulator started on the ledger; its state file lives in a temp folder removed afterwards. */
export async function withLedger<T>(fn: (emu: Emulator, api: (extra?: Partial<ApiClientConfig>) => ApiClient) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'es-billing-'));
  const statePath = join(dir, 'state.json');
  writeFileSync(statePath, JSON.stringify(ledgerState()));
  try {
    return await withEmulator({ statePath }, fn);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Sums compared to hand-computed values: the emulator rounds each amount to 1e-6. */
export function near(actual: number, expected: number, what: string, tolerance = 2e-6): void {
  if (Math.abs(actual - expected) > tolerance) throw new Error(`${what}: expected ${expected}, got ${actual}`);
}
