/**
 * `npm start`: the product in one command. Starts the emulator with the demo state (rebuilt on each
 * run unless `--keep-state` or ENDPOINT_STUDIO_KEEP_STATE=1 keeps the previous run's), then VS Code
 * (code-server) with the packaged extension, the examples workspace (its demo specs bound to the
 * endpoints seeded for them) and settings that point at the emulator, and prints the URL to open.
 * Ctrl-C stops everything.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiClient } from '../core/api';
import { startEmulator, DEFAULT_DEV_API_KEY } from '../emulator/index';
import { CodeServer } from './editor/codeServer';
import { bindDemo, keepStateRequested, prepareState } from './demo';
import { EXAMPLES_DIR, packagedExtensionPath } from './editor/paths';

async function main(): Promise<void> {
  const statePath = join(tmpdir(), 'endpoint-studio-demo', 'state.json');
  const state = prepareState(statePath, keepStateRequested(process.argv.slice(2), process.env));
  const emulator = await startEmulator({ port: Number(process.env.EMULATOR_PORT ?? 0), jobsPort: 0, statePath, demo: true });
  const api = createApiClient({ apiUrl: emulator.restUrl, jobsUrl: emulator.jobsUrl, apiKey: DEFAULT_DEV_API_KEY });
  const seeded = emulator.demo?.endpoints ?? {};
  const workspace = mkdtempSync(join(tmpdir(), 'endpoint-studio-demo-workspace-'));
  cpSync(EXAMPLES_DIR, workspace, { recursive: true });
  await bindDemo(api, workspace, seeded);
  const editor = await CodeServer.start({
    workspace,
    extensions: [packagedExtensionPath()],
    // The key reaches the extension through the environment, as a user's exported variable would.
    env: { ENDPOINT_STUDIO_API_KEY: DEFAULT_DEV_API_KEY },
    userSettings: {
      'endpointStudio.api.url': emulator.restUrl,
      'endpointStudio.api.jobsUrl': emulator.jobsUrl,
      // A first look at the extension starts on its walkthrough.
      'workbench.welcomePage.walkthroughs.openOnInstall': true,
    },
  });
  process.stdout.write(
    [
      '',
      'Endpoint Studio is running.',
      `  VS Code:   ${editor.url}`,
      `  Emulator:  ${emulator.restUrl} (jobs ${emulator.jobsUrl}), key ${DEFAULT_DEV_API_KEY}`,
      `  Workspace: ${workspace} (a copy of examples/)`,
      `  State:     ${statePath} (${state === 'kept' ? 'kept from the last run' : 'fresh; npm start -- --keep-state keeps it next time'})`,
      '',
      'Open the VS Code URL in a browser. Press Ctrl+C to stop.',
      '',
    ].join('\n'),
  );
  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    process.stdout.write('stopping...\n');
    await editor.stop();
    await emulator.close();
    rmSync(workspace, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  process.stderr.write(`npm start failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
