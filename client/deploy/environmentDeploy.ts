/**
 * The environment's part of a deploy from the editor: which profile's key it deploys with (the one
 * `.endpoint-studio/environments.yaml` names for the overlay's environment, whichever profile is active), the
 * modal that refuses any other unless the user picks it by name, the plan's header (environment, profile,
 * endpoint), and the typed name a protected environment asks for before anything is applied.
 */
import * as vscode from 'vscode';
import type { ApiClient } from '../../core/api';
import { ENVIRONMENTS_FILE } from '../../core/environments/config';
import type { SpecClients } from '../environments/clients';
import type { SpecEnvironment } from '../environments/specFile';
import type { SpecTarget } from './target';

/** Who a deploy goes out as. */
export interface DeployClient {
  readonly api: ApiClient;
  readonly profile: string;
  readonly environment?: SpecEnvironment;
  /** The user chose a profile other than the environment's. */
  readonly overridden: boolean;
}

/** The client to deploy `target` with, after any question; undefined when refused or cancelled. */
export async function deployClientFor(clients: SpecClients, target: SpecTarget): Promise<DeployClient | undefined> {
  if (!vscode.workspace.isTrusted)
    return void vscode.window.showErrorMessage(
      'deploy refused: this workspace is not trusted; in Restricted Mode nothing is sent to the service',
    );
  const { environment } = target;
  if (environment?.settingsProblem !== undefined)
    return void vscode.window.showErrorMessage(`deploy refused: ${environment.name} is not configured: ${environment.settingsProblem}`);
  const wanted = environment?.profile;
  if (environment && wanted !== undefined) {
    const own = await clients.forProfile(wanted);
    if (own) return { api: own.api, profile: wanted, environment, overridden: false };
    return otherProfile(clients, environment, wanted);
  }
  const active = clients.active();
  if (active) return { api: active.api, profile: active.profile.name, ...(environment ? { environment } : {}), overridden: false };
  const choice = await vscode.window.showWarningMessage('deploy needs a signed-in profile', 'Sign In', 'Use Local Emulator');
  if (choice === 'Sign In') void vscode.commands.executeCommand('endpointStudio.auth.signIn');
  if (choice === 'Use Local Emulator') void vscode.commands.executeCommand('endpointStudio.emulator.use');
  return undefined;
}

/** The environment's profile is not signed in here: refused, unless the user picks the active one by its name. */
async function otherProfile(clients: SpecClients, environment: SpecEnvironment, wanted: string): Promise<DeployClient | undefined> {
  const active = clients.active();
  const message = `${environment.name} deploys with profile ${wanted} (${ENVIRONMENTS_FILE}), which is not signed in here`;
  if (!active) {
    const choice = await vscode.window.showErrorMessage(`deploy refused: ${message}`, { modal: true }, 'Sign In…');
    if (choice) void vscode.commands.executeCommand('endpointStudio.auth.signIn');
    return undefined;
  }
  const override = `Deploy with ${active.profile.name}`;
  const choice = await vscode.window.showWarningMessage(
    `Deploy refused: ${message}.`,
    {
      modal: true,
      detail: `Sign in as ${wanted} to deploy ${environment.name} to its own account.\n${override}: this environment's spec goes to the account of profile ${active.profile.name} instead (${active.profile.apiUrl}).`,
    },
    'Sign In…',
    override,
  );
  if (choice === 'Sign In…') void vscode.commands.executeCommand('endpointStudio.auth.signIn');
  if (choice !== override) return undefined;
  return { api: active.api, profile: active.profile.name, environment, overridden: true };
}

/** `prod · profile production · ep_123`: where the plan goes, said in the diff's title and the confirmation. */
export function planHeader(client: DeployClient, endpoint: string): string {
  const profile = `profile ${client.profile}${client.overridden ? ` (not ${client.environment?.profile ?? ''}, as chosen)` : ''}`;
  return [client.environment ? `environment ${client.environment.name}` : undefined, profile, endpoint].filter(Boolean).join(' · ');
}

/** A protected environment applies only after its name is typed; false when the box is dismissed. */
export async function confirmProtected(environment: SpecEnvironment | undefined): Promise<boolean> {
  if (!environment?.protected) return true;
  const typed = await vscode.window.showInputBox({
    title: `Deploy to ${environment.name}`,
    prompt: `${environment.name} is protected (${ENVIRONMENTS_FILE}): type its name to deploy`,
    placeHolder: environment.name,
    ignoreFocusOut: true,
    validateInput: (value) => (value === environment.name ? undefined : `type ${environment.name} to deploy, or press Escape to cancel`),
  });
  return typed === environment.name;
}
