/**
 * The demo state `npm start` opens on: the example endpoints on the emulator, and the workspace's
 * demo specs bound to them, so a newcomer's first spec reads "Deployed as …" and a deploy of an edit
 * updates that endpoint rather than creating a namesake.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { ApiClient } from '../core/api';
import { bindSpec } from '../core/operations';
import { EXAMPLES_DIR } from './editor/paths';

export const DEMO_SPECS = ['sdxl-worker.endpoint.yaml', 'http-service.endpoint.json'];

/** The demo endpoints, created unless the kept state has them: spec file → endpoint id. */
export async function seedDemo(api: ApiClient): Promise<Map<string, string>> {
  const existing = new Map<string, string>();
  // The oldest endpoint of a name is the demo's, should the kept state hold several.
  for (const endpoint of (await api.serverless.list()).reverse()) existing.set(endpoint.name, endpoint.id);
  const seeded = new Map<string, string>();
  for (const file of DEMO_SPECS) {
    const text = readFileSync(join(EXAMPLES_DIR, file), 'utf8');
    const spec = (file.endsWith('.json') ? JSON.parse(text) : parseYaml(text)) as Record<string, unknown>;
    seeded.set(file, existing.get(String(spec.name)) ?? (await api.serverless.create(spec as never)).id);
  }
  return seeded;
}

/** Binds each demo spec of the workspace to its endpoint, so it opens as "Deployed as …" and a deploy updates it. */
export async function bindDemo(api: ApiClient, workspace: string, seeded: ReadonlyMap<string, string>): Promise<void> {
  for (const [file, endpointId] of seeded) {
    const bound = await bindSpec({ client: api, document: { root: workspace, key: file, documentIndex: 0 }, endpointId });
    if (!bound.ok) throw new Error(`cannot bind ${file} to ${endpointId}: ${bound.message}`);
  }
}
