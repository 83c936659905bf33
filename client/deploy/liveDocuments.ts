/**
 * Read-only virtual documents for diffs: `endpoint-studio-live:/<id>.yaml` is a live endpoint as a
 * spec; `endpoint-studio-spec:/<path>?<index>` is a spec document as it would be sent.
 */
import * as vscode from 'vscode';
import { liveAsSpec } from '../../core/deploy';
import { serializeSpec } from '../../core/endpointSpec/serialize';
import { toServiceBody } from '../../core/endpointSpec/validate';
import type { Session } from '../auth/session';
import { specDocuments } from './specState';

export const LIVE_SCHEME = 'endpoint-studio-live';
export const SPEC_SCHEME = 'endpoint-studio-spec';

export class LiveDocumentProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly session: Session) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    if (uri.scheme === SPEC_SCHEME) {
      const source = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri.fragment));
      const info = specDocuments(source).at(Number(uri.query) || 0);
      return info?.spec ? `${serializeSpec(toServiceBody(info.spec), 'yaml')}\n` : '';
    }
    const id = uri.path.replace(/^\//, '').replace(/\.yaml$/, '');
    if (!id) return '# a new endpoint: nothing is deployed yet\n';
    const api = this.session.api;
    if (!api) return '# signed out: sign in to read the live configuration\n';
    try {
      return `${serializeSpec(liveAsSpec(await api.serverless.get(id)), 'yaml')}\n`;
    } catch (error) {
      return `# the live configuration could not be read: ${this.session.redact(error instanceof Error ? error.message : String(error))}\n`;
    }
  }
}

export function liveUri(endpointId: string | undefined): vscode.Uri {
  return vscode.Uri.from({ scheme: LIVE_SCHEME, path: `/${endpointId ?? ''}.yaml`, query: String(Date.now()) });
}

export function specUri(source: vscode.Uri, documentIndex: number): vscode.Uri {
  return vscode.Uri.from({
    scheme: SPEC_SCHEME,
    path: `/${source.path.split('/').pop() ?? 'spec'}`,
    query: String(documentIndex),
    fragment: source.toString(),
  });
}
