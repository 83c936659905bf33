/**
 * Which endpoint each spec document deployed to: `.endpoint-studio/deployments.json` in the
 * workspace root, meant to be committed. Keys are spec paths relative to the root (forward
 * slashes, so the file is the same on every OS) and document indexes; keys and fields are
 * written in a fixed order so a deploy changes as few lines as possible.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ApiError, type ApiClient, type CallOptions, type Endpoint } from '../api';
import { writeFileAtomicSync } from '../util/atomicWrite';
import { record } from '../endpointSpec/rules/rule';

export const BINDINGS_DIR = '.endpoint-studio';
export const BINDINGS_FILE = 'deployments.json';
const FORMAT_VERSION = 1;

export interface Binding {
  readonly endpointId: string;
  readonly endpointName: string;
  /** ISO 8601 time of the last deploy. */
  readonly deployedAt: string;
  /**
   * What the last deploy set, so the next plan can tell a spec edit from a change made outside since then;
   * absent in bindings written before deploys recorded it.
   */
  readonly release?: DeployedRelease;
}

/**
 * The release a deploy made: the endpoint's version after it, when the service said, and the body it sent; then,
 * as they are learnt, how long it took to serve and the smoke job run on it.
 */
export interface DeployedRelease {
  readonly version?: number;
  readonly body: Readonly<Record<string, unknown>>;
  readonly readiness?: ReleaseReadiness;
  readonly smoke?: ReleaseSmoke;
  /** Set when the endpoint read back after the deploy did not match what it sent (or could not be read). */
  readonly unverified?: true;
  /** The release this one replaced with its time to ready, so the next report has a figure to compare with. */
  readonly previous?: PreviousRelease;
}

/** The release a binding recorded before its current one, kept only for its time to ready. */
export interface PreviousRelease {
  readonly version?: number;
  readonly readiness: ReleaseReadiness;
}

/** Milliseconds from the deploy to each step the service let us see; a step not seen is absent. */
export interface ReleaseReadiness {
  readonly firstWorkerStartingMs?: number;
  readonly firstWorkerReadyMs?: number;
  readonly firstJobCompletedMs?: number;
}

/** The smoke job run on a release: whether it completed on a worker of that release. */
interface ReleaseSmoke {
  readonly passed: boolean;
  readonly jobId?: string;
  /** ISO 8601 time it ended. */
  readonly at: string;
}

/** Spec path (relative, forward slashes) → document index → binding. */
export type BindingStore = Readonly<Record<string, Readonly<Record<string, Binding>>>>;

export type ReadBindingsResult = { ok: true; store: BindingStore; path: string } | { ok: false; path: string; error: string };

export function bindingsPath(root: string): string {
  return join(root, BINDINGS_DIR, BINDINGS_FILE);
}

/** The spec's key: its path relative to `root`, with forward slashes. Refuses a spec outside the root. */
export function specKey(root: string, specPath: string): string {
  const rel = relative(resolve(root), resolve(specPath));
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) throw new Error(`${specPath} is not inside the workspace folder ${root}`);
  return rel.split(sep).join('/');
}

/**
 * The folder whose `.endpoint-studio/` holds the bindings of `specPath`: the nearest ancestor with
 * `.endpoint-studio/` or `.git`; the spec's own folder when there is none.
 */
export function findWorkspaceRoot(specPath: string): string {
  const start = dirname(resolve(specPath));
  for (let dir = start; ; dir = dirname(dir)) {
    if (isDirectory(join(dir, BINDINGS_DIR)) || existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return start;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** A missing file is an empty store; an unreadable or malformed one is an error to show, never a crash. */
export function readBindings(root: string): ReadBindingsResult {
  const path = bindingsPath(root);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, store: {}, path };
    return { ok: false, path, error: `cannot read ${path}: ${(error as Error).message}` };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      path,
      error: `${path} is not valid JSON (${(error as Error).message}); fix it (a merge conflict?) or delete it to forget every binding`,
    };
  }
  const parsed = parseStore(data);
  return typeof parsed === 'string' ? { ok: false, path, error: `${path}: ${parsed}` } : { ok: true, store: parsed, path };
}

function parseStore(data: unknown): BindingStore | string {
  const root = record(data);
  if (!root) return 'expected a JSON object with "version" and "deployments"';
  if (root.version !== FORMAT_VERSION)
    return `unsupported version ${JSON.stringify(root.version)}; this Endpoint Studio reads version ${FORMAT_VERSION}`;
  const deployments = record(root.deployments);
  if (!deployments) return '"deployments" must be an object keyed by spec path';
  const store: Record<string, Record<string, Binding>> = {};
  for (const [spec, documents] of Object.entries(deployments)) {
    const byIndex = record(documents);
    if (!byIndex) return `deployments[${JSON.stringify(spec)}] must be an object keyed by document index`;
    store[spec] = {};
    for (const [index, entry] of Object.entries(byIndex)) {
      const binding = record(entry);
      if (!/^\d+$/.test(index)) return `deployments[${JSON.stringify(spec)}]: ${JSON.stringify(index)} is not a document index`;
      if (!binding || typeof binding.endpointId !== 'string' || binding.endpointId === '')
        return `deployments[${JSON.stringify(spec)}][${index}] needs an endpointId`;
      const release = releaseOf(binding.release);
      store[spec][index] = {
        endpointId: binding.endpointId,
        endpointName: typeof binding.endpointName === 'string' ? binding.endpointName : '',
        deployedAt: typeof binding.deployedAt === 'string' ? binding.deployedAt : '',
        ...(release ? { release } : {}),
      };
    }
  }
  return store;
}

/** A recorded release as written; anything else (a hand edit gone wrong) is dropped, leaving a two-way plan. */
function releaseOf(value: unknown): DeployedRelease | undefined {
  const release = record(value);
  const body = record(release?.body);
  if (!release || !body) return undefined;
  const readiness = readinessOf(release.readiness);
  const smoke = smokeOf(release.smoke);
  const previous = previousOf(release.previous);
  return {
    ...(Number.isInteger(release.version) ? { version: release.version as number } : {}),
    body,
    ...(readiness ? { readiness } : {}),
    ...(smoke ? { smoke } : {}),
    ...(previous ? { previous } : {}),
    ...(release.unverified === true ? { unverified: true as const } : {}),
  };
}

function previousOf(value: unknown): PreviousRelease | undefined {
  const fields = record(value);
  const readiness = readinessOf(fields?.readiness);
  if (!fields || !readiness) return undefined;
  return { ...(Number.isInteger(fields.version) ? { version: fields.version as number } : {}), readiness };
}

const READINESS_STEPS = ['firstWorkerStartingMs', 'firstWorkerReadyMs', 'firstJobCompletedMs'] as const;

function readinessOf(value: unknown): ReleaseReadiness | undefined {
  const fields = record(value);
  if (!fields) return undefined;
  const steps = READINESS_STEPS.filter((step) => typeof fields[step] === 'number' && fields[step] >= 0);
  return steps.length > 0 ? Object.fromEntries(steps.map((step) => [step, fields[step]])) : undefined;
}

function smokeOf(value: unknown): ReleaseSmoke | undefined {
  const fields = record(value);
  if (!fields || typeof fields.passed !== 'boolean' || typeof fields.at !== 'string') return undefined;
  return { passed: fields.passed, at: fields.at, ...(typeof fields.jobId === 'string' ? { jobId: fields.jobId } : {}) };
}

export function getBinding(store: BindingStore, key: string, documentIndex: number): Binding | undefined {
  return (store[key] ?? {})[String(documentIndex)];
}

/** The store with the document bound anew; a new release keeps the one it replaces as `previous`. */
export function withBinding(store: BindingStore, key: string, documentIndex: number, binding: Binding): BindingStore {
  const before = getBinding(store, key, documentIndex)?.release;
  const next = binding.release ? { ...binding, release: succeedingRelease(before, binding.release) } : binding;
  return { ...store, [key]: { ...(store[key] ?? {}), [String(documentIndex)]: next } };
}

/**
 * The release a binding records after `before`: the same release keeps what was learnt of it (its time to ready,
 * its smoke job); a new one keeps the time to ready of the one it replaces, so a slower release can be told.
 */
export function succeedingRelease(before: DeployedRelease | undefined, next: DeployedRelease): DeployedRelease {
  if (!before) return next;
  if (next.version !== undefined && before.version === next.version) {
    const { readiness, smoke, previous } = before;
    return { ...(readiness ? { readiness } : {}), ...(smoke ? { smoke } : {}), ...(previous ? { previous } : {}), ...next };
  }
  if (!before.readiness) return next;
  return { ...next, previous: { ...(before.version !== undefined ? { version: before.version } : {}), readiness: before.readiness } };
}

/** The store without one document's binding; a spec file left with none drops out, the others keep their order. */
export function withoutBinding(store: BindingStore, key: string, documentIndex: number): BindingStore {
  const index = String(documentIndex);
  const entries = Object.entries(store).flatMap(([file, documents]): [string, Readonly<Record<string, Binding>>][] => {
    if (file !== key) return [[file, documents]];
    const kept = Object.entries(documents).filter(([document]) => document !== index);
    return kept.length === 0 ? [] : [[file, Object.fromEntries(kept)]];
  });
  return Object.fromEntries(entries);
}

/** The file's text: sorted spec paths, numerically sorted indexes, fields in a fixed order. */
export function serializeBindings(store: BindingStore): string {
  const deployments: Record<string, Record<string, Binding>> = {};
  for (const spec of Object.keys(store).sort()) {
    const indexes = Object.keys(store[spec]).sort((a, b) => Number(a) - Number(b));
    if (indexes.length === 0) continue;
    deployments[spec] = {};
    for (const index of indexes) {
      const { endpointId, endpointName, deployedAt, release } = store[spec][index];
      deployments[spec][index] = { endpointId, endpointName, deployedAt, ...(release ? { release } : {}) };
    }
  }
  return `${JSON.stringify({ version: FORMAT_VERSION, deployments }, null, 2)}\n`;
}

/** Atomic: a temp file beside the target, then a rename, so a crash never leaves half a file. */
export function writeBindings(root: string, store: BindingStore): string {
  const path = bindingsPath(root);
  writeFileAtomicSync(path, serializeBindings(store));
  return path;
}

/**
 * Read, change one entry, write. Refuses to overwrite a file it cannot read, since that would
 * drop every other binding in it.
 */
export function updateBindings(
  root: string,
  change: (store: BindingStore) => BindingStore,
): { ok: true; path: string } | { ok: false; error: string } {
  const current = readBindings(root);
  if (!current.ok) return { ok: false, error: current.error };
  try {
    return { ok: true, path: writeBindings(root, change(current.store)) };
  } catch (error) {
    return { ok: false, error: `cannot write ${current.path}: ${(error as Error).message}` };
  }
}

export type BindingCheck =
  | { status: 'bound'; endpoint: Endpoint }
  /** The endpoint was deleted elsewhere: the binding is stale, and a deploy would create anew. */
  | { status: 'missing'; binding: Binding }
  | { status: 'error'; error: ApiError | Error };

/** Looks the bound endpoint up, telling a deleted one (404) apart from a failed call. */
export async function repairBinding(client: ApiClient, binding: Binding, options: CallOptions = {}): Promise<BindingCheck> {
  try {
    return { status: 'bound', endpoint: await client.serverless.get(binding.endpointId, options) };
  } catch (error) {
    if (error instanceof ApiError && error.notFound) return { status: 'missing', binding };
    return { status: 'error', error: error instanceof Error ? error : new Error(String(error)) };
  }
}
