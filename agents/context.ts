/**
 * What every agent tool runs with, whichever front-end hosts it (the MCP server or the editor's
 * language-model tools): the service client of the profile or environment, whether writes are
 * allowed, the folder relative paths and bindings are read from, the plan tokens handed out, and a
 * catalog snapshot pinned in place of the service's catalog. A tool refuses with a `ToolFailure`, a
 * message for the model; it never throws a stack at it.
 */
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { z } from 'zod';
import { ApiError, type ApiClient } from '../core/api';
import { catalogUsedJson, type CatalogUsed } from '../core/catalog/catalogUsed';
import { readCatalogSnapshot } from '../core/catalog/snapshot';
import type { Catalog } from '../core/endpointSpec/catalog/catalog';
import type { SpecDiagnostic } from '../core/endpointSpec/check';
import { locatePath } from '../core/endpointSpec/locate';
import type { JsonPath, SpecDocument } from '../core/endpointSpec/tree';
import { specFileOnDisk, type DeployEnvironment } from '../core/operations';
import { isSpecFile, specFormatOf } from '../core/protocol';
import type { PlanTokenStore } from './planTokens';
import type { problemShape } from './schemas';

export interface AgentContext {
  /** The client to call the service with; undefined when there is no key. */
  readonly client: ApiClient | undefined;
  /**
   * The client of an environment's overlay (its own key), or why there is none. Without it, environments
   * deploy on `client`, as a front-end with one signed-in account does.
   */
  readonly clientForEnvironment?: (environment: DeployEnvironment) => ApiClient | { readonly reason: string };
  /** Why there is no client, in words that say what to do about it. */
  readonly noClientReason: string;
  readonly writesAllowed: boolean;
  /** How writes are enabled in this front-end (`--allow-writes`, a trusted workspace). */
  readonly enableWrites: string;
  /** Relative spec paths are read from here, and bindings are looked for under it. */
  readonly workspaceRoot: string;
  readonly plans: PlanTokenStore;
  /**
   * A snapshot from `endpoint-studio catalog export` that the catalog tools read instead of the
   * service, key or not, as the language server and `validate` do with ENDPOINT_STUDIO_CATALOG_FILE:
   * an agent without a key or a network still searches, prices and checks against a catalog.
   */
  readonly catalogFile?: string;
  readonly signal?: AbortSignal;
}

export type PlacedProblem = z.infer<typeof problemShape>;

/** A refusal or failure the model should read; `details` goes into the result's structured part. */
export class ToolFailure extends Error {
  constructor(
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export function requireClient(context: AgentContext): ApiClient {
  if (!context.client) throw new ToolFailure(context.noClientReason);
  return context.client;
}

/** The client a spec deploys with: its environment's when the front-end keeps one per environment. */
export function clientFor(context: AgentContext, environment: DeployEnvironment | undefined): ApiClient {
  if (!environment || !context.clientForEnvironment) return requireClient(context);
  const client = context.clientForEnvironment(environment);
  if ('reason' in client) throw new ToolFailure(client.reason);
  return client;
}

/** The context's abort signal as a call's options. */
export function callOptions(context: AgentContext): { signal?: AbortSignal } {
  return context.signal ? { signal: context.signal } : {};
}

/** Runs a call to the service; its failure is a refusal saying `what` failed, with the status and reason, without the key. */
export async function fromService<T>(client: ApiClient, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const reason = client.redact(error instanceof Error ? error.message : String(error));
    if (error instanceof ApiError && error.notFound) throw new ToolFailure(`${what}: not found (${reason})`, { status: 404 });
    throw new ToolFailure(`${what}: ${reason}`, error instanceof ApiError && error.status !== undefined ? { status: error.status } : {});
  }
}

export interface PinnedCatalog {
  readonly catalog: Catalog;
  readonly used: Extract<CatalogUsed, { source: 'snapshot' }>;
}

/**
 * The snapshot the context pins, if any. Read at each call, so a re-export is used without restarting
 * the server; a file that cannot be used is a refusal naming it, never a silent fall back to the service.
 */
export function pinnedCatalog(context: AgentContext): PinnedCatalog | undefined {
  const file = context.catalogFile;
  if (!file) return undefined;
  try {
    const { catalog, fetchedAt } = readCatalogSnapshot(file);
    return { catalog, used: { source: 'snapshot', file, ...(fetchedAt ? { fetchedAt } : {}) } };
  } catch (error) {
    throw new ToolFailure(error instanceof Error ? error.message : String(error));
  }
}

/** Which catalog a result came from, as data: `catalog` and, for a snapshot, its file and age. */
export function catalogOrigin(pinned: PinnedCatalog | undefined): Record<string, unknown> {
  return pinned ? { catalog: 'snapshot', snapshot: catalogUsedJson(pinned.used) } : { catalog: 'live' };
}

/** A spec file named by an agent: inside or outside the workspace root, but a spec file either way. */
export interface SpecFile {
  readonly path: string;
  readonly text: string;
}

/** Larger than any real spec; a model pointing at a huge file gets a refusal, not a stall. */
const MAX_SPEC_BYTES = 4 * 1024 * 1024;

export function readSpecAt(context: AgentContext, path: string): SpecFile {
  const absolute = isAbsolute(path) ? path : resolve(context.workspaceRoot, path);
  if (!isSpecFile(absolute)) throw new ToolFailure(`${path} is not a spec file (*.endpoint.yaml, *.endpoint.yml or *.endpoint.json)`);
  let size: number;
  try {
    size = statSync(absolute).size;
  } catch {
    throw new ToolFailure(`cannot read ${path}: no such file (relative paths are read from ${context.workspaceRoot})`);
  }
  if (size > MAX_SPEC_BYTES) throw new ToolFailure(`${path} is ${size} bytes; a spec over 4 MB is not read`);
  return { path: absolute, text: readFileSync(absolute, 'utf8') };
}

/** A spec file as checkSpec reads it: with where it lives, so an overlay is checked (and priced) merged into its base. */
export function fileCheck(context: AgentContext, file: SpecFile) {
  return { text: file.text, format: specFormatOf(file.path), file: specFileOnDisk(file.path, context.workspaceRoot) };
}

/** `gpu.pools[1]` for a JSON path. */
function pathText(path: JsonPath | readonly (string | number)[]): string {
  return path.map((segment, i) => (typeof segment === 'number' ? `[${segment}]` : i === 0 ? segment : `.${segment}`)).join('');
}

export function placeDiagnostic(d: SpecDiagnostic): PlacedProblem {
  return {
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    severity: d.severity,
    code: d.code,
    message: d.message,
    path: pathText(d.path),
    document: d.documentIndex,
  };
}

/** A problem the service reported on a spec path, placed on the spec's line for that path. */
export function placeServiceProblem(
  text: string,
  document: SpecDocument,
  documentIndex: number,
  problem: { segments: readonly (string | number)[]; path: string; message: string },
): PlacedProblem {
  const span = locatePath(document.root, problem.segments, 'value', document.span);
  const before = text.slice(0, span.offset).split('\n');
  return {
    line: before.length,
    column: before[before.length - 1].length + 1,
    severity: 'error',
    code: 'service-rejected',
    message: problem.message,
    path: problem.path,
    document: documentIndex,
  };
}

export function problemLine(file: string, p: PlacedProblem): string {
  return `${file}:${p.line}:${p.column}: ${p.severity} ${p.code} ${p.message}`;
}
