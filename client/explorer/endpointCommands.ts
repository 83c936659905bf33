/**
 * What the Endpoints view lets the user do with an endpoint: copy its id or a request URL, open the
 * spec bound to it, pull its live configuration into a new spec, and delete it behind the same
 * typed-name confirmation the web console asks for. An endpoint whose spec was deleted ("no spec") is
 * deleted the same way and its binding forgotten with it, or only its binding is forgotten. Each command
 * takes the tree node it was invoked on; from the Command Palette it uses the selection or asks which endpoint.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Endpoint } from '../../core/api';
import { findWorkspaceRoot, liveAsSpec, specKey, updateBindings, withBinding } from '../../core/deploy';
import { serializeSpec } from '../../core/endpointSpec/serialize';
import { deleteOrphanedEndpoint, forgetOrphan } from '../../core/operations';
import { specFileName } from '../../core/protocol';
import type { Session } from '../auth/session';
import { openBoundSpec, type BoundSpec } from './boundSpecs';
import { primaryUrl, requestUrls } from './endpointFacts';
import type { EndpointNode, EndpointsTree } from './endpointsTree';

export interface Target {
  endpoint: Endpoint;
  spec: BoundSpec | undefined;
}

/** What the endpoint commands act through. */
export interface EndpointCommandContext {
  readonly session: Session;
  readonly tree: EndpointsTree;
  readonly view: vscode.TreeView<EndpointNode>;
  readonly log: vscode.LogOutputChannel;
}

export function registerEndpointCommands(
  session: Session,
  tree: EndpointsTree,
  view: vscode.TreeView<EndpointNode>,
  log: vscode.LogOutputChannel,
): vscode.Disposable {
  const context: EndpointCommandContext = { session, tree, view, log };
  return vscode.Disposable.from(
    // The title bar's Refresh reads the whole list: VS Code passes the focused row to view-title commands, so
    // refreshing one row (workers, releases, a retry) has its own command.
    vscode.commands.registerCommand('endpointStudio.endpoints.refresh', () => tree.refresh()),
    vscode.commands.registerCommand('endpointStudio.endpoints.refreshNode', (node?: EndpointNode) => refresh(tree, node)),
    vscode.commands.registerCommand('endpointStudio.endpoints.filter', () => filter(tree)),
    vscode.commands.registerCommand('endpointStudio.endpoints.clearFilter', () => {
      tree.setFilter('');
    }),
    vscode.commands.registerCommand('endpointStudio.endpoints.copyId', (node?: EndpointNode) => copyId(context, node)),
    vscode.commands.registerCommand('endpointStudio.endpoints.copyUrl', (node?: EndpointNode) => copyUrl(context, node)),
    vscode.commands.registerCommand('endpointStudio.endpoints.openSpec', (node?: EndpointNode) => openSpec(context, node)),
    vscode.commands.registerCommand('endpointStudio.endpoints.pullSpec', (node?: EndpointNode) => pullSpec(context, node)),
    vscode.commands.registerCommand('endpointStudio.endpoints.delete', (node?: EndpointNode) => deleteEndpoint(context, node)),
    vscode.commands.registerCommand('endpointStudio.endpoints.forgetBinding', (node?: EndpointNode) => forgetBinding(context, node)),
  );
}

/** The endpoint a command acts on: the node it was invoked on, the selection, or one the user picks. */
export async function target({ session, tree, view }: EndpointCommandContext, node: EndpointNode | undefined): Promise<Target | undefined> {
  const chosen = node ?? view.selection.at(0);
  if (chosen && chosen.kind !== 'message') return { endpoint: chosen.endpoint, spec: chosen.kind === 'endpoint' ? chosen.spec : undefined };
  if (!session.api) return void vscode.window.showInformationMessage('Sign in to see your endpoints');
  let endpoints: Endpoint[];
  try {
    endpoints = await tree.endpoints();
  } catch (error) {
    session.reportError('Listing endpoints', error);
    return;
  }
  if (endpoints.length === 0) return void vscode.window.showInformationMessage('This account has no endpoints');
  const picked = await vscode.window.showQuickPick(
    endpoints.map((endpoint) => ({ label: endpoint.name, description: endpoint.id, endpoint })),
    { title: 'Which endpoint?', matchOnDescription: true },
  );
  return picked && { endpoint: picked.endpoint, spec: undefined };
}

export async function copy(text: string, what: string): Promise<void> {
  await vscode.env.clipboard.writeText(text);
  vscode.window.setStatusBarMessage(`$(copy) Copied ${what}`, 3000);
}

async function copyId(context: EndpointCommandContext, node: EndpointNode | undefined): Promise<void> {
  const chosen = await target(context, node);
  if (chosen) await copy(chosen.endpoint.id, `the id of ${chosen.endpoint.name}`);
}

async function copyUrl(context: EndpointCommandContext, node: EndpointNode | undefined): Promise<void> {
  if (node?.kind === 'url') return copy(node.url, `the ${node.name} URL`);
  const chosen = await target(context, node);
  if (!chosen) return;
  const urls = requestUrls(chosen.endpoint);
  if (urls.length === 0) return void vscode.window.showInformationMessage(`${chosen.endpoint.name} has no request URLs yet`);
  const primary = primaryUrl(chosen.endpoint);
  const picked = await vscode.window.showQuickPick(
    urls
      .map(({ name, url }) => ({ label: name, description: url, url, picked: url === primary }))
      .sort((a, b) => Number(b.picked) - Number(a.picked)),
    { title: `Copy a request URL of ${chosen.endpoint.name}` },
  );
  if (picked) await copy(picked.url, `the ${picked.label} URL`);
}

async function openSpec(context: EndpointCommandContext, node: EndpointNode | undefined): Promise<void> {
  const chosen = await target(context, node);
  if (!chosen) return;
  const spec = chosen.spec ?? (await context.tree.boundSpec(chosen.endpoint.id));
  if (spec && existsSync(spec.uri.fsPath)) return openBoundSpec(spec);
  const why = spec
    ? `the spec bound to ${chosen.endpoint.name} (${spec.key}) no longer exists`
    : `no spec in this workspace is bound to ${chosen.endpoint.name}`;
  const choice = await vscode.window.showInformationMessage(`${why}. Pull its live configuration into a new spec?`, 'Pull into New Spec');
  if (choice) await pullSpec(context, node ?? { kind: 'endpoint', endpoint: chosen.endpoint, spec: undefined });
}

/**
 * Writes the live configuration as a spec that, deployed unchanged, changes nothing: the endpoint
 * is read again (not the list's copy) and converted with the deploy engine's own `liveAsSpec`.
 * The new file is bound to the endpoint, so its CodeLens offers an update rather than a create.
 */
async function pullSpec(context: EndpointCommandContext, node: EndpointNode | undefined): Promise<void> {
  const { session } = context;
  const chosen = await target(context, node);
  const api = session.api;
  if (!chosen || !api) return;
  let live: Endpoint;
  try {
    live = await api.serverless.get(chosen.endpoint.id);
  } catch (error) {
    session.reportError(`Reading ${chosen.endpoint.name}`, error);
    return;
  }
  const notes = [
    `Live configuration of endpoint ${live.id} (${live.name}), pulled ${new Date().toISOString()}.`,
    'Deployed unchanged, it changes nothing.',
  ];
  const text = `${serializeSpec(liveAsSpec(live), 'yaml', notes)}\n`;
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder || folder.uri.scheme !== 'file') return openUnsaved(text, live);
  const path = await writeBoundSpec(context.log, folder.uri.fsPath, text, live);
  await vscode.window.showTextDocument(vscode.Uri.file(path), { preview: false });
  context.tree.bindingsChanged();
}

/** Without a local folder there is nowhere to bind a file: the spec opens unsaved. */
async function openUnsaved(text: string, live: Endpoint): Promise<void> {
  const document = await vscode.workspace.openTextDocument({ language: 'yaml', content: text });
  await vscode.window.showTextDocument(document);
  void vscode.window.showInformationMessage(`Save it as ${specFileName(safeFileName(live.name))} to check and deploy it`);
}

/** Writes the pulled spec beside the others and binds it to `live`; the path it was written to. */
async function writeBoundSpec(log: vscode.LogOutputChannel, folder: string, text: string, live: Endpoint): Promise<string> {
  const path = freePath(folder, safeFileName(live.name));
  await vscode.workspace.fs.writeFile(vscode.Uri.file(path), Buffer.from(text, 'utf8'));
  const root = findWorkspaceRoot(path);
  const bound = updateBindings(root, (store) =>
    withBinding(store, specKey(root, path), 0, { endpointId: live.id, endpointName: live.name, deployedAt: new Date().toISOString() }),
  );
  if (!bound.ok) log.warn(`explorer: the pulled spec was written but not bound: ${bound.error}`);
  return path;
}

/** As the web console does: the user types the name; nothing else (not even Enter on a wrong name) deletes. */
async function deleteEndpoint(context: EndpointCommandContext, node: EndpointNode | undefined): Promise<void> {
  const { session, tree, log } = context;
  const chosen = await target(context, node);
  if (!chosen) return;
  const { name, id } = chosen.endpoint;
  const typed = await vscode.window.showInputBox({
    title: `Delete endpoint ${name} permanently`,
    prompt: `Its configuration, logs and job history are removed permanently; running workers stop and queued jobs are cancelled. This cannot be undone. Type "${name}" to confirm.`,
    placeHolder: name,
    ignoreFocusOut: true,
    // The message replaces the prompt while typing, so it repeats what deleting removes.
    validateInput: (value) =>
      value === name
        ? undefined
        : {
            message: `Type ${name} exactly to delete it: its configuration, logs and job history are removed permanently`,
            severity: vscode.InputBoxValidationSeverity.Error,
          },
  });
  if (typed === undefined) return;
  if (typed !== name) return void vscode.window.showInformationMessage(`${name} was not deleted: the name did not match`);
  const api = session.api;
  if (!api) return void vscode.window.showWarningMessage('Sign in again to delete endpoints');
  const bound = chosen.spec ?? (await tree.boundSpec(id));
  if (bound?.gone) return deleteLeftBehind(context, chosen.endpoint, bound);
  try {
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Deleting ${name}…` }, () =>
      api.serverless.delete(id),
    );
  } catch (error) {
    session.reportError(`Deleting ${name}`, error);
    return;
  }
  log.info(`explorer: deleted endpoint ${id} (${name})`);
  void vscode.window.showInformationMessage(`Deleted endpoint ${name}`);
  // The list changed for certain: read it again even if a refresh is in flight.
  await tree.restart();
}

/** Deletes an endpoint whose spec is gone, then forgets its binding; one already deleted elsewhere is only forgotten. */
async function deleteLeftBehind({ session, tree, log }: EndpointCommandContext, endpoint: Endpoint, spec: BoundSpec): Promise<void> {
  const api = session.api;
  if (!api) return;
  const { name, id } = endpoint;
  const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Deleting ${name}…` }, () =>
    deleteOrphanedEndpoint({ client: api, root: spec.root, endpointId: id }),
  );
  if (!result.ok) {
    if (result.code === 'api-error') session.reportError(`Deleting ${name}`, new Error(result.error));
    else void vscode.window.showWarningMessage(`${name} was not deleted: ${result.error}`);
    return;
  }
  const what = result.outcome === 'deleted' ? `Deleted endpoint ${name}` : `Endpoint ${name} had already been deleted`;
  log.info(
    `explorer: ${result.outcome === 'deleted' ? 'deleted' : 'found already deleted'} endpoint ${id} (${name}), left behind by ${spec.key}`,
  );
  if (result.forgetError) void vscode.window.showWarningMessage(`${what}, but its binding was not forgotten: ${result.forgetError}`);
  else void vscode.window.showInformationMessage(`${what} and forgot its binding to ${spec.key}`);
  await tree.restart();
}

/** Only for an endpoint whose spec is gone: the binding goes, the endpoint keeps running. */
async function forgetBinding(context: EndpointCommandContext, node: EndpointNode | undefined): Promise<void> {
  const chosen = await target(context, node);
  if (!chosen) return;
  const spec = chosen.spec ?? (await context.tree.boundSpec(chosen.endpoint.id));
  const { name, id } = chosen.endpoint;
  if (!spec?.gone)
    return void vscode.window.showInformationMessage(`${name} keeps its binding: only an endpoint whose spec is gone can be forgotten`);
  const forgotten = forgetOrphan(spec.root, spec.key, spec.documentIndex);
  if (!forgotten.forgotten) return void vscode.window.showWarningMessage(`The binding of ${name} was not forgotten: ${forgotten.error}`);
  context.log.info(`explorer: forgot the binding of ${spec.key} to endpoint ${id} (${name})`);
  void vscode.window.showInformationMessage(`Forgot the binding of ${spec.key}; ${name} keeps running and billing until you delete it`);
  context.tree.bindingsChanged();
}

/** Invoked on a node, what that node shows is read again; from the view's title, the whole list. */
async function refresh(tree: EndpointsTree, node: EndpointNode | undefined): Promise<void> {
  if (node) tree.refreshNode(node);
  else await tree.refresh();
}

async function filter(tree: EndpointsTree): Promise<void> {
  const value = await vscode.window.showInputBox({
    title: 'Filter endpoints by name',
    prompt: 'Part of an endpoint name; empty shows all',
    value: tree.filter,
  });
  if (value !== undefined) tree.setFilter(value);
}

function safeFileName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '') || 'endpoint';
}

/** `<name>.endpoint.yaml`, or `<name>-2.endpoint.yaml`... when taken: a pull never overwrites a file. */
function freePath(folder: string, base: string): string {
  for (let n = 1; ; n++) {
    const path = join(folder, specFileName(n === 1 ? base : `${base}-${n}`));
    if (!existsSync(path)) return path;
  }
}
