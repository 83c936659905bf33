/**
 * Which environment a spec file deploys to, and with what: an overlay (`<base>.<env>.endpoint.yaml` whose
 * first key is `extends`) deploys to its environment, a base to none. The environment's settings come from
 * `.endpoint-studio/environments.yaml` at the workspace root (the folder that holds the bindings), so every
 * front-end asks the same file the same question: which key variable (CI), which profile (the editor),
 * whether a typed confirmation is needed. The settings never hold a key; reading it is the front-end's.
 */
import { basename, dirname, join, resolve } from 'node:path';
import { findWorkspaceRoot } from '../deploy/bindings';
import { unpinnedImage } from '../deploy/plan';
import { environmentOfFile } from '../endpointSpec/overlay';
import {
  ENVIRONMENTS_FILE,
  isProtected,
  keyVariableOf,
  profileOf,
  readEnvironments,
  type EnvironmentsProblem,
} from '../environments/config';
import { DISK_FILE_VIEW, overlayTarget } from '../environments/overlays';
import { specFormatOf, splitSpecFileName } from '../protocol';
import { SpecWorkspace } from '../workspace/specWorkspace';
import type { Catalog } from '../endpointSpec/catalog/catalog';
import { checkSpec, type CheckSpecInput, type CheckSpecResult, type OverlayFacts } from './checkSpec';

/** The front-ends check `--env` and the tools' input with the engine's rule, the one overlay file names follow. */
export { ENVIRONMENT_NAME } from '../endpointSpec/overlay';

/** An environment as a deploy needs it. */
export interface DeployEnvironment {
  readonly name: string;
  /** The environment variable holding its key where there is no keychain (CI, the command line, the MCP server). */
  readonly keyVariable: string;
  /** A deploy asks for the environment's name, typed, before it applies. */
  readonly protected: boolean;
  /** The editor's sign-in profile for it, when the file names one. */
  readonly profile?: string;
}

export interface EnvironmentSettingsResult {
  readonly environment: DeployEnvironment;
  /** Problems of the environments file; a broken file leaves every environment at its defaults. */
  readonly problems: readonly EnvironmentsProblem[];
  /** The workspace root the file was looked for in. */
  readonly root: string;
}

/** The settings of `name` for the spec file at `specPath` (its workspace's environments file), or `root` when given. */
export function environmentSettings(name: string, specPath: string, root: string = findWorkspaceRoot(specPath)): EnvironmentSettingsResult {
  const { config, problems } = readEnvironments(root);
  const profile = profileOf(name, config);
  return {
    environment: {
      name,
      keyVariable: keyVariableOf(name, config),
      protected: isProtected(name, config),
      ...(profile !== undefined ? { profile } : {}),
    },
    problems,
    root,
  };
}

/** The environment an overlay deploys to, with the arrays of its base it replaces whole (for the plan to say). */
export interface OverlayEnvironment extends DeployEnvironment {
  readonly replacedArrays: readonly string[];
}

export type OverlayEnvironmentResult =
  { readonly ok: true; readonly environment?: OverlayEnvironment } | { readonly ok: false; readonly message: string };

/**
 * The environment a checked spec deploys to (`checkSpec`'s `overlay`), none for a base. Refused while the
 * environments file is broken: a protection it would set must never be skipped because of a typo.
 */
export function overlayEnvironment(specPath: string, overlay: OverlayFacts | undefined): OverlayEnvironmentResult {
  if (overlay?.environment === undefined) return { ok: true };
  const settings = environmentSettings(overlay.environment, specPath);
  if (settings.problems.length > 0)
    return {
      ok: false,
      message: `${join(settings.root, ENVIRONMENTS_FILE)} has problems (${settings.problems.map((p) => p.message).join('; ')}); fix it first (nothing was sent)`,
    };
  return { ok: true, environment: { ...settings.environment, replacedArrays: overlay.replacedArrays } };
}

/** The line after an overlay's plan naming the base's arrays it replaces whole: JSON Merge Patch never merges lists. */
export function replacedLine(environment: OverlayEnvironment | undefined): string {
  const arrays = environment?.replacedArrays ?? [];
  return arrays.length === 0
    ? ''
    : `  replaced whole by the ${environment?.name ?? ''} overlay (not merged with the base): ${arrays.join(', ')}\n`;
}

/**
 * Why a deploy of `body` to `environment` is refused before any plan: a protected environment takes only a pinned
 * image, since the next worker to start there may pull other code than what was tested under a moving tag.
 * Elsewhere an unpinned image stays the plan's warning.
 */
export function protectedImageRefusal(environment: DeployEnvironment | undefined, body: unknown): string | undefined {
  if (!environment?.protected || typeof body !== 'object' || body === null) return undefined;
  const image = (body as { image?: unknown }).image;
  const unpinned = typeof image === 'string' && image !== '' ? unpinnedImage(image) : undefined;
  return unpinned && `${environment.name} is a protected environment, which deploys only a pinned image: ${unpinned}`;
}

/** The environment an overlay file deploys to (from its name, once its text has `extends`); undefined for a base. */
export function environmentOfSpecFile(path: string, text: string): string | undefined {
  if (overlayTarget(text, specFormatOf(path)) === undefined) return undefined;
  return environmentOfFile(basename(path));
}

export type EnvironmentSpecResult =
  { readonly ok: true; readonly path: string; readonly environment: string } | { readonly ok: false; readonly message: string };

/** The owner of the spec files on disk, for the front-ends without editors: each folder listed and each file read once. */
export function diskWorkspace(): SpecWorkspace {
  return new SpecWorkspace(DISK_FILE_VIEW, { roots: (path) => [dirname(path)], context: () => ({}) });
}

/**
 * The spec file that deploys `path` to `environment`: the file itself when it is that environment's overlay,
 * the base's overlay of that environment when `path` is a base; refused for another environment's overlay
 * or a base without one. `workspace` is asked for a base's overlays (one over the disk unless given).
 */
export function specForEnvironment(path: string, environment: string, workspace: SpecWorkspace = diskWorkspace()): EnvironmentSpecResult {
  const absolute = resolve(path);
  const text = DISK_FILE_VIEW.read(absolute);
  if (text === undefined) return { ok: false, message: `cannot read ${path}` };
  const own = environmentOfSpecFile(absolute, text);
  if (own !== undefined)
    return own === environment
      ? { ok: true, path: absolute, environment }
      : { ok: false, message: `${path} is the ${own} overlay, not ${environment}'s` };
  if (overlayTarget(text, specFormatOf(absolute)) !== undefined)
    return { ok: false, message: `${path} extends a base but its name says no environment (<base>.<environment>.endpoint.yaml)` };
  const overlays = workspace.overlaysOf(absolute);
  const overlay = overlays.find((o) => o.environment === environment);
  if (!overlay) {
    const known = overlays.length > 0 ? ` (it has ${overlays.map((o) => o.environment).join(', ')})` : '';
    return { ok: false, message: `${path} has no ${environment} overlay${known}: add ${basename(overlayPathFor(absolute, environment))}` };
  }
  return { ok: true, path: overlay.path, environment };
}

/** `specs/sdxl.endpoint.yaml` + `prod` → `specs/sdxl.prod.endpoint.yaml`: an environment's overlay, beside the base. */
export function overlayPathFor(basePath: string, environment: string): string {
  const name = splitSpecFileName(basename(basePath));
  return name ? join(dirname(basePath), `${name.stem}.${environment}${name.suffix}`) : basePath;
}

/**
 * The files among `paths` (absolute, as a folder or glob expanded) that deploy to `environment`: its
 * overlays, and the overlay of that environment of each base listed (once each), in the order given.
 * A base without such an overlay, or another environment's overlay, is left out.
 */
export function filesForEnvironment(paths: readonly string[], environment: string): string[] {
  const workspace = diskWorkspace();
  const picked = paths.map((path) => specForEnvironment(path, environment, workspace));
  return [...new Set(picked.flatMap((spec) => (spec.ok ? [spec.path] : [])))];
}

/**
 * Where a spec file lives, for `checkSpec` to merge an overlay into its base read from disk. A base may lie in
 * `folder` (the current directory, an agent's workspace) or in the spec's own workspace (the nearest folder
 * with `.endpoint-studio/` or `.git`, where its bindings and environments file are): never elsewhere.
 */
export function specFileOnDisk(path: string, folder: string): NonNullable<CheckSpecInput['file']> {
  const absolute = resolve(path);
  return { path: absolute, view: DISK_FILE_VIEW, roots: [resolve(folder), findWorkspaceRoot(absolute)] };
}

/** `text`, the file at `path`, checked against `catalog` (none when absent), an overlay merged as specFileOnDisk says. */
export function checkSpecFile(
  path: string,
  text: string,
  folder: string,
  { catalog, prices }: { readonly catalog?: Catalog; readonly prices?: Catalog } = {},
): Promise<CheckSpecResult> {
  return checkSpec({
    text,
    format: specFormatOf(path),
    catalog: catalog ? { kind: 'snapshot', catalog } : { kind: 'none' },
    file: specFileOnDisk(path, folder),
    ...(prices ? { prices } : {}),
  });
}
