/**
 * Read-only virtual documents for diffs: `endpoint-studio-live:/<id>.yaml` is a live endpoint as a
 * spec (read with the profile its fragment names, else the active one); `endpoint-studio-spec:/<path>?<index>`
 * is a spec document as it would be sent, an overlay merged into its base; `endpoint-studio-live:/<id>.yaml?release=N`
 * is the endpoint as at its release N (every newer release's change undone), what a rollback to N restores.
 */
import * as vscode from 'vscode';
import type { ApiClient } from '../../core/api';
import { liveAsSpec } from '../../core/deploy';
import { configurationAt } from '../../core/deploy/rollback';
import { serializeSpec } from '../../core/endpointSpec/serialize';
import { toServiceBody } from '../../core/endpointSpec/validate';
import type { SpecClients } from '../environments/clients';
import { unanswered } from '../environments/specFile';
import { specDocuments, type SpecDocumentInfo } from './specState';

export const LIVE_SCHEME = 'endpoint-studio-live';
export const SPEC_SCHEME = 'endpoint-studio-spec';

export class LiveDocumentProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly clients: SpecClients) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    if (uri.scheme === SPEC_SCHEME) return specText(this.clients, uri);
    const id = uri.path.replace(/^\//, '').replace(/\.yaml$/, '');
    if (!id) return '# a new endpoint: nothing is deployed yet\n';
    const profile = uri.fragment;
    const client = profile ? await this.clients.forProfile(profile) : this.clients.active();
    if (!client) return `# ${profile ? `profile ${profile} is not signed in` : 'signed out'}: sign in to read the live configuration\n`;
    const release = /^release=(\d+)&/.exec(uri.query)?.[1];
    try {
      if (release !== undefined) return await releaseText(client.api, id, Number(release));
      return `${serializeSpec(liveAsSpec(await client.api.serverless.get(id)), 'yaml')}\n`;
    } catch (error) {
      return `# the live configuration could not be read: ${client.api.redact(error instanceof Error ? error.message : String(error))}\n`;
    }
  }
}

/** A spec document as a deploy sends it (an overlay merged into its base), as the language server answers for it. */
async function specText(clients: SpecClients, uri: vscode.Uri): Promise<string> {
  const source = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri.fragment));
  let info: SpecDocumentInfo | undefined;
  try {
    info = (await specDocuments(clients.files, source, Number.parseInt(uri.query, 10) || 0)).at(0);
  } catch (error) {
    return `# ${unanswered(error)}\n`;
  }
  if (info?.overlay?.firstError !== undefined) return `# this environment's spec is broken: ${info.overlay.firstError}\n`;
  return info?.spec ? `${serializeSpec(toServiceBody(info.spec), 'yaml')}\n` : '';
}

/** A live endpoint's document; `profile` names the account to read it from (an environment's), else the active one. */
export function liveUri(endpointId: string | undefined, profile?: string): vscode.Uri {
  return vscode.Uri.from({ scheme: LIVE_SCHEME, path: `/${endpointId ?? ''}.yaml`, query: String(Date.now()), fragment: profile ?? '' });
}

/** The endpoint as at its release `version`, written like the live side so a diff of the two shows what a rollback changes. */
export function releaseUri(endpointId: string, version: number, profile?: string): vscode.Uri {
  return vscode.Uri.from({
    scheme: LIVE_SCHEME,
    path: `/${endpointId}.yaml`,
    query: `release=${version}&${Date.now()}`,
    fragment: profile ?? '',
  });
}

async function releaseText(api: ApiClient, endpointId: string, version: number): Promise<string> {
  const [current, list] = await Promise.all([api.serverless.get(endpointId), api.serverless.releases(endpointId)]);
  const restored = configurationAt(current, list.releases, version);
  if (!restored.ok) return `# release ${version} cannot be restored: ${restored.reason}\n`;
  return `${serializeSpec(liveAsSpec(restored.spec), 'yaml')}\n`;
}

export function specUri(source: vscode.Uri, documentIndex: number): vscode.Uri {
  return vscode.Uri.from({
    scheme: SPEC_SCHEME,
    path: `/${source.path.split('/').pop() ?? 'spec'}`,
    // A time stamp, as for the live side: the editor keeps a virtual document by its URI, and an overlay's body
    // changes with its base, which the editor does not see change.
    query: `${documentIndex}&${Date.now()}`,
    fragment: source.toString(),
  });
}
