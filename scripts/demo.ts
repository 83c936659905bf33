/**
 * The workspace side of `npm start`'s demo. The emulator seeds the demo state itself
 * (`startEmulator({ demo: true })`, emulator/demo); this binds the workspace's demo specs to the
 * endpoints it seeded, so a newcomer's first spec reads "Deployed as …" and a deploy of an edit
 * updates that endpoint rather than creating a namesake. The staging and prod overlays of sdxl-worker are
 * bound each to its own endpoint, as two environments of one spec are.
 */
import { existsSync, rmSync } from 'node:fs';
import type { ApiClient } from '../core/api';
import { bindSpec } from '../core/operations';
import { DEMO_ENDPOINTS } from '../emulator/demo/index';

/** The example spec files the demo deploys, in `examples/`. */
export const DEMO_SPECS = DEMO_ENDPOINTS.map((demo) => demo.file);

/** Set to 1 (or pass `--keep-state`) to start `npm start` on the state the previous run left. */
export const KEEP_STATE_VARIABLE = 'ENDPOINT_STUDIO_KEEP_STATE';

/** Whether the previous run's emulator state is kept: `--keep-state`, or the variable set to anything but blank, 0 or false. */
export function keepStateRequested(argv: readonly string[], env: NodeJS.ProcessEnv): boolean {
  const value = env[KEEP_STATE_VARIABLE]?.trim().toLowerCase();
  return argv.includes('--keep-state') || (value !== undefined && value !== '' && value !== '0' && value !== 'false');
}

/** Removes the previous run's state unless it is kept, so the emulator seeds the demo afresh. */
export function prepareState(statePath: string, keep: boolean): 'kept' | 'fresh' {
  if (keep && existsSync(statePath)) return 'kept';
  rmSync(statePath, { force: true });
  return 'fresh';
}

/** Binds each demo spec of the workspace to its endpoint, so it opens as "Deployed as …" and a deploy updates it. */
export async function bindDemo(api: ApiClient, workspace: string, seeded: Readonly<Record<string, string>>): Promise<void> {
  for (const [file, endpointId] of Object.entries(seeded)) {
    const bound = await bindSpec({ client: api, document: { root: workspace, key: file, documentIndex: 0 }, endpointId });
    if (!bound.ok) throw new Error(`cannot bind ${file} to ${endpointId}: ${bound.message}`);
  }
}
