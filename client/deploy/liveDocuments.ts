/**
 * Read-only virtual documents for diffs: `endpoint-studio-live:/<id>.yaml` is a live endpoint as a
 * spec (read with the profile its fragment names, else the active one); `endpoint-studio-spec:/<path>?<index>`
 * is a spec document as it would be sent, an overlay merged into its base; `endpoint-studio-live:/<id>.yaml?release=N`
 * is the endpoint as at its release N (every newer release's change undone), what a rollback to N restores.
 * Every side is written in one key order, and a spec side against its live endpoint (core/deploy/diffSides.ts): what
 * the spec leaves to the service stands on it too, marked beside its line, so a diff shows only what a deploy changes.
 */
import * as vscode from 'vscode';
import type { ApiClient, Endpoint } from '../../core/api';
import { filledLines, liveSide, specSide } from '../../core/deploy/diffSides';
import { configurationAt } from '../../core/deploy/rollback';
import { serializeSpec } from '../../core/endpointSpec/serialize';
import type { ProfileClient, SpecClients } from '../environments/clients';
import { unanswered } from '../environments/specFile';
import { FilledMarks } from './filledMarks';
import { bindingFor, specDocuments, type SpecDocumentInfo } from './specState';

export const LIVE_SCHEME = 'endpoint-studio-live';
export const SPEC_SCHEME = 'endpoint-studio-spec';

/**
 * Which live endpoint a spec side is written against: the one its document is bound to, a named one (the namesake a
 * deploy adopts), or none (a spec compared with another spec).
 */
export type SpecSideLive = 'bound' | 'none' | { readonly endpointId: string; readonly profile?: string };

/** Both sides of a diff are asked for at once; within this long, one read of the endpoint serves both. */
const SHARED_READ_MS = 2000;

export class LiveDocumentProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly marks = new FilledMarks();
  private readonly reads = new Map<string, { at: number; endpoint: Promise<Endpoint> }>();

  constructor(private readonly clients: SpecClients) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    if (uri.scheme === SPEC_SCHEME) return this.specText(uri);
    const id = uri.path.replace(/^\//, '').replace(/\.yaml$/, '');
    if (!id) return '# a new endpoint: nothing is deployed yet\n';
    const profile = uri.fragment;
    const client = profile ? await this.clients.forProfile(profile) : this.clients.active();
    if (!client) return `# ${profile ? `profile ${profile} is not signed in` : 'signed out'}: sign in to read the live configuration\n`;
    const release = /^release=(\d+)&/.exec(uri.query)?.[1];
    try {
      if (release !== undefined) return await releaseText(client.api, id, Number(release));
      return `${serializeSpec(liveSide(await this.read(client, id)), 'yaml')}\n`;
    } catch (error) {
      return `# the live configuration could not be read: ${client.api.redact(error instanceof Error ? error.message : String(error))}\n`;
    }
  }

  /** A spec document as a deploy sends it (an overlay merged into its base), as the language server answers for it. */
  private async specText(uri: vscode.Uri): Promise<string> {
    const source = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri.fragment));
    let info: SpecDocumentInfo | undefined;
    try {
      info = (await specDocuments(this.clients.files, source, Number.parseInt(uri.query, 10) || 0)).at(0);
    } catch (error) {
      return `# ${unanswered(error)}\n`;
    }
    if (info?.overlay?.firstError !== undefined) return `# this environment's spec is broken: ${info.overlay.firstError}\n`;
    if (!info?.spec) return '';
    const side = specSide(info.spec, await this.endpointFor(source.uri, info, sideLiveOf(uri)));
    const text = `${serializeSpec(side.spec, 'yaml')}\n`;
    this.marks.set(uri, filledLines(text, side.filled), side.templateId);
    return text;
  }

  /** The endpoint a spec side is written against; none when it cannot be read (the live side says why). */
  private async endpointFor(source: vscode.Uri, info: SpecDocumentInfo, against: SpecSideLive): Promise<Endpoint | undefined> {
    if (against === 'none') return undefined;
    const named = against === 'bound' ? undefined : against;
    const endpointId = named?.endpointId ?? bindingFor(source, info.index)?.endpointId;
    if (endpointId === undefined) return undefined;
    const client =
      named?.profile !== undefined
        ? await this.clients.forProfile(named.profile)
        : await this.clients.forSpec(source, info).then((found) => (found.ok ? found.client : undefined));
    return client && this.read(client, endpointId).catch(() => undefined);
  }

  private read(client: ProfileClient, endpointId: string): Promise<Endpoint> {
    const now = Date.now();
    for (const [key, read] of this.reads) if (now - read.at > SHARED_READ_MS) this.reads.delete(key);
    const key = `${client.profile.name}/${endpointId}`;
    const shared = this.reads.get(key)?.endpoint ?? client.api.serverless.get(endpointId);
    if (!this.reads.has(key)) this.reads.set(key, { at: now, endpoint: shared });
    return shared;
  }

  dispose(): void {
    this.marks.dispose();
    this.reads.clear();
  }
}

/** A live endpoint's document; `profile` names the account to read it from (an environment's), else the active one. */
export function liveUri(endpointId: string | undefined, profile?: string): vscode.Uri {
  return vscode.Uri.from({ scheme: LIVE_SCHEME, path: `/${endpointId ?? ''}.yaml`, query: String(Date.now()), fragment: profile ?? '' });
}

/** The endpoint as at its release `version`, written like the live side so a diff of the two shows what a rollback changes. */
export function releaseUri(endpointId: string, version: number): vscode.Uri {
  return liveUri(endpointId).with({ query: `release=${version}&${Date.now()}` });
}

async function releaseText(api: ApiClient, endpointId: string, version: number): Promise<string> {
  const [current, list] = await Promise.all([api.serverless.get(endpointId), api.serverless.releases(endpointId)]);
  const restored = configurationAt(current, list.releases, version);
  if (!restored.ok) return `# release ${version} cannot be restored: ${restored.reason}\n`;
  return `${serializeSpec(liveSide(restored.spec), 'yaml')}\n`;
}

/** A spec document's side of a diff, written against `against`'s live endpoint (by default the one it is bound to). */
export function specUri(source: vscode.Uri, documentIndex: number, against: SpecSideLive = 'bound'): vscode.Uri {
  return vscode.Uri.from({
    scheme: SPEC_SCHEME,
    path: `/${source.path.split('/').pop() ?? 'spec'}`,
    // A time stamp, as for the live side: the editor keeps a virtual document by its URI, and an overlay's body
    // changes with its base, which the editor does not see change.
    query: `${documentIndex}&${Date.now()}${sideLiveQuery(against)}`,
    fragment: source.toString(),
  });
}

function sideLiveQuery(against: SpecSideLive): string {
  if (against === 'bound') return '';
  if (against === 'none') return '&live=';
  const profile = against.profile !== undefined ? `&profile=${encodeURIComponent(against.profile)}` : '';
  return `&live=${encodeURIComponent(against.endpointId)}${profile}`;
}

function sideLiveOf(uri: vscode.Uri): SpecSideLive {
  const query = new URLSearchParams(uri.query);
  const endpointId = query.get('live');
  if (endpointId === null) return 'bound';
  if (endpointId === '') return 'none';
  const profile = query.get('profile');
  return profile === null ? { endpointId } : { endpointId, profile };
}
