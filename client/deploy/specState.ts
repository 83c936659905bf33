/**
 * What the editor knows about each spec document's deployment: its binding (from the committed
 * `.endpoint-studio/deployments.json`), the live endpoint and the drift between them. Live reads are
 * cached for a minute and made only for bound specs, so CodeLenses never flood the service.
 */
import * as vscode from 'vscode';
import type { Endpoint } from '../../core/api';
import {
  driftBetween,
  findWorkspaceRoot,
  getBinding,
  readBindings,
  repairBinding,
  specKey,
  type Binding,
  type Change,
} from '../../core/deploy';
import { parseSpecText } from '../../core/endpointSpec/parse';
import { specFormatOf } from '../../core/protocol';
import type { SpecDocument } from '../../core/endpointSpec/tree';
import type { Session } from '../auth/session';

export interface SpecDocumentInfo {
  readonly index: number;
  readonly document: SpecDocument;
  readonly spec: Record<string, unknown> | undefined;
  readonly range: vscode.Range;
}

export type LiveState =
  | { kind: 'unbound' }
  | { kind: 'bound'; binding: Binding; endpoint: Endpoint; drift: Change[] }
  /** Bound, but the endpoint was deleted elsewhere. */
  | { kind: 'missing'; binding: Binding }
  /** Bound, but the live endpoint could not be read (signed out, offline, 5xx). */
  | { kind: 'unknown'; binding: Binding; reason: string };

const LIVE_TTL_MS = 60_000;

export function specDocuments(text: vscode.TextDocument): SpecDocumentInfo[] {
  return parseSpecText(text.getText(), specFormatOf(text.fileName)).map((document, index) => {
    const start = text.positionAt(document.root?.offset ?? document.span.offset);
    const data = document.data;
    const spec = typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
    return { index, document, spec, range: new vscode.Range(start, start) };
  });
}

export function bindingFor(uri: vscode.Uri, documentIndex: number): { root: string; key: string; binding?: Binding; error?: string } {
  const root = vscode.workspace.getWorkspaceFolder(uri)?.uri.fsPath ?? findWorkspaceRoot(uri.fsPath);
  const key = specKey(root, uri.fsPath);
  const read = readBindings(root);
  if (!read.ok) return { root, key, error: read.error };
  return { root, key, binding: getBinding(read.store, key, documentIndex) };
}

export class LiveStates implements vscode.Disposable {
  private readonly cache = new Map<string, { at: number; state: Promise<LiveState> }>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly session: Session) {}

  /** The live state of a spec document; cached unless `fresh`. */
  get(uri: vscode.Uri, info: SpecDocumentInfo, fresh = false): Promise<LiveState> {
    const { binding } = bindingFor(uri, info.index);
    if (!binding) return Promise.resolve({ kind: 'unbound' });
    const key = binding.endpointId;
    const cached = this.cache.get(key);
    const spec = info.spec ?? {};
    const compute = async (): Promise<LiveState> => {
      const api = this.session.api;
      if (!api) return { kind: 'unknown', binding, reason: 'signed out' };
      const check = await repairBinding(api, binding, { timeoutMs: 10_000 });
      if (check.status === 'missing') return { kind: 'missing', binding };
      if (check.status === 'error') return { kind: 'unknown', binding, reason: this.session.redact(check.error.message) };
      return { kind: 'bound', binding, endpoint: check.endpoint, drift: [] };
    };
    let entry = cached;
    if (fresh || !entry || Date.now() - entry.at > LIVE_TTL_MS) {
      entry = { at: Date.now(), state: compute() };
      this.cache.set(key, entry);
    }
    // The endpoint is cached; the drift is computed against the spec as it is now.
    return entry.state.then((state) => (state.kind === 'bound' ? { ...state, drift: driftBetween(spec, state.endpoint) } : state));
  }

  invalidate(): void {
    this.cache.clear();
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
