/**
 * "Bind to Endpoint…": claim an existing endpoint for a spec document without deploying, so the next
 * deploy updates it. Endpoints carrying the spec's name are offered first; the binding itself is
 * the operations layer's `bindSpec`, as for `endpoint-studio bind`.
 */
import * as vscode from 'vscode';
import type { Endpoint } from '../../core/api';
import { bindSpec } from '../../core/operations';
import type { SpecClients } from '../environments/clients';
import type { LiveStates } from './specState';
import { resolveTarget, targetBindings, type SpecTarget } from './target';

export function registerBindCommand(clients: SpecClients, states: LiveStates): vscode.Disposable {
  return vscode.commands.registerCommand('endpointStudio.deploy.bind', (uri?: vscode.Uri, index?: unknown) =>
    bindToEndpoint(clients, states, uri, index),
  );
}

async function bindToEndpoint(clients: SpecClients, states: LiveStates, uri: vscode.Uri | undefined, index: unknown): Promise<void> {
  const { session } = clients;
  const target = await resolveTarget(clients.files, uri, index, 'bind');
  if (!target) return;
  // An environment's endpoint lives in its profile's account: the list to pick from is that account's.
  const client = await clients.forSpec(target.text.uri, target.info);
  if (!client.ok) return void vscode.window.showWarningMessage(`binding needs a signed-in profile: ${client.reason}`);
  const { api } = client.client;
  const bindings = targetBindings(target);
  if (!bindings.ok) return void vscode.window.showErrorMessage(`bind refused: ${bindings.error}`);
  let endpoints: Endpoint[];
  try {
    endpoints = await api.serverless.list({ timeoutMs: 10_000 });
  } catch (error) {
    session.reportError('list endpoints', error);
    return;
  }
  const current = bindings.binding(target.info.index)?.endpointId;
  const endpointId = await pickEndpoint(target, endpoints, current);
  if (endpointId === undefined) return;
  const bound = await bindSpec({
    client: api,
    document: { ...bindings.location, documentIndex: target.info.index },
    endpointId,
    spec: target.spec,
  });
  states.invalidate();
  if (!bound.ok) return void vscode.window.showErrorMessage(`bind failed: ${api.redact(bound.message)}`);
  const changes = bound.drift.length;
  void vscode.window.showInformationMessage(
    `Bound the spec to ${bound.endpoint.name} (${bound.endpoint.id}): ${changes === 0 ? 'it matches the spec' : `it differs in ${changes} field${changes === 1 ? '' : 's'}; a deploy updates it`}`,
  );
}

/** Endpoints with the spec's name first, then the rest by name; the bound one is marked. */
async function pickEndpoint(target: SpecTarget, endpoints: readonly Endpoint[], current: string | undefined): Promise<string | undefined> {
  if (endpoints.length === 0)
    return void vscode.window.showInformationMessage('there are no endpoints to bind to: deploy the spec to create one');
  const name = target.spec.name;
  const sorted = [...endpoints].sort((a, b) => Number(b.name === name) - Number(a.name === name) || a.name.localeCompare(b.name));
  const picked = await vscode.window.showQuickPick(
    sorted.map((e) => ({
      label: e.name,
      description: e.id,
      detail:
        [e.name === name ? 'same name as the spec' : '', e.id === current ? 'bound now' : ''].filter(Boolean).join(' · ') || undefined,
      endpointId: e.id,
    })),
    {
      title: `Bind ${typeof name === 'string' ? `"${name}"` : 'this spec'} to an endpoint`,
      placeHolder: 'The endpoint this spec describes',
      matchOnDescription: true,
    },
  );
  return picked?.endpointId;
}
