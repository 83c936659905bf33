/**
 * Promotion: what one environment last deployed and verified, written into another's overlay, so production gets
 * exactly the image staging tested instead of one copied by hand. The values come from the source environment's
 * binding (the release its last deploy recorded: the body it sent and read back), never from its spec, which may
 * have moved on since. A release whose smoke job failed is not verified and is refused; one without a smoke job is
 * promoted and says so. Planning reads files only and writes nothing; `applyPromotion` writes the planned texts,
 * made by writeValuesIntoSpec, so the target overlay keeps its comments and key order. Deploying stays the target
 * environment's own deploy, through its guard.
 */
import { dirname, resolve } from 'node:path';
import type { DeployedRelease } from '../deploy/bindings';
import { ENVIRONMENT_NAME, environmentOfFile, mergePatch, overlayPatch } from '../endpointSpec/overlay';
import { childValue, sameData } from '../endpointSpec/ownData';
import { parseSpecText } from '../endpointSpec/parse';
import { record } from '../endpointSpec/rules/rule';
import { valueAt } from '../endpointSpec/schemaValidation';
import { writeValuesIntoSpec, type SpecValue } from '../endpointSpec/serialize';
import { DISK_FILE_VIEW } from '../environments/overlays';
import { ENVIRONMENTS_FILE } from '../environments/config';
import { specFormatOf } from '../protocol';
import { SpecWorkspace, type EnvironmentOfBase, type FileView } from '../workspace/specWorkspace';
import { environmentSettings, overlayPathFor, protectedImageRefusal } from './environments';
import { readSpecBindings } from './specBindings';

/** What a promotion carries when no field is named: the image, the one thing a test run is about. */
export const DEFAULT_PROMOTED_FIELDS: readonly string[] = ['image'];

/** Fields each environment owns: promoting them would make two environments one endpoint, or break the overlay. */
const NOT_PROMOTED = new Set(['name', 'extends', '$schema']);

export interface PlanPromotionInput {
  readonly from: string;
  readonly to: string;
  /** Bases, or overlays of `from` or `to`; one promotion per base. */
  readonly files: readonly string[];
  /** Dotted spec paths (`image`, `env.MODEL_ID`); `image` when none. */
  readonly fields?: readonly string[];
  /** How the files are read: the editor's open documents first; the disk by default. */
  readonly view?: FileView;
  /** The workspace root holding the bindings and the environments file; the nearest one to each file by default. */
  readonly root?: string;
  /** How messages name a file (relative to the current directory, the workspace); as it is by default. */
  readonly shown?: (path: string) => string;
}

/** What the source environment's last deploy verified. */
export interface PromotionSource {
  readonly environment: string;
  /** Its overlay. */
  readonly path: string;
  readonly endpointId: string;
  readonly version?: number;
  readonly deployedAt: string;
  /** The smoke job run on that release: passed, failed, or none ran. */
  readonly smoke: { readonly state: 'passed' | 'failed' | 'none'; readonly jobId?: string; readonly at?: string };
}

/** One field: the source's value, and what the target deploys there now (undefined when nothing). */
interface PromotedValue {
  readonly field: string;
  readonly value: unknown;
  readonly current: unknown;
  readonly changes: boolean;
}

type PromotionRefusal =
  | 'bad-field'
  | 'not-a-spec'
  | 'no-overlay'
  | 'bindings-unreadable'
  | 'not-deployed'
  | 'untracked'
  | 'smoke-failed'
  | 'read-back-differed'
  | 'missing-value'
  | 'target-broken'
  | 'environments-invalid'
  | 'unpinned-image'
  | 'unwritable';

export type Promotion =
  | {
      readonly kind: 'refused';
      /** The file as given. */
      readonly file: string;
      readonly code: PromotionRefusal;
      readonly reason: string;
      readonly source?: PromotionSource;
    }
  | {
      /** `write`: the target overlay gets `text`; `unchanged`: it already deploys these values. */
      readonly kind: 'write' | 'unchanged';
      readonly file: string;
      readonly base: string;
      readonly source: PromotionSource;
      readonly target: { readonly environment: string; readonly path: string; readonly protected: boolean };
      readonly values: readonly PromotedValue[];
      /** The target overlay's text as read, and as it is to be written. */
      readonly before: string;
      readonly text: string;
    };

type Planned = Exclude<Promotion, { kind: 'refused' }>;

class Refusal extends Error {
  constructor(
    readonly code: PromotionRefusal,
    message: string,
    readonly source?: PromotionSource,
  ) {
    super(message);
  }
}

/** Each base's promotion from `from` to `to`, in the order given; nothing is written. */
export function planPromotion(input: PlanPromotionInput): Promotion[] {
  const fields = input.fields && input.fields.length > 0 ? [...new Set(input.fields)] : DEFAULT_PROMOTED_FIELDS;
  const fieldProblem = environmentProblem(input.from, input.to) ?? fields.map(fieldRefusal).find((why) => why !== undefined);
  if (fieldProblem !== undefined) return input.files.map((file) => ({ kind: 'refused', file, code: 'bad-field', reason: fieldProblem }));
  const view = input.view ?? DISK_FILE_VIEW;
  const workspace = new SpecWorkspace(view, { roots: (path) => [dirname(path)], context: () => ({}) });
  const seen = new Set<string>();
  const promotions: Promotion[] = [];
  for (const file of input.files) {
    try {
      const base = baseOf(workspace, resolve(file), input);
      if (seen.has(base)) continue;
      seen.add(base);
      promotions.push(promotionOf({ workspace, view, file, base, fields, input }));
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      promotions.push({
        kind: 'refused',
        file,
        code: error.code,
        reason: error.message,
        ...(error.source ? { source: error.source } : {}),
      });
    }
  }
  return promotions;
}

function environmentProblem(from: string, to: string): string | undefined {
  const bad = [from, to].find((name) => !ENVIRONMENT_NAME.test(name));
  if (bad !== undefined) return `an environment name is letters, digits, - and _; got: ${bad || 'nothing'}`;
  return from === to ? `promote needs two environments; got ${from} twice` : undefined;
}

function fieldRefusal(field: string): string | undefined {
  const segments = field.split('.');
  if (segments.some((segment) => segment === '')) return `a field is a dotted spec path (image, env.MODEL_ID); got: ${field || 'nothing'}`;
  if (NOT_PROMOTED.has(segments[0])) return `${field} belongs to each environment and is never promoted`;
  return undefined;
}

/** The base a file stands for: itself, or the base of an overlay of either environment. */
function baseOf(workspace: SpecWorkspace, path: string, input: PlanPromotionInput): string {
  const { from, to } = input;
  const shown = shownBy(input);
  const checked = workspace.check(path);
  if (checked.documents.length === 0) throw new Refusal('not-a-spec', `cannot read ${shownBy(input)(path)}`);
  if (!checked.overlay) return path;
  const environment = environmentOfFile(path);
  if (environment !== from && environment !== to)
    throw new Refusal('no-overlay', `${shown(path)} is the ${environment ?? 'unnamed'} overlay, neither ${from}'s nor ${to}'s`);
  const base = checked.overlay.basePath;
  if (base === undefined) throw new Refusal('no-overlay', `${shown(path)} names no base that can be read`);
  return base;
}

interface PromotionContext {
  readonly workspace: SpecWorkspace;
  readonly view: FileView;
  readonly file: string;
  readonly base: string;
  readonly fields: readonly string[];
  readonly input: PlanPromotionInput;
}

function promotionOf(context: PromotionContext): Planned {
  const { workspace, base, input } = context;
  const environments = workspace.environmentsOf(base);
  const overlay = (name: string): EnvironmentOfBase => {
    const found = environments.find((e) => e.environment === name);
    if (found) return found;
    const known = environments.length > 0 ? ` (it has ${environments.map((e) => e.environment).join(', ')})` : '';
    throw new Refusal(
      'no-overlay',
      `${shownBy(input)(base)} has no ${name} overlay${known}: add ${shownBy(input)(overlayPathFor(base, name))} (extends the base, with its own name)`,
    );
  };
  const source = verifiedSource(overlay(input.from), input);
  const target = overlay(input.to);
  return targetEdit(context, target, source.facts, valuesOf(source.release, context.fields, source.facts));
}

/** The release the source environment last deployed, refused unless it was verified. */
function verifiedSource(overlay: EnvironmentOfBase, input: PlanPromotionInput): { facts: PromotionSource; release: DeployedRelease } {
  const { from } = input;
  const bindings = readSpecBindings(overlay.path, input.root);
  if (!bindings.ok) throw new Refusal('bindings-unreadable', bindings.error);
  const binding = bindings.binding(0);
  if (!binding)
    throw new Refusal(
      'not-deployed',
      `${from} has not been deployed from here: ${shownBy(input)(overlay.path)} has no binding; deploy it, test it, then promote`,
    );
  const { release } = binding;
  if (!release)
    throw new Refusal(
      'untracked',
      `${from} was deployed before releases were recorded, so what it runs is not known here: deploy ${shownBy(input)(overlay.path)} again, then promote`,
    );
  const smoke = release.smoke;
  const facts: PromotionSource = {
    environment: from,
    path: overlay.path,
    endpointId: binding.endpointId,
    ...(release.version !== undefined ? { version: release.version } : {}),
    deployedAt: binding.deployedAt,
    smoke: smoke
      ? { state: smoke.passed ? 'passed' : 'failed', at: smoke.at, ...(smoke.jobId !== undefined ? { jobId: smoke.jobId } : {}) }
      : { state: 'none' },
  };
  if (release.unverified)
    throw new Refusal(
      'read-back-differed',
      `${releaseName(facts)} did not read back as it was deployed, so it is not verified: deploy ${shownBy(input)(overlay.path)} again, then promote`,
      facts,
    );
  if (smoke && !smoke.passed)
    throw new Refusal(
      'smoke-failed',
      `the smoke job${smoke.jobId !== undefined ? ` ${smoke.jobId}` : ''} failed on ${releaseName(facts)}, so it is not verified: fix it, deploy and smoke-check ${from} again`,
      facts,
    );
  return { facts, release };
}

function shownBy(input: PlanPromotionInput): (path: string) => string {
  return input.shown ?? ((path) => path);
}

/** `staging's release 7`, or `staging's last deploy` when the service gave no version. */
export function releaseName(source: PromotionSource): string {
  return source.version !== undefined ? `${source.environment}'s release ${source.version}` : `${source.environment}'s last deploy`;
}

function valuesOf(release: DeployedRelease, fields: readonly string[], source: PromotionSource): SpecValue[] {
  return fields.map((field) => {
    const path = field.split('.');
    const value = valueAt(release.body, path);
    if (value === undefined) throw new Refusal('missing-value', `${releaseName(source)} has no ${field} to promote`, source);
    return { path, value };
  });
}

function setAt(data: Record<string, unknown>, path: readonly string[], value: unknown): Record<string, unknown> {
  const [key, ...rest] = path;
  const child = childValue(data, key);
  return { ...data, [key]: rest.length === 0 ? value : setAt(record(child) ?? {}, rest, value) };
}

/** The target overlay with the values written, checked to change exactly those fields of what it deploys. */
function targetEdit(context: PromotionContext, target: EnvironmentOfBase, source: PromotionSource, values: readonly SpecValue[]): Planned {
  const { workspace, view, base, input } = context;
  const baseData = workspace.check(base).documents.at(0)?.data;
  if (!target.merged)
    throw new Refusal('target-broken', `${shownBy(input)(target.path)} or its base has errors: fix them before promoting into it`, source);
  const now = mergePatch(baseData, target.patch) as Record<string, unknown>;
  const promoted: PromotedValue[] = values.map(({ path, value }) => {
    const current = valueAt(now, path);
    return { field: path.join('.'), value, current, changes: current === undefined || !sameData(current, value) };
  });
  const wanted = values.reduce((body, { path, value }) => setAt(body, path, value), now);
  const settings = environmentSettings(input.to, target.path, input.root);
  if (settings.problems.length > 0)
    throw new Refusal(
      'environments-invalid',
      `${ENVIRONMENTS_FILE} has problems (${settings.problems.map((p) => p.message).join('; ')}); fix it first`,
      source,
    );
  const unpinned = protectedImageRefusal(settings.environment, wanted);
  if (unpinned !== undefined) throw new Refusal('unpinned-image', unpinned, source);
  const before = view.read(target.path);
  if (before === undefined) throw new Refusal('unwritable', `cannot read ${shownBy(input)(target.path)}`, source);
  const changing = values.filter((_, i) => promoted[i].changes);
  const text =
    changing.length === 0 ? before : writtenText(target.path, before, changing, { baseData, wanted, shown: shownBy(input) }, source);
  return {
    kind: changing.length === 0 ? 'unchanged' : 'write',
    file: context.file,
    base,
    source,
    target: { environment: input.to, path: target.path, protected: settings.environment.protected },
    values: promoted,
    before,
    text,
  };
}

/** The overlay's new text; refused when writing the values there would change more of what it deploys than them. */
function writtenText(
  path: string,
  before: string,
  values: readonly SpecValue[],
  expected: { baseData: unknown; wanted: Record<string, unknown>; shown: (path: string) => string },
  source: PromotionSource,
): string {
  const format = specFormatOf(path);
  const rewritten = writeValuesIntoSpec(before, format, 0, values);
  if (!rewritten) throw new Refusal('unwritable', `${expected.shown(path)} cannot be read as a mapping to write into`, source);
  const after = mergePatch(expected.baseData, overlayPatch(parseSpecText(rewritten.text, format).at(0)?.data));
  if (!sameData(after, expected.wanted))
    throw new Refusal(
      'unwritable',
      `writing ${values.map((v) => v.path.join('.')).join(', ')} into ${expected.shown(path)} would change more than that (the overlay removes or replaces what holds it): set it there by hand`,
      source,
    );
  return rewritten.text;
}

export interface ApplyPromotionResult {
  readonly written: readonly string[];
  readonly failed: readonly { readonly path: string; readonly error: string }[];
}

/** How the overlays are read and written: the front-end's (the CLI writes atomically on disk). */
export interface PromotionFiles {
  readonly read: (path: string) => string | undefined;
  readonly write: (path: string, text: string) => void;
  /** How messages name a file; as it is by default. */
  readonly shown?: (path: string) => string;
}

/** Writes each planned overlay whose text is still the one planned; a file changed since is left alone and named. */
export function applyPromotion(promotions: readonly Promotion[], files: PromotionFiles): ApplyPromotionResult {
  const written: string[] = [];
  const failed: { path: string; error: string }[] = [];
  for (const promotion of promotions) {
    if (promotion.kind !== 'write') continue;
    const { path } = promotion.target;
    const shown = files.shown?.(path) ?? path;
    if (files.read(path) !== promotion.before) {
      failed.push({ path, error: `${shown} changed since the promotion was planned; nothing was written to it` });
      continue;
    }
    try {
      files.write(path, promotion.text);
      written.push(path);
    } catch (error) {
      failed.push({ path, error: `cannot write ${shown}: ${(error as Error).message}` });
    }
  }
  return { written, failed };
}

/** `staging's release 7, deployed 2026-11-28T10:02:00Z; smoke job j-1 passed` — what the promotion rests on. */
export function verificationLine(source: PromotionSource): string {
  const deployed = `${releaseName(source)}, deployed ${source.deployedAt || 'at an unknown time'}`;
  const { smoke } = source;
  const job = smoke.jobId !== undefined ? ` ${smoke.jobId}` : '';
  if (smoke.state === 'none') return `${deployed}; no smoke job ran on it`;
  return `${deployed}; smoke job${job} ${smoke.state}${smoke.at !== undefined ? ` at ${smoke.at}` : ''}`;
}
