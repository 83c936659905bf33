/**
 * What a base's edit reaches. An edit to a base changes every environment's next deploy, whatever that deploy is
 * for, so the base says which environments its text (unsaved edits included) would change, counted against what
 * each last deployed from here: the release its binding recorded. The bodies are the language server's; nothing
 * is asked of the service.
 */
import * as vscode from 'vscode';
import { environmentSettings, reachOf } from '../../core/operations';
import type { SpecEnvironmentFacts } from '../../core/protocol';
import { specRoot } from '../environments/specFile';
import { bindingFor, type SpecDocumentInfo } from './specState';

/** `prod (protected): 1 change pending from the base`, above the base, for each environment its edits reach. */
export function reachLenses(info: SpecDocumentInfo): vscode.CodeLens[] {
  if (info.overlay || info.index !== 0) return [];
  return (info.environments ?? []).flatMap((environment) => {
    const lens = reachLens(environment);
    return lens ? [new vscode.CodeLens(info.range, lens)] : [];
  });
}

function reachLens(environment: SpecEnvironmentFacts): vscode.Command | undefined {
  const uri = vscode.Uri.file(environment.path);
  const isProtected = environmentSettings(environment.environment, environment.path, specRoot(uri)).environment.protected;
  const merged = environment.body ? { merged: environment.body } : {};
  const reach = reachOf({ ...environment, ...merged }, bindingFor(uri, 0), isProtected);
  const count = reach.fromBase.length;
  if (reach.status !== 'pending' || count === 0) return undefined;
  const name = `${reach.environment}${reach.protected ? ' (protected)' : ''}`;
  return {
    title: `$(${reach.protected ? 'shield' : 'arrow-right'}) ${name}: ${String(count)} change${count === 1 ? '' : 's'} pending from the base`,
    command: 'endpointStudio.deploy.diff',
    arguments: [uri, 0],
    tooltip: `The next deploy of ${reach.environment} changes ${reach.fromBase.join(', ')}, from this base, since its last deploy from here. Click to see its live endpoint beside what it would deploy.`,
  };
}
