/**
 * Sign-in in the real editor against the emulator: a wrong key is refused and nothing is stored, a
 * read-only key and a good key are stored as profiles, the status bar follows the active profile, Use
 * Local Emulator needs no account at all. Each test signs in with profile names of its own, so none
 * depends on what another stored. (That a fresh editor starts signed out is checked in explorer.test.ts,
 * whose signed-out session no test signs in.)
 */
import assert from 'node:assert/strict';
import { after } from 'node:test';
import { startEmulator, DEFAULT_DEV_API_KEY, type RunningEmulator } from '../../emulator/index';
import { useEditorSession, type EditorSessionOptions } from './support/session';
import { PROFILE_STATUS_ITEM, type Workbench } from './support/workbench';

const READ_ONLY_KEY = 'es_read_only_e2e_key';
let emulator: RunningEmulator;
after(() => emulator.close());
const { editorTest } = useEditorSession('sign-in', async (): Promise<EditorSessionOptions> => {
  emulator = await startEmulator({ port: 0, jobsPort: 0, readOnlyKey: READ_ONLY_KEY });
  // No key in the environment: the extension starts signed out.
  return { userSettings: { 'endpointStudio.api.url': emulator.restUrl, 'endpointStudio.api.jobsUrl': emulator.jobsUrl } };
});

/** The profile item of the status bar: `$(account) <profile>` or `Endpoint Studio: signed out`. */
const profileItem = (workbench: Workbench) => workbench.page.locator(`.statusbar-item[id$="${PROFILE_STATUS_ITEM}"]`);

async function waitForStatus(workbench: Workbench, text: RegExp): Promise<string> {
  const item = profileItem(workbench).filter({ hasText: text });
  await item.waitFor({ state: 'visible' });
  return (await item.innerText()).trim();
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

/** The profiles Switch Profile offers, then closes the picker. */
async function storedProfiles(workbench: Workbench): Promise<string[]> {
  await workbench.runCommand('Endpoint Studio: Switch Profile');
  const rows = await workbench.quickInputRows();
  await workbench.page.keyboard.press('Escape');
  return rows;
}

editorTest('a wrong key is refused and nothing is stored', async (workbench) => {
  const before = await waitForStatus(workbench, /\S/);
  await signIn(workbench, 'refused', 'es_wrong_key_123');
  assert.match(await workbench.notification(/sign-in failed/), /rejected the key \(401\)/);
  assert.equal(await waitForStatus(workbench, /\S/), before, 'the active profile did not change');
  const offered = await storedProfiles(workbench);
  assert.ok(!offered.some((row) => row.startsWith('refused')), `refused is not stored: ${offered.join(' | ')}`);
});

editorTest('a read-only key signs in as its own profile', async (workbench) => {
  await signIn(workbench, 'viewer', READ_ONLY_KEY);
  assert.match(await workbench.notification(/Signed in as profile viewer/), /Signed in as profile viewer/);
  assert.match(await waitForStatus(workbench, /viewer/), /viewer/);
  assert.ok(
    (await storedProfiles(workbench)).some((row) => row.startsWith('viewer')),
    'viewer is stored',
  );
});

editorTest('a good key signs in, and the status bar shows the profile', async (workbench) => {
  await signIn(workbench, 'personal', DEFAULT_DEV_API_KEY);
  await workbench.notification(/Signed in as profile personal/);
  assert.match(await waitForStatus(workbench, /personal/), /personal/);
  assert.match((await profileItem(workbench).getAttribute('aria-label')) ?? '', /personal/);
});

editorTest('switching profile from the status bar', async (workbench) => {
  await signIn(workbench, 'alpha', DEFAULT_DEV_API_KEY);
  await workbench.notification(/Signed in as profile alpha/);
  await signIn(workbench, 'bravo', DEFAULT_DEV_API_KEY);
  await workbench.notification(/Signed in as profile bravo/);
  await waitForStatus(workbench, /bravo/);
  // The item itself opens the picker.
  await profileItem(workbench).click();
  await workbench.pickQuickInputRow('alpha');
  assert.match(await waitForStatus(workbench, /alpha/), /alpha/);
  assert.doesNotMatch(await waitForStatus(workbench, /\S/), /bravo/);
});

editorTest('Use Local Emulator signs in without an account', async (workbench) => {
  await workbench.runCommand('Endpoint Studio: Use Local Emulator');
  const text = await workbench.notification(/Using the local emulator at http:\/\/127\.0\.0\.1:\d+/);
  assert.match(text, /\(profile emulator\)/);
  assert.match(await waitForStatus(workbench, /emulator/), /emulator/);
});
