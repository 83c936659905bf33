/**
 * What the editor knows about each spec document's deployment: its binding (from the committed
 * `.endpoint-studio/deployments.json`), the live endpoint and the drift between them. Live reads are
 * cached for a minute and made only for bound specs, so CodeLenses never flood the service. An overlay's
 * drift is its merged body against the endpoint, read with its environment's profile. The documents, and the
 * body each deploys, are the language server's answer (environments/specFile.ts), not parsed here.
 */
import * as vscode from 'vscode';
import type { Endpoint } from '../../core/api';
import { driftBetween, getBinding, readBindings, repairBinding, specKey, type Binding, type Change } from '../../core/deploy';
import { driftAuthors } from '../../core/deploy/outside';
import { toServiceBody } from '../../core/endpointSpec/validate';
import type { TextSpan } from '../../core/endpointSpec/tree';
import type { SpecEnvironmentFacts, SpecOverlayFacts } from '../../core/protocol';
import type { SpecClients } from '../environments/clients';
import { specRoot, type SpecFiles } from '../environments/specFile';

export interface SpecDocumentInfo {
  readonly index: number;
  /**
   * What a deploy of the document sends (`CheckedDocument.body`): its data, or for an overlay its base with it
   * merged in; undefined when it is not a mapping, or while the overlay or its base is broken.
   */
  readonly spec: Record<string, unknown> | undefined;
  /** Where the lenses stand: the start of the document's mapping. */
  readonly range: vscode.Range;
  /** The document in the text, between its `---` markers. */
  readonly span: TextSpan;
  /** Set for an overlay: its environment, the first error of its check (which refuses a deploy), the base's arrays it replaces whole. */
  readonly overlay?: SpecOverlayFacts;
  /** Set for a base with overlays: each environment and the body it would deploy with the base as it is now. */
  readonly environments?: readonly SpecEnvironmentFacts[];
  /** The errors of the document's check as the server made it for this text, the team policy's among them. */
  readonly errors: readonly { readonly code: string; readonly message: string }[];
  /** Set when the team policy over the file is broken: why no deploy under it goes ahead. */
  readonly brokenPolicy?: string;
}

export type LiveState =
  | { kind: 'unbound' }
  | {
      kind: 'bound';
      binding: Binding;
      endpoint: Endpoint;
      drift: Change[];
      /** Who made the drift, when the binding recorded its last release. */
      authors?: { readonly specEdits: readonly string[]; readonly outside: readonly string[] };
    }
  /** Bound, but the endpoint was deleted elsewhere. */
  | { kind: 'missing'; binding: Binding }
  /** Bound, but the live endpoint could not be read (signed out, offline, 5xx, the environment's profile not signed in). */
  | { kind: 'unknown'; binding: Binding; reason: string };

const LIVE_TTL_MS = 60_000;

/**
 * The spec documents of a file with the body each deploys, as the language server answers for the editor's text
 * (`documentIndex`: that document only). Rejects when the server cannot answer.
 */
export async function specDocuments(files: SpecFiles, text: vscode.TextDocument, documentIndex?: number): Promise<SpecDocumentInfo[]> {
  const facts = await files.facts(text.uri, { text, ...(documentIndex !== undefined ? { documentIndex } : {}) });
  return facts.documents.map(({ index, body, span, root, errors }) => {
    const start = text.positionAt(root?.offset ?? span.offset);
    return {
      index,
      spec: body,
      range: new vscode.Range(start, start),
      span,
      errors: errors ?? [],
      ...(facts.brokenPolicy !== undefined ? { brokenPolicy: facts.brokenPolicy } : {}),
      ...(facts.overlay ? { overlay: facts.overlay } : {}),
      ...(facts.environments.length > 0 ? { environments: facts.environments } : {}),
    };
  });
}

/** The document's binding, from its folder's `.endpoint-studio/deployments.json`; undefined when unbound or unreadable. */
export function bindingFor(uri: vscode.Uri, documentIndex: number): Binding | undefined {
  const root = specRoot(uri);
  const key = specKey(root, uri.fsPath);
  const read = readBindings(root);
  return read.ok ? getBinding(read.store, key, documentIndex) : undefined;
}

export class LiveStates implements vscode.Disposable {
  private readonly cache = new Map<string, { at: number; state: Promise<LiveState> }>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly clients: SpecClients) {}

  /** The live state of a spec document, read with the profile of the file's environment; cached unless `fresh`. */
  async get(uri: vscode.Uri, info: SpecDocumentInfo, fresh = false): Promise<LiveState> {
    const binding = bindingFor(uri, info.index);
    if (!binding) return { kind: 'unbound' };
    const client = await this.clients.forSpec(uri, info);
    if (!client.ok) return { kind: 'unknown', binding, reason: client.reason };
    const { api, profile } = client.client;
    // One account's endpoint id means nothing in another's.
    const key = `${profile.name}/${binding.endpointId}`;
    const spec = info.spec ?? {};
    const compute = async (): Promise<LiveState> => {
      const check = await repairBinding(api, binding, { timeoutMs: 10_000 });
      if (check.status === 'missing') return { kind: 'missing', binding };
      if (check.status === 'error') return { kind: 'unknown', binding, reason: api.redact(check.error.message) };
      return { kind: 'bound', binding, endpoint: check.endpoint, drift: [] };
    };
    let entry = this.cache.get(key);
    if (fresh || !entry || Date.now() - entry.at > LIVE_TTL_MS) {
      entry = { at: Date.now(), state: compute() };
      this.cache.set(key, entry);
    }
    // The endpoint is cached; the drift is computed against the spec as it is now.
    return entry.state.then((state) => {
      if (state.kind !== 'bound') return state;
      const authors = driftAuthors(toServiceBody(spec), state.endpoint, state.binding.release, state.binding.deployedAt);
      return { ...state, drift: driftBetween(spec, state.endpoint), ...(authors ? { authors } : {}) };
    });
  }

  invalidate(): void {
    this.cache.clear();
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
