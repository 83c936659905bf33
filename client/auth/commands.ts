/**
 * Sign In, Sign Out, Switch Profile and Use Local Emulator. Sign-in checks the key with a cheap
 * read before storing it, so a mistyped key is caught at once, not at the first deploy.
 */
import * as vscode from 'vscode';
import { ApiError, createApiClient } from '../../core/api';
import { join } from 'node:path';
import { EmulatorProcess, type EmulatorAddress } from './emulatorProcess';
import type { ProfileStore } from './profiles';

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;
const EMULATOR_PROFILE = 'emulator';

/** Checks a key against the service; returns what to tell the user when it cannot be used. */
async function checkKey(
  apiUrl: string,
  jobsUrl: string,
  apiKey: string,
): Promise<{ ok: true; readOnlyHint?: string } | { ok: false; reason: string }> {
  try {
    const api = createApiClient({ apiUrl, jobsUrl, apiKey, timeoutMs: 10_000 });
    await api.serverless.list();
    return { ok: true };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401)
      return { ok: false, reason: 'the service rejected the key (401): check it and try again' };
    if (error instanceof ApiError && error.status === 403)
      return { ok: true, readOnlyHint: 'the key cannot list endpoints (403); some views will stay empty' };
    return {
      ok: false,
      reason: `the service could not be reached to check the key: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

export function registerAuthCommands(profiles: ProfileStore, log: vscode.LogOutputChannel): vscode.Disposable {
  const emulator = new LocalEmulator();
  return vscode.Disposable.from(
    vscode.commands.registerCommand('endpointStudio.auth.signIn', () => signIn(profiles, log)),
    vscode.commands.registerCommand('endpointStudio.auth.signOut', () => signOut(profiles, log)),
    vscode.commands.registerCommand('endpointStudio.auth.switchProfile', () => switchProfile(profiles, log)),
    vscode.commands.registerCommand('endpointStudio.emulator.use', () => emulator.use(profiles, log)),
    emulator,
  );
}

/** Asks for a profile name and a key, checks the key against the service, and keeps it. */
async function signIn(profiles: ProfileStore, log: vscode.LogOutputChannel): Promise<void> {
  // Restricted Mode sends nothing to the service, not even the key check below.
  if (!vscode.workspace.isTrusted)
    return void vscode.window.showWarningMessage(
      'Endpoint Studio: trust this workspace to sign in; in Restricted Mode nothing is sent to the service',
    );
  const name = await askProfileName(profiles);
  if (!name) return;
  const apiKey = (await askApiKey(name))?.trim();
  if (!apiKey) return;
  // A profile signed in again keeps the URLs it was given (the emulator's, say).
  const existing = profiles.list().find((p) => p.name === name);
  const urls = {
    ...profiles.settingsUrls(),
    ...(existing?.apiUrl ? { apiUrl: existing.apiUrl } : {}),
    ...(existing?.jobsUrl ? { jobsUrl: existing.jobsUrl } : {}),
  };
  const verdict = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Checking the key' }, () =>
    checkKey(urls.apiUrl, urls.jobsUrl, apiKey),
  );
  if (!verdict.ok) return void vscode.window.showErrorMessage(`sign-in failed: ${verdict.reason}`);
  await profiles.save({ name, ...(existing?.apiUrl ? { apiUrl: existing.apiUrl, jobsUrl: existing.jobsUrl } : {}) }, apiKey);
  log.info(`signed in as profile ${name} (${urls.apiUrl})`);
  void vscode.window.showInformationMessage(`Signed in as profile ${name}${verdict.readOnlyHint ? `; note: ${verdict.readOnlyHint}` : ''}`);
}

function askProfileName(profiles: ProfileStore): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title: 'Endpoint Studio: Sign In',
    prompt: 'Profile name (several keys can be kept, e.g. personal and prod)',
    value: profiles.activeName && profiles.activeName !== EMULATOR_PROFILE ? profiles.activeName : 'default',
    validateInput: (v) => (PROFILE_NAME.test(v) ? undefined : 'letters, digits, dot, dash, underscore; up to 40 characters'),
  });
}

function askApiKey(profileName: string): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title: `Endpoint Studio: API key for ${profileName}`,
    prompt: 'The key is kept in the system keychain (SecretStorage) and nowhere else',
    password: true,
    ignoreFocusOut: true,
  });
}

async function signOut(profiles: ProfileStore, log: vscode.LogOutputChannel): Promise<void> {
  const name = profiles.activeName;
  if (!name) return void vscode.window.showInformationMessage('not signed in');
  await profiles.remove(name);
  log.info(`signed out of profile ${name}`);
  void vscode.window.showInformationMessage(`Signed out of profile ${name}; its key was removed`);
}

async function switchProfile(profiles: ProfileStore, log: vscode.LogOutputChannel): Promise<void> {
  const items = profiles
    .list()
    .map((p) => ({ label: p.name, description: p.apiUrl ?? profiles.settingsUrls().apiUrl, picked: p.name === profiles.activeName }));
  const choice = await vscode.window.showQuickPick([...items, { label: '$(add) Sign in with another key', description: '' }], {
    title: 'Endpoint Studio: Switch Profile',
  });
  if (!choice) return;
  if (choice.label.startsWith('$(add)')) return signIn(profiles, log);
  await profiles.activate(choice.label);
}

/** The emulator as a child process (`dist/cli.js emulator`, beside this bundle), stopped with the extension. */
class LocalEmulator implements vscode.Disposable {
  private process: EmulatorProcess | undefined;

  async use(profiles: ProfileStore, log: vscode.LogOutputChannel): Promise<void> {
    this.process ??= new EmulatorProcess(join(__dirname, 'cli.js'), (line) => {
      if (line) log.debug(`emulator: ${line}`);
    });
    let emulator: EmulatorAddress;
    try {
      emulator = await this.process.start();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log.error(`local emulator: ${message}`);
      return void vscode.window.showErrorMessage(`The local emulator could not start: ${message}`);
    }
    await profiles.save({ name: EMULATOR_PROFILE, apiUrl: emulator.restUrl, jobsUrl: emulator.jobsUrl }, emulator.apiKey);
    log.info(`local emulator at ${emulator.restUrl} (jobs ${emulator.jobsUrl}); profile ${EMULATOR_PROFILE} is active`);
    void vscode.window.showInformationMessage(`Using the local emulator at ${emulator.restUrl} (profile ${EMULATOR_PROFILE})`);
  }

  dispose(): void {
    void this.process?.stop();
  }
}
