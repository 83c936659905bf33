/**
 * What an edit reaches. A base edit changes every environment's merged body, and so production the next time prod
 * deploys, whatever that deploy is for. Against what each environment last deployed (its binding's recorded
 * release), this says which environments a base's next deploys would change and in which fields, and for any
 * change of an environment's body whether it comes from the base or from the environment's own overlay.
 */
import { resolve } from 'node:path';
import type { DeployedRelease } from '../deploy/bindings';
import { diffEffective } from '../deploy/diff';
import { effectiveSpec } from '../deploy/effective';
import { overlayOwns } from '../endpointSpec/overlay';
import { toServiceBody } from '../endpointSpec/validate';
import { diskWorkspace, environmentSettings } from './environments';
import { readSpecBindings } from './specBindings';

/** The fields of an environment's change, by where they come from. */
export interface ChangeOrigins {
  readonly fromBase: readonly string[];
  readonly fromOverlay: readonly string[];
}

export interface EnvironmentReach extends ChangeOrigins {
  readonly environment: string;
  /** The overlay's path. */
  readonly path: string;
  readonly protected: boolean;
  /**
   * `pending`: compared with what it last deployed; `not-deployed`: never deployed from here; `untracked`: its
   * binding recorded no release; `broken`: its overlay or the base does not check.
   */
  readonly status: 'pending' | 'not-deployed' | 'untracked' | 'broken';
}

/** Each environment of the base at `basePath`, in name order, with the changes its next deploy would make. */
export function environmentReach(basePath: string): EnvironmentReach[] {
  const environments = diskWorkspace().environmentsOf(resolve(basePath));
  return environments.map((environment) => {
    const bindings = readSpecBindings(environment.path);
    const settings = environmentSettings(environment.environment, environment.path);
    return reachOf(environment, bindings.ok ? bindings.binding(0) : undefined, settings.environment.protected);
  });
}

/** What one environment's next deploy would change, against the release its binding (if any) recorded. */
export function reachOf(
  environment: { readonly environment: string; readonly path: string; readonly patch: unknown; readonly merged?: Record<string, unknown> },
  binding: { readonly release?: DeployedRelease } | undefined,
  isProtected: boolean,
): EnvironmentReach {
  const reach = { environment: environment.environment, path: environment.path, protected: isProtected };
  const none = { fromBase: [], fromOverlay: [] };
  if (!environment.merged) return { ...reach, ...none, status: 'broken' };
  if (!binding) return { ...reach, ...none, status: 'not-deployed' };
  if (!binding.release) return { ...reach, ...none, status: 'untracked' };
  const changed = diffEffective(effectiveSpec(toServiceBody(environment.merged)), effectiveSpec(binding.release.body));
  return { ...reach, ...changeOrigins(environment.patch, changed), status: 'pending' };
}

/** The changes' fields split by who sets them: the overlay (its patch holds the field, or replaced an ancestor) or the base. */
function changeOrigins(patch: unknown, changes: readonly { path: string; segments: readonly (string | number)[] }[]): ChangeOrigins {
  const fromOverlay = changes.filter((c) => overlayOwns(patch, c.segments)).map((c) => c.path);
  return { fromBase: changes.map((c) => c.path).filter((path) => !fromOverlay.includes(path)), fromOverlay };
}

/** The origins of an overlay's plan changes, from the overlay's own values on disk. */
export function overlayChangeOrigins(
  overlayPath: string,
  changes: readonly { path: string; segments: readonly (string | number)[] }[],
): ChangeOrigins | undefined {
  const overlay = diskWorkspace().check(resolve(overlayPath)).overlay;
  const data = overlay?.documents.at(0)?.data;
  if (!overlay || typeof data !== 'object' || data === null) return undefined;
  return changeOrigins(data, changes);
}

/** `prod (protected): 1 change pending from the base (scaling.queueDelay)`, a line for each environment. */
export function reachLines(reaches: readonly EnvironmentReach[]): string[] {
  return reaches.map((reach) => {
    const name = `${reach.environment}${reach.protected ? ' (protected)' : ''}`;
    if (reach.status !== 'pending') return `${name}: ${REACH_STATUS[reach.status]}`;
    const count = reach.fromBase.length + reach.fromOverlay.length;
    if (count === 0) return `${name}: no change pending`;
    const parts = [
      ...(reach.fromBase.length > 0 ? [`from the base (${reach.fromBase.join(', ')})`] : []),
      ...(reach.fromOverlay.length > 0 ? [`from its overlay (${reach.fromOverlay.join(', ')})`] : []),
    ];
    return `${name}: ${String(count)} change${count === 1 ? '' : 's'} pending ${parts.join(' and ')}`;
  });
}

const REACH_STATUS = {
  'not-deployed': 'not deployed yet',
  untracked: 'deployed before releases were recorded: its next deploy shows what changes',
  broken: 'its overlay or the base has errors',
} as const;
