/**
 * Sign-in in the real editor against the emulator: a wrong key is refused, a read-only key and a
 * good key are stored as profiles, the status bar follows the active profile, Use Local Emulator
 * needs no account at all.
 */
import assert from 'node:assert/strict';
import { after } from 'node:test';
import { startEmulator, DEFAULT_DEV_API_KEY, type RunningEmulator } from '../../emulator/index';
import { useEditorSession, type EditorSessionOptions } from './support/session';
import type { Workbench } from './support/workbench';

const READ_ONLY_KEY = 'es_read_only_e2e_key';
let emulator: RunningEmulator;
after(() => emulator.close());
const { editorTest } = useEditorSession('sign-in', async (): Promise<EditorSessionOptions> => {
  emulator = await startEmulator({ port: 0, jobsPort: 0, readOnlyKey: READ_ONLY_KEY });
  // No key in the environment: the extension starts signed out.
  return { userSettings: { 'endpointStudio.api.url': emulator.restUrl, 'endpointStudio.api.jobsUrl': emulator.jobsUrl } };
});

const statusBar = (workbench: Workbench) =>
  workbench.page.locator('.statusbar-item', { hasText: /Endpoint Studio: signed out|\$\(account\)|personal|viewer|emulator/ }).first();

async function waitForStatus(workbench: Workbench, text: RegExp): Promise<void> {
  await workbench.page.locator('.statusbar-item').filter({ hasText: text }).first().waitFor({ state: 'visible' });
}

/** Answers each input box only once its own title shows, so a slow editor never gets the key typed elsewhere. */
async function signIn(workbench: Workbench, profile: string, key: string): Promise<void> {
  const box = (title: string) => workbench.page.locator('.quick-input-widget', { hasText: title }).first().waitFor({ state: 'visible' });
  await workbench.runCommand('Endpoint Studio: Sign In');
  await box('Profile name');
  await workbench.answerInput(profile);
  await box(`API key for ${profile}`);
  await workbench.answerInput(key);
}

async function notification(workbench: Workbench, text: RegExp): Promise<string> {
  const toast = workbench.page.locator('.notifications-toasts .notification-toast').filter({ hasText: text }).first();
  await toast.waitFor({ state: 'visible' });
  return toast.innerText();
}

editorTest('starts signed out', async (workbench) => {
  await workbench.openFile('sdxl-worker.endpoint.yaml');
  await waitForStatus(workbench, /Endpoint Studio: signed out/);
  assert.ok(await statusBar(workbench).isVisible());
});

editorTest('a wrong key is refused and nothing is stored', async (workbench) => {
  await signIn(workbench, 'personal', 'es_wrong_key_123');
  assert.match(await notification(workbench, /sign-in failed/), /rejected the key \(401\)/);
  await waitForStatus(workbench, /Endpoint Studio: signed out/);
});

editorTest('a read-only key signs in as its own profile', async (workbench) => {
  await signIn(workbench, 'viewer', READ_ONLY_KEY);
  await notification(workbench, /Signed in as profile viewer/);
  await waitForStatus(workbench, /viewer/);
});

editorTest('a good key signs in, and the status bar shows the profile', async (workbench) => {
  await signIn(workbench, 'personal', DEFAULT_DEV_API_KEY);
  await notification(workbench, /Signed in as profile personal/);
  await waitForStatus(workbench, /personal/);
});

editorTest('switching profile from the status bar', async (workbench) => {
  await workbench.runCommand('Endpoint Studio: Switch Profile');
  await workbench.pickQuickInputRow('viewer');
  await waitForStatus(workbench, /viewer/);
});

editorTest('Use Local Emulator signs in without an account', async (workbench) => {
  await workbench.runCommand('Endpoint Studio: Use Local Emulator');
  await notification(workbench, /Using the local emulator at http:\/\/127\.0\.0\.1:\d+/);
  await waitForStatus(workbench, /emulator/);
});
