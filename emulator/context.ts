/** What every resource handler shares: the remembered state, ids, the simulation and the clock. */
import type { TemplateRecord } from './catalog/seed';
import { PUBLIC_TEMPLATES } from './catalog/seed';
import type { IdFactory } from './ids';
import type { Simulation } from './simulation/engine';
import type { EmulatorState, StoredEndpoint } from './state';

export interface EmulatorContext {
  readonly state: EmulatorState;
  readonly ids: IdFactory;
  readonly sim: Simulation;
  readonly now: () => number;
  /** Base URL of the job API, known only once its server listens. */
  jobsUrl(): string;
  /** Writes the state file if one is configured; cheap no-op otherwise. */
  persist(): void;
  /** Create fields accepted beyond the bundled schema (see EmulatorOptions.newerServiceFields). */
  readonly newerServiceFields: Readonly<Record<string, Record<string, unknown>>>;
}

export function findEndpoint(ctx: EmulatorContext, id: string): StoredEndpoint | undefined {
  return ctx.state.endpoints.find((e) => e.id === id);
}

/** The caller's own templates first, then the public catalog. */
export function findTemplate(ctx: EmulatorContext, id: string): TemplateRecord | undefined {
  return ctx.state.templates.find((t) => t.id === id) ?? PUBLIC_TEMPLATES.find((t) => t.id === id);
}
