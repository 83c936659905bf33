/**
 * `<spec|endpointId>`: the endpoint a command acts on once it is deployed (logs, run, job), and the client
 * that reaches it. A spec file means the endpoint its document is bound to in `.endpoint-studio/deployments.json`,
 * as `deploy` and `bind` record it; an overlay's endpoint is reached with its environment's key variable only,
 * the client `deploy` builds for it (`overlayEnvironment`, `serviceClient`), never with the default key.
 */
import { existsSync } from 'node:fs';
import type { ApiClient } from '../core/api';
import { checkSpecFile, overlayEnvironment, readSpecBindings, type CheckSpecResult, type OverlayEnvironment } from '../core/operations';
import { isSpecFile } from '../core/protocol';
import { readSpecFile, type CliIo } from './inputs';
import { serviceClient, type ServiceIo } from './service';

/** The io of a command that may follow something until it is stopped. */
export interface LifecycleIo extends ServiceIo {
  /** Stops a follow (Ctrl-C on a terminal); without it a follow goes on until the service ends it. */
  readonly signal?: AbortSignal;
}

/** The spec document an endpoint was named by. */
export interface TargetSpec {
  readonly file: string;
  /** The spec's path in its workspace, as deployments.json keys it. */
  readonly key: string;
  readonly documentIndex: number;
  /** Set for an overlay: the environment whose key the client carries. */
  readonly environment?: OverlayEnvironment;
}

export interface Target {
  readonly endpointId: string;
  readonly client: ApiClient;
  /** Set when the argument was a spec file. */
  readonly spec?: TargetSpec;
}

export interface TargetOptions {
  /** The document (0-based) of a multi-document spec file; by default its one bound document. */
  readonly document?: number;
}

/** The `--document N` flag that picks a document of a multi-document spec; spread into a command's options. */
export const TARGET_FLAGS = { document: { type: 'string' } } as const;

/** `--document`'s value as an index, or the usage problem it has. */
export function documentOption(value: string | undefined): TargetOptions | { readonly problem: string } {
  if (value === undefined) return {};
  if (!/^\d+$/.test(value)) return { problem: `--document takes a document index (0, 1, ...); got: ${value || 'nothing'}` };
  return { document: Number(value) };
}

/**
 * The endpoint `ref` names (a spec file, by its binding, or an endpoint id) with a signed-in client; or exit
 * status 2 after saying why there is none: an unreadable or unbound spec, a broken environments file, no key.
 * Nothing is sent to the service.
 */
export async function resolveTarget(command: string, ref: string, io: ServiceIo, options: TargetOptions): Promise<Target | 2> {
  if (isSpecFile(ref)) return specTarget(command, ref, io, options);
  if (/[/\\]/.test(ref) || existsSync(ref))
    return fail(command, `not a spec file (*.endpoint.yaml, *.endpoint.yml or *.endpoint.json) nor an endpoint id: ${ref}`, io);
  if (options.document !== undefined) return fail(command, `--document picks a document of a spec file, not of an endpoint id: ${ref}`, io);
  const client = serviceClient(command, io, { announceRateLimits: true });
  return typeof client === 'number' ? client : { endpointId: ref, client };
}

/** `endpoint ep_1`, or `endpoint ep_1 (bound to specs/a.endpoint.yaml)`: how messages name a target. */
export function targetName(target: Target): string {
  const { spec } = target;
  if (!spec) return `endpoint ${target.endpointId}`;
  const document = spec.documentIndex > 0 ? ` document ${spec.documentIndex}` : '';
  const environment = spec.environment ? `, environment ${spec.environment.name}` : '';
  return `endpoint ${target.endpointId} (bound to ${spec.key}${document}${environment})`;
}

/**
 * The spec file read and checked without a catalog: which documents hold a spec, and whether it is an overlay, are
 * all that is asked of it. Undefined after saying why it cannot be read.
 */
export async function readCheckedSpec(
  file: string,
  command: string,
  io: CliIo,
): Promise<{ readonly text: string; readonly checked: CheckSpecResult } | undefined> {
  const text = readSpecFile(file, command, io);
  if (text === undefined) return undefined;
  return { text, checked: await checkSpecFile(file, text, process.cwd()) };
}

/** Says why there is no target: exit status 2. */
function fail(command: string, message: string, io: CliIo): 2 {
  io.err(`endpoint-studio ${command}: ${message}`);
  return 2;
}

async function specTarget(command: string, file: string, io: ServiceIo, options: TargetOptions): Promise<Target | 2> {
  const read = await readCheckedSpec(file, command, io);
  if (read === undefined) return 2;
  const { checked } = read;
  const settings = overlayEnvironment(file, checked.overlay);
  if (!settings.ok) return fail(command, settings.message, io);
  const bindings = readSpecBindings(file);
  if (!bindings.ok) return fail(command, bindings.error, io);
  const specDocuments = checked.documents.filter((d) => d.isSpec).map((d) => d.index);
  const picked = pickDocument(file, specDocuments, (index) => bindings.binding(index)?.endpointId, options);
  if (typeof picked === 'string') return fail(command, picked, io);
  const { environment } = settings;
  const client = serviceClient(command, io, { announceRateLimits: true, ...(environment ? { environment } : {}) });
  if (typeof client === 'number') return client;
  const spec: TargetSpec = { file, key: bindings.location.key, documentIndex: picked.index, ...(environment ? { environment } : {}) };
  return { endpointId: picked.endpointId, client, spec };
}

/** The bound document asked for, or the only one bound; otherwise why there is none to pick. */
function pickDocument(
  file: string,
  specDocuments: readonly number[],
  endpointOf: (index: number) => string | undefined,
  options: TargetOptions,
): { index: number; endpointId: string } | string {
  const bindHint = (flag: string): string =>
    `deploy it (endpoint-studio deploy ${flag}${file}) or bind it to an existing endpoint (endpoint-studio bind ${flag}${file} <endpointId>)`;
  const wanted = options.document;
  if (wanted !== undefined) {
    if (!specDocuments.includes(wanted)) return `${file} has no spec document ${wanted}`;
    const endpointId = endpointOf(wanted);
    return endpointId === undefined
      ? `no endpoint is bound to ${file} (document ${wanted}): ${bindHint(`--document ${wanted} `)}`
      : { index: wanted, endpointId };
  }
  if (specDocuments.length === 0) return `${file} holds no spec`;
  const bound = specDocuments.flatMap((index) => {
    const endpointId = endpointOf(index);
    return endpointId === undefined ? [] : [{ index, endpointId }];
  });
  if (bound.length === 1) return bound[0];
  if (bound.length === 0) return `no endpoint is bound to ${file}: ${bindHint('')}`;
  return `${file} has several bound documents (${bound.map((b) => `${b.index}: ${b.endpointId}`).join(', ')}); pick one with --document N`;
}
