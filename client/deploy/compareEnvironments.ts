/**
 * Compare Environments: VS Code's diff of two environments' effective specs (each overlay merged into its base,
 * as YAML, as a deploy would send it), or of an environment against its live endpoint, read with that
 * environment's profile. Both sides are the deploy feature's virtual documents, so what is compared here is
 * exactly what Diff and the plan show. The family (a base and its overlays) is the language server's answer.
 */
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { isSpecFile } from '../../core/protocol';
import type { SpecClients } from '../environments/clients';
import { familyOf } from '../environments/specFile';
import { liveUri, specUri, type SpecSideLive } from './liveDocuments';
import { bindingFor } from './specState';

/** One member of a base's family: the base itself or one of its overlays. */
interface Member {
  readonly label: string;
  readonly uri: vscode.Uri;
}

type Side = { readonly kind: 'spec'; readonly member: Member } | { readonly kind: 'live'; readonly member: Member };

interface Pair extends vscode.QuickPickItem {
  readonly left: Side;
  readonly right: Side;
}

export function registerCompareCommand(clients: SpecClients): vscode.Disposable {
  return vscode.commands.registerCommand('endpointStudio.environments.compare', (uri?: vscode.Uri) => compare(clients, uri));
}

async function compare(clients: SpecClients, uri: vscode.Uri | undefined): Promise<void> {
  const start = uri ?? vscode.window.activeTextEditor?.document.uri;
  if (start?.scheme !== 'file' || !isSpecFile(start.fsPath))
    return void vscode.window.showInformationMessage('open an endpoint spec or one of its environments to compare them');
  const family = await familyOf(clients.files, start);
  if ('error' in family) return void vscode.window.showErrorMessage(`compare refused: ${family.error}`);
  const overlays = [...family.environments].sort((a, b) => a.environment.localeCompare(b.environment));
  const members: Member[] = [
    { label: 'base', uri: vscode.Uri.file(family.base) },
    ...overlays.map(({ path, environment }) => ({ label: environment, uri: vscode.Uri.file(path) })),
  ];
  if (members.length < 2)
    return void vscode.window.showInformationMessage(
      `${basename(start.fsPath)} has no environments: add an overlay named ${basename(start.fsPath).replace(/\.endpoint\./, '.<environment>.endpoint.')}`,
    );
  const picked = await vscode.window.showQuickPick(pairsOf(members, start), {
    title: `Compare the environments of ${basename(family.base)}`,
    placeHolder: 'Two environments as deployed (merged into the base), or an environment and its live endpoint',
    matchOnDescription: true,
  });
  if (picked) await openDiff(clients, picked);
}

/** Environment against environment first (the file in hand first), then each against its live endpoint. */
function pairsOf(members: readonly Member[], current: vscode.Uri): Pair[] {
  const environments = members.filter((m) => m.label !== 'base');
  const pairs: Pair[] = [];
  for (const [i, first] of members.entries())
    for (const second of members.slice(i + 1)) {
      // The file in hand on the left: "staging vs prod" when staging is open.
      const [left, right] = second.uri.fsPath === current.fsPath ? [second, first] : [first, second];
      pairs.push({
        label: `${left.label} vs ${right.label}`,
        description: `${basename(left.uri.fsPath)} ↔ ${basename(right.uri.fsPath)}`,
        left: { kind: 'spec', member: left },
        right: { kind: 'spec', member: right },
      });
    }
  for (const member of [...environments, members[0]])
    pairs.push({
      label: `${member.label} vs its live endpoint`,
      description: `the endpoint ${basename(member.uri.fsPath)} is bound to`,
      left: { kind: 'live', member },
      right: { kind: 'spec', member },
    });
  const touches = (pair: Pair): boolean => [pair.left, pair.right].some((side) => side.member.uri.fsPath === current.fsPath);
  return [...pairs.filter(touches), ...pairs.filter((pair) => !touches(pair))];
}

async function openDiff(clients: SpecClients, pair: Pair): Promise<void> {
  // A spec side is filled from its endpoint only beside that live endpoint; two specs compare as they are written.
  const against = pair.left.kind === 'live' ? 'bound' : 'none';
  const left = await sideUri(clients, pair.left, against);
  if (!left) return;
  const right = await sideUri(clients, pair.right, against);
  if (!right) return;
  const title =
    pair.left.kind === 'live'
      ? `${pair.left.member.label}: live ${left.label} ↔ spec`
      : `${pair.left.member.label} ↔ ${pair.right.member.label} (as deployed)`;
  await vscode.commands.executeCommand('vscode.diff', left.uri, right.uri, title, { preview: true });
}

async function sideUri(clients: SpecClients, side: Side, against: SpecSideLive): Promise<{ uri: vscode.Uri; label: string } | undefined> {
  if (side.kind === 'spec') return { uri: specUri(side.member.uri, 0, against), label: side.member.label };
  const binding = bindingFor(side.member.uri, 0);
  if (!binding)
    return void vscode.window.showInformationMessage(
      `compare: ${basename(side.member.uri.fsPath)} is not deployed yet (no binding in .endpoint-studio/deployments.json)`,
    );
  const client = await clients.forSpec(side.member.uri);
  if (!client.ok) return void vscode.window.showWarningMessage(`compare: the live endpoint cannot be read: ${client.reason}`);
  const profile = client.client.profile.name;
  return { uri: liveUri(binding.endpointId, profile), label: `${binding.endpointId} (profile ${profile})` };
}
