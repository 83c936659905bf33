/**
 * An untrusted workspace (Restricted Mode) with a key in the environment: specs are still checked, but
 * the extension sends nothing to the service, refuses to sign in without asking for a key, and starts
 * its language server without the key or the service's address. The service sits behind a recording
 * proxy, so "nothing is sent" is what the service saw, not what the extension says.
 */
import assert from 'node:assert/strict';
import { after } from 'node:test';
import { startEmulator, DEFAULT_DEV_API_KEY, type RunningEmulator } from '../../emulator/index';
import { losingProxy, type LosingProxy } from '../core/api/support';
import { extensionLog, runningLanguageServerEnvironment } from './support/editorProcesses';
import { useEditorSession, type EditorSessionOptions } from './support/session';
import { showEndpointStudio, viewPane } from './support/views';
import { PROFILE_STATUS_ITEM, waitUntil, type Workbench } from './support/workbench';

let emulator: RunningEmulator;
let service: LosingProxy;
after(async () => {
  await service.close();
  await emulator.close();
});
const { editorTest } = useEditorSession('restricted-mode', async (): Promise<EditorSessionOptions> => {
  emulator = await startEmulator({ port: 0, jobsPort: 0 });
  service = await losingProxy(emulator.restUrl);
  return {
    workspaceTrust: true,
    // A key that works: in a trusted workspace the extension would be signed in with it.
    env: { ENDPOINT_STUDIO_API_KEY: DEFAULT_DEV_API_KEY },
    userSettings: {
      'security.workspace.trust.enabled': true,
      // No prompt: the folder, never trusted before, opens in Restricted Mode.
      'security.workspace.trust.startupPrompt': 'never',
      'endpointStudio.api.url': service.url,
      'endpointStudio.api.jobsUrl': service.url,
    },
  };
});

/** Every request the service received from the editor, as `METHOD /path`. */
const received = () => service.received.map((r) => `${r.method} ${r.path}`);

async function profileStatus(workbench: Workbench): Promise<string> {
  const item = workbench.page.locator(`.statusbar-item[id$="${PROFILE_STATUS_ITEM}"]`);
  await item.waitFor();
  return (await item.innerText()).trim();
}

editorTest('the workspace opens in Restricted Mode, signed out although a key is in the environment', async (workbench, session) => {
  await workbench.page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).first().waitFor();
  assert.equal(await profileStatus(workbench), 'Endpoint Studio: signed out');
  // The channel reaches its log file a moment after the line is written.
  const activation = /activating; .*workspace untrusted \(nothing is sent to the service\)/;
  await waitUntil(
    () => activation.test(extensionLog(session.server)),
    'the activation line in the extension log',
    () => extensionLog(session.server),
  );
  await showEndpointStudio(workbench);
  await viewPane(workbench, 'Endpoints').locator('.welcome-view-content', { hasText: 'This workspace is not trusted' }).waitFor();
  assert.deepEqual(received(), [], 'the service received nothing');
});

editorTest('Sign In is refused without asking for a key, and nothing is sent', async (workbench) => {
  await workbench.runCommand('Endpoint Studio: Sign In');
  const warning = await workbench.notification(/trust this workspace to sign in/);
  assert.match(warning, /in Restricted Mode nothing is sent to the service/);
  assert.equal(
    await workbench.page.locator('.quick-input-widget', { hasText: 'Profile name' }).count(),
    0,
    'no profile name was asked for',
  );
  assert.ok(!(await workbench.page.locator('.quick-input-widget').isVisible()), 'no input box is open');
  assert.equal(await profileStatus(workbench), 'Endpoint Studio: signed out');
  assert.deepEqual(received(), [], 'the service received nothing, not even a key check');
});

editorTest('specs are checked, by a language server given neither the key nor the service', async (workbench, session) => {
  await workbench.openFile('broken-worker.endpoint.yaml');
  const problems = await workbench.problems('broken-worker.endpoint.yaml', (rows) => rows.length >= 4, 'the problems of broken-worker');
  assert.ok(
    problems.some((p) => p.code === 'unknown-property'),
    'the spec is checked',
  );
  // The profile would come over the fork's IPC channel (core/protocol/serverStart.ts); the editor's own
  // variables never reach the server: unset or blank (which the server reads as unset, core/api/config.ts).
  const given = await runningLanguageServerEnvironment(session.server);
  for (const name of ['ENDPOINT_STUDIO_API_KEY', 'RUNPOD_API_KEY', 'ENDPOINT_STUDIO_API_URL', 'ENDPOINT_STUDIO_JOBS_URL'])
    assert.equal(given.get(name)?.trim() ?? '', '', `${name} is not given to the language server`);
  assert.ok(![...given.values()].some((value) => value.includes(DEFAULT_DEV_API_KEY)), 'the key is in no variable');
  assert.deepEqual(received(), [], 'the service received nothing');
});
